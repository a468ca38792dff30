"""``stammtisch play``: whole sessions driven through piped input and a scripted PlaySession."""

from __future__ import annotations

import io
import random
import re
from collections.abc import Callable, Iterable

import pytest
from rich.console import Console
from typer.testing import CliRunner

from stammtisch.cards import Card
from stammtisch.cli.main import app
from stammtisch.cli.play_session import PlaySession
from stammtisch.errors import RulesError
from stammtisch.games.mucken.orders import trick_order
from stammtisch.games.mucken.presenter import parse_humans, parse_rules
from stammtisch.games.mucken.rules import MuckenRules
from stammtisch.games.mucken.state import MuckenState

# the session speaks German here: --lang defaults to the locale, so fix it
runner = CliRunner(env={"LC_ALL": None, "LC_MESSAGES": None, "LANG": "de_DE.UTF-8"})

Answer = Callable[[PlaySession, str], str]


def make_session(
    answer: Answer,
    *,
    humans: Iterable[int] = (0,),
    seed: int = 1,
    rules: MuckenRules | None = None,
    bobbl: int | None = 1,
    first_dealer: int | None = None,
) -> tuple[PlaySession, io.StringIO]:
    """A session whose human answers come from ``answer(session, prompt)``."""
    buf = io.StringIO()
    console = Console(file=buf, width=100, highlight=False)
    box: list[PlaySession] = []

    def read(prompt: str) -> str:
        console.print(prompt, end="")
        text = answer(box[0], prompt)
        console.print(text, markup=False)
        return text

    session = PlaySession(
        "mucken", rules or MuckenRules.preset("seefest"), console=console, read=read, humans=humans,
        bot="random", shuffle_rng=random.Random(seed), bot_rng=random.Random(seed + 1),
        bobbl_limit=bobbl, first_dealer=first_dealer,
    )
    box.append(session)
    return session, buf


def state_of(session: PlaySession) -> MuckenState:
    state = session.match.state
    assert state is not None
    return state


def first_option(session: PlaySession, prompt: str) -> str:
    """Enter (the default cut) when cutting, else the first numbered option."""
    state = session.match.state
    if state is None or state.phase == "cut":
        return ""
    return "1"


# -- whole sessions through the CLI --------------------------------------------------------


def test_full_session_piped_ones() -> None:
    result = runner.invoke(app, ["play", "--seed", "3", "--bots", "random"], input="1\n" * 4000)
    out = result.output
    assert result.exit_code == 0, out
    assert "Traceback" not in out
    assert "Auskarten" in out and "gibt zuerst" in out
    assert "Deine Karten:" in out
    assert "Spielstandzettel" in out
    assert "● Bobbl 1!" in out and "● Bobbl 2!" in out
    assert "Sitzung vorbei" in out
    assert "Ergebnis Spiel 1" in out and "Augen:" in out and "Stiche:" in out


def test_full_session_with_defaults_and_default_bot() -> None:
    """The default bot (heuristic when registered) plays a short session."""
    result = runner.invoke(
        app, ["play", "--seed", "11", "-o", "bobbl_target=6", "--bobbl", "1"],
        input="1\n" * 3000)
    assert result.exit_code == 0, result.output
    assert "● Bobbl 1!" in result.output
    assert "Traceback" not in result.output


def test_eof_ends_cleanly() -> None:
    result = runner.invoke(app, ["play", "--seed", "2", "--bots", "random"], input="1\n" * 3)
    assert result.exit_code == 0
    assert "Eingabe zu Ende — die Sitzung ist beendet." in result.output
    assert "Traceback" not in result.output


def test_quit_asks_first() -> None:
    result = runner.invoke(
        app, ["play", "--seed", "4", "--bots", "random", "--first-dealer", "0"],
        input="q\nn\n?\nz\nl\nq\nj\n")
    out = result.output
    assert result.exit_code == 0, out
    assert out.count("Wirklich aufhören? (j/n)") == 2
    assert "Gut, es geht weiter." in out
    assert "Eingaben" in out  # the help
    assert "Spielstandzettel" in out
    assert "Es ist noch kein Stich gespielt." in out
    assert "Die Sitzung ist beendet." in out
    assert "Auskarten" not in out  # --first-dealer skips it


