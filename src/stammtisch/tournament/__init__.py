"""Muckturniere: results, ranking, and (growing) the tournament manager."""

from stammtisch.tournament.ranking import RankRow, Results, parse_results, rank

__all__ = ["RankRow", "Results", "parse_results", "rank"]
