"""Golden transcripts of ``stammtisch play``: every line a session prints, per game, in
German and English, byte for byte.

Two kinds of scenario:

* ``CLI``: the real command (typer's ``CliRunner``) with fixed ``--seed`` and piped
  answers — one human against bots, hot-seat, ``--humans``, commands (``?``, ``l``,
  ``z``, ``q``), refused input, end of input, option errors; a few with colours forced.
* ``TYPIST``: a session driven through the shell's API (:func:`make_session`) by a
  seeded typist who looks at the state and answers like a person (numbers, words in any
  case, unique beginnings, cards not held, typos, commands, quitting and going on), on a
  console that is a colour terminal (styles and screen clearing are in the transcript),
  with ``interactive`` on (hot-seat hand-over and "next game" prompts).

Run ``python tests/golden/terminal/terminal_goldens.py`` to (re)write the ``*.txt`` files
next to this module — only on purpose: ``tests/test_terminal_golden.py`` checks that the
sessions still print exactly this.
"""

from __future__ import annotations

import io
import random
import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from rich.console import Console
from typer.testing import CliRunner

HERE = Path(__file__).parent

#: the command's environment: no locale (``--lang`` decides), a fixed width, no colour
PLAIN_ENV: dict[str, str | None] = {
    "LC_ALL": None, "LC_MESSAGES": None, "LANG": "C.UTF-8", "COLUMNS": "100",
    "LINES": "40", "FORCE_COLOR": None, "NO_COLOR": None, "COLORTERM": None,
    "TERM": "dumb", "TTY_COMPATIBLE": None, "TTY_INTERACTIVE": None,
}
#: the same with colours forced (rich writes ANSI styles)
COLOR_ENV: dict[str, str | None] = {**PLAIN_ENV, "FORCE_COLOR": "1", "TERM": "xterm"}


@dataclass(frozen=True)
class Cli:
    """``stammtisch play ARGS`` with ``stdin`` piped in."""

    name: str
    args: tuple[str, ...]
    stdin: str
    color: bool = False


@dataclass(frozen=True)
class Typist:
    """A session driven by a seeded typist (see the module)."""

    name: str
    game: str
    lang: str
    preset: str | None = None
    options: tuple[str, ...] = ()
    humans: tuple[int, ...] = (0,)
    seed: int = 1
    bobbl: int | None = 1
    first_dealer: int | None = None
    players: int | None = None
    bot: str = "random"
    #: the typist stops (end of input) after this many answers
    answers: int = 400
    #: how often the typist says something odd (a command, a typo, a number too big)
    odd: float = 0.12
    extra: dict[str, Any] = field(default_factory=dict)


ONES = "1\n" * 3000
MU_CYCLE = "1\nweiter\nmit\nbehalte\nnimm\n1\n"
CMDS = "?\nl\nz\n\nxx\n99\nq\nn\n"


