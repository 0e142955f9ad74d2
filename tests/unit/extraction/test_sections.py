"""Finding the main agreement among the agreements one file holds."""

from __future__ import annotations

import re

from lease_parser.extraction.flat import flat_text
from lease_parser.extraction.sections import (
    agreements,
    labelled_values,
    primary_agreement,
    primary_pages,
)
from tests.unit.extraction.lease_text import document

BODY = "The parties agree to the terms below. " * 40
SUBLEASE = (
    'SUBLEASE AGREEMENT THIS SUBLEASE AGREEMENT ("Sublease") is made as of May 2, 2011, by and '
    'between Orchard Labs, Inc. ("Sublandlord") and Quill Media LLC ("Subtenant"). ' + BODY
)
MASTER = (
    "EXHIBIT A MASTER LEASE THIS OFFICE LEASE is made and entered into as of June 1, 2005, by "
    'and between Tower Owner LP ("Landlord") and Orchard Labs, Inc. ("Tenant"). ' + BODY
)
CONSENT = (
    "LANDLORD'S CONSENT TO SUBLEASE This Agreement is made as of May 9, 2011, among Tower "
    'Owner LP ("Landlord"), Orchard Labs, Inc. ("Tenant") and Quill Media LLC ("Subtenant"). '
    + BODY
)


def test_sublease_with_master_lease_attached_ends_where_the_master_opens() -> None:
    flat = flat_text(document(SUBLEASE + MASTER))
    main = primary_agreement(flat)
    assert flat.text[main.opener_start :].startswith("THIS SUBLEASE AGREEMENT")
    assert "Tower Owner LP" not in flat.text[main.start : main.end]
    assert len(agreements(flat)) == 2


def test_a_consent_letter_in_front_is_skipped() -> None:
    flat = flat_text(document(CONSENT + SUBLEASE + MASTER))
    found = agreements(flat)
    assert [a.ancillary for a in found] == [True, False, False]
    main = primary_agreement(flat)
    assert "Quill Media LLC" in flat.text[main.start : main.end]
    assert "LANDLORD'S CONSENT" not in flat.text[main.start : main.end]


def test_body_sentences_are_not_openers() -> None:
    text = SUBLEASE + (
        "This Sublease shall be governed by the laws of the State. This Lease is effective upon "
        "signature. This Agreement constitutes the entire agreement between the parties. "
    )
    assert len(agreements(flat_text(document(text)))) == 1


def test_amendments_after_the_lease_are_separate_agreements() -> None:
    lease = 'THIS LEASE is made this 5th day of April, 2004, between A Co. ("Landlord") and ' + (
        'B Co. ("Tenant"). ' + BODY
    )
    amendment = (
        "FIRST AMENDMENT TO LEASE This First Amendment to Lease is made as of May 1, 2006 by and "
        'between A Co. ("Landlord") and B Co. ("Tenant"). ' + BODY
    )
    found = agreements(flat_text(document(lease + amendment)))
    assert [a.is_amendment for a in found] == [False, True]


def test_primary_pages_are_the_pages_of_the_main_agreement() -> None:
    doc = document(CONSENT, SUBLEASE, MASTER)
    pages = primary_pages(doc)
    assert [p.number for p in pages] == [2]
    assert pages[0].text == doc.pages[1].text


def test_primary_pages_blank_what_is_outside_and_keep_offsets() -> None:
    doc = document(SUBLEASE + MASTER)
    (page,) = primary_pages(doc)
    assert "Tower Owner" not in page.text
    assert len(page.text) == len(doc.pages[0].text)
    assert page.text.index("Orchard Labs") == doc.pages[0].text.index("Orchard Labs")


def test_labelled_values_stop_at_the_next_line_label() -> None:
    text = "BASIC TERMS\nLandlord: Acme Holdings LLC\nTenant: Beta Corp\nLease Term: 5 years"
    flat = flat_text(document(text))
    label = re.compile(r"(?i)\b(?:landlord|tenant)(?=\s*:)")
    found = labelled_values(flat, label, (0, len(flat.text)))
    assert [(f.label, f.value, f.separator) for f in found] == [
        ("Landlord", "Acme Holdings LLC", ":"),
        ("Tenant", "Beta Corp", ":"),
    ]


def test_labelled_values_on_one_line_stop_at_a_short_label() -> None:
    flat = flat_text(document("Landlord: Acme Holdings, LLC Premises: Suite 300"))
    label = re.compile(r"(?i)\blandlord(?=\s*:)")
    (found,) = labelled_values(flat, label, (0, len(flat.text)))
    assert found.value == "Acme Holdings, LLC"


def test_a_label_with_a_note_is_cut_before_its_word() -> None:
    """ "Residents (list all residents):" is a label, note and all, not a name's last word."""
    label = re.compile(r"(?i)\bowner's\s+name(?=\s*:)")
    for text in (
        "Owner's name: Harbor Point Apartments Residents (list all residents): Kim Roe",
        "Owner's name: Harbor Point Apartments\nResidents (list all residents): Kim Roe",
    ):
        (found,) = labelled_values(flat_text(document(text)), label, (0, len(text)))
        assert found.value == "Harbor Point Apartments"
