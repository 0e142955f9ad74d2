"""The money side of a lease: rent, schedule, escalation, charges, deposit, area, options.

One extractor for the family, because its fields check each other: the premises area
makes rate × area = rent testable, the schedule gives the escalation, the currency
applies to every amount. Only the main agreement is read (sections.primary_span): a
master lease attached to a sublease, or amendments after a lease, state other terms.
"""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from lease_parser.extraction.area import area_cues
from lease_parser.extraction.base import RawField
from lease_parser.extraction.charges import cam_cues, share_cues
from lease_parser.extraction.cues import Cue, resolve
from lease_parser.extraction.currency import currency_cues
from lease_parser.extraction.deposit import (
    deposit_cues,
    multiple_of_rent_cues,
    stated_multiples,
)
from lease_parser.extraction.evidence import add_caveat
from lease_parser.extraction.flat import FlatText, flat_text
from lease_parser.extraction.options import renewal_cues
from lease_parser.extraction.rent import (
    RentEvidence,
    clause_evidence,
    cross_check,
    table_evidence,
)
from lease_parser.extraction.rent_table import find_rent_tables
from lease_parser.extraction.schedule import (
    escalation_clause_cues,
    escalation_features,
    no_increase_cues,
    one_rent,
    schedule_cue,
    schedule_gaps,
    schedule_steps,
    steps_escalation_cues,
)
from lease_parser.extraction.sections import primary_span
from lease_parser.parsing.base import Document


def _values(cues: list[Cue]) -> list[Decimal]:
    return sorted({Decimal(c.value) for c in cues})


def _rent_fields(
    flat: FlatText, span: tuple[int, int], area: list[Cue]
) -> tuple[list[RawField | None], RentEvidence]:
    areas = _values(area)
    evidence = RentEvidence()
    table_evidence(find_rent_tables(flat.text, span), areas, evidence, flat.text)
    clause_evidence(flat, span, evidence)
    cross_check(evidence, areas)
    # Rent arithmetic supports an area the lease states for the premises, never adds one:
    # a schedule may price a part of the premises for some months.
    area.extend(c for c in evidence.area if Decimal(c.value) in areas)
    out = []
    for name, cues in (
        ("base_rent_monthly", evidence.monthly),
        ("base_rent_annual", evidence.annual),
    ):
        raw = resolve(name, cues, flat)
        if raw is not None and raw.value in evidence.disagreeing_words:
            add_caveat(raw, "the words disagree with the figures; the figures are kept")
        out.append(raw)
    return out, evidence


def _schedule_fields(
    flat: FlatText, span: tuple[int, int], evidence: RentEvidence, areas: list[Decimal]
) -> list[RawField | None]:
    """The first schedule's steps, and the escalation the lease states: a clause's rate
    (checked by steps that follow it), a table's ``schedule``, or one rent and ``none``."""
    escalation = escalation_clause_cues(flat, span)
    steps: list[dict[str, Any]] = []
    steps_field = None
    if evidence.table is not None:
        steps = schedule_steps(evidence.table, areas, flat.text)
        cue = schedule_cue(evidence.table, steps) if not one_rent(steps) else None
        steps_field = resolve("rent_schedule", [cue], flat) if cue else None
        gaps = schedule_gaps(steps)
        if steps_field is not None and gaps:
            add_caveat(steps_field, f"the schedule's periods do not join: {'; '.join(gaps)}")
        if cue is not None:
            escalation.extend(steps_escalation_cues(steps, escalation, cue))
    if not escalation and (not steps or one_rent(steps)):
        escalation.extend(no_increase_cues(flat, span, evidence.monthly + evidence.annual))
    raw = resolve("escalation", escalation, flat)
    if raw is not None:
        raw.evidence.update(escalation_features(flat, span, raw.value, steps))
    return [steps_field, raw]


def _renewal_fields(flat: FlatText, span: tuple[int, int]) -> list[RawField | None]:
    """Option count, and each option's length only when there is at least one option."""
    counts, terms = renewal_cues(flat, span)
    count = resolve("renewal_option_count", counts, flat)
    if count is None or count.value == "0":
        return [count]
    return [count, resolve("renewal_term_months", terms, flat)]


def _deposit_field(
    flat: FlatText, span: tuple[int, int], monthly: RawField | None
) -> RawField | None:
    cues = deposit_cues(flat, span)
    multiples = stated_multiples(flat, span, cues)
    cues += multiple_of_rent_cues(cues, multiples, monthly.value if monthly else None)
    return resolve("security_deposit", cues, flat)


def extract_financials(document: Document) -> list[RawField]:
    """Every financial field the main agreement states, with the evidence for each."""
    if not document.pages:
        return []
    flat = flat_text(document)
    span = primary_span(document)
    area = area_cues(flat, span)
    fields, evidence = _rent_fields(flat, span, area)
    fields.append(resolve("rentable_sqft", area, flat))
    fields.extend(_schedule_fields(flat, span, evidence, _values(area)))
    monthly = next((f for f in fields if f and f.name == "base_rent_monthly"), None)
    fields.append(_deposit_field(flat, span, monthly))
    fields.extend(_renewal_fields(flat, span))
    fields.append(resolve("cam_monthly", cam_cues(flat, span), flat))
    fields.append(resolve("tenant_share_percent", share_cues(flat, span), flat))
    fields.append(resolve("currency", currency_cues(flat, span), flat))
    return [raw for raw in fields if raw is not None]
