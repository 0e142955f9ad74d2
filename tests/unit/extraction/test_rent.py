"""Initial base rent from clauses, summary lines and schedules (synthetic lease text)."""

from __future__ import annotations

import pytest

from lease_parser.extraction import extract_fields
from lease_parser.extraction.base import RawField
from lease_parser.extraction.evidence import Doubt
from lease_parser.extraction.financials import extract_financials
from tests.unit.extraction.lease_text import by_name, document


def rent(*pages: str) -> dict[str, RawField]:
    fields = by_name(extract_financials(document(*pages)))
    return {k: v for k, v in fields.items() if k.startswith("base_rent")}


@pytest.mark.parametrize(
    ("sentence", "monthly"),
    [
        ("Tenant shall pay Landlord Base Rent in the sum of $4,100.00 per month.", "4100.00"),
        ("Monthly Base Rent: $3,250.00", "3250.00"),
        (
            "Lessee shall pay to Lessor a monthly rental of Two Thousand Five Hundred and "
            "00/100 Dollars ($2,500.00), in advance.",
            "2500.00",
        ),
        (
            "Commencing on the Rent Commencement Date, Subtenant shall pay each month during "
            "the term rent in the amount of Nine Thousand Dollars ($9,000.00), in advance.",
            "9000.00",
        ),
        ("The Minimum Rent shall be $1,875.50 per month, payable in advance.", "1875.50"),
        ("Lessee shall pay the rent in installments of $7,000.00 each month.", "7000.00"),
        ("The basic monthly lease fees shall be NIS 45,000 per month.", "45000.00"),
        (
            "Base Rent: The Base Rent shall be $9,850.00 per month inclusive of the charges for "
            "real estate taxes and insurance.",
            "9850.00",
        ),
    ],
)
def test_monthly_rent_clauses(sentence: str, monthly: str) -> None:
    fields = rent(f"4. RENT. {sentence} Rent shall be paid at Landlord's office.")
    assert fields["base_rent_monthly"].value == monthly
    assert "base_rent_annual" not in fields


@pytest.mark.parametrize(
    ("sentence", "annual"),
    [
        ("Rent $84,000.00 per annum, exclusive of Goods and Services Tax.", "84000.00"),
        ("The Annual Base Rent shall be $126,500.00.", "126500.00"),
        ("Tenant shall pay Base Rent of $48,000.00 per year.", "48000.00"),
    ],
)
def test_annual_rent_clauses(sentence: str, annual: str) -> None:
    fields = rent(sentence)
    assert fields["base_rent_annual"].value == annual
    assert "base_rent_monthly" not in fields


def test_annual_and_monthly_in_one_sentence_do_not_support_each_other() -> None:
    """Two readings of one sentence agreeing says the drafter can multiply, not that the
    right sentence was read: the relation holds, and counts for neither."""
    fields = extract_fields(
        document(
            "(a) Base Rent. As Base Rent, Tenant shall pay an amount equal to $60,000.00 per "
            "year, payable in equal monthly installments of $5,000.00 in advance."
        )
    )
    assert fields["base_rent_annual"].value == "60000.00"
    assert fields["base_rent_monthly"].value == "5000.00"
    for name in ("base_rent_monthly", "base_rent_annual"):
        assert fields[name].evidence["statements"] == 1
        assert fields[name].evidence.get("relations_met", 0) == 0
        assert Doubt.FAILED_RELATION not in fields[name].doubts


def test_annual_and_monthly_in_two_sentences_support_each_other() -> None:
    fields = extract_fields(
        document(
            "(a) Base Rent. As Base Rent, Tenant shall pay an amount equal to $60,000.00 per "
            "year. Tenant shall pay the Base Rent in equal monthly installments of $5,000.00 in "
            "advance."
        )
    )
    for name in ("base_rent_monthly", "base_rent_annual"):
        assert fields[name].evidence["relations_met"] >= 1
        assert "consistent: annual 60000.00 = 12 × monthly 5000.00" in fields[name].notes


def test_annual_and_monthly_that_disagree_are_a_failed_relation() -> None:
    fields = extract_fields(
        document(
            "Annual Base Rent: $66,000.00. Tenant shall pay Base Rent in equal monthly "
            "installments of $5,000.00 in advance."
        )
    )
    assert fields["base_rent_annual"].value == "66000.00"
    assert fields["base_rent_monthly"].value == "5000.00"
    for name in ("base_rent_monthly", "base_rent_annual"):
        assert "annual = 12 × monthly fails" in fields[name].doubts[Doubt.FAILED_RELATION]
        assert fields[name].evidence["relations_failed"] >= 1


