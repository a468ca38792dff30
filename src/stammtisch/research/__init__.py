"""Research interfaces: Mucken for reinforcement-learning and game-theory frameworks.

- :mod:`stammtisch.research.encoding` — fixed integer action ids and observation tensors
  built from ``state.view(seat)`` (the edge between typed actions and arrays);
- :mod:`stammtisch.research.pettingzoo_env` — a PettingZoo AEC environment ``MuckenEnv``;
- :mod:`stammtisch.research.openspiel_game` — the OpenSpiel game ``python_mucken``
  (registered with ``pyspiel`` on import).

They need the ``research`` extra (``pip install -e ".[research]"``: numpy, pettingzoo,
open_spiel, rlcard).  Only :mod:`~stammtisch.research.encoding` is imported here; the other
two are imported on demand, so that loading this package does not load OpenSpiel.
See docs/research.md.
"""

from stammtisch.research.encoding import ActionCodec, ObservationEncoder

__all__ = ["ActionCodec", "ObservationEncoder"]
