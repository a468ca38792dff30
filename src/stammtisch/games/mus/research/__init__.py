"""Mus's research encoding (:mod:`.encoding`, needs the research extra) for the generic
PettingZoo and OpenSpiel adapters of :mod:`stammtisch.research`."""
