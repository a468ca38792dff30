"""Mus, the Basque-Spanish game of four in two pairs (seed 004, the contract
../specs/mus.md; readings: docs/rules/mus.md).

Implemented: the Spanish 40-card deck with 8 reyes (3 = king, 2 = ace) or 4; the Mus
rounds (``mus`` / ``no mus``, ``descarte`` of 1–4 cards, draws from the stock, reshuffles
of earlier discards as a chance node); the lances Grande, Chica, Pares, Juego (Punto when
nobody has Juego) with ``paso``, ``envido N``, ``quiero``, ``no quiero`` and ``ordago``;
the automatic Pares/Juego declarations; the showdown with stakes and bonuses, the set
ending at ``target``; records (``stammtisch replay``); a match of sets
(:mod:`stammtisch.games.mus.match`: sets to ``target``, ``sets`` won); señas, the signs
between partners, as a table option (:mod:`stammtisch.games.mus.senas`); the sitting of
an online table (:mod:`stammtisch.games.mus.online`, the registry's ``new_match``: sets,
stones, the showdown lance by lance); the terminal session
(its presenter :mod:`stammtisch.games.mus.presenter`, ``stammtisch play --game mus``).

The game's own bots, the judge of ``simulate``/``arena`` and the research adapters are
named in :mod:`stammtisch.games.mus.plugin`.
"""

from stammtisch.games.mus.rules import PRESETS, MusRules
from stammtisch.games.mus.state import MusState, new_state

__all__ = ["PRESETS", "MusRules", "MusState", "new_state"]
