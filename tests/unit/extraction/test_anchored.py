"""Anchored patterns find exactly what the whole-text scan finds.

Every ``Anchored`` in the extraction package is checked against its own pattern run over
the whole text, on every lease phrase the extractor tests use, on generated leases, and on
random mixtures of them (the windows must merge and clip right wherever phrases fall).
"""

from __future__ import annotations

import ast
import importlib
import pkgutil
import random
import re
from functools import cache
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import lease_parser.extraction
from lease_parser.bench.lease_text import (
    basic_information,
    boilerplate,
    opening_paragraphs,
    pick_facts,
)
from lease_parser.extraction.anchored import Anchored

HERE = Path(__file__).parent


def _anchored_patterns() -> dict[str, Anchored]:
    found: dict[str, Anchored] = {}
    for module_info in pkgutil.iter_modules(lease_parser.extraction.__path__):
        module = importlib.import_module(f"lease_parser.extraction.{module_info.name}")
        for name, value in vars(module).items():
            values = value if isinstance(value, tuple) else (value,)
            for index, item in enumerate(values):
                for part in item if isinstance(item, tuple) else (item,):
                    if isinstance(part, Anchored):
                        found[f"{module_info.name}.{name}[{index}]"] = part
    return found


ANCHORED = _anchored_patterns()


# Phrases for patterns the extractor tests do not otherwise reach.
EXTRA_PHRASES = (
    "All sums are payable in Australian dollars ($A) plus GST.",
    "The Rent is stated in New Zealand dollars and in pounds sterling, not euros.",
    "payable in new Israeli shekels (NIS 12,000) each month",
    "The options to extend granted above may not be exercised while Tenant is in default.",
)


@cache
def lease_phrases() -> tuple[str, ...]:
    """Every string of 20+ characters in the extractor tests, and generated lease text."""
    phrases: list[str] = list(EXTRA_PHRASES)
    for path in sorted(HERE.glob("test_*.py")):
        for node in ast.walk(ast.parse(path.read_text())):
            is_text = isinstance(node, ast.Constant) and isinstance(node.value, str)
            if is_text and len(node.value) >= 20:
                phrases.append(node.value)
    for seed in range(10):
        rng = random.Random(seed)
        facts = pick_facts(rng)
        phrases += [body for _, body in opening_paragraphs(facts)]
        phrases += [f"{label} {value}" for label, value in basic_information(facts)]
        phrases += [boilerplate(rng, facts, n)[1] for n in range(3)]
    return tuple(phrases)


def _spans(matches: object) -> list[tuple[int, int]]:
    return [m.span() for m in matches]  # type: ignore[attr-defined]


def test_every_anchored_pattern_is_found() -> None:
    assert len(ANCHORED) >= 15, sorted(ANCHORED)


@pytest.mark.parametrize("name", sorted(ANCHORED))
def test_same_matches_as_the_whole_text_scan(name: str) -> None:
    anchored = ANCHORED[name]
    matched = 0
    for text in (*lease_phrases(), " ".join(lease_phrases())):
        expected = _spans(anchored.pattern.finditer(text))
        assert _spans(anchored.finditer(text)) == expected, text[:200]
        matched += len(expected)
    # The check means something only if the pattern matches some of the phrases.
    assert matched > 0, f"no phrase exercises {name}"


@pytest.mark.parametrize("name", sorted(ANCHORED))
def test_same_matches_within_a_span(name: str) -> None:
    anchored = ANCHORED[name]
    text = " ".join(lease_phrases())
    for start, end in ((0, len(text) // 2), (len(text) // 3, len(text)), (100, 5000)):
        expected = _spans(anchored.pattern.finditer(text, start, end))
        assert _spans(anchored.finditer(text, start, end)) == expected
        first = anchored.pattern.search(text, start, end)
        assert _spans([m for m in [anchored.search(text, start, end)] if m]) == _spans(
            [first] if first else []
        )


@settings(max_examples=60, deadline=None)
@given(
    picks=st.lists(st.integers(min_value=0, max_value=10_000), min_size=1, max_size=12),
    filler=st.sampled_from(["", " ", "\n", " lorem ipsum dolor " * 20, ". The Term. ", "%"]),
)
def test_random_mixtures_of_lease_phrases(picks: list[int], filler: str) -> None:
    phrases = lease_phrases()
    text = filler.join(phrases[i % len(phrases)] for i in picks)
    for anchored in ANCHORED.values():
        assert _spans(anchored.finditer(text)) == _spans(anchored.pattern.finditer(text))


def test_windows_merge_and_clip() -> None:
    anchored = Anchored(re.compile(r"a+b"), re.compile("b"), before=3, after=1)
    text = "xxaab....aaab..b"
    assert anchored.windows(text) == [(1, 6), (9, 16)]  # b at 12 and 15 share a window
    assert anchored.windows(text, 6, 14) == [(9, 14)]
    assert _spans(anchored.finditer(text)) == [(2, 5), (9, 13)]
