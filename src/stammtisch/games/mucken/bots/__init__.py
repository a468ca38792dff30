"""Mucken's bots: the heuristic, PIMC on the double-dummy solver, and the world sampling
they share.  Offered by name through Mucken's game description (the registry)."""

from stammtisch.games.mucken.bots.heuristic import HeuristicBot
from stammtisch.games.mucken.bots.pimc import PIMC_SETTINGS, PimcBot, PimcSettings

__all__ = ["PIMC_SETTINGS", "HeuristicBot", "PimcBot", "PimcSettings"]