def _cli() -> list[Cli]:
    out: list[Cli] = []
    for lang in ("de", "en"):
        b = ("--lang", lang, "--bots", "random")
        out += [
            # Mucken
            Cli(f"mucken_ones_{lang}", ("--seed", "3", *b, "-o", "bobbl_target=11",
                                        "--bobbl", "1"), ONES),
            Cli(f"mucken_commands_{lang}", ("--seed", "4", *b, "--first-dealer", "3"),
                "XX\nEO\n99\ns\nwenz\n" + CMDS + "7\ngeben\n" + "1\n" * 60),
            Cli(f"mucken_cut_patience_{lang}", ("--seed", "6", *b, "--first-dealer", "1"),
                "abc\n99\nzz\nq\nj\n"),
            Cli(f"mucken_hotseat_{lang}", ("--hotseat", "--seed", "5", *b, "-o",
                                           "bobbl_target=4", "--bobbl", "1"), ONES),
            Cli(f"mucken_humans_pairs_{lang}", ("--humans", "0,2", "--seed", "8", *b, "-o",
                                                "auskarten_pairs=true", "-o", "bobbl_target=4",
                                                "--bobbl", "1"), ONES),
            Cli(f"mucken_pairs_single_{lang}", ("--humans", "1", "--seed", "2", *b, "-o",
                                                "auskarten_pairs=true", "-o", "klopfen=true",
                                                "-o", "bobbl_target=4", "--bobbl", "1"), ONES),
            Cli(f"mucken_eof_{lang}", ("--seed", "2", *b), "1\n" * 3),
            Cli(f"mucken_quit_{lang}", ("--seed", "4", *b, "--first-dealer", "0"),
                "q\nn\n?\nz\nl\nq\nj\n"),
            # Schafkopf
            Cli(f"schafkopf_round_{lang}", ("--game", "schafkopf", "--seed", "3", *b,
                                            "--bobbl", "1"), CMDS + "zz\nweit\n" + ONES),
            Cli(f"schafkopf_hotseat_{lang}", ("--game", "schafkopf", "--hotseat", "--seed",
                                              "7", *b, "--bobbl", "1", "-o", "legen=true",
                                              "-o", "all_pass=ramsch"), ONES),
            Cli(f"schafkopf_eof_{lang}", ("--game", "schafkopf", "--seed", "3", *b),
                "1\nq\nn\n1\n"),
            Cli(f"schafkopf_quit_{lang}", ("--game", "schafkopf", "--seed", "5", *b,
                                           "--humans", "1,3"), "1\n" * 40 + "q\nj\n"),
            # Mulatschak
            Cli(f"mulatschak_4_{lang}", ("--game", "mulatschak", "--seed", "9", *b),
                CMDS + MU_CYCLE * 400),
            Cli(f"mulatschak_2_{lang}", ("--game", "mulatschak", "--players", "2", "--seed",
                                         "4", *b), MU_CYCLE * 400),
            Cli(f"mulatschak_6_{lang}", ("--game", "mulatschak", "--players", "6", "--seed",
                                         "4", *b, "--first-dealer", "5"), MU_CYCLE * 400),
            Cli(f"mulatschak_hotseat_{lang}", ("--game", "mulatschak", "--players", "3",
                                               "--hotseat", "--seed", "11", *b),
                MU_CYCLE * 400),
            Cli(f"mulatschak_eof_{lang}", ("--game", "mulatschak", "--seed", "1", *b), "1\n"),
            # Mus
            Cli(f"mus_match_{lang}", ("--game", "mus", "--seed", "5", *b, "-o", "target=8",
                                      "-o", "sets=1", "-o", "senas=sichtbar"),
                "mus\nno mus\n" + CMDS + "seña 31\nsena nada\nenvido 1000\n" + ONES),
            Cli(f"mus_senas_{lang}", ("--game", "mus", "--seed", "4", *b, "-o", "target=6",
                                      "-o", "sets=1", "-o", "senas=on"),
                "?\nseña nada\nseña ciego\nseña 31\nseña 2reyes\nseña duples\nseña 3reyes\n"
                "seña 2ases\nseña juego\nseña 30\nseña medias\nenvido 1000\nz\nmus\nno mus\n"
                + ONES),
            Cli(f"mus_hotseat_{lang}", ("--game", "mus", "--hotseat", "--seed", "9", *b,
                                        "-o", "target=3", "-o", "sets=1"),
                "no mus\npaso\npaso\npaso\npaso\n" + ONES),
            Cli(f"mus_sets_{lang}", ("--game", "mus", "--seed", "2", *b, "--bobbl", "1",
                                     "-o", "target=5"), ONES),
            Cli(f"mus_quit_{lang}", ("--game", "mus", "--seed", "3", *b), "mus\nq\nj\n"),
        ]
        # the default bots, short
        out += [
            Cli(f"mucken_default_bot_{lang}", ("--seed", "11", "--lang", lang, "-o",
                                               "bobbl_target=4", "--bobbl", "1"), ONES),
            Cli(f"schafkopf_default_bot_{lang}", ("--game", "schafkopf", "--seed", "2",
                                                  "--lang", lang), "1\n" * 30),
            Cli(f"mulatschak_default_bot_{lang}", ("--game", "mulatschak", "--seed", "2",
                                                   "--lang", lang), MU_CYCLE * 12),
            Cli(f"mus_default_bot_{lang}", ("--game", "mus", "--seed", "2", "--lang", lang),
                "1\n" * 40),
        ]
        # colours forced
        out += [
            Cli(f"mucken_color_{lang}", ("--seed", "12", *b, "-o", "bobbl_target=4",
                                         "--bobbl", "1"), CMDS + ONES, color=True),
            Cli(f"schafkopf_color_{lang}", ("--game", "schafkopf", "--seed", "12", *b),
                CMDS + "1\n" * 60, color=True),
            Cli(f"mulatschak_color_{lang}", ("--game", "mulatschak", "--seed", "12", *b),
                CMDS + MU_CYCLE * 30, color=True),
            Cli(f"mus_color_{lang}", ("--game", "mus", "--seed", "12", *b),
                CMDS + "1\n" * 80, color=True),
        ]
    # errors (exit 2) and the language from the locale
    errors: list[tuple[str, tuple[str, ...]]] = [
        ("err_lang", ("--lang", "fr")),
        ("err_game", ("--game", "skat")),
        ("err_players_fixed", ("--players", "3")),
        ("err_players_range", ("--game", "mulatschak", "--players", "7")),
        ("err_first_dealer", ("--first-dealer", "4")),
        ("err_mu_first_dealer", ("--game", "mulatschak", "--players", "3",
                                 "--first-dealer", "3")),
        ("err_rules", ("-o", "bobbl_target=abc")),
        ("err_rules_unknown", ("-o", "nosuch=1")),
        ("err_rules_values", ("-o", 'values={"muck": 5}')),
        ("err_rules_nojson", ("-o", "values=nojson")),
        ("err_rules_kv", ("-o", "justtext")),
        ("err_preset", ("--rules", "nope")),
        ("err_humans", ("--humans", "0,7")),
        ("err_humans_empty", ("--humans", ",")),
        ("err_bot", ("--bots", "nosuchbot")),
        ("err_sk_rules", ("--game", "schafkopf", "-o", "legen=vielleicht")),
        ("err_sk_kv", ("--game", "schafkopf", "-o", "legen")),
        ("err_sk_humans", ("--game", "schafkopf", "--humans", "7")),
        ("err_sk_humans_text", ("--game", "schafkopf", "--humans", "a,b")),
        ("err_mu_rules", ("--game", "mulatschak", "-o", "klopfen=vielleicht")),
        ("err_mu_humans", ("--game", "mulatschak", "--players", "3", "--humans", "0,4")),
        ("err_mu_humans_6", ("--game", "mulatschak", "--humans", "6")),
        ("err_mus_senas", ("--game", "mus", "-o", "senas=laut")),
        ("err_mus_unknown", ("--game", "mus", "-o", "farbe=1")),
        ("err_mus_catch", ("--game", "mus", "-o", "catch=2")),
        ("err_mus_humans", ("--game", "mus", "--humans", "4")),
    ]
    for lang in ("de", "en"):
        out += [Cli(f"{name}_{lang}", (*args, "--lang", lang) if name != "err_lang"
                    else args, "") for name, args in errors]
    out.append(Cli("locale_de", ("--seed", "2", "--bots", "random"), "1\n" * 5))
    return out