def test_bad_bidding_input_via_cli() -> None:
    # dealer 3: seat 2 cuts, the human (seat 0) calls first with every game open
    result = runner.invoke(
        app, ["play", "--seed", "4", "--bots", "random", "--first-dealer", "3"],
        input="XX\nEO\n99\ns\nwenz\n")
    out = result.output
    assert result.exit_code == 0
    assert "„XX“ geht jetzt nicht" in out
    assert "Jetzt wird noch nicht gespielt" in out
    assert "Nummer 99 gibt es nicht" in out
    assert "mehrdeutig" in out
    assert out.count("Du › Ansage") >= 5
    assert "Du: wenz" in out
    assert "Traceback" not in out


def test_hotseat_cli_runs() -> None:
    result = runner.invoke(
        app, ["play", "--hotseat", "--seed", "5", "--bots", "random", "-o", "bobbl_target=4",
              "--bobbl", "1"], input="1\n" * 3000)
    out = result.output
    assert result.exit_code == 0, out
    assert "Deine Karten" not in out
    assert "Spieler 1 ist dran" in out or "Spieler 2 ist dran" in out
    assert "● Bobbl 1!" in out


def test_humans_option_and_auskarten_pairs() -> None:
    result = runner.invoke(
        app, ["play", "--humans", "0,2", "--seed", "8", "--bots", "random",
              "-o", "auskarten_pairs=true", "-o", "bobbl_target=4", "--bobbl", "1"],
        input="1\n" * 3000)
    out = result.output
    assert result.exit_code == 0, out
    assert "kartet aus" in out and "Sitzordnung" in out
    assert "Karten von Spieler" in out
    assert "● Bobbl 1!" in out


# -- option errors -----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("args", "needle"),
    [
        (["-o", "bobbl_target=abc"], "bobbl_target"),
        (["-o", "nosuch=1"], "unknown Mucken rules option 'nosuch'"),
        (["-o", "doublings=9"], "doublings=9"),
        (["-o", "klopfen=vielleicht"], "klopfen"),
        (["-o", "games=muck,schafkopf"], "unknown game 'schafkopf'"),
        (["-o", "justtext"], "expected key=value"),
        (["-o", 'values={"muck": 5}'], "three whole numbers"),
        (["-o", "values=nojson"], "not JSON"),
        (["--rules", "nope"], "unknown Mucken preset 'nope'"),
        (["--humans", "0,7"], "seats are 0..3"),
        (["--bots", "nosuchbot"], "unknown bot 'nosuchbot'"),
    ],
)
def test_option_errors_exit_2(args: list[str], needle: str) -> None:
    result = runner.invoke(app, ["play", *args], input="")
    assert result.exit_code == 2
    assert needle in result.output
    assert "Traceback" not in result.output


def test_parse_rules_converts_types() -> None:
    r = parse_rules("seefest", ["bobbl_target=31", "klopfen=ja", "games=muck, wenz, geier",
                                "doublings=2", "deck=long"])
    assert r.bobbl_target == 31 and r.klopfen is True and r.doublings == 2
    assert r.games == ("muck", "wenz", "geier") and r.deck == "long"
    r2 = parse_rules("wikipedia", ['values={"wenz": [2, 3, 4]}'])
    assert r2.value("wenz", "plain") == 2
    with pytest.raises(RulesError):
        parse_rules("seefest", ["cut_min=0"])
    assert parse_humans("0, 2") == frozenset({0, 2})
    with pytest.raises(ValueError):
        parse_humans("")


# -- scripted sessions ------------------------------------------------------------------------


def test_bad_card_inputs_explained_and_reprompted() -> None:
    """Not a card, a card not in hand, a card that does not follow: reason + new prompt."""
    tried: dict[str, bool] = {"xx": False, "absent": False, "follow": False}

    def answer(session: PlaySession, prompt: str) -> str:
        state = state_of(session)
        if state.phase == "cut":
            return ""
        if state.phase != "play":
            return "1"
        hand = state.hands[0]
        if not tried["xx"]:
            tried["xx"] = True
            return "XX"
        if not tried["absent"]:
            tried["absent"] = True
            absent = next(c for c in state.deck if c not in hand)
            return str(absent).lower()
        legal = state.legal_actions()
        if not tried["follow"] and len(legal) < len(hand):
            tried["follow"] = True
            return str(next(c for c in hand if c not in legal))
        return "1"

    session, buf = make_session(answer, seed=21)
    assert session.run() == 0
    out = buf.getvalue()
    assert all(tried.values())
    assert "„XX“ ist keine Karte" in out
    assert "hast du nicht auf der Hand (seat 0 does not hold" in out
    assert "Farbe/Trumpf bedienen! (seat 0 must follow" in out
    # every refusal is followed by a new prompt for a card
    for reason in ("ist keine Karte", "hast du nicht", "bedienen!"):
        after = out.split(reason, 1)[1]
        assert after.split("\n", 2)[1].startswith("Du › Karte")


