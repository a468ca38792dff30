"""Research adapters of Schafkopf (need the research extra): fixed action ids and
observation tensors (:mod:`.encoding`), a PettingZoo AEC environment (:mod:`.pettingzoo_env`)
and the OpenSpiel game ``python_schafkopf`` (:mod:`.openspiel_game`)."""
