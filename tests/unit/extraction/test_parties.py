"""Landlord and tenant from the places a lease names its parties."""

from __future__ import annotations

import pytest

from lease_parser.extraction.names import same_party
from lease_parser.extraction.parties import extract_parties
from tests.unit.extraction.lease_text import by_name, document

GATE = 0.8
FILLER = " The parties agree to the terms below." * 40


def parties(*pages: str, ocr: float | None = None) -> dict[str, tuple[str | None, float]]:
    found = by_name(extract_parties(document(*pages, ocr_confidence=ocr)))
    return {k: (v.value, v.confidence) for k, v in found.items()}


@pytest.mark.parametrize(
    ("preamble", "landlord", "tenant"),
    [
        (
            "THIS LEASE is made as of May 1, 2019, by and between Harbor Point Holdings, LLC, "
            'a Delaware limited liability company ("Landlord"), and Nimbus Robotics, Inc., a '
            'California corporation ("Tenant").',
            "Harbor Point Holdings, LLC",
            "Nimbus Robotics, Inc.",
        ),
        (
            "This Lease Agreement is entered into on March 3, 2016 between Greystone Partners "
            '(hereinafter referred to as "Lessor") and Blue Finch Bakery LLC (hereinafter '
            'referred to as "Lessee").',
            "Greystone Partners",
            "Blue Finch Bakery LLC",
        ),
        (
            "THIS LEASE is made this 2nd day of July, 2010, between, OAKMONT REALTY L.L.C., of "
            '12 Main Street, Springfield, as "Landlord", and PIXEL FORGE CORP., of 9 Elm Road, '
            'as "Tenant".',
            "OAKMONT REALTY L.L.C.",
            "PIXEL FORGE CORP.",
        ),
        (
            "This lease agreement was entered into on April 4, 2011, between Mary Quinn, an "
            'individual, referred to as "lessor," and Rivet Works, Inc., a corporation organized '
            'under the laws of Ohio, referred to as "lessee."',
            "Mary Quinn",
            "Rivet Works, Inc.",
        ),
        (
            "THIS SUBLEASE is made as of May 2, 2011, by and between Orchard Labs, Inc. "
            '("Sublandlord"), and Quill Media LLC ("Subtenant"). Sublandlord leases the premises '
            'from Tower Owner LP ("Landlord") under a lease with Sublandlord as tenant ("Tenant").',
            "Orchard Labs, Inc.",
            "Quill Media LLC",
        ),
        (
            "THIS SUBLEASE AGREEMENT is dated as of May 2, 2011, by and between SILVER LAKE "
            'PARTNERS, LLC d/b/a SILVER LAKE STUDIOS ("Sublessor") and ECHO DATA, INC. '
            '("Sublessee").',
            "SILVER LAKE PARTNERS, LLC",
            "ECHO DATA, INC.",
        ),
    ],
)
def test_preamble(preamble: str, landlord: str, tenant: str) -> None:
    found = parties(preamble + FILLER)
    assert found["landlord"][0] == landlord
    assert found["tenant"][0] == tenant


def test_a_preamble_alone_is_below_the_gate_and_a_signature_block_lifts_it() -> None:
    preamble = (
        "THIS LEASE is made as of May 1, 2019, by and between Harbor Point Holdings, LLC "
        '("Landlord") and Nimbus Robotics, Inc. ("Tenant").'
    )
    alone = parties(preamble + FILLER)
    assert alone["landlord"][1] < GATE
    signed = parties(
        preamble + FILLER,
        "LANDLORD: Harbor Point Holdings, LLC, a Delaware limited liability company By: /s/ J. Doe"
        " TENANT: Nimbus Robotics, Inc. By: /s/ R. Roe",
    )
    assert signed["landlord"] == ("Harbor Point Holdings, LLC", signed["landlord"][1])
    assert signed["landlord"][1] >= GATE
    assert signed["tenant"][1] >= GATE


