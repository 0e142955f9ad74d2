"""The date of the agreement, and the dates that are not it."""

from __future__ import annotations

import pytest

from lease_parser.extraction.agreement_date import extract_lease_date
from tests.unit.extraction.lease_text import document

FILLER = " The parties agree to the terms below." * 40
PARTIES = 'by and between Harbor Point LLC ("Landlord") and Nimbus Inc. ("Tenant").'


def lease_date(*pages: str) -> tuple[str | None, float]:
    found = extract_lease_date(document(*pages))
    return (found[0].value, found[0].confidence) if found else (None, 0.0)


@pytest.mark.parametrize(
    ("opening", "iso"),
    [
        ("THIS LEASE is made as of the 9th day of May, 2012, ", "2012-05-09"),
        ("THIS LEASE is dated as of May 9, 2012, ", "2012-05-09"),
        (
            "THIS SUBLEASE AGREEMENT is made and entered into this 9th day of May, 2012 ",
            "2012-05-09",
        ),
        ("This Lease Agreement was entered into on 5/9/2012, ", "2012-05-09"),
        ("THIS LEASE AGREEMENT, dated as of 9 May 2012, is made ", "2012-05-09"),
    ],
)
def test_preamble_dates(opening: str, iso: str) -> None:
    assert lease_date(opening + PARTIES + FILLER)[0] == iso


@pytest.mark.parametrize(
    "opening",
    [
        "THIS LEASE is made as of May 9, 2012, ",
        "THIS LEASE is made and entered into as of the 9th day of May, 2012, ",
        'This Lease ("Lease") is dated as of May 9, 2012 ("Effective Date") ',
        "This Sublease Agreement dated May 9, 2012, is made ",
        "This Lease is dated as of May 9, 2012, and is entered into ",
        "THIS LEASE is entered into as of this 9th day of May, 2012, ",
    ],
)
def test_a_clean_preamble_date_reaches_the_gate_alone(opening: str) -> None:
    """The opening sentence dating the agreement, the parties right after: a strong cue."""
    value, confidence = lease_date(opening + PARTIES + FILLER)
    assert value == "2012-05-09"
    assert confidence >= 0.8


@pytest.mark.parametrize(
    "opening",
    [
        # the month as a number: 5/9 or 9/5?
        "This Lease Agreement was entered into on 5/9/2012, ",
        # something between the date and the parties
        "THIS LEASE is made as of May 9, 2012, for premises in the Harbor Building, ",
        # something between the verb and the date
        "THIS LEASE is made for good consideration as of May 9, 2012, ",
    ],
)
def test_a_preamble_date_that_is_not_clean_stays_below_the_gate(opening: str) -> None:
    value, confidence = lease_date(opening + PARTIES + FILLER)
    assert value == "2012-05-09"
    assert confidence < 0.8


def test_a_clean_preamble_date_read_by_ocr_stays_below_the_gate() -> None:
    """Structure does not vouch for digits a scanner may have misread."""
    found = extract_lease_date(
        document("THIS LEASE is made as of May 9, 2012, " + PARTIES + FILLER, ocr_confidence=95)
    )
    assert found[0].value == "2012-05-09"
    assert found[0].confidence < 0.8


def test_a_signature_on_another_day_is_no_rival_to_the_stated_date() -> None:
    text = (
        "THIS LEASE is made as of May 9, 2012, " + PARTIES + FILLER + " LANDLORD: Harbor Point "
        "LLC By: /s/ Ann Lee Name: Ann Lee Date: May 14, 2012"
    )
    value, confidence = lease_date(text)
    assert value == "2012-05-09"
    assert confidence >= 0.8


def test_a_date_the_drafter_names_and_a_cover_date_agree() -> None:
    cover = "OFFICE LEASE DATED AS OF MAY 9, 2012"
    body = 'THIS LEASE is made as of May 9, 2012 (the "Effective Date"), ' + PARTIES + FILLER
    value, confidence = lease_date(cover, body)
    assert value == "2012-05-09"
    assert confidence >= 0.8


def test_two_preamble_dates_conflict() -> None:
    text = (
        "THIS LEASE is made this 16th day of January 2013, to be effective as of the 1st day of "
        "July, 2011, " + PARTIES + FILLER
    )
    value, confidence = lease_date(text)
    assert value is not None
    assert confidence < 0.8


def test_no_year_in_the_preamble_is_completed_by_the_signature_dates() -> None:
    text = (
        "THIS SUBLEASE is made and entered into on the 23 day of April, "
        + PARTIES
        + FILLER
        + " SUBLANDLORD Harbor Point LLC By: /s/ A. Bee Name: A. Bee Title: CEO"
        + " Date: April 23, 2022"
    )
    assert lease_date(text)[0] == "2022-04-23"


def test_the_lease_an_amendment_refers_to_is_not_its_date() -> None:
    text = (
        "RE: Lease Dated: October 2, 2003 Landlord: Harbor Point LLC Tenant: Nimbus Inc. This "
        'letter agreement ("Renewal Letter"), when executed by the parties, amends the Lease as '
        "follows: 1. The term of the Lease is extended through May 31, 2016."
        + FILLER
        + " HARBOR POINT LLC By: /s/ A. Bee Name: A. Bee Date: 6/30/13"
    )
    assert lease_date(text)[0] == "2013-06-30"


def test_a_sublease_does_not_take_the_master_lease_date() -> None:
    text = (
        "THIS SUBLEASE is made as of May 2, 2011, by and between Orchard Labs, Inc. "
        '("Sublandlord") and Quill Media LLC ("Subtenant"). The lease (the "Master Lease") dated '
        "as of March 1, 2005 between Tower Owner LP and Sublandlord." + FILLER
    )
    assert lease_date(text)[0] == "2011-05-02"


def test_a_rider_takes_the_date_of_the_lease_it_is_part_of() -> None:
    text = (
        "RIDER TO LEASE The provisions of this rider are made a part of the Lease dated as of "
        "March 3, 2020 between Harbor Point LLC and Nimbus Inc." + FILLER
    )
    assert lease_date(text)[0] == "2020-03-03"


def test_a_blank_date_is_no_date() -> None:
    text = "THIS LEASE AGREEMENT, made this ____ day of ________, 2012, " + PARTIES + FILLER
    assert lease_date(text) == (None, 0.0)


def test_a_defined_date_the_preamble_points_to() -> None:
    text = (
        "This Lease is entered into between Landlord and Tenant effective as of the Lease "
        "Execution Date. 8. LEASE EXECUTION DATE (Insert the date of full execution) "
        "July 23, 2020." + FILLER
    )
    assert lease_date(text)[0] == "2020-07-23"


def test_a_date_line_atop_a_short_lease() -> None:
    text = "RESIDENTIAL LEASE\nDate: January 5, 2021\nLandlord: Ann Lee\nTenant: Bo Park" + FILLER
    assert lease_date(text)[0] == "2021-01-05"
    assert lease_date("LEASE Estimated Delivery Date: January 5, 2021" + FILLER)[0] is None
