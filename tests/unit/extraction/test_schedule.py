"""Rent schedule steps and the escalation they, or a clause, show."""

from __future__ import annotations

import json
from decimal import Decimal
from typing import Any

import pytest

from lease_parser.extraction.base import RawField
from lease_parser.extraction.financials import extract_financials
from lease_parser.extraction.rent_table import RentTable, Row
from lease_parser.extraction.schedule import (
    escalation_from_steps,
    schedule_steps,
    start_at_commencement,
    step_pattern,
)
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
        "| Lease Years 3 - 5 | $10,609.00 | $127,308.00 | "
        "Rent is due on the first of each month."
    )
    assert [(s["start"], s["end"], s["monthly"]) for s in out["rent_schedule"]] == [
        (1, 12, "10000.00"),
        (13, 24, "10300.00"),
        (25, 60, "10609.00"),
    ]
    # A table and no stated percentage: each period's rent, a schedule.
    assert out["escalation"] == {"kind": "schedule", "rate": None}


def test_a_note_under_the_table_sets_a_lease_year_s_length() -> None:
    out = fields(
        "Base Rent: | Lease Year | Monthly Base Rent | Annual Base Rent | "
        "| Year 1 | $10,000.00 | $120,000.00 | "
        "| Year 2 | $10,300.00 | $123,600.00 | "
        "| Year 3* | $10,609.00 | $127,308.00 | "
        "*Lease Year 3 shall consist of fourteen (14) months. Rent is due monthly."
    )
    assert [(s["start"], s["end"]) for s in out["rent_schedule"]] == [(1, 12), (13, 24), (25, 38)]


def test_a_last_year_cut_short_ends_with_the_months_its_total_pays() -> None:
    out = fields(
        "Rent Schedule of Net Rental | Lease Year | Net Rental per RSF | RSF | Annual Net "
        "Rental | Monthly Net Rental | "
        "| 1 | $12.00 | 10,000 | $120,000.00 | $10,000.00 | "
        "| 2 | $12.36 | 10,000 | $123,600.00 | $10,300.00 | "
        "| 3 | $12.73 | 10,000 | $63,649.98 | $10,608.33 | "
        "Rent is due on the first of each month."
    )
    last = out["rent_schedule"][-1]
    assert (last["start"], last["end"], last["annual"]) == (25, 30, "63649.98")


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
    # The initial term's one row is one rent for the term: no schedule, no increase.
    assert "rent_schedule" not in out
    assert out["escalation"] == {"kind": "none", "rate": None}


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
def test_step_pattern(
    steps: list[dict[str, Any]], expected: tuple[EscalationKind, str | None]
) -> None:
    kind, rate = expected
    assert step_pattern(steps) == (kind, None if rate is None else Decimal(rate))
    # What a table alone states is each period's rent, whatever ratio it steps by.
    assert escalation_from_steps(steps) == (EscalationKind.SCHEDULE, None)


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


def test_a_stated_percentage_the_table_follows_wins_over_the_schedule() -> None:
    text = (
        "Base Rent: | Period | Monthly Base Rent | Annual Base Rent | "
        "| Months 1 - 12 | $10,000.00 | $120,000.00 | "
        "| Months 13 - 24 | $10,300.00 | $123,600.00 | "
        "| Months 25 - 36 | $10,609.00 | $127,308.00 | Rent is due on the first of each month. "
        "Base Rent shall be increased by three percent (3%) annually on each anniversary."
    )
    raw = by_name(extract_financials(document(text)))["escalation"]
    assert json.loads(raw.value or "") == {"kind": "fixed_percent", "rate": "3.00"}
    assert "checked by: rent schedule steps" in raw.notes
    assert not raw.doubts


def test_a_percentage_for_a_renewal_term_is_not_the_initial_terms_escalation() -> None:
    out = fields(
        "Base Rent: | Period | Monthly Base Rent | Annual Base Rent | "
        "| Months 1 - 12 | $10,000.00 | $120,000.00 | "
        "| Months 13 - 24 | $10,450.00 | $125,400.00 | Rent is due on the first of each month. "
        "The Monthly Rent for the first Lease Year of a Renewal Term shall be one hundred three "
        "percent (103%) of the Monthly Rent for the preceding Lease Year."
    )
    assert out["escalation"] == {"kind": "schedule", "rate": None}


