"""Every refusal the server can send has a text in both languages (issue 9: one language
per screen, never the server's English ``message`` inside a German page).

The codes are collected from the source, not from a list kept by hand: a static scan
(``ast``) of ``src/stammtisch/server/**/*.py`` finds

- ``{"code": "…"}`` dict literals (``HTTPException(detail=…)``, websocket ``{"type":
  "error", …}``, ``JSONResponse``), ``error(status, "code", …)`` / ``_error(…)`` and
  ``ActionRejected("code", …)``, the ``(…, "code", …)`` tuples of ``problem`` /
  ``frame_problem`` (the request guard and the websocket frame checks);
- codes passed on from an exception (``e.code``): every ``code`` of the project's typed
  errors (``class …Error: code = "…"``, ``IllegalActionError(…, "code")``);
- the tournament service's refusals: ``TournamentError(message, "reason", **params)`` and
  ``NotFoundError(…)`` in the tournament package, sent as ``{"code", "reason", "params"}``
  and shown as ``error.<code>.<reason>`` filled with the params.

A code that is built some other way (a new dynamic expression) fails the scan, so it
cannot slip past.  The texts live in ``static/i18n/{de,en}.json``.
"""

from __future__ import annotations

import ast
import json
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SRC = ROOT / "src" / "stammtisch"
SERVER = SRC / "server"
STATIC = SERVER / "static"
PLACEHOLDER = re.compile(r"\{(\w+)\}")
CODE = re.compile(r"^[a-z][a-z0-9_]*$")

#: exception classes of the tournament service and the code the API sends for them
TOURNAMENT_ERRORS = {"TournamentError": "invalid_tournament", "NotFoundError": "not_found"}
#: dynamic ``"code"`` expressions the scan knows, by file (anything else fails the test):
#: a typed error's ``e.code``, the error helpers' own ``code`` argument (their calls are
#: scanned), the checks' ``(…, code, …)`` tuples (scanned too) and Starlette's statuses
DYNAMIC = {
    ("app.py", "_STATUS_CODES.get(exc.status_code, 'error')"),
    ("api.py", "code"),
    ("hardening.py", "code"),
    ("online_tournament.py", "code"), ("online_tournament.py", "e.code"),
    ("referee.py", "e.code"),  # server/live/referee.py: the engine's refusals
    ("tournament_api.py", "code"), ("tournament_api.py", "e.code"),
    ("ws.py", "code"), ("ws.py", "e.code"),
    # the relay of several workers (server/workers/sockets.py) passes websocket close
    # codes (ints) on to the relaying worker
    ("sockets.py", "code"), ("sockets.py", "CLOSE_MOVED"),
}
#: modules under server/ that are clients of the server (the load generator), not it
CLIENTS = {"loadtest.py"}
#: filled in by the page for every text: the code itself
ALWAYS = {"code"}


@dataclass
class Site:
    """One place that sends ``code`` (and maybe ``reason``), with the params it fills."""

    where: str
    params: set[str] = field(default_factory=set)


def _texts(lang: str) -> dict[str, str]:
    data = json.loads((STATIC / "i18n" / f"{lang}.json").read_text(encoding="utf-8"))
    assert isinstance(data, dict)
    return data


def _const(node: ast.AST | None) -> str | None:
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    return None


def _consts(node: ast.AST | None) -> list[str] | None:
    """A constant text, or both branches of ``"a" if … else "b"``; None otherwise."""
    if isinstance(node, ast.IfExp):
        a, b = _consts(node.body), _consts(node.orelse)
        return None if a is None or b is None else a + b
    c = _const(node)
    return None if c is None else [c]


def _dict_keys(node: ast.AST | None) -> set[str]:
    if isinstance(node, ast.Dict):
        return {k for k in map(_const, node.keys) if k is not None}
    return set()


def _name(func: ast.AST) -> str:
    if isinstance(func, ast.Name):
        return func.id
    if isinstance(func, ast.Attribute):
        return func.attr
    return ""


def _arg(call: ast.Call, index: int, keyword: str) -> ast.AST | None:
    if len(call.args) > index:
        return call.args[index]
    return next((k.value for k in call.keywords if k.arg == keyword), None)


def _files(*roots: Path) -> Iterator[tuple[str, ast.Module]]:
    for root in roots:
        for path in sorted(root.rglob("*.py")) if root.is_dir() else [root]:
            if path.name in CLIENTS:
                continue
            yield str(path.relative_to(ROOT)), ast.parse(path.read_text(encoding="utf-8"))


