"""The translations shared by the browser UI and the terminal (``stammtisch play``).

One JSON file per language, a flat object key → text, is the single source of truth:
``src/stammtisch/server/static/i18n/de.json`` and ``en.json``.  The browser loads them
(``static/js/i18n.js`` fetches ``/static/i18n/<lang>.json``) and Python reads them here.
``{name}`` in a text is filled from the parameters, as the UI's ``t(key, {name})`` does.
Keys starting with ``play.`` are the terminal session's (they may hold Rich markup such as
``[bold]``); the others are the browser UI's, and the terminal reuses some of them.
Game terms (Muck, Wenz, weiter, Kontra, Bobbl, Tore, Stich, Augen …) stay German in English.

>>> t = Translator("en")
>>> t("table.turn_of", name="Hans"), Translator("de")("table.turn_of", name="Hans")
("Hans's turn", 'Hans ist dran')
>>> default_language({"LANG": "de_DE.UTF-8"}), default_language({"LANG": "C.UTF-8"})
('de', 'en')
>>> default_language({"LC_ALL": "en_GB.UTF-8", "LANG": "de_AT.UTF-8"})
'en'
"""

from __future__ import annotations

import json
import os
from collections.abc import Mapping
from functools import cache
from importlib import resources
from typing import Any

LANGUAGES: tuple[str, ...] = ("de", "en")
#: the language whose text stands in for a key missing in another (as in the UI)
FALLBACK = "de"
#: the locale variables, strongest first (as POSIX ranks them for messages)
LOCALE_VARIABLES = ("LC_ALL", "LC_MESSAGES", "LANG")


@cache
def strings(lang: str) -> dict[str, str]:
    """The flat key → text dictionary of ``lang`` (read once from the package data)."""
    if lang not in LANGUAGES:
        raise ValueError(f"unknown language {lang!r} (known: {', '.join(LANGUAGES)})")
    path = resources.files("stammtisch") / "server" / "static" / "i18n" / f"{lang}.json"
    data = json.loads(path.read_text(encoding="utf-8"))
    if not isinstance(data, dict) or not all(
            isinstance(k, str) and isinstance(v, str) for k, v in data.items()):
        raise ValueError(f"{path}: must be a flat JSON object of texts")
    return data


def default_language(environ: Mapping[str, str] | None = None) -> str:
    """``de`` if the first set of LC_ALL, LC_MESSAGES, LANG starts with "de", else ``en``."""
    env = os.environ if environ is None else environ
    for name in LOCALE_VARIABLES:
        value = env.get(name)
        if value:
            return "de" if value.lower().startswith("de") else "en"
    return "en"


class Translator:
    """``t(key, **params)``: the text of ``key`` in the language, ``{param}`` filled in."""

    def __init__(self, lang: str) -> None:
        self.lang = lang
        self.texts = strings(lang)
        self.fallback = strings(FALLBACK)

    def has(self, key: str) -> bool:
        return key in self.texts or key in self.fallback

    def euros(self, cents: int, sign: bool = True) -> str:
        """Money from cents as the language writes it (as the UI's ``euros``): ``+2,40 €``
        (de, es), ``+€2.40`` (en); ``sign``: a "+" before gains (a loss has its "-").

        >>> Translator("de").euros(240), Translator("en").euros(-1250), Translator("de").euros(0)
        ('+2,40 €', '-€12.50', '0,00 €')
        """
        mark = "-" if cents < 0 else "+" if sign and cents > 0 else ""
        whole, rest = divmod(abs(int(cents)), 100)
        if self.lang == "en":
            return f"{mark}€{whole:,}.{rest:02d}"
        return f"{mark}{whole:,}".replace(",", ".") + f",{rest:02d} €"

    def plural_key(self, key: str, n: Any) -> str:
        """``key.one`` for a count of one if the texts have it (de, en, es: one is 1),
        else ``key`` (the other form) — as the UI's ``pluralKey``."""
        try:
            one = float(n) == 1
        except (TypeError, ValueError):
            return key
        return f"{key}.one" if one and self.has(f"{key}.one") else key

    def __call__(self, key: str, **params: Any) -> str:
        if "n" in params:
            key = self.plural_key(key, params["n"])
        text = self.texts.get(key)
        if text is None:
            text = self.fallback.get(key)
        if text is None:
            raise KeyError(f"no text for {key!r}")
        for name, value in params.items():
            text = text.replace(f"{{{name}}}", str(value))
        return text
