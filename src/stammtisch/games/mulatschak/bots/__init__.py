"""Mulatschak's own bots: ``heuristic`` (rules of thumb) and ``search`` (sampled worlds,
exact play-out of the tricks); see :mod:`stammtisch.games.mulatschak.plugin`."""
