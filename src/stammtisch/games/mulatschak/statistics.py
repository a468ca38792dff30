"""Mulatschak's part of the judge of ``simulate`` and ``arena``
(:mod:`stammtisch.games.base.judging`).

Every seat plays for itself and the scores go **down** from 21: a seat's score change per
hand (``delta``: ``returns()`` with its sign turned) is better the *lower* it is, and
every figure keeps that sign (a negative ``advantage`` or ``margin``: A, or lineup 0, did
better).  A deal is a shuffle, the cut height (said for the cutter, never ``klopfen``, so
every seating holds the same cards) and the bots' seed; an arena game starts from 21 at
every seat, ``simulate``'s tables are matches of four.  Per lineup: its seats' hands and
score changes, bids (made, Muli), hands at home or without a trick, and the decision
times (arena) or matches won (simulate); the outcomes of the hands.  The bots never say
``muli`` out of turn (they are asked only on their turn).
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from stammtisch.engine.core import Action, GameState, Say
from stammtisch.games.base import judging
from stammtisch.games.mulatschak.state import MulatschakState

__all__ = ["BETTER", "STATISTICS", "MulatschakStatistics"]

BETTER = "negative (lower scores are better in Mulatschak)"


def _outcome(r: Mapping[str, Any]) -> str:
    if r["folded"]:
        return "zusammengefallen"
    if r["bidder"] is None:
        return "weiter (redeal)"
    if not r["trick_winners"]:
        return "all home"
    made = r["tricks"][r["bidder"]] >= r["bid"]
    return f"{'muli' if r['bid'] == 5 else 'bid ' + str(r['bid'])} {'made' if made else 'lost'}"


#: a lineup's score changes and bids in the text
_BIDS = "mean score change {mean_delta:+.3f} per seat and hand, bid {bids}× (made {made_rate:.1%})"


class MulatschakStatistics(judging.Statistics):
    """Mulatschak in ``simulate`` and ``arena``, and a run's statistics (see the module)."""

    margin_scale = -1.0  # in the score's own sign: lower is better
    margin_by_deal = True
    arena_keys = ("game a b players deals games seed rules seatings stats mean_delta "
                  "advantage ci95 better a_better significant decision_ms outcomes seconds "
                  "deals_per_s jobs")
    simulate_keys = ("game games deals seed rules bots seatings lineups matches_finished "
                     "outcomes margin ci95 better first_better seconds games_per_s")
    lineup_fields = ("seat_hands", "delta", ("mean_delta", lambda counters, f, i: (
        counters["delta"] / counters["seat_hands"] if counters["seat_hands"] else 0.0)),
        "bids", ("mean_bid", judging.ratio("bid_sum", "bids")),
        ("made_rate", judging.ratio("made", "bids")), "muli", "home", "no_trick")

    def __init__(self) -> None:
        super().__init__()
        self.matches_won = [0.0, 0.0]

    def book(self, state: GameState, lineup_of_seat: Sequence[int]) -> None:
        r = state.result()
        assert r is not None
        self.kinds[_outcome(r)] += 1
        for seat, lineup in enumerate(lineup_of_seat):
            self.count(lineup, seat_hands=1, delta=r["delta"][seat])
            if r["bidder"] == seat:
                self.count(lineup, bids=1, bid_sum=r["bid"], muli=r["bid"] == 5,
                           made=bool(r["trick_winners"]) and r["tricks"][seat] >= r["bid"])
            elif seat in r["home"]:
                self.count(lineup, home=1)
            elif r["trick_winners"] and r["tricks"][seat] == 0:
                self.count(lineup, no_trick=1)

    def book_match(self, match: Any, lineup_of_seat: Sequence[int]) -> None:
        if match.is_over():
            self.counts["matches"] += 1
            for w in match.winners:
                self.matches_won[lineup_of_seat[w]] += 1 / len(match.winners)

    def fields(self, f: judging.Figures) -> dict[str, Any]:
        common = {"rules": f.rules.to_json(), "better": BETTER,
                  "outcomes": judging.ranked(self.kinds)}
        if not f.arena:
            return {**common, "first_better": f.margin < 0,
                    "matches_finished": self.counts["matches"],
                    "lineups": [{**self.lineup_json(i, f, bot="+".join(sorted(set(f.bots(i))))),
                                 "bots": f.bots(i), "matches_won": self.matches_won[i]}
                                for i in (0, 1)]}
        times = [judging.decision_ms(f.times.get(name, [])) for name in f.seatings[0][:2]]
        stats = [{**self.lineup_json(i, f, bot=f.bots(i)[0]), "decision_ms": times[i]}
                 for i in (0, 1)]
        ci = f.ci95
        return {**common, "stats": stats, "advantage": f.margin, "a_better": f.margin < 0,
                "mean_delta": {"a": stats[0]["mean_delta"], "b": stats[1]["mean_delta"]},
                "significant": ci is not None and (ci[1] < 0 or ci[0] > 0),
                "decision_ms": {"a": times[0], "b": times[1]}}

    def opening(self, state: GameState, master: random.Random, arena: bool
                ) -> tuple[int, tuple[Action, ...]]:
        shuffle = state.sample_chance(master)
        cut = Say(f"abheben {1 + master.randrange(32)}")
        return master.getrandbits(64), (shuffle, cut)

    def start(self, rules: Any, board: judging.Board, seats: int) -> GameState:
        return MulatschakState(rules, board.dealer, [21] * seats)

    def lines(self, out: Mapping[str, Any], rate: judging.Rate, arena: bool) -> list[Any]:
        if arena:
            return [judging.words("[bold]{a} vs {b}[/bold]: {deals} deals at {players} seats, "
                                  "{games} games (each deal with the seats swapped), seed "
                                  "{seed}, {seconds:.1f} s", out),
                    *self.lineup_lines(out, arena, "  {name}: " + _BIDS + ", Muli {muli}, home "
                                       "{home}, no trick {no_trick}; decision median "
                                       "{decision_ms[median]} ms, p95 {decision_ms[p95]} ms")]
        return [judging.words("[bold]{games} hands[/bold] ({deals} deals, each at two tables "
                              "with the seats swapped), seed {seed}, {seconds:.1f} s; seats "
                              "(table A): {seats}", out, seats=judging.seat_list(out["bots"])),
                *(f"  {name}: {n}" for name, n in out["outcomes"].items()),
                *self.lineup_lines(out, arena, "  lineup {name}: " + _BIDS + ", matches won "
                                   "{matches_won:g} of {matches_finished}")]

    def verdict(self, out: Mapping[str, Any], arena: bool) -> str:
        if not arena:
            return judging.verdict("Margin of the first lineup", out["margin"],
                                   "points per seat and hand", out["ci95"],
                                   note=f"; {out['better']}")
        verdict = "A better" if out["a_better"] else "B better or equal"
        sig = "significant" if out["significant"] else "not significant"
        return judging.verdict(f"Advantage {out['a']} − {out['b']}", out["advantage"],
                               "points per hand", out["ci95"], none="n/a (one deal)",
                               note=f"; {out['better']}: {verdict}, {sig}")


#: Mulatschak's statistics (``GamePlugin.statistics``)
STATISTICS = MulatschakStatistics()
