"""Schafkopf's bots: legal actions only, decisions from the seat's view only, sensible
games on clear hands, and an arena smoke run."""

from __future__ import annotations

import random

import pytest
from sk_positions import play_random, random_contract_state

from stammtisch.cards import Card, cards
from stammtisch.engine.core import Say
from stammtisch.games import registry
from stammtisch.games.schafkopf import SchafkopfRules, SchafkopfState, game_from_hands
from stammtisch.games.schafkopf.bots.heuristic import HeuristicBot
from stammtisch.games.schafkopf.bots.pimc import PIMC_SETTINGS, PimcBot
from stammtisch.games.schafkopf.bots.sampling import (
    consistent,
    legal_cards,
    observe,
    sample_world,
)


@pytest.mark.parametrize("preset", ["standard", "anleitung"])
def test_bots_play_whole_hands_legally(preset: str) -> None:
    rng = random.Random(7)
    names = ["pimc-fast", "heuristic", "random", "heuristic"]
    for dealer in range(3):
        s = registry.get("schafkopf").new_state(SchafkopfRules.preset(preset), dealer, rng)
        bots = [registry.make_bot("schafkopf", n) for n in names]
        while not s.is_terminal():
            a = bots[s.current_player].choose(s, rng)
            assert a in s.legal_actions()
            s.apply(a)
        assert s.result() is not None


def test_registry_names_the_bots_and_the_default() -> None:
    desc = registry.get("schafkopf")
    assert {"heuristic", "pimc", "pimc-fast", "pimc-strong", "random"} <= set(
        registry.bot_names("schafkopf"))
    assert desc.default_bot == "heuristic"
    assert desc.solver is not None and desc.solver_deal is not None
    from stammtisch.games.schafkopf import analysis  # the plug-in names it by a loader

    assert desc.analysis is not None and desc.hint is not None
    assert desc.analysis().analyze is analysis.analyze


def test_sampling_mirrors_the_engine_rules() -> None:
    """``legal_cards`` (the sampler's replay check) is the engine's rule."""
    rng = random.Random(2)
    for i in range(40):
        s = random_contract_state(rng, kinds=("sauspiel",) if i % 2 else ())
        while not s.is_terminal():
            led = s.tricks.led
            mine = legal_cards(s.hands[s.current_player], led, s.order, s.called, s.gesucht,
                               s.rules.davonlaufen)
            assert set(mine) == set(s.legal_actions())
            c = rng.choice(list(s.legal_actions()))
            assert isinstance(c, Card)
            s.apply(c)


def test_sampled_worlds_fit_what_the_seat_knows() -> None:
    rng = random.Random(4)
    for i in range(30):
        s = random_contract_state(rng, kinds=("sauspiel",) if i % 2 else ())
        play_random(s, rng, rng.randrange(4, 24))
        if s.is_terminal():
            continue
        seat = s.current_player
        obs = observe(s, seat)
        for _ in range(5):
            w = sample_world(obs, rng)
            assert w[seat] == obs.hand
            assert [len(h) for h in w] == [len(h) for h in s.hands]
            dealt = sorted(str(c) for h in w for c in h)
            assert dealt == sorted(str(c) for h in s.hands for c in h)
            for x in range(4):
                assert not {s.order.klass(c) for c in w[x]} & obs.voids[x]
            assert consistent(obs, w)
            if s.called is not None and not s.called_played:
                assert s.called not in w[s.declarer]  # type: ignore[index]


def _swap_unseen(s: SchafkopfState, seat: int, rng: random.Random) -> SchafkopfState | None:
    """A copy where two other seats trade two cards of one follow class (a deal the seat
    cannot tell apart from the true one), or None if no such trade is consistent."""
    others = [x for x in range(4) if x != seat]
    obs = observe(s, seat)
    trades = []
    for a in others:
        for b in others:
            if a < b:
                for x in s.hands[a]:
                    for y in s.hands[b]:
                        if s.order.klass(x) == s.order.klass(y):
                            trades.append((a, b, x, y))
    rng.shuffle(trades)
    # prefer trading the called ace (the partner moves)
    trades.sort(key=lambda t: not (s.called is not None and s.called in t[2:]))
    for a, b, x, y in trades:
        world = [list(h) for h in s.hands]
        world[a][world[a].index(x)] = y
        world[b][world[b].index(y)] = x
        if not consistent(obs, world):
            continue
        t = s.clone()
        t.hands = world
        t._legal = None
        if t.called is not None and not t.called_played:
            t._partner = next(z for z in range(4) if t.called in world[z])
        return t
    return None


