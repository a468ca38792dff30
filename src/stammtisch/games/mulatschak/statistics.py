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
import statistics
from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

from stammtisch.engine.core import GameState, Say
from stammtisch.games.base import judging
from stammtisch.games.mulatschak.rules import MulatschakRules
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


class MulatschakStatistics(judging.Statistics):
    """Mulatschak in ``simulate`` and ``arena``, and a run's statistics (see the module)."""

    margin_scale = -1.0  # in the score's own sign: lower is better

    def __init__(self) -> None:
        self.lineups: list[Counter[str]] = [Counter(), Counter()]
        self.outcomes: Counter[str] = Counter()
        self.matches_won = [0.0, 0.0]
        self.matches = 0

    def book(self, state: GameState, lineup_of_seat: Sequence[int]) -> None:
        r = state.result()
        assert r is not None
        self.outcomes[_outcome(r)] += 1
        for seat, lineup in enumerate(lineup_of_seat):
            c = self.lineups[lineup]
            c["seat_hands"] += 1
            c["delta"] += r["delta"][seat]
            if r["bidder"] == seat:
                c["bids"] += 1
                c["bid_sum"] += r["bid"]
                c["muli"] += r["bid"] == 5
                c["made"] += bool(r["trick_winners"]) and r["tricks"][seat] >= r["bid"]
            elif seat in r["home"]:
                c["home"] += 1
            elif r["trick_winners"] and r["tricks"][seat] == 0:
                c["no_trick"] += 1

    def book_match(self, match: Any, lineup_of_seat: Sequence[int]) -> None:
        if match.is_over():
            self.matches += 1
            for w in match.winners:
                self.matches_won[lineup_of_seat[w]] += 1 / len(match.winners)

    def _lineup(self, i: int, bot: str) -> dict[str, Any]:
        c = self.lineups[i]
        return {"bot": bot, "seat_hands": c["seat_hands"], "delta": c["delta"],
                "mean_delta": c["delta"] / c["seat_hands"] if c["seat_hands"] else 0.0,
                "bids": c["bids"], "mean_bid": judging.share(c["bid_sum"], c["bids"]),
                "made_rate": judging.share(c["made"], c["bids"]), "muli": c["muli"],
                "home": c["home"], "no_trick": c["no_trick"]}

    def to_json(self, f: judging.Figures) -> dict[str, Any]:
        if not f.arena:
            margin = statistics.fmean(f.margins)  # each deal weighs the same
            return f.pick(
                "game games deals seed rules bots seatings lineups matches_finished outcomes "
                "margin ci95 better first_better seconds games_per_s",
                {"rules": f.rules.to_json(), "margin": margin, "first_better": margin < 0,
                 "ci95": judging.ci95(f.margins, margin), "better": BETTER,
                 "matches_finished": self.matches, "outcomes": judging.ranked(self.outcomes),
                 "lineups": [{**self._lineup(i, "+".join(sorted(set(f.seatings[0][i::2])))),
                              "bots": f.seatings[0][i::2], "matches_won": self.matches_won[i]}
                             for i in (0, 1)]})
        times = [judging.decision_ms(f.times.get(name, [])) for name in f.seatings[0][:2]]
        stats = [{**self._lineup(i, f.seatings[0][i]), "decision_ms": times[i]} for i in (0, 1)]
        ci = f.ci95
        return f.pick(
            "game a b players deals games seed rules seatings stats mean_delta advantage ci95 "
            "better a_better significant decision_ms outcomes seconds deals_per_s jobs",
            {"rules": f.rules.to_json(), "stats": stats, "advantage": f.margin,
             "mean_delta": {"a": stats[0]["mean_delta"], "b": stats[1]["mean_delta"]},
             "better": BETTER, "a_better": f.margin < 0,
             "significant": ci is not None and (ci[1] < 0 or ci[0] > 0),
             "decision_ms": {"a": times[0], "b": times[1]},
             "outcomes": judging.ranked(self.outcomes)})

    def draw(self, rules: Any, master: random.Random, number: int, seats: int,
             arena: bool) -> judging.Board:
        shuffle = self.start(rules, judging.Board(number, 0, 0), seats).sample_chance(master)
        cut = Say(f"abheben {1 + master.randrange(32)}")
        return judging.Board(number, number % seats, master.getrandbits(64), (shuffle, cut))

    def start(self, rules: Any, board: judging.Board, seats: int) -> GameState:
        assert isinstance(rules, MulatschakRules)
        return MulatschakState(rules, board.dealer, [21] * seats)

    def print_report(self, out: Mapping[str, Any], console: judging.Console,
                     rate: judging.Rate, arena: bool) -> None:
        if not arena:
            console.print(f"[bold]{out['games']} hands[/bold] ({out['deals']} deals, each at "
                          f"two tables with the seats swapped), seed {out['seed']}, "
                          f"{out['seconds']:.1f} s; seats (table A): "
                          + ", ".join(f"{s}={n}" for s, n in enumerate(out["bots"])))
            for name, n in out["outcomes"].items():
                console.print(f"  {name}: {n}")
            for lu in out["lineups"]:
                console.print(
                    f"  lineup {'+'.join(lu['bots'])}: mean score change "
                    f"{lu['mean_delta']:+.3f} per seat and hand, bid {lu['bids']}× (made "
                    f"{judging.percent(lu['made_rate'])}), matches won {lu['matches_won']:g} of "
                    f"{out['matches_finished']}")
            console.print(judging.verdict("Margin of the first lineup", out["margin"],
                                          "points per seat and hand", out["ci95"],
                                          note=f"; {out['better']}"))
            return
        console.print(f"[bold]{out['a']} vs {out['b']}[/bold]: {out['deals']} deals at "
                      f"{out['players']} seats, {out['games']} games (each deal with the seats "
                      f"swapped), seed {out['seed']}, {out['seconds']:.1f} s")
        for s in out["stats"]:
            t = s["decision_ms"]
            console.print(
                f"  {s['bot']}: mean score change {s['mean_delta']:+.3f} per seat and hand, "
                f"bid {s['bids']}× (made {judging.percent(s['made_rate'])}), Muli "
                f"{s['muli']}, home {s['home']}, no trick {s['no_trick']}; decision median "
                f"{t['median']} ms, p95 {t['p95']} ms")
        verdict = "A better" if out["a_better"] else "B better or equal"
        sig = "significant" if out["significant"] else "not significant"
        console.print(judging.verdict(f"Advantage {out['a']} − {out['b']}", out["advantage"],
                                      "points per hand", out["ci95"], none="n/a (one deal)",
                                      note=f"; {out['better']}: {verdict}, {sig}"))

#: Mulatschak's statistics (``GamePlugin.statistics``)
STATISTICS = MulatschakStatistics()

