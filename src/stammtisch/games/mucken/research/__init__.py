"""Mucken for learning and game-theory code: ``encoding`` (action ids, observation tensors),
``pettingzoo_env`` (a PettingZoo AEC environment), ``openspiel_game`` (the OpenSpiel game
``python_mucken``) and ``ismcts_bot`` (OpenSpiel's IS-MCTS as a bot).  They need the
``research`` extra and are imported on demand (see :mod:`stammtisch.research`)."""
