"""Rentable square feet of the premises, and areas that measure something else."""

from __future__ import annotations

import pytest

from lease_parser.extraction.base import RawField
from lease_parser.extraction.evidence import Doubt
from lease_parser.extraction.financials import extract_financials
from tests.unit.extraction.lease_text import by_name, document


def area(*pages: str) -> str | None:
    raw = by_name(extract_financials(document(*pages))).get("rentable_sqft")
    return None if raw is None else raw.value


@pytest.mark.parametrize(
    ("sentence", "expected"),
    [
        (
            "Landlord hereby leases to Tenant approximately 7,500 rentable square feet of space "
            "on the third floor of the Building.",
            "7500",
        ),
        ("The Premises is comprised of 2,400 square feet of the Master Premises.", "2400"),
        ('"Premises" shall be deemed to be 12,345 rentable square feet.', "12345"),
        ("1.6 Rentable Area of the Premises. 9,800 square feet.", "9800"),
        (
            'Premises: Suite 300, containing 4,321 rentable square feet (the "Premises"), '
            "in the office building at 10 Main Street.",
            "4321",
        ),
        (
            "Such premises shall consist of the fifth floor of the Building, containing "
            "approximately 18,000 square feet of Rentable Area.",
            "18000",
        ),
        ("d. LEASED PREMISES GENERAL PURPOSE (Office) Approximately 65,000 RSF", "65000"),
        (
            "Lessor leases to Lessee approximately ____750__ square feet of space "
            '(the "Premises") in the warehouse.',
            "750",
        ),
    ],
)
def test_premises_area(sentence: str, expected: str) -> None:
    assert area(sentence) == expected


@pytest.mark.parametrize(
    "sentence",
    [
        "The Rentable Area of the Building is 125,000 square feet.",
        "The Building contains approximately 80,000 rentable square feet.",
        "Occupancy shall not exceed one person per 150 square feet of the Premises.",
        "The Premises shall not be used by more than one person for each 200 square feet.",
        "Landlord may construct a pad site of up to 5,000 square feet near the Premises.",
        "The usable area of the Premises is 4,000 usable square feet.",
        "WHEREAS, Landlord leased to Tenant space containing approximately 23,000 square feet "
        'of Rentable Floor Area (the "6th Floor Space").',
        "In addition to the Premises, Tenant leases from Landlord 300 rentable square feet of "
        "space in the Parking Facility.",
        "Tenant's share is based on the Premises and the 250,000 rentable square feet in the "
        "Building.",
        "The Premises include all 52,000 rentable square feet on the fourth floor.",
    ],
)
def test_areas_of_other_things(sentence: str) -> None:
    assert area(sentence) is None


def test_rent_arithmetic_in_a_schedule_checks_a_single_statement() -> None:
    clause = "Landlord leases to Tenant approximately 5,000 rentable square feet of space."
    alone = by_name(extract_financials(document(clause)))["rentable_sqft"]
    assert alone.evidence["statements"] == 1
    assert alone.evidence["checks"] == 1  # called rentable
    assert not any("rate × area" in note for note in alone.notes)
    table = (
        "Base Rent: Months Rate Per RSF Monthly Base Rent Annual Base Rent "
        "Months 1-12 $30.00 $12,500.00 $150,000.00 Months 13-24 $30.90 $12,875.00 $154,500.00 "
        "Rent shall be paid on the first day of each calendar month without demand."
    )
    checked = by_name(extract_financials(document(clause, table)))["rentable_sqft"]
    assert checked.value == "5000"
    assert checked.evidence["checks"] == alone.evidence["checks"] + 1
    assert any("rate × area" in note for note in checked.notes)