def _typists() -> list[Typist]:
    out: list[Typist] = []
    for lang in ("de", "en"):
        out += [
            Typist(f"t_mucken_single_{lang}", "mucken", lang, options=("bobbl_target=8",),
                   seed=31, bobbl=2, answers=500),
            Typist(f"t_mucken_hotseat_{lang}", "mucken", lang, options=(
                "bobbl_target=8", "klopfen=true"), humans=(0, 1, 2, 3), seed=32, bobbl=2,
                   answers=700),
            Typist(f"t_mucken_pairs_{lang}", "mucken", lang, options=(
                "auskarten_pairs=true", "bobbl_target=8", "doublings=3"), humans=(1, 3),
                   seed=33, answers=500, bobbl=3),
            Typist(f"t_mucken_wiki_{lang}", "mucken", lang, preset="wikipedia", options=(
                "bobbl_target=8", "no_game=ramsch"), humans=(2,), seed=34, first_dealer=2,
                   answers=500, bobbl=3),
            Typist(f"t_schafkopf_single_{lang}", "schafkopf", lang, seed=41, answers=300),
            Typist(f"t_schafkopf_hotseat_{lang}", "schafkopf", lang, options=(
                "legen=true", "all_pass=ramsch"), humans=(0, 1, 2, 3), seed=42, answers=500),
            Typist(f"t_schafkopf_two_{lang}", "schafkopf", lang, preset="anleitung",
                   humans=(1, 2), seed=43, answers=300, bobbl=0),
            Typist(f"t_mulatschak_4_{lang}", "mulatschak", lang, seed=51, answers=500,
                   extra={"muli": 0.3}),
            Typist(f"t_mulatschak_hotseat_{lang}", "mulatschak", lang, players=3,
                   humans=(0, 1, 2), seed=52, answers=500, extra={"muli": 0.2}),
            Typist(f"t_mulatschak_5_{lang}", "mulatschak", lang, players=5, humans=(1, 4),
                   seed=53, answers=400, first_dealer=4, extra={"muli": 0.1}),
            Typist(f"t_mus_single_{lang}", "mus", lang, options=("target=12", "sets=2",
                                                                 "senas=on"), seed=61,
                   bobbl=0, answers=500),
            Typist(f"t_mus_hotseat_{lang}", "mus", lang, options=("target=10", "sets=3",
                                                                  "senas=sichtbar"),
                   humans=(0, 1, 2, 3), seed=62, answers=600),
            Typist(f"t_mus_two_{lang}", "mus", lang, options=("target=10",), humans=(0, 2),
                   seed=63, bobbl=2, answers=400),
        ]
    return out


CLI: list[Cli] = _cli()
TYPISTS: list[Typist] = _typists()


# -- running ----------------------------------------------------------------------------------


