"""A module missing after the README's install ends in one line naming the extra.

Each case runs the real entry point in a subprocess with the module blocked
(``sys.modules[name] = None`` makes every import of it fail, as if not installed).
"""

from __future__ import annotations

import subprocess
import sys

import pytest

RUN = """\
import sys
for name in sys.argv[1].split(","):
    sys.modules[name] = None
sys.argv = ["stammtisch", *sys.argv[2:]]
from stammtisch.cli.main import app
{extra}
app()
"""


def run_blocked(blocked: str, *args: str, extra: str = "") -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-c", RUN.format(extra=extra), blocked, *args],
                          capture_output=True, text=True, timeout=120)


def one_line(proc: subprocess.CompletedProcess[str]) -> str:
    assert proc.returncode != 0, proc
    assert "Traceback" not in proc.stderr + proc.stdout
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1, proc.stderr
    assert proc.stdout == ""
    return lines[0]


@pytest.mark.parametrize("blocked", ["pyspiel", "rlcard", "pyspiel,rlcard,numpy"])
def test_bench_compare_without_the_research_extra(blocked: str) -> None:
    line = one_line(run_blocked(blocked, "bench", "compare", "--seconds", "0.01"))
    assert line.startswith("stammtisch bench compare: needs the Python module")
    assert 'pip install -e ".[research]"' in line


def test_bench_compare_json_without_the_research_extra() -> None:
    line = one_line(run_blocked("pyspiel", "bench", "compare", "--json"))
    assert "research" in line


def test_bench_server_without_httpx() -> None:
    line = one_line(run_blocked("httpx", "bench", "server", "--tables", "1"))
    assert line == ("stammtisch bench server: needs the Python module 'httpx', which is not "
                    "installed; reinstall stammtisch: pip install -e .")


def test_any_command_missing_a_module_at_run_time() -> None:
    extra = ("@app.command('needs-rlcard')\n"
             "def needs_rlcard() -> None:\n"
             "    import rlcard  # noqa: F401\n")
    line = one_line(run_blocked("rlcard", "needs-rlcard", extra=extra))
    assert line == ("stammtisch: needs the Python module 'rlcard', which is not installed; "
                    'install the research extra: pip install -e ".[research]"')


def test_httpx_is_a_main_dependency() -> None:
    import tomllib
    from pathlib import Path

    project = tomllib.loads((Path(__file__).resolve().parents[1] / "pyproject.toml")
                            .read_text(encoding="utf-8"))["project"]
    assert any(d.split(">")[0].split("=")[0].strip() == "httpx" for d in project["dependencies"])


@pytest.mark.parametrize("command", [["arena", "--bots", "ismcts,random", "--deals", "1"],
                                     ["simulate", "--bots", "ismcts-200ms,random", "-n", "1"]])
def test_ismcts_bot_without_the_research_extra_names_it(command: list[str]) -> None:
    proc = run_blocked("numpy,pyspiel", *command)
    assert proc.returncode == 2
    assert "Traceback" not in proc.stderr + proc.stdout
    text = " ".join(proc.stderr.replace("│", " ").split())
    assert "need the research extra" in text and 'pip install -e ".[research]"' in text