class Scan:
    def __init__(self) -> None:
        #: (code, reason or "") -> the sites sending it
        self.keys: dict[tuple[str, str], list[Site]] = {}
        self.dynamic: set[tuple[str, str]] = set()
        self.without_reason: list[str] = []

    def add(self, code: str, reason: str, site: Site) -> None:
        assert CODE.match(code), (code, site.where)
        assert not reason or CODE.match(reason), (reason, site.where)
        self.keys.setdefault((code, reason), []).append(site)

    def codes(self) -> set[str]:
        return {c for c, _ in self.keys}

    # -- the server's own codes --------------------------------------------------------
    def server(self) -> None:
        exception_codes = self.exception_codes()
        status_codes: list[str] = []
        for where, tree in _files(SERVER):
            for node in ast.walk(tree):
                line = f"{where}:{getattr(node, 'lineno', 0)}"
                if isinstance(node, ast.Assign) and any(
                        isinstance(t, ast.Name) and t.id == "_STATUS_CODES" for t in node.targets):
                    assert isinstance(node.value, ast.Dict)
                    status_codes += [c for c in map(_const, node.value.values) if c]
                if isinstance(node, ast.Dict):
                    keys = [_const(k) for k in node.keys]
                    if "code" not in keys:
                        continue
                    value = node.values[keys.index("code")]
                    if isinstance(value, ast.Constant) and isinstance(value.value, int):
                        continue  # a websocket close code, not a refusal's code
                    c = _const(value)
                    if c is None:
                        self.dynamic.add((Path(where).name, ast.unparse(value)))
                        continue
                    params = _dict_keys(node.values[keys.index("params")]) \
                        if "params" in keys else set()
                    # a reason from a variable (weak_password's) is checked by its own tests
                    reasons = _consts(node.values[keys.index("reason")]) \
                        if "reason" in keys else None
                    for r in reasons or [""]:
                        self.add(c, r, Site(line, params))
                elif isinstance(node, ast.Call) and _name(node.func) in ("error", "_error"):
                    c = _const(_arg(node, 1, "code"))
                    if c is None:
                        self.dynamic.add((Path(where).name,
                                          ast.unparse(_arg(node, 1, "code") or node)))
                        continue
                    reason = _const(_arg(node, 3, "reason")) or ""
                    self.add(c, reason, Site(line, _dict_keys(_arg(node, 4, "params"))))
                elif isinstance(node, ast.Call) and _name(node.func) == "ActionRejected":
                    c = _const(_arg(node, 0, "code"))
                    if c is None:
                        self.dynamic.add((Path(where).name,
                                          ast.unparse(_arg(node, 0, "code") or node)))
                    else:
                        self.add(c, "", Site(line))
                elif isinstance(node, ast.FunctionDef) and node.name in ("problem",
                                                                          "frame_problem"):
                    for ret in ast.walk(node):
                        if isinstance(ret, ast.Return) and isinstance(ret.value, ast.Tuple):
                            c = next(c for c in map(_const, ret.value.elts) if c)
                            self.add(c, "", Site(f"{where}:{ret.lineno}"))
        assert status_codes, "app.py's _STATUS_CODES not found"
        for c in [*status_codes, "error"]:
            self.add(c, "", Site("app.py: Starlette's own HTTP errors"))
        for c in exception_codes:
            self.add(c, "", Site("a typed error passed on as e.code"))

    @staticmethod
    def exception_codes() -> set[str]:
        """``code`` of every typed error (``code = "…"`` in an ``…Error`` class body, and
        the codes ``IllegalActionError(message, "code")`` is raised with)."""
        out: set[str] = set()
        for _, tree in _files(SRC):
            for node in ast.walk(tree):
                if isinstance(node, ast.ClassDef) and node.name.endswith("Error"):
                    for stmt in node.body:
                        if isinstance(stmt, ast.Assign) and any(
                                isinstance(t, ast.Name) and t.id == "code" for t in stmt.targets):
                            c = _const(stmt.value)
                            if c:
                                out.add(c)
                elif isinstance(node, ast.Call) and _name(node.func) == "IllegalActionError":
                    c = _const(_arg(node, 1, "code"))
                    if c:
                        out.add(c)
        return out

    # -- the tournament service's reasons ------------------------------------------------
    def tournament(self) -> None:
        for where, tree in _files(SRC / "tournament", SRC / "persistence" / "tournament_store.py"):
            for node in ast.walk(tree):
                if not isinstance(node, ast.Call):
                    continue
                line = f"{where}:{node.lineno}"
                name = _name(node.func)
                params = {k.arg for k in node.keywords if k.arg}
                if name in TOURNAMENT_ERRORS:
                    arg = _arg(node, 1, "reason")
                    if isinstance(arg, ast.Name) and where.endswith("settings.py"):
                        continue  # fail() in TournamentSettings: its calls are scanned below
                    reasons = _consts(arg)
                    if not reasons:
                        self.without_reason.append(line)
                        continue
                    for r in reasons:
                        self.add(TOURNAMENT_ERRORS[name], r, Site(line, params))
                elif name == "fail" and where.endswith("tournament/settings.py"):
                    for r in _consts(_arg(node, 2, "reason")) or ["bad_setting"]:
                        self.add("invalid_tournament", r, Site(line, params | {"setting"}))


