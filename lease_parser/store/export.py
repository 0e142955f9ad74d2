"""Results out of the canonical store: CSV (a lease file and a rent-schedule file) and JSON lines.

Values leave exactly as the store holds them (the ``abstract --json`` form): money and
decimals as decimal strings (``"48125.00"``, never a float), dates as ISO strings. In CSV
an empty cell means "the document does not state it"; the compound fields
(``rent_schedule``, ``escalation``) are compact JSON in the lease row so that one file is
complete, and the rent schedule also has its own CSV, one row per step, for accounting
imports. ``read_leases_csv`` / ``read_schedule_csv`` parse the files back (the round trip
is tested), so a consumer in Python gets the same values the store has.
"""

from __future__ import annotations

import csv
import json
from collections.abc import Iterable
from typing import IO, Any

from lease_parser.model import FIELD_NAMES
from lease_parser.scoring.normalization import INT_FIELDS, JSON_FIELDS
from lease_parser.store.database import (
    DocumentRow,
    DocumentState,
    EventRow,
    ReviewDecisionRow,
    as_utc,
)

META_COLUMNS: tuple[str, ...] = (
    "doc_hash",
    "doc_key",
    "key_version",
    "state",
    "reason",
    "detail",
    "source",
    "reviewer",
    "confidence",
    "state_changed_at",
)
LEASE_COLUMNS: tuple[str, ...] = META_COLUMNS + FIELD_NAMES
STEP_FIELDS: tuple[str, ...] = ("start", "end", "monthly", "annual", "per_sqft_annual")
SCHEDULE_COLUMNS: tuple[str, ...] = ("doc_hash", "doc_key", "key_version", "step", *STEP_FIELDS)


def _iso(value: Any) -> str | None:
    return as_utc(value).isoformat() if value is not None else None


def values_of(row: DocumentRow) -> dict[str, Any]:
    """``{field: value}`` for every field of docs/fields.md (None when not stated)."""
    fields = row.fields or {}
    return {name: (fields.get(name) or {}).get("value") for name in FIELD_NAMES}


def sources_of(row: DocumentRow) -> dict[str, str]:
    """Where each committed value came from (pipeline, confirmed, corrected); empty until
    the document is committed. An auto-committed document's values are all the pipeline's."""
    if row.field_sources:
        return dict(row.field_sources)
    if row.state == DocumentState.COMMITTED:
        return dict.fromkeys(FIELD_NAMES, "pipeline")
    return {}


def document_json(row: DocumentRow) -> dict[str, Any]:
    """The whole record of one document: the JSON-lines export, ``results show --json``."""
    return {
        "doc_hash": row.doc_hash,
        "doc_key": row.doc_key,
        "key_version": row.key_version,
        "state": row.state,
        "reason": row.reason,
        "detail": row.detail,
        "kind": row.kind,
        "confidence": row.confidence,
        "source": row.source,
        "reviewer": row.reviewer,
        "pages": row.pages,
        "ocr_pages": row.ocr_pages,
        "submitted_at": _iso(row.created_at),
        "finished_at": _iso(row.finished_at),
        "reviewed_at": _iso(row.reviewed_at),
        "state_changed_at": _iso(row.state_changed_at),
        "problems": row.problems or [],
        "corrections": row.corrections or {},
        "field_sources": sources_of(row),
        "fields": row.fields or {},
        "amendments": row.amendments or [],
    }


def decision_json(row: ReviewDecisionRow) -> dict[str, Any]:
    """A reviewer's decision on one field, as ``results show --json`` lists it."""
    return {
        "field": row.field,
        "decision": row.decision,
        "value": row.value,
        "reviewer": row.reviewer,
        "decided_at": _iso(row.decided_at),
        "review_since": _iso(row.review_since),
    }


def event_json(event: EventRow) -> dict[str, Any]:
    return {
        "at": _iso(event.at),
        "state": event.state,
        "reason": event.reason,
        "actor": event.actor,
        "submission_id": event.submission_id,
        "detail": event.detail,
    }


