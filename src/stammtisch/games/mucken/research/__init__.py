"""Mucken for learning and game-theory code: ``encoding`` (its research encoding for the
generic PettingZoo and OpenSpiel adapters of :mod:`stammtisch.research`) and ``ismcts_bot``
(OpenSpiel's IS-MCTS as a bot).  They need the ``research`` extra."""
