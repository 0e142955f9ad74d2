"""Sanity of a value on its own: what a party's name or an address does not look like."""

from __future__ import annotations

import pytest

from lease_parser.extraction.sanity import SANITY_FEATURES, sanity_features


@pytest.mark.parametrize(
    ("value", "failed"),
    [
        ("Acme Holdings LLC", set()),
        ("Kara A. Sleek", set()),
        ("LANDLORD: Acme Holdings LLC", {"sanity=role_word"}),
        ("TENANT: Campus Research Corporation", {"sanity=role_word"}),
        ("Acme Holdings LLC Beta Widgets Inc.", {"sanity=two_parties"}),
        ("Acme Holdings LLC, 200 Main Street", {"sanity=address"}),
        ("Acme Holdings LLC c/o Property Manager", {"sanity=address"}),
    ],
)
def test_a_party_name(value: str, failed: set[str]) -> None:
    features = sanity_features("tenant", value)
    assert {k for k, v in features.items() if v} == failed


@pytest.mark.parametrize(
    ("value", "failed"),
    [
        ("755 Dublin Drive, Apartment 755, Pendleton, Indiana 46064", set()),
        ("10 Upton Avenue, Ft", {"sanity=cut", "sanity=no_place"}),
        ("Pavilion Court, First Way, Wembley, London HA9 0FU", {"sanity=no_number"}),
        ("4409 SE 24th Ave", {"sanity=no_place"}),
    ],
)
def test_an_address(value: str, failed: set[str]) -> None:
    features = sanity_features("premises_address", value)
    assert {k for k, v in features.items() if v} == failed


def test_fields_without_checks_have_no_sanity_features() -> None:
    assert sanity_features("base_rent_monthly", "1095.00") == {}
    assert all(name.startswith("sanity=") for name in SANITY_FEATURES)
