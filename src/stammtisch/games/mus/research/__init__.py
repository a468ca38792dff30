"""Research adapters of Mus (need the research extra): :mod:`.encoding` (action ids,
observation tensors), :mod:`.pettingzoo_env` (an AEC environment), :mod:`.openspiel_game`
(the OpenSpiel game ``python_mus``)."""