@pytest.mark.parametrize(
    "preamble",
    [
        "THIS LEASE is made as of May 1, 2019, by and between Harbor Point Holdings, LLC, a "
        'Delaware limited liability company ("Landlord"), and Nimbus Robotics, Inc., a '
        'California corporation ("Tenant").',
        "This Lease is dated as of June 15, 2024, and is entered into by and between Harbor Point"
        ' Holdings, LLC, a Texas limited liability company (hereinafter referred to as "Landlord"'
        '), and Nimbus Robotics, Inc., a Texas corporation (hereinafter referred to as "Tenant").',
        "THIS SUBLEASE is made as of May 2, 2011, between Harbor Point Holdings, LLC, a Delaware "
        'limited liability company ("Sublandlord"), and Nimbus Robotics, Inc. a Delaware '
        'corporation ("Subtenant").',
    ],
)
def test_a_clean_preamble_reaches_the_gate_alone(preamble: str) -> None:
    """Name, entity type and defined role for both parties: the canonical statement."""
    found = parties(preamble + FILLER)
    assert found["landlord"][0] == "Harbor Point Holdings, LLC"
    assert found["tenant"][0] == "Nimbus Robotics, Inc."
    assert found["landlord"][1] >= GATE
    assert found["tenant"][1] >= GATE


@pytest.mark.parametrize(
    "preamble",
    [
        # the tenant has no entity-type description
        "THIS LEASE is made by and between Harbor Point Holdings, LLC, a Delaware limited "
        'liability company ("Landlord"), and Nimbus Robotics, Inc. ("Tenant").',
        # an address between the description and the role
        "THIS LEASE is made by and between Harbor Point Holdings, LLC, a Delaware limited "
        'liability company, of 4 Bay Street, Albany ("Landlord"), and Nimbus Robotics, Inc., a '
        'Delaware corporation ("Tenant").',
        # a blank left in a description
        "THIS LEASE is made by and between Harbor Point Holdings, LLC, a [Delaware] limited "
        'liability company ("Landlord"), and Nimbus Robotics, Inc., a Delaware corporation '
        '("Tenant").',
        # an OCR-style stray token between the name and its description
        "THIS LEASE is made by and between Harbor Point Holdings, LLC, a Delaware limited "
        'liability company ("Landlord"), and Nimbus Robotics, PGE . an Ohio professional '
        'corporation ("Tenant").',
    ],
)
def test_a_preamble_that_is_not_clean_stays_below_the_gate(preamble: str) -> None:
    found = parties(preamble + FILLER)
    assert found["landlord"][1] < GATE
    assert found["tenant"][1] < GATE


@pytest.mark.parametrize(
    ("landlord", "description"),
    [
        ("ORBIT 55 KINGSLEY, LLC", "a Delaware limited liability company"),
        ("ASTER REIT II - 100 ELM, LLC", "a Delaware limited liability company"),
        ("ARC-SAN MATEO NO. 12, LLC", "a Delaware limited liability company"),
        ("Harbor Trust Bank, N.A.", "a national banking association"),
        ("KESTREL PROPERTIES LIMITED PARTNERSHIP", "a Delaware limited partnership"),
        ("ACME HOLDINGS, LLC", "a Delaware limited liability company, as landlord"),
        ("Jane Roe", "an individual"),
    ],
)
def test_clean_preamble_names_are_read_whole(landlord: str, description: str) -> None:
    preamble = (
        f'THIS LEASE is made by and between {landlord}, {description} ("Landlord"), and Nimbus '
        'Robotics, Inc., a Delaware corporation ("Tenant").'
    )
    found = parties(preamble + FILLER)
    assert found["landlord"][0] == landlord
    assert found["landlord"][1] >= GATE


@pytest.mark.parametrize(
    "landlord",
    [
        # "The" belongs to some names and not to others
        'The Marlow Company LLC, a Delaware limited liability company ("Landlord")',
        # "as tenant" for the party the marker calls Landlord
        'Acme Holdings, LLC, a Delaware limited liability company, as tenant ("Landlord")',
        # a trade name after the description
        'Acme Holdings, LLC, a Delaware limited liability company, d/b/a Acme ("Landlord")',
    ],
)
def test_preambles_that_leave_doubt_stay_below_the_gate(landlord: str) -> None:
    preamble = (
        f"THIS LEASE is made by and between {landlord}, and Nimbus Robotics, Inc., a Delaware "
        'corporation ("Tenant").'
    )
    assert parties(preamble + FILLER)["landlord"][1] < GATE


def test_a_clean_preamble_read_by_ocr_stays_below_the_gate() -> None:
    preamble = (
        "THIS LEASE is made by and between Harbor Point Holdings, LLC, a Delaware limited "
        'liability company ("Landlord"), and Nimbus Robotics, Inc., a Delaware corporation '
        '("Tenant").'
    )
    assert parties(preamble + FILLER, ocr=95.0)["landlord"][1] < GATE


