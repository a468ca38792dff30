"""Mulatschak's part of the judge of ``simulate`` and ``arena`` (:mod:`stammtisch.games.
base.judging`).

Every seat plays for itself and the scores go **down** from 21: a seat's score change
per hand (``delta``, ``returns()`` with its sign turned) is better the *lower* it is, and
every figure keeps that sign (a negative ``advantage`` or ``margin``: lineup A or 0 did
better).  A deal is a shuffle, the cut height (said for the cutter, never ``klopfen``,
so every seating holds the same cards) and the bots' seed; an arena game starts from 21
at every seat, ``simulate``'s tables are matches of four (21 down to 0, the doubling
after a folded hand, a new match when one is won).  Per lineup: the hands its seats
played, their score changes, bids (made, Muli), hands stayed home or without a trick,
the decision times (arena) or the matches won (simulate); the outcomes of the hands.
The bots never say ``muli`` out of turn (they are asked only on their turn).
"""

from __future__ import annotations

import random
import statistics
from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

from stammtisch.engine.core import GameState, Say
from stammtisch.games.base.judging import (
    Board,
    Console,
    Figures,
    Rate,
    Statistics,
    ci95,
    decision_ms,
    interval,
    percent,
    ranked,
    share,
)
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


class MulatschakTally:
    """The statistics of one run (see the module)."""

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
                "bids": c["bids"], "mean_bid": share(c["bid_sum"], c["bids"]),
                "made_rate": share(c["made"], c["bids"]), "muli": c["muli"],
                "home": c["home"], "no_trick": c["no_trick"]}

    def to_json(self, f: Figures) -> dict[str, Any]:
        head = {"game": f.game}
        if not f.arena:
            margin = statistics.fmean(f.margins)  # each deal weighs the same
            lineups = [{**self._lineup(i, "+".join(sorted(set(f.seatings[0][i::2])))),
                        "bots": f.seatings[0][i::2], "matches_won": self.matches_won[i]}
                       for i in (0, 1)]
            return {**head, "games": f.games, "deals": f.deals, "seed": f.seed,
                    "rules": f.rules.to_json(), "bots": f.seatings[0], "seatings": f.seatings,
                    "lineups": lineups, "matches_finished": self.matches,
                    "outcomes": ranked(self.outcomes), "margin": margin,
                    "ci95": ci95(f.margins, margin), "better": BETTER,
                    "first_better": margin < 0, "seconds": f.seconds,
                    "games_per_s": f.per_second(f.games)}
        names = f.seatings[0][:2]
        times = [decision_ms(f.times.get(name, [])) for name in names]
        stats = [{**self._lineup(i, name), "decision_ms": times[i]}
                 for i, name in enumerate(names)]
        ci = f.ci95
        return {**head, "a": names[0], "b": names[1], "players": len(f.seatings[0]),
                "deals": f.deals, "games": f.games, "seed": f.seed,
                "rules": f.rules.to_json(), "seatings": f.seatings, "stats": stats,
                "mean_delta": {"a": stats[0]["mean_delta"], "b": stats[1]["mean_delta"]},
                "advantage": f.margin, "ci95": ci, "better": BETTER, "a_better": f.margin < 0,
                "significant": ci is not None and (ci[1] < 0 or ci[0] > 0),
                "decision_ms": {"a": times[0], "b": times[1]},
                "outcomes": ranked(self.outcomes), "seconds": f.seconds,
                "deals_per_s": f.per_second(f.deals), "jobs": f.jobs}


class MulatschakStatistics(Statistics):
    """Mulatschak in ``simulate`` and ``arena`` (see the module)."""

    margin_scale = -1.0  # in the score's own sign: lower is better

    def draw(self, rules: Any, master: random.Random, number: int, seats: int,
             arena: bool) -> Board:
        shuffle = self.start(rules, Board(number, 0, 0), seats).sample_chance(master)
        cut = Say(f"abheben {1 + master.randrange(32)}")
        return Board(number, number % seats, master.getrandbits(64), (shuffle, cut))

    def start(self, rules: Any, board: Board, seats: int) -> GameState:
        assert isinstance(rules, MulatschakRules)
        return MulatschakState(rules, board.dealer, [21] * seats)

    def tally(self, arena: bool) -> MulatschakTally:
        return MulatschakTally()

    def print_report(self, out: Mapping[str, Any], console: Console, rate: Rate,
                     arena: bool) -> None:
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
                    f"{percent(lu['made_rate'])}), matches won {lu['matches_won']:g} of "
                    f"{out['matches_finished']}")
            console.print(f"[bold]Margin of the first lineup: {out['margin']:+.3f} points per "
                          f"seat and hand[/bold] (95% CI {interval(out['ci95'])}; "
                          f"{out['better']})")
            return
        console.print(f"[bold]{out['a']} vs {out['b']}[/bold]: {out['deals']} deals at "
                      f"{out['players']} seats, {out['games']} games (each deal with the seats "
                      f"swapped), seed {out['seed']}, {out['seconds']:.1f} s")
        for s in out["stats"]:
            t = s["decision_ms"]
            console.print(
                f"  {s['bot']}: mean score change {s['mean_delta']:+.3f} per seat and hand, "
                f"bid {s['bids']}× (made {percent(s['made_rate'])}), Muli {s['muli']}, home "
                f"{s['home']}, no trick {s['no_trick']}; decision median {t['median']} ms, "
                f"p95 {t['p95']} ms")
        verdict = "A better" if out["a_better"] else "B better or equal"
        sig = "significant" if out["significant"] else "not significant"
        console.print(f"[bold]Advantage {out['a']} − {out['b']}: {out['advantage']:+.3f} "
                      f"points per hand[/bold] (95% CI "
                      f"{interval(out['ci95'], none='n/a (one deal)')}; {out['better']}: "
                      f"{verdict}, {sig})")


#: Mulatschak's statistics (``GamePlugin.statistics``)
STATISTICS = MulatschakStatistics()

