"""Schafkopf's own bots: ``heuristic`` (rules of thumb) and the PIMC family (sampled
worlds solved double-dummy).  Both decide from their seat's view only."""