@pytest.mark.parametrize("bot_name", ["heuristic", "pimc-fast"])
def test_decisions_depend_on_the_view_only(bot_name: str) -> None:
    """Trading unseen cards between two other seats (so the called ace's holder may
    change) never changes a decision: the bots see nothing but their own view."""
    rng = random.Random(9)
    checked = partner_moved = 0
    while checked < 12:
        s = random_contract_state(rng, kinds=("sauspiel",) if checked % 2 else ())
        play_random(s, rng, rng.randrange(0, 20))
        if s.is_terminal() or len(s.legal_actions()) < 2:
            continue
        seat = s.current_player
        t = _swap_unseen(s, seat, rng)
        if t is None:
            continue
        assert t.view(seat) == s.view(seat)
        partner_moved += t.partner != s.partner
        bot = registry.make_bot("schafkopf", bot_name)
        assert bot.choose(s, random.Random(1)) == bot.choose(t, random.Random(1))
        checked += 1
    assert partner_moved >= 1


def _bid(hand: str, *, preset: str = "standard") -> str:
    others = ["EO GO HO SO EU GU HU SU", "EA E10 EK E9 E8 E7 GA G10",
              "HA H10 HK H9 H8 H7 GK G9", "SA S10 SK S9 S8 S7 G8 G7"]
    mine = cards(hand)
    pool = [c for h in others for c in cards(h) if c not in mine]
    hands = [mine, pool[0:8], pool[8:16], pool[16:24]]
    s = game_from_hands(hands, SchafkopfRules.preset(preset), dealer=3)
    return str(HeuristicBot().choose(s, random.Random(0)))


def test_heuristic_names_sensible_games() -> None:
    assert _bid("EO GO HO SO EU GU H10 HK") == "solo-herz"
    assert _bid("EO GO EU GU SA S10 SK S9").startswith("solo-schellen")
    assert _bid("EU GU HU SU EA E10 GA G10") == "wenz"
    assert _bid("EO HO EU H10 H8 GK SA S10") == "sauspiel-gras"
    assert _bid("E7 E8 G9 GK S8 SK H7 HK") == "weiter"
    # Sie is named when held
    assert _bid("EO GO HO SO EU GU HU SU") == "sie"


def test_heuristic_gives_kontra_with_a_strong_hand_only() -> None:
    hands = [cards("EO GO EU H10 H8 GK SA S10"), cards("HO SO GU HU HA HK EA E10"),
             cards("SU H9 H7 G10 G9 E9 E8 S9"), cards("GA G8 G7 E7 EK SK S8 S7")]
    s = game_from_hands(hands, SchafkopfRules.preset("standard"), dealer=3)
    for w in ["sauspiel-gras", "weiter", "weiter", "weiter"]:
        s.push(w)
    bot = HeuristicBot()
    assert s.phase == "stossen" and s.current_player == 1
    assert bot.choose(s, random.Random(0)) == Say("kontra")
    s.push("gut")
    assert bot.choose(s, random.Random(0)) == Say("gut")


def test_pimc_estimates_cover_the_legal_cards() -> None:
    """Late in a Solo (exact values): PIMC's estimates cover exactly the legal cards and
    its choice is one of them."""
    rng = random.Random(1)
    s = random_contract_state(rng, kinds=("solo",))
    play_random(s, rng, 24)
    bot = PimcBot(PIMC_SETTINGS["pimc-fast"])
    if not s.is_terminal():
        est = bot.card_estimates(s, s.current_player, random.Random(0))
        assert {e.card for e in est} == set(s.legal_actions())
        assert bot.choose(s, random.Random(0)) in s.legal_actions()


def test_arena_smoke() -> None:
    from stammtisch.judging import run_arena as run_seat_arena

    out = run_seat_arena("heuristic", "random", 2, 1, SchafkopfRules.preset("standard"),
                         game="schafkopf")
    assert out["deals"] == 2