def test_a_rival_name_keeps_a_clean_preamble_under_the_gate() -> None:
    text = (
        "THIS LEASE is made by and between Harbor Point Holdings, LLC, a Delaware limited "
        'liability company ("Landlord"), and Nimbus Robotics, Inc., a Delaware corporation '
        '("Tenant").' + FILLER + "\nLandlord: Seaview Capital LLC\nTenant: Nimbus Robotics, Inc."
    )
    found = parties(text)
    assert found["landlord"][1] < GATE


def test_clean_summary_statements_when_the_preamble_names_roles_only() -> None:
    text = (
        'THIS LEASE ("Lease") is dated as of February 4, 2013 between the Landlord and the '
        "Tenant named below.\nBASIC DATA\nLandlord: 150 Main Street, LLC, a Delaware limited "
        "liability company.\nLandlord's Address: c/o Agent Inc., 2 Summer Street, Boston\n"
        "Tenant: Vesper Labs, Inc., a Delaware corporation.\nBuilding: 150 Main Street." + FILLER
    )
    found = parties(text)
    assert found["landlord"] == ("150 Main Street, LLC", found["landlord"][1])
    assert found["tenant"] == ("Vesper Labs, Inc.", found["tenant"][1])
    assert found["landlord"][1] >= GATE
    assert found["tenant"][1] >= GATE


def test_a_summary_without_descriptions_stays_below_the_gate() -> None:
    text = (
        'THIS LEASE ("Lease") is dated as of February 4, 2013 between the Landlord and the '
        "Tenant named below.\nBASIC DATA\nLandlord: 150 Main Street, LLC\nTenant: Vesper Labs, "
        "Inc.\nBuilding: 150 Main Street." + FILLER
    )
    assert parties(text)["landlord"][1] < GATE


def test_joint_landlords_named_collectively() -> None:
    text = (
        "THIS LEASE is dated as of June 5, 2018, by and between ELM ROW, L.L.C., a New York "
        "limited liability company and PINE ROW, L.L.C., a New York limited liability company, "
        "as tenants in common, having offices at 4 Bay Street, Albany, New York (collectively, "
        '"Landlord"), and ORBIT TAX, INC., a Delaware corporation ("Tenant").'
    )
    assert parties(text + FILLER)["landlord"][0] == "ELM ROW, L.L.C. and PINE ROW, L.L.C."


def test_cover_page_and_summary_labels() -> None:
    cover = "OFFICE LEASE BETWEEN KESTREL TOWER LLC, AS LANDLORD, AND LUMEN HEALTH, INC., AS TENANT"
    body = (
        " BASIC LEASE INFORMATION\nLandlord: As listed on the cover page\nTenant: As listed on "
        'the cover page\nThis Lease Agreement (this "Lease") is entered into as of the Lease Date,'
        " between Landlord and Tenant." + FILLER
    )
    found = parties(cover, body)
    assert found["landlord"][0] == "KESTREL TOWER LLC"
    assert found["tenant"][0] == "LUMEN HEALTH, INC."
    assert found["landlord"][1] >= GATE  # the summary vouches for the cover


def test_numbered_summary_headings() -> None:
    text = (
        'THIS OFFICE LEASE (the "Lease") is made as of May 1, 2019, by and between Landlord and '
        "Tenant.\n1. BASIC LEASE INFORMATION.\n1.1 Landlord.\nMarlow Estates, a Delaware limited "
        "liability company.\n1.2 Tenant.\nVesper Labs LLC\n1.3 Building." + FILLER
    )
    found = parties(text)
    assert found["landlord"][0] == "Marlow Estates"
    assert found["tenant"][0] == "Vesper Labs LLC"


def test_a_defined_term_names_the_party() -> None:
    text = (
        "This Lease is entered into between Landlord and the County effective as of the "
        'Commencement Date. "Landlord" means Fenwick Square, LLC, a Delaware limited liability '
        'company. "County" means the County of Marin, acting by and through its Board.' + FILLER
    )
    found = parties(text)
    assert found["landlord"][0] == "Fenwick Square, LLC"
    assert found["tenant"][0] == "County of Marin"


def test_blank_form_names_nothing() -> None:
    text = (
        "THIS LEASE AGREEMENT, made this ____ day of ________, 20__, between __________________ "
        '(hereinafter "Landlord") and {NAME OF TENANT} (hereinafter called "Tenant").' + FILLER
    )
    assert parties(text) == {}


