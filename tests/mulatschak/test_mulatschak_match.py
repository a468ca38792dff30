"""The Mulatschak match: 21 down to 0, the doubling carried after a folded hand."""

from __future__ import annotations

import random

import pytest
from mulatschak_helpers import H4, state_for

from stammtisch.engine.core import play_random
from stammtisch.errors import RulesError
from stammtisch.games.mulatschak.match import MulatschakMatch
from stammtisch.games.mulatschak.rules import MulatschakRules


def test_a_folded_hand_doubles_the_next_and_keeps_the_dealer() -> None:
    match = MulatschakMatch(MulatschakRules(), players=4, first_dealer=3)
    folded = state_for({**H4, 0: ["E10", "G10", "G8", "H7", "S9"],
                        2: ["HA", "H8", "S8", "E8", "G9"]}, 3)
    match.finish_hand(folded)
    assert match.doubled == 1 and match.dealer == 3 and match.scores == [21] * 4
    played = state_for(H4, 3, ["3", "weiter", "weiter", "weiter", "trumpf G", "daheim",
                               "daheim", "daheim"], doubled=1)
    result = match.finish_hand(played)
    assert result["multiplier"] == 2 and match.scores == [15, 23, 23, 23]
    assert match.doubled == 0 and match.dealer == 0 and not match.is_over()


def test_random_matches_end_with_a_winner_at_zero() -> None:
    for seed in range(5):
        rng = random.Random(seed)
        match = MulatschakMatch(MulatschakRules(), players=2 + seed % 5)
        for _ in range(2000):
            if match.is_over():
                break
            state = match.start_hand(rng)
            play_random(state, rng)
            match.finish_hand(state)
        assert match.is_over() and all(match.scores[w] <= 0 for w in match.winners)
        low = min(match.scores)
        assert all(match.scores[w] == low for w in match.winners)
        with pytest.raises(RulesError):
            match.start_hand(rng)


def test_players_two_to_six() -> None:
    with pytest.raises(RulesError):
        MulatschakMatch(MulatschakRules(), players=7)


def test_a_match_where_nobody_may_bid_ends_with_the_lowest_score() -> None:
    """Every seat at 5 or less: only ``weiter`` is legal, every hand would be redealt for
    ever; the match ends and the lowest score wins (reading, docs/rules/mulatschak.md)."""
    import random as _random

    from stammtisch.engine.core import play_random
    from stammtisch.games.mulatschak.match import MulatschakMatch
    from stammtisch.games.mulatschak.online import new_match
    from stammtisch.games.mulatschak.rules import MulatschakRules

    match = MulatschakMatch(MulatschakRules(), players=3, start=5)
    state = match.start_hand(_random.Random(1))
    play_random(state, _random.Random(2))
    result = match.finish_hand(state)
    assert result["bidder"] is None and result["match_winner"] == []  # the contract's key
    assert match.is_over() and match.winners == [0, 1, 2]
    # the online sitting's sheet names the same winners
    sitting = new_match(MulatschakRules(), 0, players=3)
    sitting.match.scores = [5, 4, 5]
    hand = sitting.start_game(_random.Random(3))
    play_random(hand, _random.Random(4))
    sitting.finish_game()
    assert sitting.is_over() and sitting.sheet.to_json()["winners"] == [1]