def test_summary_line_and_clause_that_agree_are_two_statements() -> None:
    fields = rent(
        "BASIC LEASE INFORMATION Premises: Suite 200. Monthly Base Rent: $6,200.00",
        "5. Rent. Tenant shall pay Landlord Base Rent in the sum of $6,200.00 per month, "
        "in advance on the first day of each month.",
    )
    assert fields["base_rent_monthly"].value == "6200.00"
    assert fields["base_rent_monthly"].evidence["statements"] >= 2
    assert fields["base_rent_monthly"].evidence["kinds"] >= 2


def test_a_single_clause_is_one_statement_unchecked() -> None:
    fields = rent("Tenant shall pay Base Rent in the sum of $6,200.00 per month.")
    assert fields["base_rent_monthly"].evidence["statements"] == 1
    assert fields["base_rent_monthly"].evidence["checks"] == 0


def test_a_rate_per_square_foot_is_not_a_rent() -> None:
    fields = rent(
        "Base Rent: $22.75 per rentable square foot per annum, payable monthly. "
        "Base Rent shall be $31.00 per RSF for the second Lease Year."
    )
    assert fields == {}


@pytest.mark.parametrize(
    "sentence",
    [
        "Tenant shall pay as additional rent its share of Operating Expenses, estimated at "
        "$1,200.00 per month.",
        "Any installment of Base Rent not paid when due shall bear a late charge of $250.00 "
        "per month.",
        "If Tenant holds over, Tenant shall pay Base Rent of $9,000.00 per month.",
        "During the Renewal Term, monthly Base Rent shall be $7,250.00 per month.",
        "Commencing with the second Lease Year, the monthly Base Rent shall increase to "
        "$5,150.00 per month.",
        "For example, if Base Rent is $2,000 per month and the Commencement Date is June 15, "
        "Base Rent for June shall be $1,066.67.",
        "Tenant shall receive a rent credit equal to one-half of the monthly Base Rent due "
        "($2,500.00) for the sixth month.",
        "Tenant shall pay $5,000.00, representing the security deposit, on execution.",
        "Tenant shall pay Landlord monthly $900.00, which represents Landlord's estimate of "
        "Tenant's share of Common Area Expense.",
        "The Purchase Price shall be $1,500,000.00 payable at closing.",
        "Lessee may rent month-to-month at a rate of $100.00 extra per month in addition to "
        "this contract rent.",
        "Lessee will pay Lessor a one-time $100 violation plus a $100 charge per month for the "
        "entire lease term.",
    ],
)
def test_amounts_that_are_not_the_initial_base_rent(sentence: str) -> None:
    assert rent(sentence) == {}


def test_words_that_disagree_with_figures_keep_the_figures_with_a_caveat() -> None:
    fields = rent(
        "Monthly Base Rent: Five Thousand Dollars ($5,500.00).",
        "Tenant shall pay Base Rent of $5,500.00 per month.",
    )
    raw = fields["base_rent_monthly"]
    assert raw.value == "5500.00"
    assert raw.doubts[Doubt.CAVEAT] == "the words disagree with the figures; the figures are kept"
    assert raw.evidence["caveats"] == 1


def test_words_that_agree_with_figures_check_them() -> None:
    raw = rent("Monthly Base Rent: Five Thousand Five Hundred Dollars ($5,500.00).")[
        "base_rent_monthly"
    ]
    assert raw.value == "5500.00"
    assert raw.evidence["checks"] >= 1
    assert Doubt.CAVEAT not in raw.doubts


ROW_MAJOR_TABLE = """1.10 Base Rent. The following amounts:
| Period | Rate P/S/F Per Annum | Monthly Base Rent | Annual Base Rent |
| Months 1 - 12 | $30.00 | $12,500.00 | $150,000.00 |
| Months 13 - 24 | $30.90 | $12,875.00 | $154,500.00 |
| Months 25 - 36 | $31.83 | $13,262.50 | $159,150.00 |
The Premises contain 5,000 rentable square feet."""


