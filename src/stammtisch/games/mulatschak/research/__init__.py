"""Research adapters for Mulatschak (need the research extra: numpy, gymnasium, pettingzoo,
open_spiel): fixed ids and tensors (:mod:`.encoding`), a PettingZoo AEC environment
(:mod:`.pettingzoo_env`) and the OpenSpiel game ``python_mulatschak``
(:mod:`.openspiel_game`), each for 2–6 players."""
