"""Mulatschak, the Salzburg trick-bidding game for 2–6 (seed 003, exact contract
../specs/mulatschak.md).

Implemented, every house rule an option of :class:`MulatschakRules` (preset
``salzburg``): the shuffle as chance, Abheben (a cut Weli kept by the cutter) or Klopfen
(the bottom card shown, the hand counts double), the deal 3 + 2 (2 + 2 to the Weli's
keeper), Zusammengefallen (a hand without A, K, O, U or Weli), the Stichansage from
dealer + 1 with ``bei mir`` and its answers, the Muli in turn and out of turn, the
``all_pass`` redeal, the trump (``trumpf E|G|H|S``), Mitgehen/Daheimbleiben (forced with
Herz, in a Muli, at a score of 3 or less), the Kartentausch forms (``behalte``,
``tausche``, ``sicht`` with ``nimm``/``weg``, ``sau``, ``sechs``, ``bruecke`` with the
shown trumps) with the stock's promises, the five tricks with Farbzwang, Trumpfzwang and
Stichzwang, the scoring with the doublings (Herz, Klopfen, carried folds), Muli made or
broken (``all`` or ``breaker``), the score limits (≤ 5: only ``weiter``; ≤ 3: no
exchange, no staying home) and the match winner of a hand's scores.  The option
``weiss_nicht`` ("Weiß ich noch nicht"; reading in docs/rules/mulatschak.md).
Records: :mod:`stammtisch.games.mulatschak.record`.  The match (21 down to 0, the
doubling carried after a folded hand, the winners): :mod:`~stammtisch.games.mulatschak.match`;
the sitting of an online table (the registry's ``new_match``, the score column):
:mod:`~stammtisch.games.mulatschak.online`; the terminal session (``stammtisch play --game
mulatschak --players N``): :mod:`~stammtisch.games.mulatschak.presenter`; the bots
(heuristic, search), the judge of ``simulate``/``arena``, ``analyze`` and the research
adapters: :mod:`~stammtisch.games.mulatschak.plugin`.

Not implemented: a bot that says Muli out of turn (the bots and the research adapters
bid Muli only in turn).  Every option with its seed sentence and every reading:
docs/rules/mulatschak.md.
"""

from stammtisch.games.mulatschak.match import MulatschakMatch
from stammtisch.games.mulatschak.rules import PRESETS, MulatschakRules
from stammtisch.games.mulatschak.state import MulatschakState, new_state

__all__ = ["PRESETS", "MulatschakMatch", "MulatschakRules", "MulatschakState", "new_state"]
