"""The Seefest-Mucker's tournament rules (seed 001) and the manager's rules (seed 000,
the issue) on the pure model: the draw at registration, closing gaps, the rotation, drawn
seating, an odd field, entering results, the time limit, the ranking and its lots."""

from __future__ import annotations

import json
import random
from collections.abc import Callable

import pytest

from stammtisch.tournament.model import Tournament
from stammtisch.tournament.ranking import parse_results, rank
from stammtisch.tournament.settings import ConflictError, TournamentError

Make = Callable[..., Tournament]


def fixed_draw(t: Tournament) -> None:
    """Pair 1 at table 1 as pair 1, pair 2 at table 1 as pair 2, pair 3 at table 2 …"""
    t.draw = {p: ((int(p) + 1) // 2, 2 - int(p) % 2) for p in t.draw}


def finish_round(t: Tournament, number: int, loser_points: int = 10) -> None:
    """Every open Bobbl of the round: side 1 wins, the other side has ``loser_points``."""
    for s in t.round_slots(number):
        if not s.decided and t.rounds[number - 1].tables[s.table][1] is not None:
            t.enter(number, s.table, s.index, winner=1, loser_points=loser_points)


def play(t: Tournament, rounds: int, rng: random.Random) -> None:
    t.start(rng)
    for r in range(1, rounds + 1):
        if r > 1:
            t.next_round(rng)
        finish_round(t, r)


def ranked(t: Tournament, seed: int = 0) -> list[tuple[str, int, int, int, bool]]:
    return [(r.pair, r.bobbl, r.tore, r.gegnerische_tore, r.los)
            for r in t.ranking(random.Random(seed))]


# -- the draw and the seating ---------------------------------------------------------------
def test_the_draw_happens_at_registration(tournament: Make) -> None:
    t = tournament(0, planned_tables=10)
    rng = random.Random(5)
    places = []
    for i in range(12):
        e = t.register([f"A{i}", f"B{i}"], rng)
        places.append(t.draw[e.id])  # table and pair number drawn at once
    assert len(set(places)) == 12
    assert all(1 <= table <= 10 and pos in (1, 2) for table, pos in places)


def test_gap_moves_are_the_fewest_and_close_the_gaps(tournament: Make) -> None:
    t = tournament(13, seed=3, planned_tables=10)  # 13 pairs drawn over 10 planned tables
    need = 7
    outside = {p for p, (table, _) in t.draw.items() if table > need}
    assert outside, "the seed should leave pairs beyond the needed tables"
    moves = t.gap_moves()
    # every pair beyond table 7 has to move, and nobody else does: the minimum
    assert {p for p, _, _ in moves} == outside and len(moves) == len(outside)
    taken = {place for p, place in t.draw.items() if p not in outside}
    targets = [to for _, _, to in moves]
    assert len(set(targets)) == len(targets) and not set(targets) & taken
    assert all(table <= need for table, _ in targets)
    assert all(t.draw[p] == frm for p, frm, _ in moves)  # only proposed, not made

    t.change_settings(odd_handling="bye")
    with pytest.raises(TournamentError, match="gaps"):
        t.start(random.Random(1))
    assert not t.started
    assert t.close_gaps() == moves
    assert t.gap_moves() == []
    assert len(set(t.draw.values())) == 13 and max(tb for tb, _ in t.draw.values()) == need
    t.start(random.Random(1))


def test_a_gap_left_by_a_withdrawal_is_closed_by_the_last_table(tournament: Make) -> None:
    t = tournament(10)
    fixed_draw(t)
    t.withdraw("3")  # table 2, pair 1
    t.withdraw("4")  # table 2, pair 2
    moves = t.gap_moves()  # 8 pairs need tables 1..4: table 5 moves into table 2
    assert sorted((p, to) for p, _, to in moves) == [("10", (2, 1)), ("9", (2, 2))] or \
        sorted((p, to) for p, _, to in moves) == [("10", (2, 2)), ("9", (2, 1))]


def test_seefest_rotation_over_five_rounds(tournament: Make) -> None:
    """Seed 001: pair 1 stays at its table for the whole tournament, pair 2 moves one
    table on after each round, from the last table to table 1."""
    t = tournament(12)  # 6 tables
    assert sorted(t.draw.values()) == [(tb, p) for tb in range(1, 7) for p in (1, 2)]
    rng = random.Random(2)
    play(t, 5, rng)
    assert len(t.rounds) == 5
    for rnd in t.rounds:
        r = rnd.number
        for pair, (table, pos) in t.draw.items():
            expected = (table, 1) if pos == 1 else ((table - 1 + r - 1) % 6 + 1, 2)
            assert rnd.side_of(pair) == expected, (r, pair, table, pos)
    last_two = next(p for p, place in t.draw.items() if place == (6, 2))
    assert [rnd.side_of(last_two) for rnd in t.rounds] == [(6, 2), (1, 2), (2, 2), (3, 2),
                                                           (4, 2)]
    two_of_twelve = [p for p, place in t.draw.items() if place == (1, 2)]
    assert t.rounds[1].side_of(two_of_twelve[0]) == (2, 2)
    met = [frozenset((a[0], b[0])) for rnd in t.rounds for a, b in rnd.tables.values()
           if b is not None]
    assert len(met) == len(set(met)) == 30  # no pair meets another twice in 5 rounds


@pytest.mark.parametrize("seed", range(4))
def test_drawn_seating_avoids_repeat_opponents(tournament: Make, seed: int) -> None:
    t = tournament(12, seed=seed, seating="draw")
    play(t, 5, random.Random(seed))
    met = [frozenset((a[0], b[0])) for rnd in t.rounds for a, b in rnd.tables.values()]
    assert len(met) == len(set(met)) == 30
    for rnd in t.rounds:
        seated = [x for a, b in rnd.tables.values() for x in (*a, *(b or ()))]
        assert sorted(seated) == sorted(t.entrants)


@pytest.mark.parametrize("seed", range(3))
def test_single_players_never_repeat_partners(tournament: Make, seed: int) -> None:
    t = tournament(16, seed=seed, mode="singles", seating="draw")
    assert t.draw == {}  # single players are drawn into pairs each round
    play(t, 5, random.Random(seed))
    partners = [frozenset(side) for rnd in t.rounds for a, b in rnd.tables.values()
                for side in (a, b) if side is not None]
    assert all(len(p) == 2 for p in partners)
    assert len(partners) == len(set(partners)) == 40
    for rnd in t.rounds:
        seated = [x for a, b in rnd.tables.values() for x in (*a, *(b or ()))]
        assert sorted(seated) == sorted(t.entrants)
    rows = t.ranking(random.Random(1))
    assert len(rows) == 16 and all(r.played == 10 for r in rows)


# -- an odd field -------------------------------------------------------------------------
def test_an_odd_field_never_starts_silently(tournament: Make) -> None:
    t = tournament(7)
    rng = random.Random(1)
    with pytest.raises(TournamentError, match="odd_handling"):
        t.start(rng)
    t.change_settings(odd_handling="helpers")
    with pytest.raises(TournamentError, match="register the helpers"):
        t.start(rng)
    assert not t.started and t.rounds == []
    helpers = t.register(["Helfer", "Helferin"], rng, helper=True)
    t.close_gaps()
    t.start(rng)
    assert all(b is not None for _, b in t.rounds[0].tables.values())
    finish_round(t, 1)
    rows = t.ranking(rng)
    assert len(rows) == 7 and helpers.id not in {r.pair for r in rows}


def test_a_bye_is_credited_as_the_organiser_stated(tournament: Make) -> None:
    t = tournament(7, odd_handling="bye", bye_bobbl=1, bye_tore=10, rounds=2)
    rng = random.Random(1)
    t.start(rng)
    (bye_table,) = [tb for tb, (_, b) in t.rounds[0].tables.items() if b is None]
    (bye_pair,) = t.rounds[0].tables[bye_table][0]
    with pytest.raises(TournamentError, match="bye"):
        t.enter(1, bye_table, 0, winner=1, loser_points=3)
    finish_round(t, 1)
    row = t.tally()[bye_pair]
    assert (row.bobbl, row.tore, row.played) == (1, 10, 0)
    t.next_round(rng)  # the bye's Bobbl count as decided


# -- entering results -----------------------------------------------------------------------
def started(make: Make, pairs: int = 4, **settings: object) -> Tournament:
    t = make(pairs, **settings)
    fixed_draw(t)
    t.start(random.Random(1))
    return t


def test_game_by_game_the_last_game_is_not_written(tournament: Make) -> None:
    """Seed 001: a Bobbl ends with the game that would reach 21; that game is not
    written, the winning counts, the loser's points are its Tore."""
    t = started(tournament)
    games = [(1, 3), (2, 4), (1, 10), (2, 2), (1, 8)]  # 13:6, then 13 + 8 >= 21
    slot = t.enter(1, 1, 0, games=games)
    assert slot.result is not None and slot.result.winner == 1
    assert slot.result.points == (13, 6)
    assert slot.result.games == games
    with pytest.raises(TournamentError, match="already ended at game 5"):
        t.enter(1, 1, 0, games=[*games, (2, 3)])
    t.enter(1, 1, 1, winner=2, loser_points=6)  # final figures
    rows = t.tally()
    assert (rows["1"].bobbl, rows["1"].tore, rows["1"].gegnerische_tore) == (1, 6, 6)
    assert (rows["2"].bobbl, rows["2"].tore, rows["2"].gegnerische_tore) == (1, 6, 6)
    # the results file marks the winner by the target, and ranks the same
    data = t.results_file()
    assert data["bobbl"][0]["points"] == [21, 6]
    ref = {r.pair: (r.bobbl, r.tore, r.gegnerische_tore) for r in rank(parse_results(data))}
    assert ref["1"] == ref["2"] == (1, 6, 6)


def test_an_unfinished_game_list_keeps_the_bobbl_open(tournament: Make) -> None:
    t = started(tournament)
    slot = t.enter(1, 1, 0, games=[(1, 5), (2, 5)])
    assert slot.result is not None and slot.result.winner is None and not slot.decided
    assert "1" not in {k for k, r in t.tally().items() if r.played}
    with pytest.raises(TournamentError, match="needs side 1 or 2"):
        t.enter(1, 1, 0, games=[(3, 5)])
    with pytest.raises(TournamentError, match="needs side 1 or 2"):
        t.enter(1, 1, 0, games=[(1, 5, 2)])  # type: ignore[list-item]
    with pytest.raises(TournamentError, match=r"loser_points must be 0\.\.20"):
        t.enter(1, 1, 0, winner=1, loser_points=21)


def test_a_brille_counts_like_any_bobbl(tournament: Make) -> None:
    """Seed 001: Bobbl won to nil ("Brillen") count like any other."""
    t = started(tournament, rounds=1)
    t.enter(1, 1, 0, winner=1, loser_points=20)
    t.enter(1, 1, 1, winner=1, loser_points=20)
    t.enter(1, 2, 0, games=[(1, 10), (1, 10), (1, 5)])  # 21:0, a Brille
    t.enter(1, 2, 1, winner=1, loser_points=0)  # another
    got = {r.pair: (r.rank, r.bobbl, r.tore, r.gegnerische_tore) for r in t.ranking()}
    assert got == {"3": (1, 2, 0, 0), "1": (2, 2, 0, 40), "2": (3, 0, 40, 0),
                   "4": (4, 0, 0, 0)}


def test_double_entry_shows_mismatches_until_they_agree(tournament: Make) -> None:
    t = started(tournament, double_entry=True)
    slot = t.enter(1, 1, 0, source="phone:1:1", winner=1, loser_points=10)
    assert slot.result is None
    assert [s.key for s in t.pending()] == ["1/1/0"] and t.mismatches() == []
    t.enter(1, 1, 0, source="phone:1:2", winner=1, loser_points=12)
    assert slot.result is None and [s.key for s in t.mismatches()] == ["1/1/0"]
    t.enter(1, 1, 0, source="phone:1:2", winner=1, loser_points=10)
    assert slot.result is not None and slot.result.points == (21, 10)
    assert t.pending() == [] and t.mismatches() == []
    # two helpers at the desk: the same
    t.enter(1, 2, 0, source="desk:Anna", winner=2, loser_points=3)
    assert t.slot(1, 2, 0).result is None
    t.enter(1, 2, 0, source="desk:Bernd", winner=2, loser_points=3)
    assert t.slot(1, 2, 0).decided


def test_phone_entries_wait_for_the_desk(tournament: Make) -> None:
    t = started(tournament)
    slot = t.enter(1, 1, 0, source="phone:1", winner=2, loser_points=4, by="phone table 1")
    assert slot.result is None and [s.key for s in t.pending()] == ["1/1/0"]
    assert t.tally()["2"].bobbl == 0
    with pytest.raises(TournamentError, match="no entry from 'phone:2'"):
        t.confirm(1, 1, 0, "phone:2")
    with pytest.raises(ConflictError, match="Bobbl 1/1/0 was changed"):
        t.confirm(1, 1, 0, "phone:1", expected_version=0)
    t.confirm(1, 1, 0, "phone:1", by="Anna", expected_version=1)
    assert slot.result is not None and slot.result.by == "Anna"
    assert t.tally()["2"].bobbl == 1 and t.pending() == []

    final = started(tournament, phone_entries_final=True)
    final.enter(1, 1, 0, source="phone:1", winner=2, loser_points=4)
    assert final.slot(1, 1, 0).decided


def test_stale_versions_conflict_and_name_the_entity(tournament: Make) -> None:
    t = started(tournament)
    t.enter(1, 1, 0, winner=1, loser_points=3, expected_version=0)
    with pytest.raises(ConflictError, match=r"Bobbl 1/1/0 was changed meanwhile \(version 1"):
        t.enter(1, 1, 0, winner=2, loser_points=3, expected_version=0)
    assert t.slot(1, 1, 0).result.winner == 1  # type: ignore[union-attr]
    t.set_paid("3", True, expected_version=1)
    with pytest.raises(ConflictError, match="entrant 3"):
        t.set_paid("3", False, expected_version=1)
    assert t.entrants["3"].paid


# -- the time limit and compensation -------------------------------------------------------
def test_time_limit_open_bobbl_are_lost_by_both(tournament: Make) -> None:
    """Seed 001 "Zeitlimit": Bobbl still open after the round's time are lost by both
    pairs, each credited its points so far as Tore."""
    t = started(tournament, rounds=2)
    t.enter(1, 1, 0, winner=1, loser_points=13)
    t.enter(1, 1, 1, games=[(1, 8), (2, 5), (1, 4)])  # open at 12:5
    t.enter(1, 2, 1, source="phone:2", winner=2, loser_points=3)  # finished, unconfirmed
    with pytest.raises(TournamentError, match="open Bobbl"):
        t.next_round(random.Random(1))
    closed = t.time_up(1)
    assert sorted(s.key for s in closed) == ["1/1/1", "1/2/0"]  # 1/2/0 never started
    rows = t.tally()
    assert (rows["1"].bobbl, rows["1"].tore, rows["1"].gegnerische_tore) == (1, 12, 13)
    assert (rows["2"].bobbl, rows["2"].tore, rows["2"].gegnerische_tore) == (0, 18, 0)
    assert (rows["3"].bobbl, rows["3"].tore, rows["4"].tore) == (0, 0, 0)
    assert rows["1"].played == 2 and rows["3"].played == 1
    with pytest.raises(TournamentError, match="closed by the time limit"):
        t.enter(1, 1, 1, winner=1, loser_points=5)
    # the Bobbl finished in time waits for the desk, then the next round can start
    with pytest.raises(TournamentError, match="1/2/1"):
        t.next_round(random.Random(1))
    t.confirm(1, 2, 1, "phone:2")
    t.next_round(random.Random(1))
    # a time-up Bobbl in the results file: both below the target, ranked alike
    ref = {r.pair: (r.bobbl, r.tore, r.gegnerische_tore) for r in rank(parse_results(
        t.results_file()))}
    assert ref == {k: (r.bobbl, r.tore, r.gegnerische_tore) for k, r in t.tally().items()}


def test_compensation_points_count_as_tore_with_a_reason(tournament: Make) -> None:
    t = started(tournament)
    with pytest.raises(TournamentError, match="reason"):
        t.compensate(1, "1", 5, "  ")
    with pytest.raises(TournamentError, match="points=0"):
        t.compensate(1, "1", 0, "waited")
    t.compensate(1, "1", 5, "pair 2 came 20 minutes late")
    assert t.tally()["1"].tore == 5
    assert t.compensations[0].reason == "pair 2 came 20 minutes late"


# -- the ranking ------------------------------------------------------------------------------
def tie_break_tournament(make: Make) -> Tournament:
    t = started(make, 6, rounds=1)
    for table, (w0, lp0), (w1, lp1) in (
            (1, (1, 7), (2, 7)),   # pairs 1, 2: a Bobbl each, 7 Tore, 7 gegnerische: tied
            (2, (1, 9), (2, 7)),   # pair 3: 1 Bobbl, 7 Tore, 9 gegn.; pair 4: 1, 9, 7
            (3, (1, 0), (2, 0))):  # pairs 5, 6: a Brille each: 1 Bobbl, 0, 0: tied
        t.enter(1, table, 0, winner=w0, loser_points=lp0)
        t.enter(1, table, 1, winner=w1, loser_points=lp1)
    return t


def test_ranking_tie_breaks_bobbl_tore_gegnerische_tore_lot(tournament: Make) -> None:
    t = tie_break_tournament(tournament)
    rows = t.ranking(random.Random(11))
    assert [r.rank for r in rows] == [1, 2, 3, 4, 5, 6]
    assert rows[0].pair == "4"  # most Tore
    assert {rows[1].pair, rows[2].pair} == {"1", "2"} and rows[1].los and rows[2].los
    assert rows[3].pair == "3" and not rows[3].los  # more gegnerische Tore than 1 and 2
    assert {rows[4].pair, rows[5].pair} == {"5", "6"} and rows[4].los and rows[5].los
    assert not rows[0].los
    # the lot was drawn for the tied pairs only, and stored
    assert set(t.lots) == {"1", "2", "5", "6"}


def test_the_lot_is_drawn_once_and_stays(tournament: Make) -> None:
    t = tie_break_tournament(tournament)
    first = ranked(t, seed=1)
    lots = dict(t.lots)
    for seed in range(2, 8):  # other randomness cannot change a stored lot
        assert ranked(t, seed) == first
    assert t.lots == lots
    again = Tournament.from_json(json.loads(json.dumps(t.to_json())))
    assert ranked(again, seed=99) == first
    # the results file carries the lots: `stammtisch tournament rank` agrees
    assert [(r.pair, r.los) for r in rank(parse_results(t.results_file()))] == \
        [(p, los) for p, _, _, _, los in first]


def test_bobbl_count_before_tore(tournament: Make) -> None:
    t = started(tournament, rounds=1)
    t.enter(1, 1, 0, winner=2, loser_points=20)
    t.enter(1, 1, 1, winner=1, loser_points=20)
    t.enter(1, 2, 0, winner=1, loser_points=0)
    t.enter(1, 2, 1, winner=1, loser_points=0)
    order = [r.pair for r in t.ranking(random.Random(1))]
    assert order[0] == "3"  # 2 Bobbl, no Tore, beats 1 Bobbl with 20 Tore
    assert order[-1] == "4"


def test_correcting_round_1_after_round_3_changes_the_ranking(tournament: Make) -> None:
    t = tournament(8, rounds=3)
    fixed_draw(t)
    play(t, 3, random.Random(4))
    before = {r.pair: (r.bobbl, r.tore) for r in t.ranking(random.Random(1))}
    assert before["1"] == (6, 0) and before["2"] == (0, 60)
    assert {r.pair: r.rank for r in t.ranking()}["1"] <= 4  # tied with 3, 5, 7 (by lot)
    slot = t.slot(1, 1, 0)
    t.enter(1, 1, 0, winner=2, loser_points=15, expected_version=slot.version)
    after = {r.pair: (r.bobbl, r.tore, r.gegnerische_tore)
             for r in t.ranking(random.Random(1))}
    assert after["1"] == (5, 15, 50) and after["2"] == (1, 50, 15)
    rows = {r.pair: r for r in t.ranking()}
    assert (rows["1"].rank, rows["2"].rank) == (4, 5)  # behind 3, 5, 7; ahead of 4, 6, 8
    with pytest.raises(TournamentError, match="round 1 is closed"):
        t.enter(1, 1, 1, games=[(1, 4)])
    with pytest.raises(ConflictError, match="Bobbl 1/1/0"):
        t.enter(1, 1, 0, winner=1, loser_points=0, expected_version=slot.version - 1)


# -- settings -----------------------------------------------------------------------------------
def test_settings_are_fixed_at_the_start_except_the_time_limit(tournament: Make) -> None:
    t = tournament(4)
    t.change_settings(target=31, time_limit_minutes=30)
    with pytest.raises(TournamentError, match="mode='singles'"):
        t.change_settings(mode="singles", seating="draw")
    fixed_draw(t)
    t.start(random.Random(1))
    for change in ({"target": 21}, {"rounds": 4}, {"ranking": "plus"},
                   {"time_limit_minutes": 45, "bobbl_per_round": 3}):
        with pytest.raises(TournamentError, match="fixed once round 1 starts"):
            t.change_settings(**change)
    t.change_settings(time_limit_minutes=45)
    assert (t.settings.target, t.settings.time_limit_minutes) == (31, 45)


def test_move_only_places_drawn_pairs(tournament: Make) -> None:
    t = tournament(3)
    pre = t.import_csv("Xaver;Yvonne;QR9\n")[0]
    with pytest.raises(TournamentError, match="no place in the draw"):
        t.move(pre.id, 5, 1)
    with pytest.raises(TournamentError, match="taken"):
        t.move("1", *t.draw["2"])
    free = next((tb, pos) for tb in (1, 2, 3) for pos in (1, 2)
                if (tb, pos) not in t.draw.values())
    t.move("1", *free)
    assert t.draw["1"] == free
