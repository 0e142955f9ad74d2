"""From cues to a value and the evidence for it.

Each extractor collects ``Cue``s: a candidate value, where it was read (flat span), what
kind of place that is (``source``: preamble, summary page, cover page, definition,
signature block, a restatement ...) and how telling that kind of place is (``weight``,
used to choose between rival values, never as the value's probability). A cue is either
a *statement* of the value or a *check* of it (``check``: words that agree with the
figures, annual = 12 × monthly, rate × area = rent): a check vouches for a reading, it
does not state the value again.

``resolve`` groups cues by value, picks the best-supported value and records the evidence
for it (extraction/evidence.py): how many independent statements — cues in the same
sentence or table row are one statement, however many patterns read it — of how many
kinds, which checks hold, how well a rival value is supported, and whether the text was
read by OCR. lease_parser.scoring.confidence turns that evidence into a probability.

The value is the one the cited statement reads, so a reviewer is shown the text the value
came from.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace

from lease_parser.extraction.base import Alternative, RawField, Rival
from lease_parser.extraction.candidates import (
    context_features,
    place_features,
    position_features,
)
from lease_parser.extraction.clauses import SENTENCE_END
from lease_parser.extraction.evidence import Doubt, Evidence, ocr_doubt
from lease_parser.extraction.flat import FlatText
from lease_parser.extraction.ranking import current_ranker
from lease_parser.extraction.sanity import sanity_features
from lease_parser.parsing.base import PageSource

WORDS_AGREE = "words agree with figures"
# The rival values a field keeps with their citations (the notes name as many).
SHOWN_RIVALS = 3
# A statement's weight counts at most this much towards choosing a value, unless it is a
# strong (self-verifying) statement on a text page.
MAX_SINGLE_CUE = 0.78
MAX_STRONG_CUE = 0.86


@dataclass(frozen=True)
class Cue:
    value: str
    start: int
    end: int
    source: str
    weight: float
    strong: bool = False
    check: bool = False

    def cap(self) -> float:
        return MAX_STRONG_CUE if self.strong else MAX_SINGLE_CUE

    def words_check(self, weight: float, source: str = WORDS_AGREE) -> Cue:
        """This statement's words agree with its figures ("five (5) years"): a check of
        the reading, not another statement."""
        return replace(self, source=source, weight=weight, strong=False, check=True)


def _same_value(a: str, b: str) -> bool:
    return a == b


@dataclass
class _Group:
    """One candidate: a value and every cue for it."""

    value: str
    cues: list[Cue]
    _statements: dict[int, Cue] | None = None

    def statements(self, flat: FlatText) -> dict[int, Cue]:
        """The best cue of each sentence (or table row) that states the value (computed once:
        the ranker asks for every candidate's evidence against every other)."""
        if self._statements is None:
            best: dict[int, Cue] = {}
            for cue in self.cues:
                if cue.check:
                    continue
                key = _sentence_of(flat, cue)
                if key not in best or _rank(cue) > _rank(best[key]):
                    best[key] = cue
            self._statements = best
        return self._statements

    def support(self, flat: FlatText) -> float:
        """Noisy-OR of the independent statements, each of a distinct kind (two sentences of
        the same kind are not independent), plus the checks that hold."""
        by_source: dict[str, float] = {}
        for cue in self.statements(flat).values():
            by_source[cue.source] = max(by_source.get(cue.source, 0.0), min(cue.weight, cue.cap()))
        for cue in self.cues:
            if cue.check:
                by_source[cue.source] = max(by_source.get(cue.source, 0.0), min(cue.weight, 0.5))
        doubt = 1.0
        for weight in by_source.values():
            doubt *= 1.0 - weight
        return 1.0 - doubt

    def representative(self, flat: FlatText) -> Cue:
        statements = list(self.statements(flat).values()) or self.cues
        return max(statements, key=lambda c: (_rank(c), -c.start))


def _rank(cue: Cue) -> tuple[bool, float]:
    return cue.strong, cue.weight


# How far back a statement's sentence may begin (a long lease sentence runs ~1,000 chars).
STATEMENT_LOOKBACK = 1500


def _sentence_of(flat: FlatText, cue: Cue) -> int:
    """An id of the sentence holding the cue: cues in one sentence are one statement. A
    page begins a statement: a cover line or summary row without a full stop does not run
    into the next page's text."""
    page_start = flat.page_start(cue.start)
    lo = max(page_start, cue.start - STATEMENT_LOOKBACK)
    ends = [m.end() for m in SENTENCE_END.finditer(flat.text, lo, cue.start)]
    return ends[-1] if ends else lo


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


def _rival(rivals: list[_Group], flat: FlatText) -> _Group | None:
    """The best-supported other value the lease *states* (one only checked is no rival);
    the best-supported one when none is stated."""
    stated = [g for g in rivals if g.statements(flat)]
    return stated[0] if stated else (rivals[0] if rivals else None)


def _evidence(best: _Group, rivals: list[_Group], flat: FlatText) -> Evidence:
    statements = best.statements(flat)
    rival = _rival(rivals, flat)
    return Evidence(
        statements=len(statements),
        kinds=len({c.source for c in statements.values()}),
        strong=any(c.strong for c in statements.values()),
        prior=max((min(c.weight, c.cap()) for c in statements.values()), default=0.0),
        support=best.support(flat),
        checks=len({c.source for c in best.cues if c.check}),
        rival_statements=len(rival.statements(flat)) if rival else 0,
        rival_support=rival.support(flat) if rival else 0.0,
    )


@dataclass
class _Candidate:
    """A value, the cue it is cited from, and its features against the other candidates."""

    group: _Group
    cue: Cue
    features: dict[str, float]


def _candidate(name: str, group: _Group, groups: list[_Group], flat: FlatText) -> _Candidate:
    others = [g for g in groups if g is not group]
    evidence = _evidence(group, others, flat)
    cue = group.representative(flat)
    page = flat.page_at(cue.start)
    evidence.ocr = ocr_doubt(page)
    statements = list(group.statements(flat).values()) or group.cues
    first = min(c.start for c in statements)
    features = {
        **evidence.features(),
        **place_features({c.source for c in statements}),
        **context_features(flat.text, cue.start),
        **position_features(first, len(flat.text), page.number),
        **sanity_features(name, cue.value),
    }
    return _Candidate(group, cue, features)


def _chosen_first(candidates: list[_Candidate], name: str, flat: FlatText) -> list[_Candidate]:
    """The candidates, the one to take first: the learned ranker's choice when extraction
    runs with one (extraction/ranking.py), else the extractors' own order of places (the
    best-supported value), ties going to the value stated first."""
    ranker = current_ranker()

    def order(c: _Candidate) -> tuple[float, float, int]:
        learned = ranker(name, c.features) if ranker else 0.0
        return -learned, -c.group.support(flat), min(x.start for x in c.group.cues)

    return sorted(candidates, key=order)


def _notes(best: _Group, rivals: list[_Group], flat: FlatText) -> list[str]:
    sources = sorted({c.source for c in best.statements(flat).values()})
    checks = sorted({c.source for c in best.cues if c.check})
    notes = [f"stated by: {', '.join(sources) or 'checks only'}"]
    if checks:
        notes.append(f"checked by: {', '.join(checks)}")
    if rivals:
        notes.append(
            "also stated as "
            + "; ".join(
                f"{g.value!r} ({', '.join(sorted({c.source for c in g.cues}))})" for g in rivals[:3]
            )
        )
    return notes


def resolve(
    name: str,
    cues: list[Cue],
    flat: FlatText,
    same: Callable[[str, str], bool] = _same_value,
) -> RawField | None:
    """The chosen value among the candidates the cues state, cited where it is stated, with
    its evidence; the other stated candidates are kept as ``alternatives``."""
    cues = [_on_page(c, flat) for c in cues if c.weight > 0]
    groups = group_cues(cues, same)
    if not groups:
        return None
    groups.sort(key=lambda g: (-g.support(flat), min(c.start for c in g.cues)))
    candidates = _chosen_first([_candidate(name, g, groups, flat) for g in groups], name, flat)
    best, *others = candidates
    rivals = [c.group for c in others]
    notes = _notes(best.group, rivals, flat)
    raw = flat.field(name, best.cue.value, 0.0, best.cue.start, best.cue.end, notes)
    raw.evidence = best.features
    stated = [c for c in others if c.group.statements(flat)]
    raw.alternatives = [Alternative(c.cue.value, c.features) for c in stated]
    raw.rivals = [
        Rival(c.cue.value, flat.cited(c.cue.start, c.cue.end)) for c in stated[:SHOWN_RIVALS]
    ]
    # The document states another value too: it disagrees with itself and a person decides
    # (on the development corpus, 5 of the 18 values with a rival statement were wrong).
    if raw.evidence["rival_statements"]:
        raw.doubts[Doubt.RIVAL_VALUE] = raw.notes[-1]
    if raw.evidence["ocr"] > 0:
        raw.notes.append(
            f"read from OCR text (page confidence {100 * (1 - raw.evidence['ocr']):.0f})"
        )
    return raw