def run_cli(case: Cli) -> str:
    """``exit N`` and what the command printed (stdout and stderr as a terminal shows)."""
    from stammtisch.cli.main import app

    env = dict(COLOR_ENV if case.color else PLAIN_ENV)
    if case.name == "locale_de":
        env["LANG"] = "de_DE.UTF-8"
    result = CliRunner(env=env).invoke(app, ["play", *case.args], input=case.stdin)
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise result.exception
    return f"exit {result.exit_code}\n{result.output}"


class _TypistReader:
    """The typist: answers from the state of the session's match (see the module)."""

    def __init__(self, case: Typist, console: Console) -> None:
        self.case = case
        self.rng = random.Random(case.seed * 7919)
        self.console = console
        self.session: Any = None
        self.left = case.answers

    def __call__(self, prompt: str) -> str:
        self.console.print(prompt, end="", markup=False, highlight=False)
        if self.left <= 0:
            self.console.print()
            raise EOFError
        self.left -= 1
        answer = self._answer(prompt)
        self.console.print(answer, markup=False, highlight=False)
        return answer

    def _answer(self, prompt: str) -> str:
        rng = self.rng
        if "(j/n)" in prompt or "(y/n)" in prompt:
            return rng.choice(["n", "nein", "no"]) if rng.random() > 0.05 else rng.choice(
                ["j", "ja", "y", "yes"])
        if "Muli" in prompt and "?" in prompt:
            return "muli" if rng.random() < self.case.extra.get("muli", 0.0) else ""
        state = self.session.match.state
        if state is None or state.is_terminal() or state.current_player < 0:
            # hand-over, next game
            return rng.choice(["", "", "", "", "", "", "ok", "", "", "q"])
        legal = [str(a) for a in state.legal_actions()]
        if self.case.game == "mus":  # keep the stakes small: a set is more than one hand
            small = [w for w in legal if not (w.startswith("envido ") and int(w[7:]) > 4)
                     and w != "ordago"]
            legal = small if small and rng.random() < 0.97 else legal
        if rng.random() < self.case.odd:
            roll = rng.random()
            if roll < 0.45:
                return rng.choice(["?", "h", "l", "z", "zettel", "", "q", "quit", "ENDE"])
            if roll < 0.65:
                return rng.choice(["xx", "blah", "0", "99", "E", "EO", "sa", "h10", "tausche E7",
                                   "descarte", "envido 1000", "12", "weli", "Trumpf h", "ab"])
            words = sorted({w.split(" ")[0] for w in legal})
            w = rng.choice(words)
            return w[: rng.randint(1, max(1, len(w)))]
        roll = rng.random()
        if roll < 0.35:
            return str(rng.randint(1, max(1, len(legal))))
        word = rng.choice(legal)
        if self.case.game == "mus" and rng.random() < 0.1:
            view = state.view(state.current_player)
            signs = view.get("senas_open") or []
            if signs:
                return f"seña {rng.choice(signs)}"
        return word.lower() if rng.random() < 0.5 else word


def make_session(case: Typist, console: Console, read: Callable[[str], str]) -> Any:
    """The session of a typist case (the shell's API)."""
    from stammtisch.cli.play_session import PlaySession, presenter_of
    from stammtisch.games import registry

    desc = registry.get(case.game)
    rules = presenter_of(desc).parse_rules(case.preset or desc.default_preset,
                                           list(case.options))
    return PlaySession(
        desc, rules, console=console, read=read, humans=case.humans, bot=case.bot,
        shuffle_rng=random.Random(case.seed), bot_rng=random.Random(case.seed + 1),
        bobbl_limit=case.bobbl, first_dealer=case.first_dealer, interactive=True,
        lang=case.lang, players=case.players)


def run_typist(case: Typist) -> str:
    """What a typist session printed, with its styles."""
    buf = io.StringIO()
    console = Console(file=buf, width=100, force_terminal=True, color_system="standard",
                      highlight=False, legacy_windows=False)
    reader = _TypistReader(case, console)
    session = make_session(case, console, reader)
    reader.session = session
    code = session.run()
    return f"exit {code}\n{buf.getvalue()}"


def cases() -> list[Cli | Typist]:
    return [*CLI, *TYPISTS]


def run(case: Cli | Typist) -> str:
    return run_cli(case) if isinstance(case, Cli) else run_typist(case)


def path_of(case: Cli | Typist) -> Path:
    return HERE / f"{case.name}.txt"


def main(argv: list[str]) -> int:
    wanted = set(argv)
    for case in cases():
        if wanted and case.name not in wanted:
            continue
        text = run(case)
        path_of(case).write_text(text, encoding="utf-8")
        print(f"{case.name}: {text.count(chr(10))} lines")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
