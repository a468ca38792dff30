"""Double-dummy analysis of a finished Mulatschak hand (``stammtisch analyze``).

Every card played is judged with all hands open (after the hand everyone's cards are
known): the value of the position before and after it is the number of tricks the
**bidder** ends with when the bidder plays for as many tricks as possible and every other
playing seat against him (:class:`~stammtisch.games.mulatschak.bots.solver.TrickSolver`,
exact over the ≤ 5 tricks).  ``loss``: the tricks the card gave away from its seat's point
of view (the bidder wants more, the others fewer); ``best``: the cards that keep the
value; ``cost_game``: with this card the bid flips from made to lost (or, for the
others, from lost to made).  A Muli is a bid of 5.  Hands without card play (folded, no
bid, everybody home) give an empty list.

The paranoid reading (all others against the bidder) is the natural one for the bid
(every non-bidder gains when it fails); a non-bidder's own tricks are not judged.

>>> import random
>>> from stammtisch.engine.core import play_random
>>> from stammtisch.games.mulatschak.rules import MulatschakRules
>>> from stammtisch.games.mulatschak.state import new_state
>>> s = play_random(new_state(MulatschakRules(), 0, random.Random(7)), random.Random(7))
>>> plays = analyze(s)
>>> all(p.loss >= 0 for p in plays) and all(p.card in p.best or p.loss for p in plays)
True
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from stammtisch.cards import Card
from stammtisch.engine.core import Say, Shuffle
from stammtisch.games.base.analysis import PlayAnalysis, the_game
from stammtisch.games.mulatschak.bots.sampling import INDEX
from stammtisch.games.mulatschak.bots.solver import TrickSolver
from stammtisch.games.mulatschak.record import replay
from stammtisch.games.mulatschak.state import MulatschakState

__all__ = ["PlayAnalysis", "analyze", "headline", "reference_pair", "summary"]


def reference_pair(state: MulatschakState) -> int:
    """The seat the values refer to: the bidder (0 when there is none)."""
    return state.holder if state.holder is not None else 0


def headline(state: MulatschakState) -> str:
    """One line on the hand and what the values mean."""
    r = state.result()
    if r is None or r["bidder"] is None or not r["trick_winners"]:
        return "Keine Karten gespielt / no card play in this hand."
    bidder = r["bidder"]
    made = r["tricks"][bidder] >= r["bid"]
    what = "Muli" if r["bid"] == 5 else f"{r['bid']} Stiche"
    return (f"Platz/seat {bidder} sagte {what} in {r['trump']} an: {r['tricks'][bidder]} "
            f"Stiche, {'gemacht / made' if made else 'verloren / lost'}; delta "
            f"{r['delta']}.  Werte/values: the bidder's tricks with best play by all "
            "(the bidder for more, everybody else for fewer)")


def summary(state: MulatschakState, plays: list[PlayAnalysis]) -> str:
    """Tricks lost by the bidder and by the others, and the cards that flipped the bid."""
    bidder = state.holder
    own = sum(p.loss for p in plays if p.seat == bidder)
    others = sum(p.loss for p in plays if p.seat != bidder)
    flips = sum(1 for p in plays if p.cost_game)
    return (f"verschenkt / lost: bidder {own} trick(s), the others {others}; "
            f"{flips} card(s) flipped the bid.")


def _fresh(final: MulatschakState) -> MulatschakState:
    g = MulatschakState(final.rules, final.dealer, final.start_scores, final.doubled)
    g.apply_unchecked(Shuffle(final.deck))
    return g


def analyze(record_or_state: MulatschakState | str | bytes | Mapping[str, Any]
            ) -> list[PlayAnalysis]:
    """Judge every card of a hand (a record, replayed with every check, or a state: the
    cards played so far are judged)."""
    final = the_game(record_or_state, MulatschakState, replay)
    if not final.deck or final.holder is None or final.trump is None:
        return []
    game = _fresh(final)
    solver = TrickSolver(final.trump, final.rules.stichzwang)
    out: list[PlayAnalysis] = []
    for seat, action in final.history:
        if isinstance(action, Shuffle):
            continue
        if seat != game.current_player and action == Say("muli"):
            game.apply_out_of_turn(seat, action)
            continue
        if game.phase == "play" and isinstance(action, Card):
            out.append(_judge(game, action, len(out), solver))
        game.apply_unchecked(action)
    return out


def _judge(game: MulatschakState, card: Card, index: int, solver: TrickSolver
           ) -> PlayAnalysis:
    seat = game.current_player
    bidder = game.holder
    assert bidder is not None and game.leader is not None
    legal = [c for c in game.legal_actions() if isinstance(c, Card)]
    hands = {s: sum(1 << INDEX[c] for c in game.hands[s]) for s in game.playing}
    trick = [INDEX[c] for _, c in game.trick]
    base = game.trick_winners.count(bidder)
    counts = solver.solve_cards(game.playing, hands, game.leader, trick, 1 << bidder, seat,
                                [INDEX[c] for c in legal])
    values = {c: base + counts[INDEX[c]] for c in legal}
    high = seat == bidder
    best_value = max(values.values()) if high else min(values.values())
    after = values[card]
    loss = best_value - after if high else after - best_value
    best = tuple(str(c) for c in legal if values[c] == best_value)
    made = game.bid
    return PlayAnalysis(
        index=index, seat=seat, card=str(card), trick=len(game.trick_winners) + 1,
        value_before=best_value, value_after=after, loss=loss, best=best,
        cost_game=(best_value >= made) != (after >= made))
