"""Judging bots: the one duplicate-deal judge of ``stammtisch simulate`` and ``stammtisch
arena`` for every game (:mod:`stammtisch.judging.judge`); what a game adds is its
plug-in's ``statistics`` (:mod:`stammtisch.games.base.judging`)."""

from __future__ import annotations

from stammtisch.games.base.judging import JudgeError
from stammtisch.judging.judge import draw_deals, play_deal, run_arena, run_simulation

__all__ = ["JudgeError", "draw_deals", "play_deal", "run_arena", "run_simulation"]