def test_body_sentences_after_a_role_word_are_not_names() -> None:
    text = (
        'THIS LEASE is made by and between Harbor Point LLC ("Landlord") and Nimbus Inc. '
        '("Tenant"). Tenant: Notwithstanding the foregoing, rent is due monthly. Landlord: '
        "Thereafter the premises shall be repaired. ARTICLE 4 Tenant: SECURITY DEPOSIT." + FILLER
    )
    found = parties(text)
    assert found["landlord"][0] == "Harbor Point LLC"
    assert "conflict" not in " ".join(extract_parties(document(text))[0].notes)


def test_conflicting_names_stay_under_the_gate() -> None:
    text = (
        'THIS LEASE is made by and between Harbor Point LLC ("Landlord") and Nimbus Inc. '
        '("Tenant").' + FILLER + " LANDLORD: Seaview Capital LLC By: /s/ J. Doe"
        " SUMMARY Landlord: Seaview Capital LLC\nTenant: Nimbus Inc."
    )
    (landlord,) = [f for f in extract_parties(document(text)) if f.name == "landlord"]
    assert landlord.confidence < GATE
    assert any("conflict" in n for n in landlord.notes)


def test_ocr_text_lowers_confidence() -> None:
    text = (
        'THIS LEASE is made by and between Harbor Point LLC ("Landlord") and Nimbus Inc. '
        '("Tenant").' + FILLER + " Harbor Point LLC By: /s/ J. Doe Nimbus Inc. By: /s/ R. Roe"
    )
    clean = parties(text)["landlord"][1]
    scanned = parties(text, ocr=85.0)["landlord"][1]
    assert scanned < clean


@pytest.mark.parametrize(
    ("a", "b", "same"),
    [
        ("Acme Widgets, Inc.", "ACME WIDGETS INC", True),
        ("Acme Widgets", "Acme Widgets, LLC", True),
        ("Acme Widgets", "Acme Gadgets", False),
        ("A Co, L.L.C. and B Co, L.L.C.", "B Co, L.L.C.", True),
    ],
)
def test_same_party(a: str, b: str, same: bool) -> None:
    assert same_party(a, b) is same


def test_a_name_with_commas_that_ends_in_a_legal_form_is_kept_whole() -> None:
    text = (
        "THIS LEASE is made by and between Smith, Jones & Partners LLP, a New York limited "
        'liability partnership ("Landlord") and Vale Inc. ("Tenant").' + FILLER
    )
    assert parties(text)["landlord"][0] == "Smith, Jones & Partners LLP"


def test_a_restatement_inside_a_longer_name_does_not_count() -> None:
    text = (
        'THIS LEASE is made by and between Riverside Partners ("Landlord") and Vale Inc. '
        '("Tenant").' + FILLER + " Riverside Partners Holdings Group shall manage the building."
    )
    (landlord,) = [f for f in extract_parties(document(text)) if f.name == "landlord"]
    assert landlord.notes == ["single cue: preamble"]


def test_unquoted_roles_in_the_preamble() -> None:
    text = (
        "THIS LEASE is made June 1, 2015 by and between Maple Court LLC, as Landlord, and "
        "Otter Systems, Inc., as Tenant." + FILLER
    )
    found = parties(text)
    assert found["landlord"][0] == "Maple Court LLC"
    assert found["tenant"][0] == "Otter Systems, Inc."


def test_a_name_introduced_after_a_capital_the_goes_to_review_however_often_it_is_stated() -> None:
    text = (
        "THIS LEASE is made by and between The Marlow Company LLC, a Delaware limited "
        'liability company ("Landlord"), and Nimbus Robotics, Inc., a Delaware corporation '
        '("Tenant"). Landlord: THE MARLOW COMPANY LLC.'
        + FILLER
        + " IN WITNESS WHEREOF THE MARLOW COMPANY LLC By: ____"
    )
    found = by_name(extract_parties(document(text)))
    assert found["landlord"].confidence < GATE
    assert any("'The'" in note for note in found["landlord"].notes)


def test_a_lowercase_the_is_an_article_not_a_doubt() -> None:
    text = (
        "THIS LEASE is made by and between Harbor Point Holdings, LLC, a Delaware limited "
        'liability company ("Landlord"), and the District of Columbia, a municipal '
        'corporation ("Tenant").' + FILLER
    )
    found = by_name(extract_parties(document(text)))
    assert found["tenant"].value == "District of Columbia"
    assert not any("'The'" in note for note in found["tenant"].notes)