def test_kontra_cut_and_last_trick_prompts() -> None:
    seen = {"kontra": 0, "cut": 0, "last": 0}

    def answer(session: PlaySession, prompt: str) -> str:
        state = state_of(session)
        if state.phase == "cut":
            seen["cut"] += 1
            return "7" if not state.cuts else "geben"
        if state.phase == "doubling":
            seen["kontra"] += 1
            return "kontra"
        if state.phase == "play" and state.tricks.winners and not seen["last"]:
            seen["last"] += 1
            return "l"
        return "1"

    session, buf = make_session(answer, seed=5, bobbl=2)
    assert session.run() == 0
    out = buf.getvalue()
    assert seen["kontra"] and seen["cut"] and seen["last"]
    assert "Du: Kontra!" in out
    assert "Du hebst 7 Karten ab." in out and "Du lässt geben." in out
    assert "Letzter Stich:" in out
    assert "Sitzung vorbei" in out


def test_hotseat_never_shows_another_hand() -> None:
    hand_line = re.compile(r"Karten von (Spieler \d): (.*)")
    pos = [0]
    checked = [0]

    def answer(session: PlaySession, prompt: str) -> str:
        state = state_of(session)
        out = buf_holder[0].getvalue()
        chunk, pos[0] = out[pos[0]:], len(out)
        seat = state.current_player
        assert "Deine Karten" not in chunk
        if "Die Karten dieses Spiels" not in chunk:  # after a game every hand is public
            for other in range(4):
                if other == seat:
                    continue
                held = " ".join(str(c) for c in state.sort_hand(state.hands[other]))
                if len(state.hands[other]) >= 2:
                    assert held not in chunk
        for m in hand_line.finditer(chunk):
            assert m.group(1) == session.name(seat), chunk
            shown = {re.sub(r"^\[\d+\]|·$", "", t) for t in m.group(2).split()}
            assert shown == {str(c) for c in state.hands[seat]}
            checked[0] += 1
        return first_option(session, prompt)

    buf_holder: list[io.StringIO] = []
    session, buf = make_session(
        answer, humans=range(4), seed=9,
        rules=MuckenRules.preset("seefest", bobbl_target=4))
    buf_holder.append(buf)
    assert session.run() == 0
    assert checked[0] > 20
    assert "● Bobbl 1!" in buf.getvalue()


def test_single_human_sees_only_own_hand() -> None:
    def answer(session: PlaySession, prompt: str) -> str:
        state = state_of(session)
        out = buf_holder[0].getvalue()
        tail = out[-3000:]
        if "Die Karten dieses Spiels" not in tail:
            for other in (1, 2, 3):
                held = " ".join(str(c) for c in state.sort_hand(state.hands[other]))
                if len(state.hands[other]) >= 3:
                    assert held not in tail
        return first_option(session, prompt)

    buf_holder: list[io.StringIO] = []
    session, buf = make_session(answer, seed=13)
    buf_holder.append(buf)
    assert session.run() == 0
    out = buf.getvalue()
    # the own hand appears sorted (at the deal: in the order of a Muck)
    line = next(ln for ln in out.splitlines() if ln.startswith("Deine Karten: "))
    cards = [Card.parse(t) for t in line.split(": ", 1)[1].split()]
    dealt = session.match.games[0].dealt[0]
    assert cards == trick_order("muck", "short").sorted(dealt)


def test_sheet_shows_bobbl_dots_and_tore() -> None:
    session, buf = make_session(first_option, seed=3, bobbl=2)
    assert session.run() == 0
    out = buf.getvalue()
    sheet = session.match.sheet
    assert len(sheet.finished_bobbl()) == 2
    assert out.count("Spielstandzettel") >= len(session.match.games)
    assert "bekommen den Bobbl, Tore" in out
    assert "Bobbl gewonnen" in out
    for b in sheet.finished_bobbl():
        assert b.loser is not None
        if b.brille:
            assert "● Brille" in out
