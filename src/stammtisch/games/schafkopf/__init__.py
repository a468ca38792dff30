"""Schafkopf, the Bavarian game for four (seed 002, exact contract ../specs/schafkopf.md).

Implemented, every house rule an option of :class:`SchafkopfRules` (presets ``standard``
and ``anleitung``): the deal 4 + 4 (as chance or from given hands), Legen, the bidding in
one round with game ranks (Sauspiel, Hochzeit, Bettel, Geier, Wenz, Farbsolo, Farbwenz,
their Tout forms, Sie), the no-game rules (redeal, Ramsch, Muss-Spiel with Renonce and
the called ten), Hochzeit with the card exchange, Stoßen with the table's words, the play
with the called ace's rules (gesucht, davonlaufen, no discarding it), and the scoring:
Schneider, Schwarz, Laufende, Tout, Sie, Bettel, Ramsch (loser, Jungfrau, Durchmarsch)
and the payments per seat.  Records: :mod:`stammtisch.games.schafkopf.record`.

Not implemented: the short deck, the three-player and 36-card variants, the
Bauernhochzeit (two cards exchanged), Stichzwang in the Ramsch, "Spritzen"/"Tout" on a
Sauspiel, Kreuzbock (a match rule: a round of four games after a Ramsch — see
docs/rules/schafkopf.md), the sequence of hands (dealer rotation, running totals).
"""

from stammtisch.games.schafkopf.rules import PRESETS, SchafkopfRules
from stammtisch.games.schafkopf.state import SchafkopfState, game_from_hands, new_game

__all__ = ["PRESETS", "SchafkopfRules", "SchafkopfState", "game_from_hands", "new_game"]