def test_two_different_premises_areas_are_a_conflict() -> None:
    raw = by_name(
        extract_financials(
            document(
                "1.6 Rentable Area of the Premises. 9,800 square feet.",
                "Landlord leases to Tenant approximately 11,200 rentable square feet.",
            )
        )
    )["rentable_sqft"]
    assert raw.value in {"9800", "11200"}
    other = ({"9800", "11200"} - {raw.value}).pop()
    assert raw.evidence["rival_statements"] == 1
    assert f"'{other}'" in raw.doubts[Doubt.RIVAL_VALUE]


def test_an_area_spelled_out_before_its_figure() -> None:
    assert (
        area(
            "The Premises shall consist of approximately eight thousand five hundred (8,500) "
            "rentable square feet of office space."
        )
        == "8500"
    )


def test_an_area_a_rent_schedule_prices_is_not_thereby_the_premises() -> None:
    fields = by_name(
        extract_financials(
            document(
                "Rentable Area of Premises 50,000 square feet",
                "EXHIBIT H BASE RENT Months Per Rentable Square Foot Square Feet Total Monthly "
                "1-6 $0.65 monthly 40,000 $ 26,000.00 7-12 $0.70 monthly 50,000 $ 35,000.00 "
                "Notes: (a) The square footage used in this table is for computation only.",
            )
        )
    )
    assert fields["rentable_sqft"].value == "50000"
    assert Doubt.RIVAL_VALUE not in fields["rentable_sqft"].doubts


def test_the_building_named_after_the_premises_is_what_the_area_measures() -> None:
    assert (
        area(
            "Tenant's share is the ratio of the floor area of the Leased Premises to the "
            "leasable floor area in the Building, which will be approximately 65,270 square feet."
        )
        is None
    )


def sqft(*pages: str) -> RawField | None:
    return by_name(extract_financials(document(*pages))).get("rentable_sqft")


def notes(raw: RawField | None) -> str:
    assert raw is not None
    return " ".join(raw.notes)


@pytest.mark.parametrize(
    "summary",
    [
        # A summary table's rows seldom end in a full stop: the page break ends them.
        "BASIC LEASE INFORMATION\nPremises: Suite 400, 10 Main Street\nRentable Area: 8,750 "
        "rentable square feet\nTerm: Sixty (60) months",
        "BASIC DATA\nPremises Rentable Area: Approximately 8,750 rentable square feet.\nTerm: 60",
        "SUMMARY\n1.4 Square Footage: 8,750 square feet\n1.5 Term: Sixty (60) months",
        "SUMMARY\n1.4 Square Footage: 8,750 square feet\n1.5 Term: Sixty (60) months.",
    ],
)
def test_a_summary_area_line_and_the_premises_clause_agree(summary: str) -> None:
    clause = "Landlord leases to Tenant approximately 8,750 rentable square feet on floor 4."
    raw = sqft(summary, clause)
    assert raw is not None
    assert raw.value == "8750"
    assert raw.evidence["statements"] >= 2
    assert raw.evidence["kinds"] >= 2


def test_a_bare_area_line_under_the_building_item_is_the_building() -> None:
    summary = (
        "BASIC LEASE INFORMATION\nBuilding: 10 Main Street\nRentable Area: 250,000 square feet"
    )
    assert sqft(summary) is None


def test_rate_per_foot_in_the_rent_clause_checks_the_area() -> None:
    """$33.00 per rentable square foot per annum × 8,750 = $288,750.00 annual base rent."""
    text = (
        "Landlord leases to Tenant approximately 8,750 rentable square feet on floor 4. "
        "Tenant shall pay annual Base Rent of $288,750.00, payable in equal monthly installments"
        " of $24,062.50, being $33.00 per rentable square foot per annum."
    )
    raw = sqft(text)
    assert raw is not None
    assert raw.value == "8750"
    assert raw.evidence["checks"] == 2  # called rentable; rate × area = rent
    assert "rate × area = rent" in notes(raw)