# A spreadsheet runs a cell that starts with one of these as a formula: a tenant named
# "=HYPERLINK(...)" in a lease must not become a link in the accountant's Excel (CSV
# injection). Such cells, and cells starting with the quote itself so that reading back is
# unambiguous, get a leading "'"; ``read_*_csv`` removes it.
_FORMULA_STARTS = frozenset("=+-@\t\r'")


def _cell(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, list | dict):
        return json.dumps(value, separators=(",", ":"), sort_keys=True)
    text = str(value)
    return "'" + text if text[:1] in _FORMULA_STARTS else text


def _uncell(text: str) -> str:
    return text[1:] if text.startswith("'") else text


def lease_row(row: DocumentRow) -> dict[str, str]:
    meta = document_json(row)
    cells = {name: _cell(meta[name]) for name in META_COLUMNS}
    cells.update({name: _cell(value) for name, value in values_of(row).items()})
    return cells


def schedule_rows(row: DocumentRow) -> list[dict[str, str]]:
    steps = values_of(row)["rent_schedule"] or []
    return [
        {
            "doc_hash": row.doc_hash,
            "doc_key": row.doc_key,
            "key_version": str(row.key_version),
            "step": str(number),
            **{name: _cell(step.get(name)) for name in STEP_FIELDS},
        }
        for number, step in enumerate(steps, start=1)
    ]


def write_csv(rows: Iterable[DocumentRow], leases: IO[str], schedule: IO[str] | None) -> int:
    """One pass over the rows: a lease row each, and their rent steps. Returns the count."""
    lease_writer = csv.DictWriter(leases, fieldnames=LEASE_COLUMNS, lineterminator="\n")
    lease_writer.writeheader()
    step_writer = None
    if schedule is not None:
        step_writer = csv.DictWriter(schedule, fieldnames=SCHEDULE_COLUMNS, lineterminator="\n")
        step_writer.writeheader()
    count = 0
    for row in rows:
        lease_writer.writerow(lease_row(row))
        if step_writer is not None:
            step_writer.writerows(schedule_rows(row))
        count += 1
    return count


def write_jsonl(rows: Iterable[DocumentRow], out: IO[str]) -> int:
    count = 0
    for row in rows:
        out.write(json.dumps(document_json(row), separators=(",", ":")) + "\n")
        count += 1
    return count


# -- reading exports back ----------------------------------------------------------------


def _field_value(name: str, text: str) -> Any:
    text = _uncell(text)
    if text == "":
        return None
    if name in INT_FIELDS:
        return int(text)
    if name in JSON_FIELDS:
        return json.loads(text)
    return text


def _meta_value(name: str, text: str) -> Any:
    text = _uncell(text)
    if text == "":
        return None
    if name == "key_version":
        return int(text)
    if name == "confidence":
        return float(text)
    return text


def read_leases_csv(f: IO[str]) -> list[dict[str, Any]]:
    """A lease CSV → ``[{meta…, "values": {field: value}}]`` in the store's JSON form."""
    out = []
    for cells in csv.DictReader(f):
        record = {name: _meta_value(name, cells[name]) for name in META_COLUMNS}
        record["values"] = {name: _field_value(name, cells[name]) for name in FIELD_NAMES}
        out.append(record)
    return out


def _step_bound(text: str) -> str | int | None:
    if text == "":
        return None
    return int(text) if text.isdigit() else text


def read_schedule_csv(f: IO[str]) -> dict[str, list[dict[str, Any]]]:
    """A rent-schedule CSV → ``{doc_hash: [step, …]}`` in the store's JSON form."""
    out: dict[str, list[dict[str, Any]]] = {}
    for cells in csv.DictReader(f):
        step: dict[str, Any] = {
            name: _step_bound(_uncell(cells[name])) for name in ("start", "end")
        }
        step.update({name: _uncell(cells[name]) or None for name in STEP_FIELDS[2:]})
        out.setdefault(cells["doc_hash"], []).append(step)
    return out
