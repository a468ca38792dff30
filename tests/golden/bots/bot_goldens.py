"""Golden decisions of the sampling bots (PIMC, search, Mus's equity bots) and the hints.

Positions are decision points of hands the heuristic bots play from seeded deals; each is
stored as its action log (``engine.core.action_log``) and rebuilt with ``replay_actions``,
so the goldens do not depend on how the positions were found.  At each position the bot
under test chooses with ``random.Random(seed)``; for card decisions the estimates the
hints show are stored too (floats round-trip through JSON exactly).

Run ``python tests/golden/bots/bot_goldens.py`` to (re)write the JSON files next to this
module — only on purpose: the test (``test_bot_goldens.py``) checks that the bots still
decide exactly this.
"""

from __future__ import annotations

import json
import random
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from stammtisch.engine.core import CHANCE, TERMINAL, GameState, action_log, replay_actions
from stammtisch.games import registry

HERE = Path(__file__).parent
GAMES = ("mucken", "schafkopf", "mulatschak", "mus")

#: rules of the positions: (preset, options) per game
MUCKEN_RULES: list[tuple[str, dict[str, Any]]] = [
    ("seefest", {}), ("wikipedia", {}), ("seefest", {"no_game": "ramsch"}),
    ("seefest", {"no_game": "ramsch", "ramsch_stichzwang": True}),
    ("seefest", {"no_game": "muss"}), ("seefest", {"doublings": 4}),
]
SCHAFKOPF_RULES: list[tuple[str, dict[str, Any]]] = [("standard", {}), ("anleitung", {})]


# -- positions -------------------------------------------------------------------------------
def _new_state(spec: dict[str, Any]) -> GameState:
    game = spec["game"]
    rules = registry.get(game).make_rules(spec["preset"], **spec["options"])
    if game == "mulatschak":
        from stammtisch.games.mulatschak.state import new_state

        return new_state(rules, spec["dealer"], None, spec["scores"])
    return registry.get(game).new_state(rules, spec["dealer"], None)


def rebuild(spec: dict[str, Any]) -> GameState:
    """The state of a stored position."""
    return replay_actions(_new_state(spec), spec["actions"])


def _decision_points(spec: dict[str, Any], seed: int,
                     wanted: Callable[[GameState], bool]) -> Iterator[list[str]]:
    """The action logs of the wanted decisions of one hand the heuristic bots play."""
    state = _new_state(spec)
    rng = random.Random(seed)
    helper = registry.make_bot(spec["game"], "heuristic")
    while state.current_player != TERMINAL:
        if state.current_player == CHANCE:
            state.apply(state.sample_chance(rng))
            continue
        if len(state.legal_actions()) > 1 and wanted(state):
            yield action_log(state)
        state.apply(helper.choose(state, rng))


def positions(game: str, count: int, seed: int, wanted: Callable[[GameState], bool],
              specs: Callable[[random.Random, int], dict[str, Any]]) -> list[dict[str, Any]]:
    """``count`` positions: per hand one or two random wanted decision points."""
    rng = random.Random(seed)
    out: list[dict[str, Any]] = []
    hand = 0
    while len(out) < count:
        spec = {"game": game, **specs(rng, hand)}
        points = list(_decision_points(spec, seed * 1000 + hand, wanted))
        hand += 1
        for log in rng.sample(points, min(len(points), 2)):
            if len(out) < count:
                out.append({**spec, "actions": log})
    return out


def _mucken_spec(rng: random.Random, hand: int) -> dict[str, Any]:
    preset, options = MUCKEN_RULES[hand % len(MUCKEN_RULES)]
    return {"preset": preset, "options": options, "dealer": hand % 4}


def _schafkopf_spec(rng: random.Random, hand: int) -> dict[str, Any]:
    preset, options = SCHAFKOPF_RULES[hand % len(SCHAFKOPF_RULES)]
    return {"preset": preset, "options": options, "dealer": hand % 4}


def _mulatschak_spec(rng: random.Random, hand: int) -> dict[str, Any]:
    n = 2 + hand % 5
    options = {"muli_broken": "breaker"} if hand % 3 == 2 else {}
    return {"preset": "salzburg", "options": options, "dealer": hand % n,
            "scores": [rng.randrange(6, 22) for _ in range(n)]}


def _mus_spec(rng: random.Random, hand: int) -> dict[str, Any]:
    return {"preset": "duples", "options": {"reyes": 4} if hand % 3 == 2 else {},
            "dealer": hand % 4}


def _phase(*names: str) -> Callable[[GameState], bool]:
    return lambda s: getattr(s, "phase", None) in names


