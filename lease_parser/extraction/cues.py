"""Confidence from evidence: independent cues that agree raise it, conflicts lower it.

Each extractor collects ``Cue``s: a candidate value, where it was read (flat span), what
kind of place that is (``source``: preamble, summary page, cover page, definition,
signature block, a restatement ...) and how much that kind of cue is worth on its own
(``weight`` < the gate: no single weak cue commits a value). Cues are grouped by value; a
group's confidence is ``1 - Π(1 - w)`` over its *distinct* sources (two sentences of the
same kind are not independent), and a rival value with real support caps it below the
gate, with the disagreement written into the notes for the reviewer. OCR pages scale the
result down (sections.source_factor).

A few statements verify themselves: a clean preamble names a party, its entity type and
its defined role in one sentence, so where the name starts and ends and which party it is
are both fixed by the grammar. Such a ``strong`` cue may stand alone a little above the
single-cue cap (``MAX_STRONG_CUE``); the extractors that make one say what "clean" means
and why it was measured to be reliable. Structure does not vouch for letters: on an OCR
page a strong cue counts as an ordinary one.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace

from lease_parser.extraction.base import RawField
from lease_parser.extraction.flat import FlatText
from lease_parser.extraction.sections import source_factor
from lease_parser.parsing.base import PageSource

# A single cue is never worth more than this, whatever an extractor asks for...
MAX_SINGLE_CUE = 0.78
# ... unless it is a strong (self-verifying) statement on a text page.
MAX_STRONG_CUE = 0.86
# A rival this well supported means the document disagrees with itself: stay under the gate.
RIVAL_SUPPORT = 0.45
RIVAL_CAP = 0.6
# A weaker rival still costs something.
WEAK_RIVAL_PENALTY = 0.12


@dataclass(frozen=True)
class Cue:
    value: str
    start: int
    end: int
    source: str
    weight: float
    strong: bool = False

    def cap(self) -> float:
        return MAX_STRONG_CUE if self.strong else MAX_SINGLE_CUE


def _same_value(a: str, b: str) -> bool:
    return a == b


@dataclass
class _Group:
    value: str
    cues: list[Cue]

    def support(self) -> float:
        best: dict[str, float] = {}
        for cue in self.cues:
            best[cue.source] = max(best.get(cue.source, 0.0), min(cue.weight, cue.cap()))
        doubt = 1.0
        for weight in best.values():
            doubt *= 1.0 - weight
        return 1.0 - doubt

    def representative(self) -> Cue:
        return max(self.cues, key=lambda c: (c.weight, -c.start))


def _on_page(cue: Cue, flat: FlatText) -> Cue:
    """A strong cue read from OCR text is an ordinary one: a misread letter or digit keeps
    the sentence's structure intact."""
    if cue.strong and flat.page_at(cue.start).source is PageSource.OCR:
        return replace(cue, strong=False)
    return cue


def group_cues(cues: list[Cue], same: Callable[[str, str], bool] = _same_value) -> list[_Group]:
    groups: list[_Group] = []
    for cue in cues:
        for group in groups:
            if same(group.value, cue.value):
                group.cues.append(cue)
                break
        else:
            groups.append(_Group(cue.value, [cue]))
    return groups


def resolve(
    name: str,
    cues: list[Cue],
    flat: FlatText,
    same: Callable[[str, str], bool] = _same_value,
    extra_notes: list[str] | None = None,
) -> RawField | None:
    """The best-supported value with a confidence that reflects agreement and conflict."""
    cues = [_on_page(c, flat) for c in cues if c.weight > 0]
    groups = group_cues(cues, same)
    if not groups:
        return None
    groups.sort(key=lambda g: (-g.support(), min(c.start for c in g.cues)))
    best, rivals = groups[0], groups[1:]
    confidence = best.support()
    sources = sorted({c.source for c in best.cues})
    if len(sources) > 1:
        notes = [f"cues: {', '.join(sources)}"]
    else:
        strong = any(c.strong for c in best.cues)
        notes = [f"single {'strong ' if strong else ''}cue: {sources[0]}"]
    if rivals:
        rival = rivals[0]
        if rival.support() >= RIVAL_SUPPORT:
            confidence = min(confidence, RIVAL_CAP)
        else:
            confidence -= WEAK_RIVAL_PENALTY
        notes.append(
            "conflict: also stated as "
            + "; ".join(
                f"{g.value!r} ({', '.join(sorted({c.source for c in g.cues}))})" for g in rivals[:3]
            )
        )
    cue = best.representative()
    factor = source_factor(flat.page_at(cue.start))
    if factor < 1.0:
        confidence *= factor
        notes.append(f"read from OCR text (x{factor:.2f})")
    notes.extend(extra_notes or [])
    return flat.field(name, best.value, confidence, cue.start, cue.end, notes)
