"""Schafkopf, the Bavarian game for four (seed 002, exact contract ../specs/schafkopf.md).

Implemented, every house rule an option of :class:`SchafkopfRules` (presets ``standard``
and ``anleitung``): the deal 4 + 4 (as chance or from given hands), Legen, the bidding in
one round with game ranks (Sauspiel, Hochzeit, Bettel, Geier, Wenz, Farbsolo, Farbwenz,
their Tout forms, Sie), the no-game rules (redeal, Ramsch, Muss-Spiel with Renonce and
the called ten), Hochzeit with the card exchange, Stoßen with the table's words, the play
with the called ace's rules (gesucht, davonlaufen, no discarding it), and the scoring:
Schneider, Schwarz, Laufende, Tout, Sie, Bettel, Ramsch (loser, Jungfrau, Durchmarsch)
and the payments per seat.  Records: :mod:`stammtisch.games.schafkopf.record`.  A sitting
with Kreuzbock rounds (seed 002's match rule, outside the hand contract; its reading is in
the module): :mod:`stammtisch.games.schafkopf.match`.

Not implemented: the short deck, the three-player and 36-card variants, Abheben, the
Bauernhochzeit (two cards exchanged), Stichzwang in the Ramsch, Spritzen and Klopfen.
Every option with its seed sentence and every reading: docs/rules/schafkopf.md.
"""

from stammtisch.games.schafkopf.match import KreuzbockState, SchafkopfMatch
from stammtisch.games.schafkopf.rules import PRESETS, SchafkopfRules
from stammtisch.games.schafkopf.state import SchafkopfState, game_from_hands, new_game

__all__ = ["PRESETS", "KreuzbockState", "SchafkopfMatch", "SchafkopfRules", "SchafkopfState",
           "game_from_hands", "new_game"]
