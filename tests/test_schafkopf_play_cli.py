"""``stammtisch play --game schafkopf``: whole sittings through piped input (CliRunner)."""

from __future__ import annotations

import io
import random
import re

from rich.console import Console
from typer.testing import CliRunner

from stammtisch.cli.main import app
from stammtisch.cli.play_session import PlaySession, presenter_of
from stammtisch.games.schafkopf.presenter import parse_rules
from stammtisch.games.schafkopf.rules import SchafkopfRules


def run_play(*args: str, lang: str = "de", input: str = "1\n" * 600) -> str:
    runner = CliRunner(env={"LC_ALL": None, "LC_MESSAGES": None, "LANG": "C.UTF-8"})
    result = runner.invoke(app, ["play", "--game", "schafkopf", "--seed", "3", "--bots",
                                 "random", "--lang", lang, *args], input=input)
    assert result.exit_code == 0, result.output
    assert "Traceback" not in result.output
    return result.output


def test_a_whole_round_in_german() -> None:
    out = run_play("--bobbl", "1")
    assert "Deine Karten:" in out and "Abrechnung" in out
    assert "Sitzung beendet nach 4 Spielen" in out
    assert out.count("Ergebnis von Spiel") == 4


GERMAN_MARKERS = re.compile(
    r"[äöüÄÖÜ„]|\b(und|oder|von|der|die|das|ist|nicht|Karten|Spiel|Deine|Sitzung|gibt|"
    r"Geber|Eingabe|Möglich|Ergebnis|Spieler|Stand|Zahlungen|gespielt|spielt)\b")
ALLOWED = re.compile(r"Schwarz|Schneider|Laufende|Muss-Spiel|Stoß\w*|Pfüat eich|Säue")


def test_english_sitting_has_no_german_but_the_game_terms() -> None:
    out = run_play("--bobbl", "1", "--lang", "en", input="?\nl\nz\nxx\n99\n" + "1\n" * 600)
    found = [m.group(0) for m in GERMAN_MARKERS.finditer(ALLOWED.sub("", out))]
    assert found == []
    for text in ("Your cards:", "Abrechnung", "Result of hand 1", "Session over after 4 hands",
                 "No Stich has been played yet.", "There is no number 99"):
        assert text in out, text


def test_quit_and_end_of_input() -> None:
    out = run_play(input="1\nq\nn\n1\nq\nj\n")
    assert "Wirklich aufhören?" in out and "Die Sitzung ist beendet." in out
    out = run_play(input="1\n1\n")
    assert "Eingabe zu Ende" in out


def test_hotseat_and_options() -> None:
    out = run_play("--hotseat", "--bobbl", "1", "-o", "legen=true", "-o",
                   "all_pass=ramsch", input="1\n" * 800)
    assert "Karten von Spieler 1:" in out and "Karten von Spieler 4:" in out
    assert "Sitzung beendet nach 4 Spielen" in out


def test_bad_rules_and_humans() -> None:
    runner = CliRunner()
    result = runner.invoke(app, ["play", "--game", "schafkopf", "-o", "legen=vielleicht"],
                           input="")
    assert result.exit_code == 2 and "legen" in result.output
    result = runner.invoke(app, ["play", "--game", "schafkopf", "--humans", "7"], input="")
    assert result.exit_code == 2


def test_parse_helpers() -> None:
    assert presenter_of("schafkopf").parse_humans("0,2") == frozenset({0, 2})
    rules = parse_rules("standard", ["games=sauspiel,wenz", "legen=ja",
                                     'tariff={"solo": 60}'])
    assert rules.games == ("sauspiel", "wenz") and rules.legen
    assert rules.tariff_of("solo") == 60


def test_words_by_prefix_and_refusals() -> None:
    """A unique beginning of a word is that word; a card not held is refused with the
    engine's reason; the session only shows the human seat's own cards."""
    buf = io.StringIO()
    console = Console(file=buf, width=120, highlight=False)
    answers = iter(["zz", "weit"] + ["1"] * 500)
    session = PlaySession("schafkopf", SchafkopfRules.preset("standard"), console=console,
                          read=lambda prompt: next(answers), bot="random",
                          shuffle_rng=random.Random(8), bot_rng=random.Random(9),
                          bobbl_limit=1)
    assert session.run() == 0
    out = buf.getvalue()
    assert "„zz“ geht jetzt nicht" in out
    assert "Du: weiter" in out
