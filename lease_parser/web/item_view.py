"""What the item page shows: the document's pages and, per field, its value, probability,
why it is doubtful, what was decided, and where it was read (boxes or a text range).

Doubtful fields come first (in the order the pipeline listed them), then the rest in
docs/fields.md order. A problem may carry a reason code (``kind``) and a field may carry more
than one cited span (``inputs``: a value derived from several statements): both are shown
when present.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from decimal import Decimal, InvalidOperation
from typing import Any

from lease_parser.decisions import FieldDecision
from lease_parser.fields import HINTS, LABELS
from lease_parser.model import FIELD_NAMES, Allowance, NoticeWindow
from lease_parser.scoring.normalization import ALLOWANCE_FIELDS, MONEY_FIELDS
from lease_parser.store import ReviewItem
from lease_parser.viewer import Highlight, PageSize, Segment, Span, TextView

# The reason codes of problems (model.ProblemKind) as a reviewer reads them.
PROBLEM_KINDS = {
    "invalid": "invalid",
    "failed_relation": "contradicts another value",
    "rival_value": "the lease states another value",
    "stated_not_read": "stated in the lease, not read",
    "not_read": "not read",
    "caveat": "wording leaves it open",
    "low_probability": "low probability",
    "document": "the document",
}
STEP_COLUMNS = ("start", "end", "monthly", "annual", "per_sqft_annual")
ESCALATION_KINDS = ("fixed_percent", "fixed_amount", "cpi", "schedule", "none")
EMPTY_STEP_ROWS = 2  # blank rows under a schedule's steps, to add periods without a script
CELLS = "#cells"  # in a refusal's errors: the schedule inputs (step-COLUMN-INDEX) at fault


@dataclass
class FieldRow:
    name: str
    label: str
    value: Any  # the value approve would commit (the reviewer's, if they set one)
    pipeline_value: Any
    confidence: float | None
    page: int | None
    snippet: str | None
    problems: list[dict[str, str]]
    decision: FieldDecision | None
    highlights: list[dict[str, Any]]
    spans: list[list[int]]  # [page, start, end] of each cited span
    errors: list[str] = field(default_factory=list)
    entered: dict[str, Any] | None = None  # what the reviewer typed, shown again on an error
    bad_cells: frozenset[str] = frozenset()  # schedule inputs a refusal named
    flagged: list[str] = field(default_factory=list)  # on a finished document: why it was checked
    currency: str = "USD"  # the lease's, for its money
    rivals: list[dict[str, Any]] = field(default_factory=list)  # other values it states, where

    @property
    def label_hint(self) -> str:
        return HINTS.get(self.name, "")

    @property
    def kind(self) -> str:
        if self.name == "rent_schedule":
            return "schedule"
        return "escalation" if self.name == "escalation" else "text"

    @property
    def doubtful(self) -> bool:
        return bool(self.problems)

    @property
    def unchecked(self) -> bool:
        return self.doubtful and self.decision is None

    @property
    def corrected(self) -> bool:
        return self.decision is not None and self.value != self.pipeline_value

    @property
    def display(self) -> str:
        return display_value(self.name, self.value, self.currency)

    @property
    def pipeline_display(self) -> str:
        return display_value(self.name, self.pipeline_value, self.currency)

    @property
    def text_input(self) -> str:
        if self.entered is not None:
            return str(self.entered.get("value", ""))
        if isinstance(self.value, dict):  # a notice window: typed back as JSON
            return json.dumps(self.value)
        return "" if self.value is None else str(self.value)

    @property
    def steps(self) -> list[dict[str, str]]:
        """Rows for the schedule editor: the entered ones after an error, else the value's."""
        rows = self.entered.get("steps") if self.entered else None
        if rows is None:
            rows = [
                {c: "" if s.get(c) is None else str(s.get(c)) for c in STEP_COLUMNS}
                for s in (self.value or [])
            ]
        return [*rows, *(dict.fromkeys(STEP_COLUMNS, "") for _ in range(EMPTY_STEP_ROWS))]

    @property
    def escalation_form(self) -> dict[str, str]:
        if self.entered is not None:
            return {k: str(v) for k, v in self.entered.items()}
        value = self.value or {}
        rate = value.get("rate")
        return {"kind": str(value.get("kind") or ""), "rate": "" if rate is None else str(rate)}


# How money is written in the lease's currency; another code is written after the amount.
CURRENCY_SYMBOLS = {
    "USD": "$",
    "GBP": "£",
    "EUR": "€",
    "CAD": "CA$",
    "AUD": "A$",
    "NZD": "NZ$",
    "HKD": "HK$",
    "SGD": "S$",
    "JPY": "¥",
    "INR": "₹",
}


def format_money(amount: Any, currency: str | None = "USD") -> str:
    """``£88,116.00`` for ``("88116.00", "GBP")``; ``"1,200.00 SEK"`` for a code without a
    symbol here. Not a number: as it is (the page escapes it)."""
    if amount is None or amount == "":
        return ""
    try:
        figure = f"{Decimal(str(amount)):,.2f}"
    except InvalidOperation:
        return str(amount)
    code = (currency or "USD").upper()
    symbol = CURRENCY_SYMBOLS.get(code)
    return f"{symbol}{figure}" if symbol else f"{figure} {code}"


