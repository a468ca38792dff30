"""Keys of user names: one person, one name, however it is spelled.

* :func:`normalise` — NFKC (full-width ``Ａｎｎａ`` is ``Anna``, ligatures are split,
  compatibility characters folded) and runs of whitespace collapsed to one space; the
  form a name is stored and shown in.
* :func:`name_key` — the NFKC case fold of the name (``ANNA``, ``anna``, ``Ａｎｎａ`` and
  ``Straße``/``STRASSE`` each share one key). ``users.name_key`` holds it, unique.
* :func:`skeleton` — the name with every non-ASCII character that looks like an ASCII
  letter or digit (per Unicode's confusables list, ``confusable_homoglyphs``) replaced by
  it, as written or else case-folded, and the rest case-folded: Cyrillic ``В`` → ``b``,
  ``а`` → ``a``, Greek ``Α``/``ο`` → ``a``/``o``, Cherokee ``Ꭺ`` → ``a``, Latin ``ı`` →
  ``i``.  Two names with one skeleton look alike; the second is refused (docs/server.md,
  Hardening).
"""

from __future__ import annotations

import functools
import unicodedata

from confusable_homoglyphs import confusables


def normalise(name: str) -> str:
    return " ".join(unicodedata.normalize("NFKC", name).split())


def name_key(name: str) -> str:
    """The NFKC case fold (case folding can un-normalise, hence NFKC on both sides)."""
    return unicodedata.normalize("NFKC", unicodedata.normalize("NFKC", name).casefold())


@functools.lru_cache(maxsize=4096)
def _ascii_lookalike(ch: str) -> str | None:
    if ch.isascii():
        return ch.casefold()
    found = confusables.is_confusable(ch, greedy=True, preferred_aliases=[]) or []
    for entry in found:
        for glyph in entry["homoglyphs"]:
            c = str(glyph["c"])
            if len(c) == 1 and c.isascii() and c.isalnum():
                return c.casefold()
    return None


def _skeleton_char(ch: str) -> str:
    # the letter as written first (Cyrillic "В" looks like "B", its lower case "в" does not),
    # then its case fold (Greek "Α" folds to "α", which looks like "a")
    found = _ascii_lookalike(ch)
    if found is not None:
        return found
    return "".join(_ascii_lookalike(c) or c for c in ch.casefold())


def skeleton(name: str) -> str:
    return unicodedata.normalize(
        "NFKC", "".join(_skeleton_char(ch) for ch in unicodedata.normalize("NFKC", name)))
