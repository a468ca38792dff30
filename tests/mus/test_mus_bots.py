"""The Mus bots (``heuristic``, ``bluff``): legal, view-only, deterministic; the equity
against brute force; decision time."""

from __future__ import annotations

import itertools
import random
import statistics
import time
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from stammtisch.bots.random_bot import RandomBot
from stammtisch.cards import SPANISH_DECK, Card, cards
from stammtisch.engine.core import CHANCE, TERMINAL, GameState
from stammtisch.games import registry
from stammtisch.games.mus import new_state
from stammtisch.games.mus.bots.equity import Observation, lance_equity, observe, sample_worlds
from stammtisch.games.mus.bots.heuristic import BluffBot, HeuristicBot, MusBot
from stammtisch.games.mus.bots.tables import discard_values, ranks_of, tables_for
from stammtisch.games.mus.rules import MusRules
from stammtisch.games.mus.state import (
    MusState,
    chica_key,
    grande_key,
    juego_rank,
    juego_value,
    pares_key,
)

DUPLES = MusRules.preset("duples")
CUATRO = MusRules.preset("duples", reyes=4)


def _play(rules: MusRules, seed: int, seating: list[Any],
          on_decision: Any = None) -> MusState:
    state = new_state(rules, seed % 4, random.Random(seed))
    rng = random.Random(seed + 1)
    while state.current_player != TERMINAL:
        if state.current_player == CHANCE:
            state.apply(state.sample_chance(rng))
            continue
        if on_decision is not None:
            on_decision(state)
        state.apply(seating[state.current_player].choose(state, rng))  # checked
    return state


def test_registry_offers_the_bots() -> None:
    names = registry.bot_names("mus")
    assert {"heuristic", "bluff", "random"} <= set(names)
    assert registry.get("mus").default_bot == "heuristic"
    bot = registry.make_bot("mus", "bluff")
    assert bot.name == "bluff"


@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1), reyes=st.sampled_from([8, 4]),
       mix=st.integers(0, 15))
def test_always_legal(seed: int, reyes: int, mix: int) -> None:
    rules = DUPLES if reyes == 8 else CUATRO
    seating: list[Any] = [HeuristicBot() if mix >> s & 1 else BluffBot() for s in range(4)]
    if mix == 15:
        seating[1] = RandomBot()  # random raises of any size and ordagos to answer
    state = _play(rules, seed, seating)
    assert state.is_terminal() and state.result() is not None


def test_many_hands_against_random_are_legal() -> None:
    for seed in range(20):
        seating = [HeuristicBot(), RandomBot(), BluffBot(), RandomBot()]
        if seed % 2:
            seating = seating[1:] + seating[:1]
        assert _play(DUPLES, seed, seating).is_terminal()


def _decisions_of(seed: int) -> list[MusState]:
    """Copies of the states a hand passes through (bots to act)."""
    seen: list[MusState] = []
    _play(DUPLES, seed, [BluffBot(), HeuristicBot(), RandomBot(), HeuristicBot()],
          lambda s: seen.append(s.clone()))
    return seen


def test_decisions_use_the_view_only() -> None:
    """Swapping two other seats' hidden hands leaves the view, and so the decision, alike
    (whenever the view stays the same: declarations of Pares/Juego are public)."""
    checked = 0
    for seed in range(6):
        for state in _decisions_of(seed):
            seat = state.current_player
            others = [s for s in range(4) if s != seat]
            for a, b in itertools.combinations(others, 2):
                swapped = state.clone()
                swapped.hands[a], swapped.hands[b] = state.hands[b], state.hands[a]
                if swapped.view(seat) != state.view(seat):
                    continue
                for make in (HeuristicBot, BluffBot):
                    x = make().choose(state, random.Random(5))
                    y = make().choose(swapped, random.Random(5))
                    assert x == y
                    checked += 1
    assert checked > 100


def test_deterministic_by_seed_and_cache_transparent() -> None:
    states = [s for seed in range(3) for s in _decisions_of(seed)]
    warm = BluffBot()
    for state in states:
        fresh = [BluffBot().choose(state, random.Random(9)) for _ in range(2)]
        assert fresh[0] == fresh[1]
        assert warm.choose(state, random.Random(9)) == fresh[0]


def test_extra_view_keys_are_ignored() -> None:
    bot = HeuristicBot()
    for state in _decisions_of(3):
        seat = state.current_player
        view = state.view(seat)
        legal = [str(a) for a in state.legal_actions()]
        extra = {**view, "senas": [{"after": 0, "seat": (seat + 2) % 4, "sena": "31"}],
                 "something_new": {"x": 1}}
        assert bot.decide(extra, DUPLES, legal, random.Random(1)) == \
            bot.decide(view, DUPLES, legal, random.Random(1))


