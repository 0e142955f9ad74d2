"""The renewal notice and the tenant's break option (extraction/critical.py), read from
synthetic leases: what is an option's notice, and what is some other notice."""

from __future__ import annotations

import json

import pytest

from lease_parser.extraction import extract_fields
from lease_parser.extraction.evidence import Doubt
from tests.unit.extraction.lease_text import document

HEAD = (
    "THIS LEASE is made as of January 15, 2024, by and between Quarry Lane Partners LLC "
    '("Landlord") and Brightwater Labs, Inc. ("Tenant"). The Term commences on March 1, 2024 '
    "and expires on February 28, 2029. "
)
FILLER = " The parties agree to the terms below." * 10
OPTION = "Tenant shall have two (2) options to extend the Term for five (5) years each. "


def fields(text: str) -> dict[str, object]:
    read = extract_fields(document(HEAD + text + FILLER))
    return {name: raw.value for name, raw in read.items() if raw.value is not None}


def window(least: tuple[int, str], most: tuple[int, str] | None = None) -> str:
    as_period = lambda p: {"count": p[0], "unit": p[1]}  # noqa: E731
    value = {"least": as_period(least), "most": as_period(most) if most else None}
    return json.dumps(value, separators=(",", ":"), sort_keys=True)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (
            OPTION + "Tenant shall exercise each option by written notice given not less than "
            "eight (8) months prior to the expiration of the then current Term.",
            window((8, "months")),
        ),
        (
            OPTION + "To exercise an option, Tenant shall give Landlord notice not more than "
            "fourteen (14) months nor less than ten (10) months before the Expiration Date.",
            window((10, "months"), (14, "months")),
        ),
        (
            "Tenant may renew this Lease for one additional term of three (3) years by giving "
            "written notice at least one hundred fifty (150) days before this Lease expires.",
            window((150, "days")),
        ),
    ],
)
def test_a_renewal_options_notice_is_read(text: str, expected: str) -> None:
    assert fields(text)["renewal_notice"] == expected


@pytest.mark.parametrize(
    "text",
    [
        # The landlord's notice of the market rent, not the tenant's exercise.
        OPTION + "Landlord shall notify Tenant of the market rent at least one hundred twenty "
        "(120) days before the Expiration Date.",
        # A letter of credit's renewal.
        OPTION + "The Letter of Credit shall renew automatically unless the bank gives notice "
        "at least sixty (60) days before its expiration.",
        # Another right granted in the option's sentence.
        "If Tenant has exercised its option to extend, Tenant shall have the right to buy "
        "the furniture by giving not less than ninety (90) days' notice before the expiration "
        "of the Extension Term.",
        # The landlord's option, not a renewal.
        OPTION + "Landlord shall have the option to require removal of alterations upon notice "
        "given to Tenant at least sixty (60) days prior to the expiration of the Term.",
        # A notice to the tenant, the landlord's option after it.
        OPTION + "Upon written notice to Tenant at least one hundred eighty (180) days prior to "
        "the Stated Expiration Date, Landlord shall have the option to buy the improvements.",
    ],
)
def test_other_notices_are_not_the_renewal_notice(text: str) -> None:
    assert "renewal_notice" not in fields(text)


def test_no_option_no_notice() -> None:
    text = (
        "Tenant shall have no option to renew this Lease. Any renewal request must be made not "
        "less than six (6) months prior to the expiration of the Term."
    )
    read = fields(text)
    assert read["renewal_option_count"] == "0"
    assert "renewal_notice" not in read


def test_a_break_option_is_read_with_its_notice() -> None:
    text = (
        'The "Break Date" means 30 June 2027. The Tenant may terminate this Lease on the Break '
        "Date by giving to the Landlord not less than nine (9) months' previous notice in writing."
    )
    read = fields(text)
    assert read["termination_option_date"] == "2027-06-30"
    assert read["termination_notice"] == window((9, "months"))


def test_a_residential_buy_out_is_the_tenants_break_option() -> None:
    text = (
        "The purpose of this Buy-Out Agreement is to give you the right to buy out of your "
        "Lease Contract early. You may buy out of the Lease Contract prior to the end of the "
        "lease term if (a) you give us written notice of buy-out at least 60 days prior to the "
        "new termination date; and (b) you pay us a buy-out fee of $2,400.00."
    )
    assert fields(text)["termination_notice"] == window((60, "days"))


def test_a_termination_as_of_a_date_is_a_break_option() -> None:
    text = (
        "Tenant may give written notice to terminate this Lease as of August 31, 2026 by giving "
        "Landlord not less than six (6) months' prior written notice."
    )
    read = fields(text)
    assert read["termination_option_date"] == "2026-08-31"
    assert read["termination_notice"] == window((6, "months"))


@pytest.mark.parametrize(
    "text",
    [
        "If the Premises are damaged by casualty, Tenant may terminate this Lease as of "
        "August 31, 2026 by giving not less than thirty (30) days' prior written notice.",
        "Upon an Event of Default, Landlord may terminate this Lease by giving not less than "
        "ten (10) days' prior written notice.",
        "If the Premises are taken by condemnation, Tenant may terminate this Lease on "
        "thirty (30) days' prior notice.",
    ],
)
def test_remedies_are_not_break_options(text: str) -> None:
    read = fields(text)
    assert "termination_option_date" not in read
    assert "termination_notice" not in read


def test_a_break_date_after_the_expiration_is_in_doubt() -> None:
    text = (
        'The "Break Date" means 30 June 2031. The Tenant may terminate this Lease on the Break '
        "Date by giving not less than nine (9) months' previous notice."
    )
    raw = extract_fields(document(HEAD + text + FILLER))["termination_option_date"]
    assert "break date within the term" in raw.doubts[Doubt.FAILED_RELATION]


def test_a_notice_of_intent_to_vacate_is_not_a_renewal_notice() -> None:
    """A residential lease that grants no renewal asks for notice before the tenant leaves."""
    text = (
        "ANYONE NOT WANTING TO RENEW THEIR LEASE AT THE END OF THE LEASE TERM SHALL PROVIDE A "
        "60-DAY WRITTEN NOTICE OF INTENT TO VACATE PRIOR TO THE ENDING DATE OF THE LEASE. "
        "Resident shall give sixty (60) days' notice of non-renewal prior to the expiration of "
        "the Term."
    )
    read = fields(text)
    assert "renewal_notice" not in read
    assert "renewal_option_count" not in read


def test_a_break_option_on_any_of_several_dates_lists_them_and_has_no_one_break_date() -> None:
    text = (
        "The Tenant may terminate this Lease on 30 June 2027 or 30 June 2030 by giving to the "
        "Landlord not less than nine (9) months' previous notice in writing."
    )
    read = fields(text)
    assert read["break_dates"] == '["2027-06-30", "2030-06-30"]'
    assert "termination_option_date" not in read
    assert read["termination_notice"] == window((9, "months"))
    listed = fields(
        'The "Break Dates" are 30 June 2027, 30 June 2030 and 30 June 2033. The Tenant may '
        "terminate this Lease on a Break Date by giving not less than six (6) months' notice."
    )
    assert listed["break_dates"] == '["2027-06-30", "2030-06-30", "2033-06-30"]'
