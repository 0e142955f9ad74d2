"""The date of the agreement, and the dates that are not it."""

from __future__ import annotations

import pytest

from lease_parser.extraction.agreement_date import extract_lease_date
from lease_parser.extraction.base import RawField
from lease_parser.extraction.evidence import Doubt
from tests.unit.extraction.lease_text import document

FILLER = " The parties agree to the terms below." * 40
PARTIES = 'by and between Harbor Point LLC ("Landlord") and Nimbus Inc. ("Tenant").'


def read(*pages: str, ocr: float | None = None) -> RawField:
    found = extract_lease_date(document(*pages, ocr_confidence=ocr))
    assert found, "no lease date read"
    return found[0]


def lease_date(*pages: str) -> str | None:
    found = extract_lease_date(document(*pages))
    return found[0].value if found else None


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
    assert lease_date(opening + PARTIES + FILLER) == iso


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
def test_a_clean_preamble_date_is_a_strong_statement(opening: str) -> None:
    """The opening sentence dating the agreement, the parties right after: a strong cue."""
    raw = read(opening + PARTIES + FILLER)
    assert raw.value == "2012-05-09"
    assert raw.evidence["strong"] == 1
    assert raw.notes == ["stated by: clean preamble"]


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
def test_a_preamble_date_that_is_not_clean_is_an_ordinary_statement(opening: str) -> None:
    raw = read(opening + PARTIES + FILLER)
    assert raw.value == "2012-05-09"
    assert raw.evidence["strong"] == 0
    assert raw.evidence["statements"] == 1


def test_a_clean_preamble_date_read_by_ocr_is_not_strong() -> None:
    """Structure does not vouch for digits a scanner may have misread."""
    raw = read("THIS LEASE is made as of May 9, 2012, " + PARTIES + FILLER, ocr=95)
    assert raw.value == "2012-05-09"
    assert raw.evidence["strong"] == 0
    assert raw.evidence["ocr"] > 0


def test_a_signature_on_another_day_is_no_rival_to_the_stated_date() -> None:
    text = (
        "THIS LEASE is made as of May 9, 2012, " + PARTIES + FILLER + " LANDLORD: Harbor Point "
        "LLC By: /s/ Ann Lee Name: Ann Lee Date: May 14, 2012"
    )
    raw = read(text)
    assert raw.value == "2012-05-09"
    assert raw.evidence["strong"] == 1
    assert raw.evidence["rival_statements"] == 0
    assert Doubt.RIVAL_VALUE not in raw.doubts


def test_a_signature_on_the_stated_day_states_it_again() -> None:
    text = (
        "THIS LEASE is made as of May 9, 2012, " + PARTIES + FILLER + " LANDLORD: Harbor Point "
        "LLC By: /s/ Ann Lee Name: Ann Lee Date: May 9, 2012"
    )
    raw = read(text)
    assert raw.value == "2012-05-09"
    assert raw.evidence["statements"] == 2


def test_a_date_the_drafter_names_in_the_preamble_is_the_same_statement() -> None:
    """'made as of May 9, 2012 (the "Effective Date")': two readings of one sentence."""
    raw = read('THIS LEASE is made as of May 9, 2012 (the "Effective Date"), ' + PARTIES + FILLER)
    assert raw.value == "2012-05-09"
    assert raw.evidence["statements"] == 1
    assert raw.evidence["strong"] == 1


@pytest.mark.parametrize(
    "cover",
    [
        "OFFICE LEASE DATED AS OF MAY 9, 2012.",
        # A cover line seldom ends in a full stop: the page break ends its statement.
        "OFFICE LEASE DATED AS OF MAY 9, 2012",
    ],
)
def test_a_cover_date_and_the_preamble_agree(cover: str) -> None:
    body = 'THIS LEASE is made as of May 9, 2012 (the "Effective Date"), ' + PARTIES + FILLER
    raw = read(cover, body)
    assert raw.value == "2012-05-09"
    assert raw.evidence["statements"] >= 2
    assert raw.evidence["kinds"] >= 2


def test_two_preamble_dates_conflict() -> None:
    text = (
        "THIS LEASE is made this 16th day of January 2013, to be effective as of the 1st day of "
        "July, 2011, " + PARTIES + FILLER
    )
    raw = read(text)
    assert raw.value in {"2013-01-16", "2011-07-01"}
    other = ({"2013-01-16", "2011-07-01"} - {raw.value}).pop()
    assert raw.evidence["strong"] == 0
    assert other in raw.doubts[Doubt.RIVAL_VALUE]


def test_no_year_in_the_preamble_is_completed_by_the_signature_dates() -> None:
    text = (
        "THIS SUBLEASE is made and entered into on the 23 day of April, "
        + PARTIES
        + FILLER
        + " SUBLANDLORD Harbor Point LLC By: /s/ A. Bee Name: A. Bee Title: CEO"
        + " Date: April 23, 2022"
    )
    assert lease_date(text) == "2022-04-23"


def test_the_lease_an_amendment_refers_to_is_not_its_date() -> None:
    text = (
        "RE: Lease Dated: October 2, 2003 Landlord: Harbor Point LLC Tenant: Nimbus Inc. This "
        'letter agreement ("Renewal Letter"), when executed by the parties, amends the Lease as '
        "follows: 1. The term of the Lease is extended through May 31, 2016."
        + FILLER
        + " HARBOR POINT LLC By: /s/ A. Bee Name: A. Bee Date: 6/30/13"
    )
    assert lease_date(text) == "2013-06-30"


