"""The assignment and subletting clause, the guarantor and the permitted use, read from
lease sentences (extraction/covenants.py)."""

from __future__ import annotations

import pytest

from lease_parser.extraction.base import RawField
from lease_parser.extraction.covenants import extract_covenants
from tests.unit.extraction.lease_text import by_name, document

FILLER = " The parties agree to the terms below." * 20


def read(name: str, *sentences: str) -> RawField | None:
    text = "LEASE AGREEMENT." + FILLER + " " + " ".join(sentences) + FILLER
    return by_name(extract_covenants(document(text))).get(name)


def value(name: str, *sentences: str) -> str | None:
    raw = read(name, *sentences)
    return None if raw is None else raw.value


@pytest.mark.parametrize(
    ("sentences", "expected"),
    [
        (
            (
                "Tenant shall not assign this Lease or sublet the Premises without Landlord's "
                "prior written consent.",
            ),
            "consent",
        ),
        (
            (
                "Sublessee shall not, either voluntarily or by operation of law, assign this "
                "Sublease without the prior written consent of Sublessor.",
            ),
            "consent",
        ),
        (
            (
                "4.1 The tenant must not transfer this lease or sublet the premises without the "
                "landlord's written consent.",
            ),
            "consent",
        ),
        (
            ("Not to assign the whole of the Premises without the Landlord's written consent.",),
            "consent",
        ),
        (("Tenant shall not assign this Lease or sublet the Premises.",), "prohibited"),
        (("Assignment and subletting are strictly prohibited.",), "prohibited"),
        (
            ("Tenant may assign this Lease or sublet the Premises without Landlord's consent.",),
            "permitted",
        ),
        (
            (
                "Tenant shall not assign any part (as distinct from the whole) of the Premises.",
                "Tenant shall not assign the whole of the Premises without the consent of the "
                "Landlord.",
            ),
            "consent",
        ),
        # Not the tenant's transfers of the lease: the landlord's, an affiliate's, an option.
        (("Landlord may assign this Lease without Tenant's consent.",), None),
        (
            ("Tenant may assign this Lease to an Affiliate without Landlord's consent.",),
            None,
        ),
        (("The renewal option may not be assigned.",), None),
        (("Employees who are not assigned full-time to the Building are excluded.",), None),
    ],
)
def test_assignment_subletting(sentences: tuple[str, ...], expected: str | None) -> None:
    assert value("assignment_subletting", *sentences) == expected


@pytest.mark.parametrize(
    ("sentence", "expected"),
    [
        (
            "1.20 Guarantor. CF Realty LLC and any party who subsequently guarantees it.",
            "CF Realty LLC",
        ),
        ("Guarantor: Bluefin Holdings, Inc.", "Bluefin Holdings, Inc."),
        (
            "GUARANTOR: MARAVAI INTERMEDIATE HOLDINGS, LLC, a Delaware limited liability company",
            "MARAVAI INTERMEDIATE HOLDINGS, LLC",
        ),
        (
            "This Lease is guaranteed by Bluefin Holdings, Inc., a Delaware corporation "
            '("Guarantor").',
            "Bluefin Holdings, Inc.",
        ),
        ("(l) Guarantor: N/A", None),
        ("(o) Guaranty. Intentionally omitted.", None),
        ("This acknowledgment is made on the part of the undersigned Guarantor. The end.", None),
        ("SUBLESSEE and GUARANTOR: ACME INC., JANE DOE", None),
    ],
)
def test_guarantor(sentence: str, expected: str | None) -> None:
    assert value("guarantor", sentence) == expected


@pytest.mark.parametrize(
    ("sentence", "expected"),
    [
        ("Permitted Use: General office purposes.", "General office purposes"),
        (
            "1.7 Permitted Use of the Premises. General, administrative, and executive office "
            "purposes only including shared office spaces.",
            "General, administrative, and executive office purposes",
        ),
        (
            "The Sublease Premises shall be used and occupied by Sublessee solely for the purpose "
            "of general office uses and for no other purpose.",
            "general office uses",
        ),
        (
            "Tenant shall use the Premises for retail sales of sporting goods.",
            "retail sales of sporting goods",
        ),
        (
            "The Premises shall be used only as a dwelling unit and for no other purpose.",
            "dwelling unit",
        ),
        # A reference to the use, a sentence, or a use of something else.
        ("Tenant shall use the Premises solely for the Permitted Use.", None),
        ("Use. Notwithstanding the foregoing, Tenant shall not store hazardous materials.", None),
        ("Entrance doors shall not be left open when not in use. Hand trucks are banned.", None),
    ],
)
def test_permitted_use(sentence: str, expected: str | None) -> None:
    assert value("permitted_use", sentence) == expected


@pytest.mark.parametrize(
    ("sentence", "expected"),
    [
        (
            "Tenant shall not, without the prior written consent of Landlord, which shall not be "
            "unreasonably withheld, delayed or conditioned, (1) assign this Lease.",
            "consent",
        ),
        (
            "Tenant shall not have the right, without the prior written consent of Landlord, to: "
            "(a) mortgage, pledge, hypothecate, encumber, or otherwise transfer this Lease.",
            "consent",
        ),
        ("Tenant may sublet or assign the Demised Premises at any time.", "permitted"),
        ("Tenant may assign or sublet the Premises pursuant to the terms of Section 9.", None),
        ("The Landlord covenants and agrees not to sell, lease or otherwise transfer it.", None),
    ],
)
def test_transfer_clauses_as_long_leases_write_them(sentence: str, expected: str | None) -> None:
    assert value("assignment_subletting", sentence) == expected


def test_a_guarantor_named_in_a_consent_heading() -> None:
    sentence = (
        "CONSENT OF GUARANTOR PC MALL, INC. (whether one or more shall hereinafter be referred "
        'to as "Guarantor") hereby consents to the foregoing.'
    )
    assert value("guarantor", sentence) == "PC MALL, INC."
