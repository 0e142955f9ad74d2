"""What an amendment states about the lease it amends (extraction/amendment.py) and
amendments filed after their lease in one file (extraction/appended.py). Synthetic text."""

from __future__ import annotations

import pytest

from lease_parser.extraction import extract_fields
from lease_parser.extraction.appended import appended_amendments
from tests.unit.extraction.lease_text import document

FILLER = " The parties agree to the terms below." * 8
AMENDMENT = (
    'THIS SECOND AMENDMENT TO LEASE (this "Amendment") is made as of June 3, 2025, by and '
    'between Orchard Row Holdings LLC ("Landlord") and Tidewater Robotics, Inc. ("Tenant"). '
    "RECITALS. Landlord and Tenant are parties to that certain Office Lease dated April 9, "
    "2019, as amended by that certain First Amendment to Lease dated May 1, 2021 (the "
    '"Lease"), for premises at 310 Ferry Street, Suite 500, Portland, Oregon. '
    "1. Extension. The term of the Lease is hereby extended through March 31, 2031. "
    "2. Expansion. Landlord leases to Tenant the additional 2,400 rentable square feet on the "
    'sixth floor (the "Expansion Space").'
)


def test_an_amendment_names_the_date_of_its_lease_not_of_an_earlier_amendment() -> None:
    read = extract_fields(document(AMENDMENT + FILLER))
    assert read["amended_lease_date"].value == "2019-04-09"
    assert read["lease_date"].value == "2025-06-03"  # its own date
    assert read["expiration_date"].value == "2031-03-31"
    assert read["premises_added_sqft"].value == "2400"


def test_a_label_names_the_lease_in_a_letter_amendment() -> None:
    text = (
        "RE: Lease Dated: August 12, 2016 Landlord: Orchard Row Holdings LLC Tenant: Tidewater "
        "Robotics, Inc. This letter agreement amends the Lease as set forth below: 1. The term "
        "of the Lease is extended through June 30, 2029."
    )
    read = extract_fields(document(text + FILLER))
    assert read["amended_lease_date"].value == "2016-08-12"


@pytest.mark.parametrize(
    "reference",
    [
        "to the Lease Agreement between them dated March 15, 2021",
        "to that certain Lease by and between Orchard Row Holdings LLC, a Delaware limited "
        "liability company, and Tidewater Robotics, Inc., dated March 15, 2021",
        "to that certain Lease Agreement made and entered into as of March 15, 2021",
        "to the Lease, dated as of the 15th day of March, 2021",
    ],
)
def test_the_forms_an_amendment_names_its_lease_in(reference: str) -> None:
    text = (
        "THIS FIRST AMENDMENT TO LEASE is made as of June 7, 2023 by Orchard Row Holdings LLC, "
        'an Arizona corporation ("Landlord"), and Tidewater Robotics, Inc., a Delaware '
        f'corporation ("Tenant"), {reference} (the "Lease"). 1. Term Extension. The Expiration '
        "Date is extended to July 31, 2028."
    )
    read = extract_fields(document(text + FILLER))
    assert read["amended_lease_date"].value == "2021-03-15"
    assert read["lease_date"].value == "2023-06-07"
    assert read["landlord"].value == "Orchard Row Holdings LLC"
    assert read["tenant"].value == "Tidewater Robotics, Inc."


def test_an_amendments_signature_columns_do_not_swap_its_parties() -> None:
    text = (
        "THIS FIRST AMENDMENT TO LEASE is made as of June 7, 2023 between the Landlord and the "
        "Tenant named below, to the Lease dated March 15, 2021." + FILLER + " 7. Ratify. All "
        "terms of the Lease remain in effect. LANDLORD: TENANT: ORCHARD ROW HOLDINGS, an "
        "Arizona non-profit corporation TIDEWATER ROBOTICS, INC., a Delaware corporation By: "
        "/s/ M. Jay By: /s/ G. Quinn Name: M. Jay Name: G. Quinn"
    )
    read = extract_fields(document(text))
    for role in ("landlord", "tenant"):
        if role in read:
            assert "TENANT" not in (read[role].value or "")
            assert "LANDLORD" not in (read[role].value or "")
    assert "ORCHARD" not in (read["tenant"].value or "") if "tenant" in read else True


def test_a_lease_has_no_amended_lease() -> None:
    text = (
        "THIS SUBLEASE is made as of June 3, 2025 by and between Orchard Row Holdings LLC "
        '("Sublandlord") and Tidewater Robotics, Inc. ("Subtenant"), subject to the Master '
        "Lease dated April 9, 2019. Sublandlord leases the additional 2,400 rentable square feet."
    )
    read = extract_fields(document(text + FILLER))
    assert read["amended_lease_date"].value is None
    assert read["premises_added_sqft"].value is None


LEASE = (
    "THIS LEASE is made as of April 9, 2019, by and between Orchard Row Holdings LLC "
    '("Landlord") and Tidewater Robotics, Inc. ("Tenant"). The Premises are located at 310 '
    "Ferry Street, Suite 500, Portland, Oregon and contain 6,000 rentable square feet. The "
    "Term commences on May 1, 2019 and expires on April 30, 2026. Base Rent is $15,000.00 per "
    "month." + " The parties agree to the terms of this Lease." * 30
)


def test_amendments_after_the_lease_in_one_file_are_read_on_their_own() -> None:
    doc = document(LEASE, AMENDMENT + FILLER)
    main = extract_fields(doc)
    assert main["expiration_date"].value == "2026-04-30"  # the lease's own terms
    assert main["amended_lease_date"].value is None
    [amendment] = appended_amendments(doc, extract_fields)
    assert amendment.title.upper().startswith("SECOND AMENDMENT")
    assert amendment.fields["expiration_date"].value == "2031-03-31"
    assert amendment.fields["amended_lease_date"].value == "2019-04-09"
    # Cited in the real document: page 2, at the text it states.
    cited = amendment.fields["expiration_date"]
    assert cited.page == 2
    assert doc.pages[1].text[cited.start : cited.end] == "March 31, 2031"


def test_a_lease_alone_has_no_appended_amendments() -> None:
    assert appended_amendments(document(LEASE), extract_fields) == []