def test_a_sublease_does_not_take_the_master_lease_date() -> None:
    text = (
        "THIS SUBLEASE is made as of May 2, 2011, by and between Orchard Labs, Inc. "
        '("Sublandlord") and Quill Media LLC ("Subtenant"). The lease (the "Master Lease") dated '
        "as of March 1, 2005 between Tower Owner LP and Sublandlord." + FILLER
    )
    assert lease_date(text) == "2011-05-02"


def test_a_rider_takes_the_date_of_the_lease_it_is_part_of() -> None:
    text = (
        "RIDER TO LEASE The provisions of this rider are made a part of the Lease dated as of "
        "March 3, 2020 between Harbor Point LLC and Nimbus Inc." + FILLER
    )
    assert lease_date(text) == "2020-03-03"


def test_a_blank_date_is_no_date() -> None:
    text = "THIS LEASE AGREEMENT, made this ____ day of ________, 2012, " + PARTIES + FILLER
    assert lease_date(text) is None
    assert extract_lease_date(document(text)) == []


def test_a_defined_date_the_preamble_points_to() -> None:
    text = (
        "This Lease is entered into between Landlord and Tenant effective as of the Lease "
        "Execution Date. 8. LEASE EXECUTION DATE (Insert the date of full execution) "
        "July 23, 2020." + FILLER
    )
    assert lease_date(text) == "2020-07-23"


def test_a_date_line_atop_a_short_lease() -> None:
    text = "RESIDENTIAL LEASE\nDate: January 5, 2021\nLandlord: Ann Lee\nTenant: Bo Park" + FILLER
    assert lease_date(text) == "2021-01-05"
    assert lease_date("LEASE Estimated Delivery Date: January 5, 2021" + FILLER) is None


# ---------------------------------------------------------------- recall (issue 19): the
# forms leases in general date themselves in, and the dates that only look like it.


@pytest.mark.parametrize(
    ("text", "iso"),
    [
        (
            "THIS AGREEMENT is entered into as of the 1st of June, 2022 by the following "
            'parties: Pine Hollow Properties, LLC, hereinafter referred to as "Landlord," and '
            'Quartz Brewing, Inc hereinafter referred to as "Tenant."',
            "2022-06-01",
        ),
        (
            "The lease (herein after referred to as the Lease) is made this 9/24/23 day, by and "
            "between 18 W Elm, Ltd referred to as the Landlord) and Dana Whitfield.",
            "2023-09-24",
        ),
        (
            "Lease Contract Drawn Up and Signed on 3 May 2004 Between Ko-Mar Ltd. Of Rehov "
            'Hagefen 9, Haifa (Hereinafter: "The Leaser") On the one hand;',
            "2004-05-03",
        ),
        (
            "BASIC LEASE INFORMATION\nLEASE REFERENCE DATE: May 25, 2006\nLANDLORD: Pine "
            "Hollow Properties, LLC\nTENANT: Quartz Brewing, Inc.",
            "2006-05-25",
        ),
        (
            "RESIDENTIAL LEASE\nDate of Agreement: March 4, 2021\nLandlord/Owner: Oak Terrace "
            "Rentals LLC\nTenant(s): Alex Moreno",
            "2021-03-04",
        ),
        (
            "LEASE CONTRACT DESCRIPTION\nLease Contract Date: April 13, 2023\nOwner's name: "
            "Maple Court Apartments",
            "2023-04-13",
        ),
        (
            "PRESCRIBED CLAUSES LR1. Date of lease 7 February 2007 LR2. Title number "
            "LR2.1 Landlord's title number NGL123456",
            "2007-02-07",
        ),
        (  # a particulars table read without its cell borders
            "PARTICULARS Date 12 May 2021 Landlord Heron Quay Investments Limited Tenant "
            "Kestrel Analytics Limited Property Unit 3, Heron Quay",
            "2021-05-12",
        ),
        (
            "BASIC LEASE INFORMATION Lease Date 5 June 2020 Landlord Jane Roe LLC Tenant Bob "
            "Lee Inc.",
            "2020-06-05",
        ),
        (
            "This Tenancy Agreement is made on 12 August 2021 between Heron Quay Investments "
            'Limited ("the Landlord") and Priya Natarajan ("the Tenant").',
            "2021-08-12",
        ),
    ],
)
def test_the_forms_a_lease_dates_itself_in(text: str, iso: str) -> None:
    assert lease_date(text + FILLER) == iso


def test_a_date_in_the_particulars_must_be_the_agreements() -> None:
    text = (
        "PARTICULARS Term Commencement Date 1 July 2021 Rent Commencement Date 1 October "
        "2021 Landlord Heron Quay Investments Limited"
    )
    assert lease_date(text + FILLER) is None


def test_an_esignature_timestamp_and_a_print_date_are_not_the_lease_date() -> None:
    text = (
        "APARTMENT LEASE\nResident(s): Taylor Quinn\nOwner/Agent: Riverside Commons"
        + FILLER
        + " Printed: 06/02/2023 Rev. 5/2022 Document ID 368488933 Apartment Lease Form 4 "
        "04/13/23 04:33:44 PM CDT Taylor Quinn signed Date: 04/13/23 04:35:20 PM CDT"
    )
    assert lease_date(text) is None


def test_the_lease_an_amendment_names_between_them_is_no_candidate() -> None:
    text = (
        "THIS AMENDMENT is made as of June 7, 2023 by CEDAR RESEARCH CORPORATION, an Arizona "
        'corporation ("Landlord"), and SOLAR DYNAMICS, INC., a Delaware corporation ("Tenant"),'
        ' to the Lease Agreement between them dated March 15, 2021 (the "Lease").'
    )
    found = read(text + FILLER)
    assert found.value == "2023-06-07"
    assert "2021-03-15" not in [a.value for a in found.alternatives]