def test_decision_median_within_100_ms() -> None:
    bot = HeuristicBot()
    times: list[float] = []

    class Timed:
        name = "timed"

        def choose(self, state: GameState, rng: Any) -> Any:
            t0 = time.perf_counter()
            action = bot.choose(state, rng)
            times.append(time.perf_counter() - t0)
            return action

    for seed in range(5):
        _play(DUPLES, seed, [Timed(), Timed(), Timed(), Timed()])
    assert statistics.median(times) < 0.1


# -- the equity against brute force ---------------------------------------------------------
def _keys(hand: list[Card], rules: MusRules) -> dict[str, Any]:
    """The engine's key of each lance for one hand (None: not taking part)."""
    v = juego_value(hand, rules)
    return {"grande": grande_key(hand, rules),
            "chica": tuple(-x for x in chica_key(hand, rules)),
            "pares": pares_key(hand, rules),
            "juego": juego_rank(v) if v >= 31 else None,
            "punto": v}


def _brute(hand: list[Card], pool: list[Card], seat: int, mano: int, rules: MusRules,
           pares: list[int] | None, juego: list[int] | None) -> dict[str, float]:
    """Every split of the 12 pool cards into the three other hands, judged with the
    engine's key functions (ties: the seat first in playing order)."""
    order = [(mano - k) % 4 for k in range(4)]
    others = [s for s in range(4) if s != seat]
    won = dict.fromkeys(("grande", "chica", "pares", "juego", "punto"), 0)
    held = dict.fromkeys(won, 0)
    idx = range(len(pool))
    subset_keys: dict[tuple[int, ...], dict[str, Any]] = {a: _keys([pool[i] for i in a], rules)
                   for a in itertools.combinations(idx, 4)}
    own = _keys(hand, rules)
    for a in itertools.combinations(idx, 4):
        rest = [i for i in idx if i not in a]
        for b in itertools.combinations(rest, 4):
            c = tuple(i for i in rest if i not in b)
            keys: list[dict[str, Any]] = [own, own, own, own]
            for s, part in zip(others, (a, b, c), strict=True):
                keys[s] = subset_keys[part]
            if pares is not None and juego is not None and any(
                    (keys[s]["pares"] is not None) != (s in pares)
                    or (keys[s]["juego"] is not None) != (s in juego) for s in others):
                continue
            has_juego = any(k["juego"] is not None for k in keys)
            for lance in won:
                if lance in ("juego", "punto") and (lance == "juego") != has_juego:
                    continue
                elig = [s for s in order if keys[s][lance] is not None]
                if not elig:
                    continue
                w = elig[0]
                for s in elig[1:]:  # strictly better only: the first of equals wins
                    if keys[s][lance] > keys[w][lance]:
                        w = s
                held[lance] += 1
                won[lance] += w % 2 == seat % 2
    return {lance: won[lance] / held[lance] if held[lance] else 0.0 for lance in won}


def _obs(hand: list[Card], seat: int, mano: int, rules: MusRules,
         pares: list[int] | None = None, juego: list[int] | None = None) -> Observation:
    return Observation(seat, mano, hand, ranks_of(hand, rules), [0, 0], "lances", "grande",
                       pares, juego, None, [])


CASES = [
    # (own hand, the 12 unseen cards, seat, mano, reyes)
    ("OR C3 OC B1", "CR PR OS O2 O7 C7 O5 C5 P4 B4 P6 BS", 0, 3, 8),
    ("O1 C2 O4 B5", "CR PR OS O3 O7 C7 O5 C6 P4 B4 P6 BS", 1, 3, 8),
    ("OR CR O7 O4", "C3 P2 OS O1 B7 C7 P5 C5 P4 B6 P6 BS", 2, 0, 4),
]


