"""Mus bots (``heuristic``, ``bluff``): equity per lance from worlds sampled from the
seat's view; see :mod:`stammtisch.games.mus.bots.heuristic`."""
