"""The Mus bots: ``heuristic`` (equity-based, never bluffs) and ``bluff`` (the same
equity, bluffs and calls bluffs at rates tuned in the arena, see docs/bots.md).

Both decide on ``state.view(seat)`` only (:func:`~.equity.observe`; the house rules are
public) and ignore keys the view may gain (señas: signs received from the partner are
not used).

- *Mus / no mus*: ``no mus`` when the hand's expected value
  (:func:`~.tables.static_value`) is at least the best expected value after a discard
  (:func:`~.tables.discard_values`, the draw enumerated exactly) plus a margin.
- *Descarte*: the legal discard with the highest expected value after the draw.
- *Lances*: the equity ``p`` of the seat's pair in the lance, from worlds of the unseen
  cards conditioned on the Pares/Juego declarations (:func:`~.equity.sample_worlds`).
  Facing a bet, the worlds are weighted by how likely the last bettor was to bet: weight
  1 when his hand is in the top of the lance (its percentile among the hands taking part
  is at least ``range_threshold``), else ``assumed_bluff`` (the share of bets the bot
  believes to be bluffs).  Opening: ``envido`` 2–4 from ``open_threshold`` on (bigger
  with more equity), ``ordago`` with a near-sure hand when the opponents are close to the
  target; a bluff bot bets ``envido 2`` with a weak hand at ``bluff_rate`` (with
  ``bluff_last_only`` only as the last seat to speak after everybody passed).  Answering:
  a raise with ``p`` ≥ ``raise_threshold`` (at most 4 bets a lance), else ``quiero`` when
  accepting loses less than refusing (``(2p − 1)·stake`` against ``−max(stake before,
  1)``); an ``ordago`` is accepted when ``p·(target − own score) − (1 − p)·(target − their
  score)`` beats refusing.

The worlds are seeded by the observation itself (so equal knowledge gives equal
decisions); only the bluffs draw from the ``rng`` given to :meth:`choose`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from stammtisch.engine.core import Action, GameState, Rng, Say
from stammtisch.games.mus.bots.equity import (
    Observation,
    World,
    lance_equity,
    observe,
    outcomes,
    sample_worlds,
)
from stammtisch.games.mus.bots.tables import discard_values, static_value, tables_for
from stammtisch.games.mus.rules import MusRules

__all__ = ["BluffBot", "HeuristicBot", "MusBot", "Style"]


@dataclass(frozen=True)
class Style:
    """The knobs of a Mus bot."""

    name: str
    #: equity from which the bot opens with an envido
    open_threshold: float = 0.68
    #: equity from which it raises a bet
    raise_threshold: float = 0.85
    #: probability of an envido 2 with a weak hand (equity below ``bluff_below``)
    bluff_rate: float = 0.0
    bluff_below: float = 0.4
    #: bluff only as the last seat to speak after everybody passed (the opponents then
    #: showed no hand worth a bet)
    bluff_last_only: bool = False
    #: the weight of worlds in which the bettor's hand is weak (his bluffs as believed)
    assumed_bluff: float = 0.15
    #: the percentile from which a bettor's hand counts as strong
    range_threshold: float = 0.6
    #: extra expected value a hand must keep to say ``no mus``
    mus_margin: float = 0.0
    #: worlds sampled per decision
    worlds: int = 300


HEURISTIC = Style("heuristic")
#: tuned in the arena against ``heuristic`` (docs/bots.md): bluffs 30% of its weak hands
#: as the last seat after everybody passed, calls assuming 5% bluffs, opens from 0.6 and
#: cuts the Mus more readily
BLUFF = Style("bluff", open_threshold=0.6, bluff_rate=0.3, bluff_last_only=True,
              assumed_bluff=0.05, mus_margin=-1.0)


class MusBot:
    """A Mus bot of one :class:`Style` (stateless but for a cache of worlds)."""

    def __init__(self, style: Style = HEURISTIC) -> None:
        self.style = style
        self.name = style.name
        self._worlds: dict[Any, tuple[list[tuple[World, float]],
                                      list[list[tuple[int, int]]]]] = {}

    def choose(self, state: GameState, rng: Rng) -> Action:
        seat = state.current_player
        rules = getattr(state, "rules", None)
        if not isinstance(rules, MusRules):
            raise TypeError(f"not a Mus state: {type(state).__name__}")
        legal = [str(a) for a in state.legal_actions()]
        word = self.decide(state.view(seat), rules, legal, rng)
        return Say(word)

    # -- the decision from the view ----------------------------------------------------
    def decide(self, view: dict[str, Any], rules: MusRules, legal: Sequence[str],
               rng: Rng) -> str:
        """The word to say (one of ``legal``)."""
        obs = observe(view, rules)
        if "mus" in legal:
            return self._mus(obs, rules)
        if legal and legal[0].startswith("descarte"):
            return self._discard(obs, rules, legal)
        word = self._bet(obs, rules, legal, rng)
        return word if word in legal else legal[0]

    def _mus(self, obs: Observation, rules: MusRules) -> str:
        keep = static_value(obs.ranks, rules)
        best = max(discard_values(obs.ranks, obs.unseen(rules), rules).values())
        return "no mus" if keep >= best + self.style.mus_margin else "mus"

    def _discard(self, obs: Observation, rules: MusRules, legal: Sequence[str]) -> str:
        values = discard_values(obs.ranks, obs.unseen(rules), rules)
        # positions in obs.ranks (sorted) -> the cards of the hand with those ranks
        from stammtisch.games.mus.state import rank_of

        best_word, best_value = legal[0], float("-inf")
        for word in legal:
            named = word.split()[1:]
            ranks = sorted((rank_of(c, rules) for c in obs.hand if str(c) in named),
                           reverse=True)
            drop = _positions(obs.ranks, ranks)
            v = values[drop]
            if v > best_value + 1e-12:
                best_word, best_value = word, v
        return best_word

    def _world_data(self, obs: Observation, rules: MusRules) -> tuple[
            list[tuple[World, float]], list[list[tuple[int, int]]]]:
        key = (obs.seat, obs.mano, obs.ranks,
               None if obs.pares is None else tuple(obs.pares),
               None if obs.juego is None else tuple(obs.juego), rules.reyes, self.style.worlds)
        got = self._worlds.get(key)
        if got is None:
            if len(self._worlds) > 256:
                self._worlds.clear()
            worlds = sample_worlds(obs, rules, self.style.worlds)
            got = self._worlds[key] = (worlds, outcomes(obs, worlds))
        return got

    def equity(self, obs: Observation, rules: MusRules, lance: str,
               bettor: int = -1) -> float:
        """The pair's equity in ``lance``; facing ``bettor``, weighted by his range."""
        worlds, results = self._world_data(obs, rules)
        weights = None
        if bettor >= 0:
            pct = tables_for(rules).percentile[lance]
            st = self.style
            weights = [1.0 if pct.get(w[bettor].ranks, 0.0) >= st.range_threshold
                       else st.assumed_bluff for w, _ in worlds]
        return lance_equity(obs, worlds, lance, weights, results)

    def _bet(self, obs: Observation, rules: MusRules, legal: Sequence[str],
             rng: Rng) -> str:
        bet = obs.lance_bet
        st = self.style
        if bet is None:  # not expected: the lances always have a betting state here
            return legal[0]
        mine, theirs = obs.seat % 2, 1 - obs.seat % 2
        my_to_go = rules.target - obs.score[mine]
        their_to_go = rules.target - obs.score[theirs]
        if bet.bettor < 0:  # opening
            p = self.equity(obs, rules, bet.lance)
            if p >= 0.9 and their_to_go <= 5:
                return "ordago"
            if p >= st.open_threshold:
                return f"envido {2 if p < 0.8 else 3 if p < 0.9 else 4}"
            last = bet.passes == len(bet.eligible) - 1
            if (st.bluff_rate and p < st.bluff_below and (last or not st.bluff_last_only)
                    and rng.random() < st.bluff_rate):
                return "envido 2"
            return "paso"
        p = self.equity(obs, rules, bet.lance, bet.bettor)
        refuse = -max(bet.stake_before, 1)
        if bet.ordago:
            accept = p * my_to_go - (1 - p) * their_to_go
            return "quiero" if accept > refuse else "no quiero"
        if p >= st.raise_threshold and bet.bets < 4:
            if p >= 0.95 and their_to_go <= 5:
                return "ordago"
            return "envido 2"
        return "quiero" if (2 * p - 1) * bet.stake > refuse else "no quiero"


def _positions(ranks: Sequence[int], drop: Sequence[int]) -> tuple[int, ...]:
    """The positions in ``ranks`` (sorted high to low) of the ranks ``drop`` (the first
    free equal rank each time)."""
    used: list[int] = []
    for r in drop:
        i = next(i for i, x in enumerate(ranks) if x == r and i not in used)
        used.append(i)
    return tuple(sorted(used))


def HeuristicBot() -> MusBot:
    """The equity bot without bluffs."""
    return MusBot(HEURISTIC)


def BluffBot() -> MusBot:
    """The equity bot that bluffs and calls bluffs."""
    return MusBot(BLUFF)