def test_an_escalation_by_an_amount_equal_to_a_percentage_of_the_prior_rent() -> None:
    out = fields(
        "Commencing on the first day of each subsequent Lease Year, the then current Net Rental "
        "shall escalate by an amount equal to 2.5% of the Net Rental for the immediately "
        "preceding Lease Year."
    )
    assert out["escalation"] == {"kind": "fixed_percent", "rate": "2.50"}


def test_one_rent_for_the_term_and_no_increase_is_none() -> None:
    raw = by_name(
        extract_financials(
            document(
                "Tenant shall pay Landlord a monthly rent of $1,250.00 for the entire term of "
                "this Lease, payable in advance on the first day of each month. There shall be "
                "no rent increase during the term."
            )
        )
    )["escalation"]
    assert json.loads(raw.value or "") == {"kind": "none", "rate": None}
    assert raw.evidence["no_increase"] == 1.0
    assert raw.evidence["table_rows"] == 0.0
    # The rent and "for the entire term" are one sentence, one statement; "no rent
    # increase" is another.
    assert raw.notes[0] == "stated by: no increase stated, one rent for the term"
    assert raw.evidence["statements"] == 2


def test_a_none_beside_words_of_rent_changing_carries_them_as_evidence() -> None:
    plain = by_name(extract_financials(document("Tenant shall pay a monthly rent of $1,250.00.")))[
        "escalation"
    ]
    reviewed = by_name(
        extract_financials(
            document(
                "Tenant shall pay a monthly rent of $1,250.00. The rent is subject to review on "
                "each review date and may be adjusted to the market rent."
            )
        )
    )["escalation"]
    assert plain.evidence["increase_words"] == 0.0
    assert reviewed.evidence["increase_words"] > 0.3


def test_no_rent_read_no_none() -> None:
    out = fields("Tenant shall keep the premises clean and in good repair.")
    assert "escalation" not in out


def test_a_free_rent_row_is_zero_in_the_columns_the_paid_rows_fill() -> None:
    out = fields(
        "The Premises consist of 3,000 rentable square feet. "
        "Sublessee shall pay base rental as follows: Date/Term Monthly Installment of Base Rent "
        "Yearly Rental Rate Per Rentable Square Foot 01-01-24 to 02-29-24 $0.00 $0.00 "
        "03-01-24 to 12-31-24 $5,000.00 $20.00 01-01-25 to 12-31-25 $5,250.00 $21.00 "
        "Sublessee shall pay the rent at Sublessor's office."
    )
    assert out["rent_schedule"][0] == {
        "start": "2024-01-01",
        "end": "2024-02-29",
        "monthly": "0.00",
        "annual": None,
        "per_sqft_annual": "0.00",
    }


def test_from_and_through_dates_in_two_columns_bound_one_row() -> None:
    out = fields(
        "ANNUAL RENT and MONTHLY INSTALLMENT OF RENT: Period Annual Rent Per Square Foot "
        "Annual Rent Monthly Installment of Rent from through 8/1/20 1/31/21 $0.00 $0.00 $0.00 "
        "2/1/21 1/31/22 $10.00 $100,000.00 $8,333.33 2/1/22 1/31/23 $10.50 $105,000.00 "
        "$8,750.00 SECURITY DEPOSIT: the sum stated in Article 6 of this Lease is payable."
    )
    steps = out["rent_schedule"]
    assert [(s["start"], s["end"]) for s in steps] == [
        ("2020-08-01", "2021-01-31"),
        ("2021-02-01", "2022-01-31"),
        ("2022-02-01", "2023-01-31"),
    ]
    assert steps[0]["monthly"] == steps[0]["annual"] == steps[0]["per_sqft_annual"] == "0.00"
    assert steps[1] == {
        "start": "2021-02-01",
        "end": "2022-01-31",
        "monthly": "8333.33",
        "annual": "100000.00",
        "per_sqft_annual": "10.00",
    }


