"""Optional dependencies: one clean line (and exit 1) instead of a traceback.

The README's install (``pip install -e .``) has everything the web server, ``play``,
``replay``, ``simulate``, ``arena``, ``analyze``, ``tournament`` and ``bench playout``,
``solver`` and ``server`` need.  ``bench compare`` (and the IS-MCTS bots) need the
``research`` extra; :func:`require` says so in one line, and :func:`missing_module_line`
words the same for any module that turns out missing at run time (the entry point
:data:`stammtisch.cli.main.app` catches ``ModuleNotFoundError``).
"""

from __future__ import annotations

import importlib

import typer

#: top-level module -> the pip extra that installs it ("" = a main dependency)
EXTRA_OF: dict[str, str] = {
    "pyspiel": "research",
    "open_spiel": "research",
    "rlcard": "research",
    "pettingzoo": "research",
    "numpy": "research",
    "gymnasium": "research",
    "pytest": "test",
    "hypothesis": "test",
    "playwright": "test",
}


def install_hint(module: str) -> str:
    """How to install ``module``: the extra it belongs to, or the main install."""
    extra = EXTRA_OF.get(module.split(".")[0], "")
    if extra:
        return f'install the {extra} extra: pip install -e ".[{extra}]"'
    return "reinstall stammtisch: pip install -e ."


def missing_module_line(module: str, command: str = "stammtisch") -> str:
    """One line: which module is missing and how to install it."""
    return f"{command}: needs the Python module {module!r}, which is not installed; " \
           f"{install_hint(module)}"


#: bots registered only when their extra is installed: name prefix -> extra
BOT_EXTRAS = {"ismcts": "research"}


def unknown_bot_text(name: str, known: list[str] | tuple[str, ...] | set[str]) -> str:
    """"unknown bot 'x' (known: ...)", naming the extra for a bot that needs one."""
    text = f"unknown bot {name!r} (known: {', '.join(sorted(known))})"
    for prefix, extra in BOT_EXTRAS.items():
        if name.startswith(prefix):
            text += (f"; the {prefix} bots need the {extra} extra: "
                     f'pip install -e ".[{extra}]"')
    return text


def require(command: str, *modules: str) -> None:
    """Import ``modules``; if one is missing print one line to stderr and exit 1."""
    for module in modules:
        try:
            importlib.import_module(module)
        except ImportError as e:
            missing = getattr(e, "name", None) or module
            typer.echo(missing_module_line(missing if missing in EXTRA_OF else module,
                                           command), err=True)
            raise typer.Exit(1) from None
