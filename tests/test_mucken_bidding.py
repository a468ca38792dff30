"""Bidding (seed 001 "Ansagen und Erhöhen", seed 000 "Spielansage") and the
doubling words (Kontra, Re, Sup, Hirsch)."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from stammtisch.cards import Card
from stammtisch.engine import Say
from stammtisch.errors import IllegalActionError
from stammtisch.games.mucken import MuckenState

GameFactory = Callable[..., MuckenState]


def words(state: MuckenState) -> list[str]:
    return [str(a) for a in state.legal_actions()]


# -- seed 001's examples ---------------------------------------------------------------
# With dealer 0 the speakers 1., 2., 3., 4. are seats 1, 2, 3, 0.


def test_seefest_example_1_muck_by_the_third_speaker(game: GameFactory) -> None:
    s = game(dealer=0)
    assert s.current_player == 1  # 1.: left of the dealer
    s = game(dealer=0, calls="weiter weiter muck weiter")
    assert [seat for seat, _ in s.calls] == [1, 2, 3, 0]
    assert s.phase == "doubling"  # "Das Ansagen ist beendet."
    assert s.contract == "muck" and s.declarer == 3
    assert s.bid is not None and s.bid.name == "muck"


def test_seefest_example_2_overcall_by_the_other_pair_starts_a_new_round(
    game: GameFactory,
) -> None:
    s = game(dealer=0, calls="weiter weiter muck wenz")
    assert s.phase == "bidding"
    assert s.holder == 0 and s.bid is not None and s.bid.name == "wenz"
    # "Spieler 1 darf z. B. „Schneidermuck“ sagen" although he said "weiter" before
    assert s.current_player == 1
    assert "schneidermuck" in words(s)
    s.push("schneidermuck")
    assert s.holder == 1 and s.phase == "bidding"


def test_the_third_known_result_schneidermuck_by_seat_0(game: GameFactory) -> None:
    s = game(dealer=3, calls="weiter weiter muck wenz schneidermuck weiter weiter weiter")
    assert [seat for seat, _ in s.calls] == [0, 1, 2, 3, 0, 1, 2, 3]
    assert s.phase == "doubling"
    assert s.contract == "schneidermuck" and s.declarer == 0
    assert s.bid is not None and s.bid.level == "schneider" and s.bid.kind == "muck"


def test_seed_000_example_muck_ueber_wenz(game: GameFactory) -> None:
    # "Der 1. und 2. Spieler sagen weiter, der 3. Wenz, der 4. weiter": a Wenz is played.
    s = game(rules="wikipedia", dealer=0, calls="weiter weiter wenz weiter")
    assert s.contract == "wenz" and s.declarer == 3
    # "... der 4. Muck: neue Ansagerunde. Spieler 1 darf z.B. Schneiderwenz sagen"
    s = game(rules="wikipedia", dealer=0, calls="weiter weiter wenz muck")
    assert s.phase == "bidding" and s.current_player == 1
    assert "schneiderwenz" in words(s)


# -- rounds ------------------------------------------------------------------------------


def test_weiter_players_are_skipped_for_the_rest_of_the_round(game: GameFactory) -> None:
    # seat 0 says weiter, seat 1 muck, seat 2 and 3 weiter: seat 0 is not asked again
    s = game(calls="weiter muck weiter weiter")
    assert s.phase == "doubling" and s.declarer == 1
    # a partner overcall (seefest: no new round) skips the weiter-sayers 0 and 2
    s = game(calls="weiter muck weiter wenz")
    assert s.phase == "bidding" and s.holder == 3
    assert s.current_player == 1
    s.push("weiter")
    assert s.phase == "doubling" and s.declarer == 3 and s.contract == "wenz"


def test_weiter_may_not_call_again_in_the_same_round(game: GameFactory) -> None:
    # 0 weiter, 1 weiter, 2 muck, 3 weiter: seat 0 never gets another turn
    s = game(calls="weiter weiter muck")
    assert s.current_player == 3
    s.push("weiter")
    assert s.phase == "doubling"
    with pytest.raises(IllegalActionError):
        s.apply_as(0, Say("schneidermuck"))


def test_the_holder_is_not_asked_until_overcalled(game: GameFactory) -> None:
    s = game(calls="muck")
    order = []
    for _ in range(3):
        order.append(s.current_player)
        s.push("weiter")
    assert order == [1, 2, 3]
    assert s.phase == "doubling" and s.declarer == 0


def test_overcall_by_the_other_pair_lets_everyone_speak_again(game: GameFactory) -> None:
    # 0 muck, 1 wenz (other pair): new round; 2 weiter, 3 weiter, 0 weiter ends it
    s = game(calls="muck wenz weiter weiter")
    assert s.phase == "bidding" and s.current_player == 0
    assert words(s) == ["weiter", "schneidermuck", "schneiderwenz", "schwarzmuck",
                        "schwarzwenz"]
    s.push("weiter")
    assert s.contract == "wenz" and s.declarer == 1


def test_partner_overcall_keeps_the_round_in_seefest(game: GameFactory) -> None:
    # 0 muck, 1 weiter, 2 wenz over his partner: the round goes on
    s = game(calls="muck weiter wenz")
    # seat 1 said weiter in this round and stays silent: next is seat 3, then seat 0
    assert s.current_player == 3
    s.push("weiter")
    assert s.current_player == 0
    s.push("weiter")
    assert s.phase == "doubling" and s.contract == "wenz" and s.declarer == 2


def test_partner_overcall_starts_a_new_round_in_the_wikipedia_preset(
    game: GameFactory,
) -> None:
    assert game(rules="wikipedia").rules.partner_overcall_new_round
    s = game(rules="wikipedia", calls="wenz weiter muck")
    # new round: seat 1, who said weiter, may speak again
    assert s.current_player == 3
    s.push("weiter")
    assert s.current_player == 0
    s.push("weiter")
    assert s.current_player == 1
    s.push("schneiderwenz")
    assert s.holder == 1
    # and the option alone does the same in the seefest preset
    s = game(calls="muck weiter wenz", partner_overcall_new_round=True)
    s.push("weiter")
    s.push("weiter")
    assert s.current_player == 1 and s.phase == "bidding"


def test_a_call_not_higher_is_rejected_with_a_message(game: GameFactory) -> None:
    s = game(calls="wenz")
    before = list(s.calls)
    for word in ("muck", "wenz"):
        with pytest.raises(IllegalActionError, match=f"{word} is not higher than wenz"):
            s.push(word)
    with pytest.raises(IllegalActionError, match="'geier' is not a game of these rules"):
        s.push("geier")
    with pytest.raises(IllegalActionError, match="must call a game or 'weiter'"):
        s.apply(Card.parse("EO"))
    assert s.calls == before
    s.push("schneidermuck")
    assert s.holder == 1


def test_legal_calls_are_weiter_and_every_higher_game(game: GameFactory) -> None:
    s = game()
    assert words(s) == ["weiter", "muck", "wenz", "schneidermuck", "schneiderwenz",
                        "schwarzmuck", "schwarzwenz"]
    s.push("schneiderwenz")
    assert words(s) == ["weiter", "schwarzmuck", "schwarzwenz"]
    s.push("schwarzwenz")
    assert words(s) == ["weiter"]


def test_all_four_weiter_is_a_pflichtmuck(game: GameFactory) -> None:
    s = game(calls="weiter weiter weiter weiter")
    assert s.contract == "pflichtmuck"
    assert s.phase == "play" and s.declarer is None and s.bid is None
    assert s.current_player == 0  # left of the dealer comes out
    assert s.order.trumps == game().order.trumps  # Muck trumps


@pytest.mark.parametrize("dealer", range(4))
def test_the_player_left_of_the_dealer_calls_and_leads(game: GameFactory, dealer: int) -> None:
    left = (dealer + 1) % 4
    s = game(dealer=dealer)
    assert s.leader == left and s.current_player == left
    assert s.cutter == (dealer + 3) % 4  # the player right of the dealer cuts
    s = game(dealer=dealer, calls="weiter weiter weiter muck", doubling="gut gut")
    assert s.phase == "play" and s.current_player == left
    assert s.declarer == dealer


# -- Kontra, Re, Sup, Hirsch --------------------------------------------------------------


def test_kontra_only_by_the_other_pair_also_after_weiter(game: GameFactory) -> None:
    s = game(calls="weiter weiter weiter muck")  # seat 3 declares; seats 0 and 2 said weiter
    assert s.phase == "doubling"
    assert s.current_player == 0 and words(s) == ["kontra", "gut"]
    s.push("gut")
    assert s.current_player == 2
    s.push("kontra")
    assert s.phase == "play" and s.doublings == 1 and s.doubling_seats == [2]
    assert s.result() is None


def test_the_declaring_pair_cannot_say_kontra(game: GameFactory) -> None:
    s = game(calls="weiter weiter weiter muck")
    for seat in (1, 3):
        with pytest.raises(IllegalActionError) as info:
            s.apply_as(seat, Say("kontra"))
        assert info.value.code == "not_your_turn"
    s.push("gut")
    s.push("gut")
    assert s.phase == "play" and s.doublings == 0
    with pytest.raises(IllegalActionError, match="must play a card"):
        s.push("kontra")


def test_no_re_with_a_single_kontra(game: GameFactory) -> None:
    s = game(calls="muck weiter weiter weiter", doubling="kontra")
    assert s.phase == "play" and s.doublings == 1
    with pytest.raises(IllegalActionError):
        s.push("re")


def test_no_doublings_when_the_rules_allow_none(game: GameFactory) -> None:
    s = game(calls="muck weiter weiter weiter", doublings=0)
    assert s.phase == "play" and s.current_player == 0


def test_re_sup_hirsch_with_four_doublings(game: GameFactory) -> None:
    s = game(calls="muck weiter weiter weiter", doublings=4)
    seen = []
    for word in ("kontra", "re", "sup", "hirsch"):
        assert words(s) == [word, "gut"]
        seen.append(s.current_player)
        s.push(word)
    # Kontra by the other pair, Re by the declarers, Sup by the other pair again ...
    assert seen == [1, 2, 3, 0]
    assert s.phase == "play" and s.doublings == 4
    assert s.view(None)["doublings"] == [
        {"seat": 1, "word": "kontra"}, {"seat": 2, "word": "re"},
        {"seat": 3, "word": "sup"}, {"seat": 0, "word": "hirsch"}]


def test_doubling_answer_may_be_declined_by_both(game: GameFactory) -> None:
    s = game(calls="muck weiter weiter weiter", doublings=4, doubling="gut kontra")
    assert s.doubling_seats == [3]
    assert s.current_player == 0 and words(s) == ["re", "gut"]
    s.push("gut")
    assert s.current_player == 2
    s.push("gut")
    assert s.phase == "play" and s.doublings == 1


def test_no_kontra_in_a_pflichtmuck(game: GameFactory) -> None:
    s = game(calls="weiter weiter weiter weiter")
    assert s.phase == "play"
    with pytest.raises(IllegalActionError):
        s.push("kontra")
    assert "kontra" not in words(s)