@pytest.mark.parametrize(("hand", "pool", "seat", "mano", "reyes"), CASES)
def test_equity_equals_brute_force(hand: str, pool: str, seat: int, mano: int,
                                   reyes: int) -> None:
    rules = DUPLES if reyes == 8 else CUATRO
    h, p = list(cards(hand)), list(cards(pool))
    unseen = dict.fromkeys(tables_for(rules).classes, 0)
    for r in ranks_of(p, rules):
        unseen[r] += 1
    obs = _obs(h, seat, mano, rules)
    worlds = sample_worlds(obs, rules, 100, unseen=unseen)
    want = _brute(h, p, seat, mano, rules, None, None)
    for lance, value in want.items():
        assert lance_equity(obs, worlds, lance) == pytest.approx(value, abs=1e-9), lance
    # conditioned on the declarations of one deal of these cards
    hands = [list(p[0:4]), list(p[4:8]), list(p[8:12])]
    full: list[list[Card]] = [[], [], [], []]
    full[seat] = h
    for s, part in zip([s for s in range(4) if s != seat], hands, strict=True):
        full[s] = part
    pares = [s for s in range(4) if pares_key(full[s], rules)]
    juego = [s for s in range(4) if juego_value(full[s], rules) >= 31]
    obs = _obs(h, seat, mano, rules, pares, juego)
    worlds = sample_worlds(obs, rules, 100, unseen=unseen)
    want = _brute(h, p, seat, mano, rules, pares, juego)
    for lance, value in want.items():
        assert lance_equity(obs, worlds, lance) == pytest.approx(value, abs=1e-9), lance
    # the sampler (a Metropolis chain) agrees with the exact figures
    sampled = sample_worlds(obs, rules, 1500, unseen=unseen, exact_limit=0)
    for lance, value in want.items():
        assert lance_equity(obs, sampled, lance) == pytest.approx(value, abs=0.07), lance


def test_discard_values_are_the_exact_expectation() -> None:
    """The draw enumerated by rank multisets equals the average over every set of cards."""
    from stammtisch.games.mus.bots.tables import static_value

    hand = list(cards("OR C7 O4 B1"))
    ranks = ranks_of(hand, DUPLES)
    rest = [c for c in SPANISH_DECK if c not in hand][:10]  # a small stock to enumerate
    unseen = dict.fromkeys(tables_for(DUPLES).classes, 0)
    for r in ranks_of(rest, DUPLES):
        unseen[r] += 1
    values = discard_values(ranks, unseen, DUPLES)
    for drop in [(0,), (1, 3), (0, 1, 2), (0, 1, 2, 3)]:
        kept = [ranks[i] for i in range(4) if i not in drop]
        combos = list(itertools.combinations(rest, len(drop)))
        want = sum(static_value(tuple(sorted(kept + list(ranks_of(list(c), DUPLES)),
                                             reverse=True)), DUPLES)
                   for c in combos) / len(combos)
        assert values[drop] == pytest.approx(want)


def test_observe_reads_the_lance_betting() -> None:
    hands = [cards("OR C3 OC B1"), cards("CR PR OS O2"), cards("O7 C7 O5 C5"),
             cards("P4 B4 P6 BS")]
    dealt = {c for h in hands for c in h}
    state = MusState.from_deal(DUPLES, 0, (0, 0), hands,
                               [c for c in SPANISH_DECK if c not in dealt])
    for word in ("no mus", "envido 2", "envido 3"):
        state.apply(state.parse_action(word))
    seat = state.current_player
    obs = observe(state.view(seat), DUPLES)
    assert obs.lance_bet is not None
    assert (obs.lance_bet.lance, obs.lance_bet.stake, obs.lance_bet.stake_before,
            obs.lance_bet.bets) == ("grande", 5, 2, 2)
    assert obs.lance_bet.bettor == state.history[-1][0]
    bot = MusBot()
    p_open = bot.equity(obs, DUPLES, "grande")
    p_facing = bot.equity(obs, DUPLES, "grande", obs.lance_bet.bettor)
    assert 0.0 <= p_facing <= 1.0 and 0.0 <= p_open <= 1.0 and p_facing != p_open
    # without declarations to condition on, a bettor's range lowers the equity
    bare = _obs(obs.hand, obs.seat, obs.mano, DUPLES)
    assert bot.equity(bare, DUPLES, "grande", 2) < bot.equity(bare, DUPLES, "grande")


def test_tuning_variants_run_against_the_heuristic() -> None:
    from stammtisch.games.mus.bots.tune import VARIANTS, run

    assert VARIANTS["F2"].mus_margin == -1.0  # the tuned bluff bot's knobs
    mean, lo, hi = run("F2", 2, 7)
    assert lo <= mean <= hi


def test_observe_mirrors_the_engines_betting_state() -> None:
    """The lance replayed from the public words is the engine's own (random raises,
    refusals, ordagos included)."""
    checked = 0

    def check(state: MusState) -> None:
        nonlocal checked
        if state.phase != "lances":
            return
        bet = observe(state.view(state.current_player), state.rules).lance_bet
        assert bet is not None
        assert (bet.lance, bet.bettor, bet.stake, bet.ordago, bet.refused) == (
            state.lance, state._bettor, state._stake, state._ordago, state._refused)
        checked += 1

    for seed in range(30):
        _play(DUPLES, seed, [RandomBot(), HeuristicBot(), RandomBot(), BluffBot()], check)
    assert checked > 300
