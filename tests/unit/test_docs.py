"""The README stays a page a person reads in five minutes, and the docs stay one site.

`make docs` (mkdocs build --strict, in CI) fails on a broken link inside docs/ or a page
missing from the nav; these checks are the ones it cannot make: the README is outside the
site, and a test run should say at once when a new page was not added to mkdocs.yml.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import yaml
from markdown.extensions.toc import slugify

ROOT = Path(__file__).resolve().parents[2]
README = ROOT / "README.md"
DOCS = ROOT / "docs"
# Issue 24: "a README of at most ~200 lines". What grows goes into docs/.
README_MAX_LINES = 200
LINK = re.compile(r"\]\(([^)\s]+)\)")


def nav_pages(nav: list[Any]) -> list[str]:
    """Every page of mkdocs.yml's nav, in order, however deep the sections nest."""
    pages: list[str] = []
    for entry in nav:
        for value in entry.values() if isinstance(entry, dict) else [entry]:
            pages += nav_pages(value) if isinstance(value, list) else [value]
    return pages


def anchors(page: Path) -> set[str]:
    """The heading anchors MkDocs gives a page (the toc extension's default slugs)."""
    text = re.sub(r"(?ms)^```.*?^```", "", page.read_text())  # no headings inside code
    return {slugify(h, "-") for h in re.findall(r"^#{1,6} (.+?)\s*$", text, re.MULTILINE)}


def test_the_readme_is_short_and_shows_the_commands() -> None:
    text = README.read_text()
    assert len(text.splitlines()) <= README_MAX_LINES, "move the detail to a page in docs/"
    for command in ("make run", "make test", "make serve"):
        assert command in text, command


def test_every_link_of_the_readme_reaches_a_file_and_its_anchor() -> None:
    links = [link for link in LINK.findall(README.read_text()) if not re.match(r"\w+:", link)]
    assert any(link.startswith("docs/") for link in links)
    for link in links:
        path, _, anchor = link.partition("#")
        target = ROOT / path
        assert target.is_file(), link
        if anchor:
            assert anchor in anchors(target), link


def test_every_page_in_docs_is_in_the_nav_and_every_nav_entry_is_a_page() -> None:
    config = yaml.safe_load((ROOT / "mkdocs.yml").read_text())
    assert config["docs_dir"] == "docs"
    pages = nav_pages(config["nav"])
    on_disk = sorted(p.relative_to(DOCS).as_posix() for p in DOCS.rglob("*.md"))
    assert sorted(pages) == on_disk
    assert len(pages) == len(set(pages)), "a page is in the nav twice"


def test_the_anchor_helper_finds_what_mkdocs_would() -> None:
    """The slugs the README's links are checked against: spot checks of real headings."""
    assert "one-local-system" in anchors(DOCS / "getting-started.md")
    assert "alerts-what-each-means-what-to-do" in anchors(DOCS / "operations.md")
    assert "leasedeadletters" in anchors(DOCS / "operations.md")