def test_a_rate_that_does_not_fit_checks_nothing() -> None:
    text = (
        "Landlord leases to Tenant approximately 8,750 rentable square feet on floor 4. "
        "Tenant shall pay annual Base Rent of $288,750.00, being $35.00 per rentable square foot "
        "per annum."
    )
    raw = sqft(text)
    assert raw is not None
    assert raw.value == "8750"
    assert raw.evidence["checks"] == 1  # called rentable
    assert "rate × area" not in notes(raw)


def test_parts_that_add_up_to_the_stated_total() -> None:
    clause = (
        "The Premises shall consist of approximately 100,000 rentable square feet of "
        "manufacturing space, approximately 20,500 rentable square feet of office space and "
        "approximately 3,250 rentable square feet of common space."
    )
    summary = "Rentable Area of Premises 123,750 square feet\nRentable Area of Building 250,000"
    raw = sqft(clause, summary)
    assert raw is not None
    assert raw.value == "123750"
    assert raw.evidence["checks"] >= 1
    assert "checked by: sum of its parts" in notes(raw)
    # Without the parts, the total is stated and not checked.
    alone = sqft(summary)
    assert alone is not None
    assert alone.evidence["checks"] == 0


def test_a_rent_schedule_that_prints_the_area_states_it_again() -> None:
    clause = "The Premises is comprised of 2,000 square feet of the Master Premises."
    table = (
        "EXHIBIT B Fixed Rent: Months Rate Square Feet Monthly Fixed Rent Annualized Fixed Rent "
        "1-12 $34.50 2,000 $5,750.00 $69,000.00 13-24 $35.50 2,000 $5,916.67 $71,000.00 "
        "Rent shall be paid on the first day of each calendar month without demand."
    )
    raw = sqft(clause, table)
    assert raw is not None
    assert raw.value == "2000"
    assert raw.evidence["statements"] >= 2
    assert "stated in the rent schedule" in notes(raw)


def test_parts_listed_after_the_total_check_it() -> None:
    summary = (
        "(2) Premises: Approximately 40,000 square feet of Rental Area and 36,000 square feet of "
        "Useable Area comprised of two floors of the Building.\nArea A Premises: 20,000 square "
        "feet of Rental Area on the first floor.\nArea B Premises: 12,000 square feet of Rental "
        "Area on the second floor.\nArea C Premises: 8,000 square feet of Rental Area on the "
        "second floor."
    )
    raw = sqft(summary)
    assert raw is not None
    assert raw.value == "40000"
    assert raw.evidence["checks"] >= 1
    assert "checked by: sum of its parts" in notes(raw)


def test_areas_that_add_up_to_nothing_stated_are_left_alone() -> None:
    text = (
        "Area A Premises: 20,000 square feet on the first floor. Area B Premises: 12,000 square "
        "feet on the second floor."
    )
    assert sqft(text) is None


# ---------------------------------------------------------------- the building's area is not
# the premises' (issue 19)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (
            "Premises: Approximately 28,994 rentable square feet on floors 2 and 3 of the Building "
            "(54,731 rentable square feet).",
            "28994",
        ),
        (
            "1.2 Premises: Approximately 519,680 rentable square feet of the 1,104,320 rentable "
            "square foot building known as Gateway Commerce Center.",
            "519680",
        ),
        (
            "The Premises contain 28,994 rentable square feet out of 54,731 rentable square "
            "feet in the Building.",
            "28994",
        ),
        (
            "Building Rentable Area: 54,731 rentable square feet. Premises Rentable Area: 28,994 "
            "rentable square feet.",
            "28994",
        ),
    ],
)
def test_the_premises_area_beside_the_building_area(text: str, expected: str) -> None:
    assert area(text) == expected


@pytest.mark.parametrize(
    "text",
    [
        "The Premises are located in a 1,104,320 square foot building.",
        "The Building has a total rentable area of 54,731 rentable square feet.",
        "The Building's rentable area is 54,731 square feet.",
        "Premises: the second floor of the Building, which totals 54,731 rentable square feet.",
    ],
)
def test_the_building_area_alone_is_not_the_premises_area(text: str) -> None:
    assert area(text) is None
