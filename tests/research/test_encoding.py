"""Action ids and observation tensors (stammtisch.games.mucken.research.encoding)."""

from __future__ import annotations

import random

import numpy as np
import pytest

from stammtisch.cards import SHORT_DECK, card
from stammtisch.engine.core import Cut, Say, Shuffle
from stammtisch.errors import InvalidActionError
from stammtisch.games.mucken.research.encoding import ActionCodec, ObservationEncoder, max_calls
from stammtisch.games.mucken.rules import MuckenRules
from stammtisch.games.mucken.state import MuckenState

from .helpers import VARIANTS, random_states


def test_fixed_ids_seefest() -> None:
    codec = ActionCodec(MuckenRules.preset("seefest"))
    assert [codec.encode(c) for c in SHORT_DECK] == list(range(24))
    assert codec.encode(Say("muck")) == 24 and codec.encode(Say("schwarzwenz")) == 29
    assert codec.encode(Say("weiter")) == 30
    assert [codec.encode(Say(w)) for w in ("kontra", "re", "sup", "hirsch", "gut")] == [
        31, 32, 33, 34, 35]
    assert codec.encode(Cut(3)) == 36 and codec.encode(Cut(21)) == 54
    assert [codec.encode(Say(w)) for w in ("geben", "klopfen", "ramsch")] == [55, 56, 57]
    assert codec.num_actions == 58
    assert len(set(codec.actions)) == codec.num_actions


def test_no_cut_ids_without_cutting() -> None:
    rules = MuckenRules.preset("seefest", cut_max_times=0, cut_min_times=0)
    codec = ActionCodec(rules)
    assert not any(isinstance(a, Cut) for a in codec.actions)
    assert codec.num_actions == 58 - 19


def test_unknown_actions_are_refused() -> None:
    codec = ActionCodec(MuckenRules.preset("seefest"))
    with pytest.raises(InvalidActionError):
        codec.encode(Shuffle(SHORT_DECK))
    with pytest.raises(InvalidActionError):
        codec.encode(Say("schellensolo"))
    with pytest.raises(InvalidActionError):
        codec.decode(58)
    with pytest.raises(InvalidActionError):
        codec.decode(-1)
    assert str(codec.decode(np.int64(30))) == "weiter"


@pytest.mark.parametrize("rules", VARIANTS, ids=lambda r: f"{r.name}-{r.deck}-{r.no_game}")
def test_round_trip_of_every_legal_action(rules: MuckenRules) -> None:
    codec = ActionCodec(rules)
    encoder = ObservationEncoder(rules)
    seen_phases = set()
    most_calls = 0
    for state in random_states(rules, games=60, seed=11):
        seen_phases.add(state.phase)
        most_calls = max(most_calls, len(state.calls))
        ids = codec.legal_ids(state)
        assert ids == sorted(set(ids))
        assert [codec.decode(i) for i in ids] == sorted(
            state.legal_actions(), key=codec.encode)
        for action in state.legal_actions():
            assert codec.decode(codec.encode(action)) == action
        mask = codec.legal_mask(state)
        assert mask.dtype == np.int8 and list(np.flatnonzero(mask)) == ids
        seat = state.current_player if state.current_player >= 0 else 0
        tensor = encoder.encode(state.view(seat))
        assert tensor.shape == (encoder.size,) and tensor.dtype == np.float32
        assert tensor.min() >= 0.0 and tensor.max() <= 1.0
    assert {"bidding", "play", "end"} <= seen_phases
    assert most_calls <= max_calls(rules)


def test_layout_is_contiguous_and_documented() -> None:
    rules = MuckenRules.preset("seefest")
    for perfect_recall in (False, True):
        enc = ObservationEncoder(rules, perfect_recall=perfect_recall)
        offset = 0
        for piece in enc.describe():
            assert piece["offset"] == offset
            offset += piece["size"]
        assert offset == enc.size
        assert ("play_sequence" in {p.name for p in enc.pieces}) == perfect_recall
    import stammtisch.games.mucken.research.encoding as module

    assert module.__doc__ is not None
    for piece in ObservationEncoder(rules, perfect_recall=True).pieces:
        assert f"``{piece.name}``" in module.__doc__


def test_pieces_from_a_known_position() -> None:
    from tests.conftest import make_game

    # seat 0 calls a Muck, seat 1 kontra; seat 0 leads EO
    state = make_game(dealer=3, calls="muck weiter weiter weiter", doubling="kontra",
                      plays="EO")
    enc = ObservationEncoder(state.rules)
    t = enc.split(enc.encode(state.view(1)))
    codec = ActionCodec(state.rules)
    eo = codec.card_id(card("EO"))
    assert eo == 3  # Eichel: A 10 K O ...
    assert t["played"][3, eo] == 1.0  # seat 0 is seat 1's right neighbour (relative 3)
    assert t["trick"][3, eo] == 1.0 and t["trick_leader"][3] == 1.0
    assert t["to_act"][0] == 1.0  # seat 1 is to act
    assert t["declarer"][3] == 1.0 and t["doublings"][0, 0] == 1.0
    assert t["phase"][5] == 1.0  # play
    assert t["contract"][0] == 1.0  # muck
    assert t["hand"].sum() == 6 and t["hand_sizes"][3] == pytest.approx(5 / 6)
    calls = t["calls"]
    assert calls[0, 3] == 1.0 and calls[0, 4 + 1] == 1.0  # seat 0 (relative 3): muck
    assert calls[1, 0] == 1.0 and calls[1, 4] == 1.0  # seat 1 (relative 0): weiter
    assert calls[4:].sum() == 0


def _swap_hidden(state: MuckenState, a: int, b: int, rng: random.Random) -> MuckenState:
    """A copy with some unplayed cards of seats ``a`` and ``b`` exchanged."""
    s = state.clone()
    ha, hb = s.hands[a], s.hands[b]
    k = min(len(ha), len(hb))
    if k == 0:
        return s
    n = rng.randrange(1, k + 1)
    ia = rng.sample(range(len(ha)), n)
    ib = rng.sample(range(len(hb)), n)
    for i, j in zip(ia, ib, strict=True):
        ha[i], hb[j] = hb[j], ha[i]
    s._legal = None
    return s


@pytest.mark.parametrize("perfect_recall", [False, True])
def test_observation_ignores_other_seats_hidden_cards(perfect_recall: bool) -> None:
    rng = random.Random(5)
    for rules in VARIANTS[:3]:
        enc = ObservationEncoder(rules, perfect_recall=perfect_recall)
        changed = 0
        for state in random_states(rules, games=15, seed=3):
            if state.phase in ("shuffle", "cut"):
                continue
            observer = rng.randrange(4)
            a, b = [s for s in rng.sample(range(4), 4) if s != observer][:2]
            swapped = _swap_hidden(state, a, b, rng)
            before = enc.encode(state.view(observer))
            after = enc.encode(swapped.view(observer))
            np.testing.assert_array_equal(before, after)
            # the observer's own hand does show
            own = _swap_hidden(state, observer, a, rng)
            if own.hands[observer] != state.hands[observer] and set(
                    own.hands[observer]) != set(state.hands[observer]):
                changed += 1
                assert not np.array_equal(before, enc.encode(own.view(observer)))
        assert changed > 0


def test_spectator_view_is_refused() -> None:
    rules = MuckenRules.preset("seefest")
    state = next(iter(random_states(rules, 1, 0)))
    with pytest.raises(ValueError, match="spectator"):
        ObservationEncoder(rules).encode(state.view(None))
