"""Rent schedule steps and the escalation they, or a clause, show."""

from __future__ import annotations

import json
from decimal import Decimal
from typing import Any

import pytest

from lease_parser.extraction.financials import extract_financials
from lease_parser.extraction.rent_table import RentTable, Row
from lease_parser.extraction.schedule import escalation_from_steps, schedule_steps
from lease_parser.model import EscalationKind
from tests.unit.extraction.lease_text import by_name, document


def fields(text: str) -> dict[str, Any]:
    raw = by_name(extract_financials(document(text)))
    return {k: json.loads(v.value) for k, v in raw.items() if k in ("rent_schedule", "escalation")}


def step(annual: str | None, monthly: str | None = None, rate: str | None = None) -> dict[str, Any]:
    return {
        "start": None,
        "end": None,
        "annual": annual,
        "monthly": monthly,
        "per_sqft_annual": rate,
    }


def test_steps_from_a_schedule() -> None:
    out = fields(
        "Base Rent: | Period | Monthly Base Rent | Annual Base Rent | "
        "| Months 1 - 12 | $10,000.00 | $120,000.00 | "
        "| Months 13 - 24 | $10,300.00 | $123,600.00 | "
        "| Lease Years 3 - 5 | $10,609.00 | $127,308.00 | Rent is due on the first of each month."
    )
    assert [(s["start"], s["end"], s["monthly"]) for s in out["rent_schedule"]] == [
        (1, 12, "10000.00"),
        (13, 24, "10300.00"),
        (25, 60, "10609.00"),
    ]
    assert out["escalation"] == {"kind": "fixed_percent", "rate": "3.00"}


def test_abated_and_dated_steps() -> None:
    out = fields(
        "Sublessee shall pay base rental in monthly installments as follows: Date/Term Monthly "
        "Installment of Base Rent 01-01-24 to 03-31-24 $0.00 04-01-24 to 12-31-24 $8,000.00 "
        "01-01-25 to 12-31-25 $8,500.00 Sublessee shall pay the rent at Sublessor's office."
    )
    steps = out["rent_schedule"]
    assert steps[0] == {
        "start": "2024-01-01",
        "end": "2024-03-31",
        "monthly": "0.00",
        "annual": None,
        "per_sqft_annual": None,
    }
    assert steps[1]["monthly"] == "8000.00"


def test_extension_rows_are_not_initial_term_steps() -> None:
    out = fields(
        "PERIOD MONTHLY FIXED RENT ANNUAL FIXED RENT Lease Years 1 through 10 $5,000.00 "
        "$60,000.00 Lease Years 11 through 15 First Extension Term $5,500.00 $66,000.00 "
        "Tenant shall pay its rent monthly in advance on the first day of each month."
    )
    assert len(out["rent_schedule"]) == 1


@pytest.mark.parametrize(
    ("steps", "expected"),
    [
        (
            [step("100000.00"), step("103000.00"), step("106090.00")],
            (EscalationKind.FIXED_PERCENT, "3.00"),
        ),
        (
            [
                step(None, "1000.00", "20.00"),
                step(None, "1025.00", "20.50"),
                step(None, "1050.00", "21.00"),
            ],
            (EscalationKind.FIXED_AMOUNT, "0.50"),
        ),
        (
            [step("100000.00"), step("100000.00"), step("104000.00"), step("110000.00")],
            (EscalationKind.SCHEDULE, None),
        ),
    ],
)
def test_escalation_from_steps(
    steps: list[dict[str, Any]], expected: tuple[EscalationKind, str | None]
) -> None:
    kind, rate = expected
    assert escalation_from_steps(steps) == (kind, None if rate is None else Decimal(rate))


def test_flat_rent_has_no_escalation_from_steps() -> None:
    assert escalation_from_steps([step("1000.00"), step("1000.00")]) is None


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (
            "Base Rent shall be increased by three percent (3%) annually on each anniversary.",
            {"kind": "fixed_percent", "rate": "3.00"},
        ),
        (
            "The annual Base Rent shall be adjusted on each anniversary to reflect the increase "
            "in the Consumer Price Index.",
            {"kind": "cpi", "rate": None},
        ),
        (
            "Annual Base Rent for each Lease Year shall be one hundred three percent (103%) of the "
            "Base Rent for the preceding Lease Year.",
            {"kind": "fixed_percent", "rate": "3.00"},
        ),
        (
            "Review date(s) Annually - adjusted by way of four percent (4%) increase.",
            {"kind": "fixed_percent", "rate": "4.00"},
        ),
        (
            "Minimum rent shall be $2,000.00 per month, and each lease year thereafter minimum "
            "rent shall increase by two and one-half percent (2.5%).",
            {"kind": "fixed_percent", "rate": "2.50"},
        ),
    ],
)
def test_escalation_clauses(text: str, expected: dict[str, Any]) -> None:
    assert fields(text)["escalation"] == expected


def test_bare_rows_count_lease_years_when_the_heading_says_so() -> None:
    out = fields(
        "Annual Fixed Rent: Lease Year Rent psf Annual Fixed Rent Monthly Payment "
        "1-3 $ 34.00 $ 340,000.00 $ 28,333.33 4-6 $ 36.00 $ 360,000.00 $ 30,000.00 "
        "Tenant Electricity: See Section 5.2 of this Lease for the electricity charges."
    )
    assert [(s["start"], s["end"]) for s in out["rent_schedule"]] == [(1, 36), (37, 72)]


def test_a_row_with_neither_a_period_nor_an_amount_is_skipped_not_a_crash() -> None:
    """An unseen lease's table held a row with no amount and no period marker: reading its
    label crashed extraction (IndexError), so the lease had no outcome at all."""
    table = RentTable(anchor_start=0, header="Period Monthly Base Rent", rows=[Row()], end=10)
    assert schedule_steps(table, [], "Period Monthly Base Rent") == []