@pytest.fixture(scope="module")
def scan() -> Scan:
    s = Scan()
    s.server()
    s.tournament()
    return s


def test_the_scan_finds_the_known_codes(scan: Scan) -> None:
    """The scan works: it finds codes of each kind of source."""
    for code in ("json_required", "weak_password", "rate_limited", "no_table", "bad_message",
                 "message_too_big", "invalid_request", "not_your_turn", "illegal_action",
                 "method_not_allowed", "conflict", "not_owner", "bad_token", "already_open"):
        assert code in scan.codes(), code
    for key in (("invalid_tournament", "too_few_present_pairs"), ("not_found", "no_round"),
                ("invalid_tournament", "setting_range"), ("not_found", "no_tournament")):
        assert key in scan.keys, key
    assert {"needed", "have"} <= scan.keys["invalid_tournament", "too_few_pairs"][0].params


def test_no_code_is_built_in_an_unknown_way(scan: Scan) -> None:
    assert scan.dynamic <= DYNAMIC, scan.dynamic - DYNAMIC


def test_every_tournament_refusal_names_its_reason(scan: Scan) -> None:
    """``TournamentError`` / ``NotFoundError`` always say which refusal they are."""
    assert not scan.without_reason, scan.without_reason


@pytest.mark.parametrize("lang", ["de", "en"])
def test_every_code_has_a_text(scan: Scan, lang: str) -> None:
    texts = _texts(lang)
    missing = sorted(f"error.{c}" for c in scan.codes() if f"error.{c}" not in texts)
    missing += sorted(f"error.{c}.{r}" for c, r in scan.keys
                      if r and f"error.{c}.{r}" not in texts)
    assert not missing, missing


@pytest.mark.parametrize("lang", ["de", "en"])
def test_texts_use_only_the_params_sent(scan: Scan, lang: str) -> None:
    """A text's placeholders are filled at every site that sends its code (and reason);
    the generic ``error.<code>`` also stands in for reasons without a text of their own."""
    texts = _texts(lang)
    problems = []
    for code in sorted(scan.codes()):
        sites = [s for (c, _), ss in scan.keys.items() if c == code for s in ss]
        common = set.intersection(*(s.params for s in sites)) | ALWAYS
        used = set(PLACEHOLDER.findall(texts.get(f"error.{code}", "")))
        if not used <= common:
            problems.append((f"error.{code}", used - common))
    for (code, reason), sites in sorted(scan.keys.items()):
        if not reason:
            continue
        common = set.intersection(*(s.params for s in sites)) | ALWAYS
        used = set(PLACEHOLDER.findall(texts.get(f"error.{code}.{reason}", "")))
        if not used <= common:
            problems.append((f"error.{code}.{reason}", used - common))
    assert not problems, problems


def test_no_text_shows_the_english_message() -> None:
    """``{message}`` is the server's English; the pages never put it in a sentence."""
    for lang in ("de", "en"):
        for key, text in _texts(lang).items():
            if key.startswith("error."):
                assert "{message}" not in text, (lang, key)
    js = (STATIC / "js" / "i18n.js").read_text(encoding="utf-8")
    body = js[js.index("export function errorText("):]
    body = body[:body.index("\n}\n")]
    assert "message" not in body.split("{", 1)[1], body


def test_both_languages_word_the_same_parts() -> None:
    de, en = _texts("de"), _texts("en")
    for key in de:
        if key.startswith("error."):
            assert set(PLACEHOLDER.findall(de[key])) == set(PLACEHOLDER.findall(en[key])), key
    assert "{code}" in de["error.generic"] and "{code}" in en["error.generic"]


def test_the_tournament_pages_keep_no_error_texts_of_their_own() -> None:
    """One place for the refusals' texts: the pages' shared dictionaries."""
    js = (STATIC / "js" / "tournament_i18n.js").read_text(encoding="utf-8")
    assert '"error.' not in js
