"""The documentation's tables of contents, links and the README's list of documents."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
DOCS = sorted((ROOT / "docs").rglob("*.md"))
PAGES = [ROOT / "README.md", *DOCS]


def slug(heading: str) -> str:
    """GitHub's anchor of a heading."""
    text = heading.strip().lower().replace("`", "")
    text = re.sub(r"[^\w\- ]", "", text)
    return text.replace(" ", "-")


def anchors(page: Path) -> set[str]:
    text = re.sub(r"```.*?```", "", page.read_text(encoding="utf-8"), flags=re.S)
    return {slug(m) for m in re.findall(r"^#{1,6} (.+)$", text, flags=re.M)}


@pytest.mark.parametrize("page", PAGES, ids=[str(p.relative_to(ROOT)) for p in PAGES])
def test_numbered_contents_match_the_numbered_sections(page: Path) -> None:
    text = page.read_text(encoding="utf-8")
    contents = re.search(r"^## Contents\n\n((?:\d+\. \[.*\]\(#.*\)\n)+)", text, flags=re.M)
    if contents is None:
        return
    entries = re.findall(r"^(\d+)\. \[(.*)\]\(#(.*)\)$", contents.group(1), flags=re.M)
    sections = re.findall(r"^## (\d+)\. (.+)$", text, flags=re.M)
    assert [int(n) for n, _, _ in entries] == list(range(1, len(entries) + 1))
    assert [n for n, _, _ in entries] == [n for n, _ in sections]
    for (n, title, anchor), (_, heading) in zip(entries, sections, strict=True):
        assert anchor == slug(f"{n}. {heading}"), (n, title, anchor)


@pytest.mark.parametrize("page", PAGES, ids=[str(p.relative_to(ROOT)) for p in PAGES])
def test_links_to_documents_and_anchors_resolve(page: Path) -> None:
    text = re.sub(r"```.*?```", "", page.read_text(encoding="utf-8"), flags=re.S)
    for target in re.findall(r"\]\(([^)\s]+)\)", text):
        if target.startswith(("http://", "https://", "mailto:")):
            continue
        path, _, anchor = target.partition("#")
        doc = page if not path else (page.parent / path).resolve()
        assert doc.exists(), (page.name, target)
        if anchor and doc.suffix == ".md":
            assert anchor in anchors(doc), (page.name, target)


def test_readme_lists_every_document() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    listed = set(re.findall(r"^- \[(docs/[^\]]+)\]\(\1\)", readme, flags=re.M))
    assert listed == {str(p.relative_to(ROOT)) for p in DOCS}
