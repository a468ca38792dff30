"""Every command's ``--help`` shows its texts whole: nothing in square brackets is eaten."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest
import typer
from typer.testing import CliRunner

from stammtisch.cli.main import app

runner = CliRunner()


def _commands() -> Iterator[tuple[list[str], Any]]:
    """(path, click command) of every command; typer vendors click, so duck typing."""
    root = typer.main.get_command(app)

    def walk(path: list[str], cmd: Any) -> Iterator[tuple[list[str], Any]]:
        yield path, cmd
        if hasattr(cmd, "commands"):
            for name, sub in sorted(cmd.commands.items()):
                yield from walk([*path, name], sub)

    yield from walk([], root)


COMMANDS = list(_commands())


def _flat(text: str) -> str:
    return " ".join(text.split())


def test_the_tree_has_every_command() -> None:
    paths = {" ".join(p) for p, _ in COMMANDS}
    assert {"serve", "play", "replay", "simulate", "arena", "analyze", "bench playout",
            "bench solver", "bench server", "bench compare", "tournament rank"} <= paths


@pytest.mark.parametrize("path,cmd", COMMANDS, ids=[" ".join(p) or "stammtisch"
                                                     for p, _ in COMMANDS])
def test_help_keeps_every_bracketed_text(path: list[str], cmd: Any) -> None:
    out = runner.invoke(app, [*path, "--help"], terminal_width=100)
    assert out.exit_code == 0, out.output
    shown = _flat(out.output)
    texts = [cmd.help or ""] + [getattr(p, "help", None) or "" for p in cmd.params]
    for text in texts:
        for bracketed in re.findall(r"\[[^\]]*\]", text):
            assert _flat(bracketed) in shown, (path, bracketed)
    for p in cmd.params:
        default = getattr(p, "default", None)
        shown_default = default is not None and default is not False and default not in ([], ())
        if p.param_type_name == "option" and p.show_default and shown_default and not p.is_flag:
            assert f"default: {default}" in shown, (path, p.name)


def test_serve_help_shows_the_defaults() -> None:
    out = runner.invoke(app, ["serve", "--help"], terminal_width=100)
    shown = _flat(out.output)
    for text in ("[default: 127.0.0.1", "[default: 8000", "[default: 0.8]"):
        assert text in shown


def test_arena_help_shows_the_json_shapes() -> None:
    shown = _flat(runner.invoke(app, ["arena", "--help"], terminal_width=100).output)
    assert "ci95 ([lo, hi]; null with one deal)" in shown
    assert "bobbl ([won by A, won by B]" in shown