# -- decisions -------------------------------------------------------------------------------
def _estimates(game: str, bot: Any, state: Any, seed: int) -> list[list[Any]] | None:
    seat = state.current_player
    if state.phase != "play":
        return None
    if game == "mucken":
        return [[str(e.card), e.utility, e.augen]
                for e in bot.card_estimates(state, seat, random.Random(seed))]
    if game == "schafkopf":
        if state.declarer is None or state.game is None:
            return None
        return [[str(e.card), e.utility, e.value]
                for e in bot.card_estimates(state, seat, random.Random(seed))]
    if game == "mulatschak":
        from stammtisch.games.mulatschak.bots.search import card_values

        values = card_values(state, seat, random.Random(seed), bot.settings)
        return [[str(c), v] for c, v in values.items()]
    return None


def _make(game: str, name: str) -> Any:
    if game == "mulatschak" and name == "search-rollout":
        from stammtisch.games.mulatschak.bots.search import SearchBot, SearchSettings

        return SearchBot(SearchSettings(worlds=8, node_budget=20_000, rollout_worlds=3))
    return registry.make_bot(game, name)


def decide(game: str, name: str, spec: dict[str, Any], seed: int,
           estimates: bool = False) -> dict[str, Any]:
    """What bot ``name`` does at a stored position (with ``estimates``: and the averages
    of its card search, where it searches)."""
    state = rebuild(spec)
    bot = _make(game, name)
    out: dict[str, Any] = {"decision": str(bot.choose(state, random.Random(seed)))}
    est = _estimates(game, bot, rebuild(spec), seed + 1) if estimates else None
    if est is not None:
        out["estimates"] = est
    return out


def hint(game: str, spec: dict[str, Any], seed: int) -> list[Any]:
    """The game's hint for the seat to act (its action text and values)."""
    state = rebuild(spec)
    h = registry.get(game).hint
    assert h is not None
    action, values = h(state, state.current_player, seed)
    return [action, values]


#: per game: bots, position count, seed, the phases asked, the rules of the hands
PLAN: dict[str, dict[str, Any]] = {
    "mucken": {"bots": ["pimc-fast", "pimc", "pimc-strong"], "count": 50, "seed": 18,
               "wanted": _phase("bidding", "muss", "doubling", "play"),
               "specs": _mucken_spec, "hints": 12,
               "extra": [(["pimc-fast", "pimc", "pimc-strong"], ("bidding", "muss", "doubling"),
                          30)]},
    "schafkopf": {"bots": ["pimc-fast", "pimc", "pimc-strong"], "count": 50, "seed": 18,
                  "wanted": _phase("play"), "specs": _schafkopf_spec, "hints": 12},
    "mulatschak": {"bots": ["search"], "count": 50, "seed": 18, "wanted": _phase("play"),
                   "specs": _mulatschak_spec, "hints": 12,
                   "extra": [(["search-rollout"], ("bidding", "trump", "mitgehen", "exchange"),
                              20)]},
    "mus": {"bots": ["heuristic", "bluff"], "count": 50, "seed": 18,
            "wanted": _phase("lances"), "specs": _mus_spec, "hints": 0},
}


def record(game: str) -> dict[str, Any]:
    plan = PLAN[game]
    cases: list[dict[str, Any]] = []
    pos = positions(game, plan["count"], plan["seed"], plan["wanted"], plan["specs"])
    for i, spec in enumerate(pos):
        for name in plan["bots"]:
            cases.append({"bot": name, "seed": 1000 + i, "position": spec,
                          **decide(game, name, spec, 1000 + i, name == plan["bots"][0])})
    for names, phases, count in plan.get("extra", []):
        extra = positions(game, count, plan["seed"] + 1, _phase(*phases), plan["specs"])
        for i, spec in enumerate(extra):
            for name in names:
                cases.append({"bot": name, "seed": 2000 + i, "position": spec,
                              **decide(game, name, spec, 2000 + i)})
    in_play = [spec for spec in pos if getattr(rebuild(spec), "phase", None) == "play"]
    hints = [{"seed": 3000 + i, "position": spec, "hint": hint(game, spec, 3000 + i)}
             for i, spec in enumerate(in_play[:plan["hints"]])]
    return {"game": game, "cases": cases, "hints": hints}


def path(game: str) -> Path:
    return HERE / f"{game}.json"


if __name__ == "__main__":  # pragma: no cover - writes the goldens
    for g in sys.argv[1:] or GAMES:
        data = record(g)
        path(g).write_text(json.dumps(data, indent=1, ensure_ascii=False) + "\n")
        print(g, len(data["cases"]), "cases", len(data["hints"]), "hints")