def test_schedule_row_arithmetic_checks_the_rent() -> None:
    fields = rent(ROW_MAJOR_TABLE)
    assert fields["base_rent_monthly"].value == "12500.00"
    assert fields["base_rent_annual"].value == "150000.00"
    notes = " ".join(fields["base_rent_monthly"].notes)
    assert "annual = 12 × monthly" in notes
    assert "rate × area" in notes
    assert fields["base_rent_monthly"].evidence["checks"] >= 2
    assert fields["base_rent_annual"].evidence["checks"] >= 2


ONE_CELL_PER_LINE = """EXHIBIT C
BASE RENT SCHEDULE
Lease Months

Base Rent PSF

RSF

Annual Base Rent

Monthly Base Rent

1-12*

$24.00

10,000

$240,000.00

$20,000.00

13-24

$24.72

10,000

$247,200.00

$20,600.00

* Base Rent for the first three months is abated."""


def test_schedule_typeset_one_cell_per_line() -> None:
    fields = rent(ONE_CELL_PER_LINE)
    assert fields["base_rent_monthly"].value == "20000.00"
    assert fields["base_rent_annual"].value == "240000.00"


COLUMN_BY_COLUMN = """"Fixed Base Rent" shall mean annual base rent payable as follows:
LEASE YEAR
MONTHLY
ANNUALIZED
RATE PER SQUARE FOOT
Year 1
Months 1-6
Months 7-12
$5,000.00
$10,000.00
$60,000.00
$120,000.00
$7.50
$15.00
Year 2
$10,300.00
$123,600.00
$15.45
"Land" shall mean the lot on which the Building stands. The Premises are deemed to be
8,000 rentable square feet."""


def test_schedule_typeset_column_by_column_reads_the_first_period() -> None:
    fields = rent(COLUMN_BY_COLUMN)
    assert fields["base_rent_monthly"].value == "5000.00"
    assert fields["base_rent_annual"].value == "60000.00"


def test_abated_first_rows_are_skipped() -> None:
    fields = rent(
        "2. Rent. Sublessee shall pay monthly base rental installments as follows: "
        "Date/Term Monthly Installment of Base Rent "
        "01-01-24 to 03-31-24 $0.00 04-01-24 to 12-31-24 $8,000.00 "
        "01-01-25 to 12-31-25 $8,240.00 Sublessee shall pay the rent at Sublessor's office."
    )
    assert fields["base_rent_monthly"].value == "8000.00"


def test_a_schedule_heading_that_names_one_period_reads_a_single_column() -> None:
    fields = rent(
        "Effective March 1, 2024, the monthly minimum rental shall be as follows: "
        "March 1, 2024 - February 28, 2025 : $12,000.00 "
        "March 1, 2025 - February 28, 2026 : $12,360.00 per month"
    )
    assert fields["base_rent_monthly"].value == "12000.00"


def test_two_schedules_that_start_differently_are_a_conflict() -> None:
    fields = rent(
        "Monthly Rent: MONTHS MONTHLY RENT 1-12 $10,000.00 13-24 $10,300.00 "
        "Tenant shall also maintain insurance covering the Premises at all times hereunder.",
        "Monthly Rent: MONTHS MONTHLY RENT 1-12 $2,000.00 13-24 $2,060.00 "
        "Tenant shall also maintain insurance covering the Premises at all times hereunder.",
    )
    raw = fields["base_rent_monthly"]
    assert raw.value in {"10000.00", "2000.00"}
    other = ({"10000.00", "2000.00"} - {raw.value}).pop()
    assert f"'{other}'" in raw.doubts[Doubt.RIVAL_VALUE]


def test_a_renewal_term_schedule_is_not_the_initial_rent() -> None:
    fields = rent(
        "34. OPTION TO EXTEND. The Base Rent for the Extension Term shall be: "
        "Months 1-12 $9,000.00 $108,000.00 Months 13-24 $9,270.00 $111,240.00 "
        "and otherwise on the terms of this Lease as provided herein."
    )
    assert fields == {}


MONTHLY_RATE_TABLE = """EXHIBIT H
BASE RENT
Months Per Rentable Square Foot Square Feet Total Monthly
1-6 $0.00 monthly 40,000 * $ 0.00
7-12 $0.65 monthly 40,000 * $ 26,000.00
13-24 $0.70 monthly 50,000 $ 35,000.00
Notes: (a) The square footage used in this table is for computation of Base Rent only."""


