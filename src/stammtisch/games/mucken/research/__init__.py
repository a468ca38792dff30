"""Mucken for learning and game-theory code: ``encoding``, its research encoding for the
generic PettingZoo and OpenSpiel adapters of :mod:`stammtisch.research` (it needs the
``research`` extra).  OpenSpiel's IS-MCTS as a bot is :mod:`stammtisch.games.mucken.bots.ismcts`."""