def display_value(name: str, value: Any, currency: str | None = "USD") -> str:
    """A value as a reviewer reads it; the page escapes it (it is lease text)."""
    if value is None:
        return "not stated"
    if name == "escalation" and isinstance(value, dict):
        rate = value.get("rate")
        return str(value.get("kind")) + (f" {rate}" if rate is not None else "")
    if name == "rent_schedule" and isinstance(value, list):
        return f"{len(value)} period(s)"
    if name in ("renewal_notice", "termination_notice") and isinstance(value, dict):
        return NoticeWindow.model_validate(value).describe()
    if name in ALLOWANCE_FIELDS and isinstance(value, dict):
        return Allowance.model_validate(value).describe()
    if name in MONEY_FIELDS:
        return format_money(value, currency)
    return str(value) if not isinstance(value, list | dict) else json.dumps(value)


def _problems_of(item: ReviewItem) -> dict[str, list[dict[str, str]]]:
    out: dict[str, list[dict[str, str]]] = {}
    for problem in item.problems:
        name = str(problem.get("field"))
        kind = str(problem.get("kind") or "")
        out.setdefault(name, []).append(
            {
                "text": str(problem.get("problem", "")),
                "kind": PROBLEM_KINDS.get(kind, kind.replace("_", " ")),
                "code": kind,
                "page": str(problem.get("page") or ""),
            }
        )
    for problems in out.values():
        _state_each_fact_once(problems)
    return out


def _state_each_fact_once(problems: list[dict[str, str]]) -> None:
    """A low probability's reason lists the notes behind it ("…: also stated as '250000.00'
    (rent table)"); a note another problem of the field already states is left out."""
    stated = {p["text"] for p in problems if p["code"] != "low_probability"}
    for problem in problems:
        head, sep, notes = problem["text"].partition(": ")
        if problem["code"] != "low_probability" or not sep:
            continue
        kept = [n for n in notes.split("; ") if n not in stated]
        problem["text"] = head + (sep + "; ".join(kept) if kept else "")


def document_problems(item: ReviewItem) -> list[dict[str, str]]:
    """Problems about the document as a whole (a blank form, too few fields stated)."""
    return [
        problem
        for name, problems in _problems_of(item).items()
        if name not in FIELD_NAMES
        for problem in problems
    ]


def cited_spans(stored: dict[str, Any]) -> list[Span]:
    """The citation and, for a value derived from several statements, each input's."""
    provenances = [stored.get("provenance"), *(stored.get("inputs") or [])]
    return [Span(int(p["page"]), int(p["start"]), int(p["end"])) for p in provenances if p]


def field_rows(item: ReviewItem, highlights: dict[Span, Highlight]) -> list[FieldRow]:
    problems = _problems_of(item)
    draft = item.draft()
    currency = str(draft.get("currency", {}).get("value") or "USD")
    rows = []
    for name in FIELD_NAMES:
        stored = item.fields.get(name) or {}
        provenance = stored.get("provenance") or {}
        spans = cited_spans(stored)
        # "Stated, not read" has no citation, only the page where the lease states it.
        pages = [int(p["page"]) for p in problems.get(name, []) if p["page"]]
        rows.append(
            FieldRow(
                name=name,
                label=LABELS.get(name, name),
                value=draft[name]["value"],
                pipeline_value=stored.get("value"),
                confidence=stored.get("confidence") if stored else None,
                page=provenance.get("page") or (pages[0] if pages else None),
                snippet=provenance.get("text"),
                problems=problems.get(name, []),
                decision=item.decisions.get(name),
                highlights=[highlights[s].to_json() for s in spans if s in highlights],
                spans=[[s.page, s.start, s.end] for s in spans],
                currency=currency,
            )
        )
    order = [str(p.get("field")) for p in item.problems]
    return sorted(rows, key=lambda r: order.index(r.name) if r.name in order else len(order))


def all_spans(item: ReviewItem) -> list[Span]:
    return [s for name in FIELD_NAMES for s in cited_spans(item.fields.get(name) or {})]


@dataclass
class DocumentPane:
    """The left side: page images (with sizes, for a stable layout) or text pages."""

    kind: str  # "images" | "text" | "none"
    pages: list[PageSize] = field(default_factory=list)
    text_pages: list[list[Segment]] = field(default_factory=list)
    note: str | None = None  # why there is nothing to show


def text_pane(view: TextView, item: ReviewItem) -> DocumentPane:
    return DocumentPane("text", text_pages=view.text_pages(all_spans(item)))


def next_focus(rows: list[FieldRow], after: str | None) -> str:
    """Where the keyboard goes next: the next unchecked doubtful field after ``after``
    (wrapping round), else the approve button."""
    names = [r.name for r in rows if r.unchecked]
    if not names:
        return "approve"
    if after in names or after is None:
        return names[0] if after is None else names[(names.index(after) + 1) % len(names)]
    order = [r.name for r in rows]
    later = [n for n in names if after in order and order.index(n) > order.index(after)]
    return later[0] if later else names[0]
