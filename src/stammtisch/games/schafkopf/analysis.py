"""Double-dummy analysis of a finished Schafkopf hand (``stammtisch analyze``).

Every card played is judged with all hands open (a post-game analysis: all cards and the
partner are known now): the value of the position before and after it — the declaring
side's final Augen (tricks in a Bettel or Tout) with best play by all from there — the
value it cost its own side, the better cards and whether it flipped the game (who wins).
The called ace's rules bind the solver as they bound the players.  A Ramsch (no declaring
side) and a hand without card play (Sie, redealt) give an empty list.

>>> from stammtisch.cards import cards
>>> from stammtisch.games.schafkopf.state import game_from_hands
>>> s = game_from_hands([cards("EO GO HO SO EU GU HU SU"), cards("EA E10 EK E9 E8 E7 GA G10"),
...     cards("HA H10 HK H9 H8 H7 GK G9"), cards("SA S10 SK S9 S8 S7 G8 G7")], dealer=3)
>>> for w in ["solo-eichel", "weiter", "weiter", "weiter", "gut", "gut", "gut", "EO"]:
...     _ = s.push(w)
>>> p = analyze(s)[0]
>>> p.card, p.value_before, p.loss, p.cost_game
('EO', 120, 0, False)
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from stammtisch.cards import Card
from stammtisch.engine.core import Deal, Shuffle
from stammtisch.games.base.analysis import PlayAnalysis, the_game
from stammtisch.games.schafkopf.record import replay
from stammtisch.games.schafkopf.solver import Contract, SchafkopfSolver, contract_of
from stammtisch.games.schafkopf.state import PLAY, SchafkopfState

__all__ = ["PlayAnalysis", "analyze", "headline", "reference_pair", "summary"]


def reference_pair(state: SchafkopfState) -> int:
    """The seat the values refer to: the declarer (his side's values)."""
    return state.declarer if state.declarer is not None else 0


def headline(state: SchafkopfState) -> str:
    """One line on the hand and what the values mean (the human output of ``analyze``)."""
    r = state.result()
    side = "-"
    if state.declarer is not None:
        side = f"seat {state.declarer}" + (f"+{state.partner}" if state.partner is not None
                                           else "")
    what = "tricks" if state.game is not None and (state.game.tout or
                                                    state.game.kind == "bettel") else "Augen"
    won = "" if r is None else f", {r['winner'] or '-'}"
    return (f"{state.contract} (declaring side {side}{won}).  Werte/values: the declaring "
            f"side's final {what} with best play by all")


def summary(state: SchafkopfState, plays: list[PlayAnalysis]) -> str:
    """Value lost per side and the cards that flipped the game."""
    side = contract_side(state)
    lost = [0, 0]
    for p in plays:
        lost[0 if p.seat in side else 1] += p.loss
    flips = sum(1 for p in plays if p.cost_game)
    return (f"verschenkt / lost: declaring side {lost[0]}, defenders {lost[1]}; "
            f"{flips} card(s) flipped the game.")


def contract_side(state: SchafkopfState) -> set[int]:
    side: set[int] = set()
    if state.declarer is not None:
        side.add(state.declarer)
    if state.partner is not None:
        side.add(state.partner)
    return side


def _fresh(state: SchafkopfState) -> SchafkopfState:
    g = SchafkopfState(state.rules, state.dealer)
    g.apply_unchecked(Deal(tuple(tuple(h) for h in state.dealt)))
    return g


def analyze(record_or_state: SchafkopfState | str | bytes | Mapping[str, Any]
            ) -> list[PlayAnalysis]:
    """Judge every card of a hand (a record, replayed with every check, or a state: the
    cards played so far are judged)."""
    final = the_game(record_or_state, SchafkopfState, replay)
    if not final.dealt or final.declarer is None or final.game is None:
        return []
    game = _fresh(final)
    actions = [a for _, a in final.history if not isinstance(a, Shuffle | Deal)]
    out: list[PlayAnalysis] = []
    solver: SchafkopfSolver | None = None
    contract: Contract | None = None
    for action in actions:
        if game.is_terminal():
            break
        if game.phase == PLAY and isinstance(action, Card):
            if solver is None:
                # the partner as the deal knows him (the finished hand's, or the holder's)
                contract = contract_of(game)
                t = game.tricks
                solver = SchafkopfSolver.for_contract(contract, game.hands, leader=t.leader,
                                                      trick=list(t.current))
            assert contract is not None
            out.append(_judge(game, action, len(out), contract, solver))
        game.apply_unchecked(action)
    return out


def _judge(game: SchafkopfState, card: Card, index: int, contract: Contract,
           solver: SchafkopfSolver) -> PlayAnalysis:
    t = game.tricks
    seat = game.current_player
    hands = [list(h) for h in game.hands]
    trick = list(t.current)
    if contract.mode == "augen":
        base = sum(t.augen[s] for s in contract.side)
    else:
        base = sum(1 for w in t.winners if w in contract.side)
    values = {c: base + v for c, v in
              solver.card_values_at(hands, t.leader, trick, gesucht=game.gesucht).items()}
    high = seat in contract.side
    best_value = max(values.values()) if high else min(values.values())
    after = values[card]
    loss = best_value - after if high else after - best_value
    legal = [c for c in game.legal_actions() if isinstance(c, Card)]
    best = tuple(str(c) for c in legal if values[c] == best_value)
    return PlayAnalysis(
        index=index, seat=seat, card=str(card), trick=len(t.tricks) + 1,
        value_before=best_value, value_after=after, loss=loss, best=best,
        cost_game=contract.declarers_win(best_value) != contract.declarers_win(after))