def test_a_rate_per_foot_per_month_prices_the_monthly_rent() -> None:
    fields = rent(MONTHLY_RATE_TABLE)
    assert fields["base_rent_monthly"].value == "26000.00"
    assert "base_rent_annual" not in fields
    assert "rate × area" in " ".join(fields["base_rent_monthly"].notes)
    assert fields["base_rent_monthly"].evidence["checks"] >= 1


def test_a_bare_payment_per_month_is_a_weak_monthly_rent() -> None:
    fields = rent(
        "The Sublessor shall provide the Subtenant with the use of Suite 200A for one year. "
        "The Subtenant shall pay the Sublessor $1,800 per month plus the cost of separately "
        "metered utilities."
    )
    raw = fields["base_rent_monthly"]
    assert raw.value == "1800.00"
    assert raw.evidence["statements"] == 1
    clause = rent("Tenant shall pay Base Rent in the sum of $1,800.00 per month.")
    # Ranked below a payment the lease calls rent.
    assert raw.evidence["prior"] < clause["base_rent_monthly"].evidence["prior"]


def test_a_payment_for_something_else_is_not_rent() -> None:
    assert rent("Tenant shall pay $75.00 per month for each reserved parking space.") == {}


@pytest.mark.parametrize(
    "text",
    [
        "Base Rent for the Expansion Space shall be $3,000.00 per month.",
        "The Base Rent for the Must-Take Space: Months 1-12 $9,000.00 $108,000.00 "
        "Months 13-24 $9,270.00 $111,240.00 and otherwise on the terms of this Lease.",
    ],
)
def test_rent_of_other_space_is_not_the_premises_rent(text: str) -> None:
    assert rent(text) == {}


def test_subject_to_adjustment_is_still_the_initial_rent() -> None:
    fields = rent(
        "The Base Rent (subject to adjustment as provided below) shall be $5,000.00 per month."
    )
    assert fields["base_rent_monthly"].value == "5000.00"


def test_an_amount_named_as_rent_after_it() -> None:
    fields = rent(
        "3. RENT. Tenant agrees to pay $1,450.00 per month as rent, due on the first day of "
        "each month."
    )
    assert fields["base_rent_monthly"].value == "1450.00"


def test_a_heading_listing_other_topics_does_not_exclude_the_rent() -> None:
    fields = rent(
        "2. Rent; Security Deposit; Parking. (a) Tenant shall pay Landlord Base Rent in the sum "
        "of $4,000.00 per month."
    )
    assert fields["base_rent_monthly"].value == "4000.00"


# ---------------------------------------------------------------- residential forms (issue 19)


@pytest.mark.parametrize(
    ("text", "monthly"),
    [
        # itemised charges and their total: the rent is the rent item, not the total
        (
            "1.3 RENTS AND CHARGES You shall pay Liability to Landlord Insurance $9.50 Rent "
            "Income $1,095.00 Total: $1,104.50 per month for rent. The first month's rent shall "
            "be due prior to move-in.",
            "1095.00",
        ),
        # the total due each month, where no other charge is owed
        (
            "1.3 RENT Total Amount Due Broken Down as Follows: Total Rent for the Lease Term "
            "$10,850 Pet Rent $0 Garage/Other $0 Total Rent Due Monthly $775.00 Resident agrees "
            "to pay Landlord the total amount due per month as rent.",
            "775.00",
        ),
        ("RESIDENTIAL LEASE Monthly Rent: $775.00 Security Deposit: $775.00", "775.00"),
        (
            "Tenant shall pay monthly rent of $1,000.00 for the first twelve months and "
            "$1,050.00 per month thereafter.",
            "1000.00",
        ),
    ],
)
def test_residential_rent(text: str, monthly: str) -> None:
    assert rent(text)["base_rent_monthly"].value == monthly


def test_a_total_over_the_term_at_a_monthly_rate_is_not_monthly() -> None:
    text = (
        "1.4 RENT The Tenant agrees to pay as rent for the Premises the total sum of $54,000 at "
        "the rate of $4,500 per month to be paid in advance."
    )
    assert rent(text)["base_rent_monthly"].value == "4500.00"


def test_an_amount_named_as_rent_after_it_without_a_period() -> None:
    """The label after the figure has no named groups of the label before it (this crashed)."""
    text = "On the first of every month, $1,450.00, which represents the monthly base rent, is due."
    assert rent(text)["base_rent_monthly"].value == "1450.00"