def test_rows_with_start_dates_only_end_the_day_before_the_next_row() -> None:
    out = fields(
        "The monthly minimum rental shall be as follows: Effective 9/1/2020 $4,000.00 per month "
        "Effective 3/1/2021 $4,200.00 per month Effective 3/1/2022 $4,400.00 per month and "
        "Tenant shall continue to pay all other charges as provided in the terms of the Lease."
    )
    steps = out["rent_schedule"]
    assert [(s["start"], s["end"]) for s in steps] == [
        ("2020-09-01", "2021-02-28"),
        ("2021-03-01", "2022-02-28"),
        ("2022-03-01", None),
    ]


def test_a_monthly_rate_per_foot_is_not_an_annual_rate() -> None:
    out = fields(
        "BASE RENT Months Per Rentable Square Foot Square Feet Total Monthly "
        "1-12 $1.00 monthly 10,000 $10,000.00 13-24 $1.10 monthly 10,000 $11,000.00 "
        "Tenant shall pay the Base Rent in advance on the first day of each calendar month."
    )
    steps = out["rent_schedule"]
    assert [(s["start"], s["end"], s["monthly"]) for s in steps] == [
        (1, 12, "10000.00"),
        (13, 24, "11000.00"),
    ]
    assert [s["per_sqft_annual"] for s in steps] == [None, None]


def test_a_schedule_whose_periods_do_not_join_is_a_caveat() -> None:
    raw = by_name(
        extract_financials(
            document(
                "Base Rent: | Period | Monthly Base Rent | Annual Base Rent | "
                "| Months 1 - 12 | $10,000.00 | $120,000.00 | "
                "| Months 25 - 36 | $10,609.00 | $127,308.00 | "
                "Rent is due on the first of each month."
            )
        )
    )["rent_schedule"]
    assert raw.evidence["caveats"] == 1.0
    assert "12 is followed by 25" in raw.doubts["caveat"]


def test_periods_that_join_are_no_caveat() -> None:
    raw = by_name(
        extract_financials(
            document(
                "Base Rent: | Period | Monthly Base Rent | Annual Base Rent | "
                "| Months 1 - 12 | $10,000.00 | $120,000.00 | "
                "| Months 13 - 24 | $10,300.00 | $123,600.00 | "
                "Rent is due on the first of each month."
            )
        )
    )["rent_schedule"]
    assert not raw.doubts


def test_a_first_period_from_the_commencement_date_starts_on_the_date_read() -> None:
    steps = [
        {"start": None, "end": "2024-01-31", "monthly": "100.00"},
        {"start": "2024-02-01", "end": "2025-01-31", "monthly": "110.00"},
    ]
    schedule = RawField("rent_schedule", json.dumps(steps), page=2, start=5, end=90)
    commencement = RawField("commencement_date", "2023-02-01", page=1, start=10, end=26)
    start_at_commencement({"rent_schedule": schedule, "commencement_date": commencement})
    assert json.loads(schedule.value or "")[0]["start"] == "2023-02-01"
    assert [(c.page, c.start) for c in schedule.inputs] == [(1, 10)]


def test_no_commencement_read_leaves_the_first_start_open() -> None:
    steps = [{"start": None, "end": "2024-01-31", "monthly": "100.00"}]
    schedule = RawField("rent_schedule", json.dumps(steps))
    late = RawField("commencement_date", "2024-06-01")
    start_at_commencement({"rent_schedule": schedule, "commencement_date": late})
    assert json.loads(schedule.value or "")[0]["start"] is None
    start_at_commencement({"rent_schedule": schedule})
    assert json.loads(schedule.value or "")[0]["start"] is None


def test_words_of_rent_changing_are_evidence_only_against_a_none() -> None:
    raw = by_name(
        extract_financials(
            document(
                "Base Rent shall be increased by three percent (3%) annually on each "
                "anniversary, and the increase is subject to review."
            )
        )
    )["escalation"]
    assert json.loads(raw.value or "")["kind"] == "fixed_percent"
    assert raw.evidence["no_increase"] == 0.0
    assert raw.evidence["increase_words"] == 0.0
