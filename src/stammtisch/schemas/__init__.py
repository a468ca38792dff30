"""JSON Schemas shipped with the package (``schemas/*.json`` is package data).

>>> record_schema()["$schema"]
'https://json-schema.org/draft/2020-12/schema'
"""

from __future__ import annotations

import json
from importlib import resources
from typing import Any


def record_schema() -> dict[str, Any]:
    """The JSON Schema (draft 2020-12) of a Mucken game record (docs/records.md)."""
    text = resources.files(__name__).joinpath("mucken-record.json").read_text(encoding="utf-8")
    schema: dict[str, Any] = json.loads(text)
    return schema


__all__ = ["record_schema"]
