"""The built wheel carries the LICENSE (pyproject's license-files)."""

from __future__ import annotations

import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_license_file_exists_and_is_mit() -> None:
    text = (ROOT / "LICENSE").read_text(encoding="utf-8")
    assert text.startswith("MIT License")
    assert "Copyright (c) 2026 the stammtisch authors" in text


def test_wheel_carries_the_license(tmp_path: Path) -> None:
    # build from a copy, so the working tree gets no build/ or egg-info of this test
    for name in ("pyproject.toml", "README.md", "LICENSE"):
        shutil.copy2(ROOT / name, tmp_path / name)
    shutil.copytree(ROOT / "src", tmp_path / "src", ignore=shutil.ignore_patterns(
        "__pycache__", "*.egg-info", "*.pyc"))
    out = tmp_path / "dist"
    proc = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation",
         "--no-index", "-q", "-w", str(out), str(tmp_path)],
        capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr
    (wheel,) = out.glob("stammtisch-*.whl")
    with zipfile.ZipFile(wheel) as z:
        names = z.namelist()
        licenses = [n for n in names if ".dist-info/" in n and n.endswith("/LICENSE")]
        assert licenses, names
        assert z.read(licenses[0]).decode().startswith("MIT License")
        metadata = next(n for n in names if n.endswith(".dist-info/METADATA"))
        meta = z.read(metadata).decode()
    assert "License-Expression: MIT" in meta
    assert "License-File: LICENSE" in meta
