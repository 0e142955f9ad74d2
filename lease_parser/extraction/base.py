"""The extraction contract: ``Document`` → raw fields with evidence and provenance.

A ``RawField`` carries its value as a canonical string ("15000.00", "2024-01-31", "60",
"Acme LLC") so it is small and JSON-safe on its way to normalization, which types and
validates it. Each field-family module exposes functions ``(Document) -> list[RawField]``.

Extraction does not decide how sure it is: it records the *evidence* for a value (how many
independent statements, which checks hold, rivals, OCR quality: ``evidence``) and the named
reasons a person must look whatever the odds (``doubts``). ``lease_parser.scoring.confidence``
turns the evidence into a probability, learned from labelled leases.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from typing import Any

from lease_parser.parsing.base import Document, Page

SNIPPET_CONTEXT = 60


@dataclass(frozen=True)
class Cited:
    """A span of a page's text a value was read from."""

    page: int
    start: int
    end: int
    snippet: str


@dataclass
class RawField:
    name: str
    value: str | None
    confidence: float = 0.0  # set by lease_parser.scoring.confidence from ``evidence``
    page: int = 0
    start: int = 0
    end: int = 0
    snippet: str = ""
    notes: list[str] = field(default_factory=list)
    # Features of the evidence for ``value`` (extraction/evidence.py names them).
    evidence: dict[str, float] = field(default_factory=dict)
    # Reasons a person must check the value whatever its probability: code -> why
    # (codes in evidence.Doubt).
    doubts: dict[str, str] = field(default_factory=dict)
    # A value derived from several statements cites each of them (the first is ``page``,
    # ``start``, ``end`` itself).
    inputs: list[Cited] = field(default_factory=list)
    # The other values the lease states for the field (the first few), each cited where it
    # is stated: a reviewer is shown them boxed on their pages.
    rivals: list[Rival] = field(default_factory=list)
    # The other values the lease states for the field, each with the evidence it would have
    # had if chosen: examples of what a wrong candidate looks like, for fitting the model
    # (lease_parser.scoring.calibration). Not sent between stages.
    alternatives: list[Alternative] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        """The JSON form sent between stages (without ``alternatives``)."""
        data = asdict(self)
        del data["alternatives"]
        return data

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> RawField:
        inputs = [Cited(**c) for c in data.get("inputs", [])]
        rivals = [Rival(r["value"], Cited(**r["cited"])) for r in data.get("rivals", [])]
        return cls(**{**data, "inputs": inputs, "rivals": rivals})


@dataclass(frozen=True)
class Rival:
    """Another value the lease states for a field, and where."""

    value: str
    cited: Cited


@dataclass(frozen=True)
class Alternative:
    value: str
    evidence: dict[str, float]


Extractor = Callable[[Document], list[RawField]]


def snippet(page: Page, start: int, end: int) -> str:
    """The cited text with a little context, on one line, for reviewers."""
    lo = max(0, start - SNIPPET_CONTEXT)
    hi = min(len(page.text), end + SNIPPET_CONTEXT)
    return " ".join(page.text[lo:hi].split())
