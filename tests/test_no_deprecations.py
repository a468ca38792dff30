"""Starlette's deprecation warnings are errors in the test run (pyproject's filterwarnings),
and the test client imports without one (it needs httpx2, not plain httpx)."""

from __future__ import annotations

import subprocess
import sys
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_test_client_imports_without_a_deprecation_warning() -> None:
    code = ("import warnings; warnings.simplefilter('error'); "
            "from fastapi.testclient import TestClient; from starlette import testclient")
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=60)
    assert proc.returncode == 0, proc.stderr


def test_starlette_deprecations_are_errors() -> None:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    filters = config["tool"]["pytest"]["ini_options"]["filterwarnings"]
    assert "error::starlette.exceptions.StarletteDeprecationWarning" in filters
    test_extra = config["project"]["optional-dependencies"]["test"]
    assert any(d.startswith("httpx2") for d in test_extra)
