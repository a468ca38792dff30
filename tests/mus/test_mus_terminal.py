"""``stammtisch play --game mus``: the terminal session driven through stdin (the real
command in a subprocess) and through :class:`PlaySession` with a scripted reader."""

from __future__ import annotations

import io
import os
import random
import subprocess
import sys
from pathlib import Path

import pytest
from rich.console import Console

from stammtisch.bots.base import Bot
from stammtisch.cli import play_session
from stammtisch.cli.play_session import PlaySession
from stammtisch.errors import RulesError
from stammtisch.games import registry
from stammtisch.games.mus.presenter import MusPresenter, parse_rules
from stammtisch.games.mus.senas import SenasConfig

parse_humans = MusPresenter().parse_humans


def default_bot_name() -> str:
    return play_session.default_bot_name("mus")


def make_bot(name: str) -> Bot:
    return registry.make_bot("mus", name)

EXE = Path(sys.executable).parent / "stammtisch"


def _session(lines: list[str], *, options: list[str], humans: tuple[int, ...] = (0,),
             lang: str = "en", seed: int = 1, sets: int = 0) -> tuple[PlaySession, str]:
    feed = iter(lines)

    def read(prompt: str) -> str:
        try:
            return next(feed)
        except StopIteration:
            raise EOFError from None

    buf = io.StringIO()
    console = Console(file=buf, width=200, color_system=None)
    s = PlaySession("mus", parse_rules("duples", options), console=console, read=read,
                    humans=humans, bot="random", shuffle_rng=random.Random(seed),
                    bot_rng=random.Random(seed + 1), bobbl_limit=sets, lang=lang)
    code = s.run()
    assert code == 0
    return s, buf.getvalue()


def test_parse_rules_takes_rule_and_table_options() -> None:
    o = parse_rules("duples", ["target=10", "reyes=4", "senas=sichtbar", "catch=0.5"])
    assert o.rules.target == 10 and o.rules.reyes == 4
    assert o.senas == SenasConfig("sichtbar", 0.5)
    assert parse_rules("duples").senas.mode == "off"
    for bad, named in [(["reyes=6"], "reyes=6"), (["senas=laut"], "senas="),
                       (["catch=2"], "catch="), (["farbe=1"], "unknown option 'farbe'"),
                       (["target"], "KEY=VALUE")]:
        with pytest.raises(RulesError) as err:
            parse_rules("duples", bad)
        assert named in str(err.value)


def test_humans_and_bots() -> None:
    assert parse_humans("0,2") == frozenset({0, 2})
    with pytest.raises(ValueError, match="seats 0-3"):
        parse_humans("4")
    assert default_bot_name() in registry.bot_names("mus")
    assert hasattr(make_bot("random"), "choose")
    with pytest.raises(ValueError, match="unknown bot"):
        make_bot("no-such-bot")


def test_a_whole_match_with_numbers_only() -> None:
    s, text = _session(["1"] * 2000, options=["target=6", "sets=1"])
    assert s.match.is_over()
    assert "wins the match" in text
    assert "Showdown:" in text and "Grande:" in text and "amarracos" in text
    assert "Mano" in text and "counterclockwise" in text
    assert "must answer" in text and "stake" in text  # the betting
    assert "Pares: " in text and "Juego: " in text  # the declarations
    assert "— Grande —" in text


def test_words_senas_and_errors_in_german() -> None:
    lines = ["?", "seña nada", "seña ciego", "seña 31", "seña 2reyes", "seña duples",
             "seña 3reyes", "seña 2ases", "seña juego", "seña 30", "seña medias",
             "envido 1000", "z", "mus", "no mus"] + ["1"] * 2000
    s, text = _session(lines, options=["target=6", "sets=1", "senas=on"], lang="de", seed=4)
    assert "Eingabe:" in text  # the help
    assert "Seña nicht möglich" in text  # a seña that is not true or not a seña
    assert "Du zeigst deinem Partner" in text  # at least one true seña was made
    made = [e for h in s.match.match.hands for e in h["senas"]]
    assert made and all(e["seat"] == 0 for e in made)
    assert "Stand:" in text and "Sätze" in text


def test_hotseat_names_whose_turn_it_is() -> None:
    s, text = _session(["no mus", "paso", "paso", "paso", "paso"] + ["1"] * 2000,
                       options=["target=3", "sets=1"], humans=(0, 1, 2, 3), seed=9)
    assert "Player 4:" in text and "Player 1:" in text
    assert s.match.is_over()


def test_end_of_input_ends_cleanly() -> None:
    s, text = _session(["mus"], options=[])
    assert "End of input" in text and not s.match.is_over()


def test_the_real_command_through_stdin() -> None:
    answers = "mus\nno mus\n" + "1\n" * 3000
    proc = subprocess.run(
        [str(EXE), "play", "--game", "mus", "--seed", "5", "--lang", "en", "--bots", "random",
         "-o", "target=8", "-o", "sets=1", "-o", "senas=sichtbar"],
        input=answers, capture_output=True, text=True, timeout=120, check=False,
        env={**os.environ, "COLUMNS": "200"})
    assert proc.returncode == 0, proc.stderr
    out = proc.stdout
    assert "Traceback" not in out + proc.stderr
    assert "Señas: sichtbar (catch 0.2)" in out
    assert "Showdown:" in out and "wins the match" in out
    assert "Score: pair A" in out


def test_the_real_command_refuses_bad_options() -> None:
    proc = subprocess.run([str(EXE), "play", "--game", "mus", "-o", "senas=laut"],
                          input="", capture_output=True, text=True, timeout=60, check=False)
    assert proc.returncode == 2 and "senas=" in proc.stderr
    assert "Traceback" not in proc.stderr
