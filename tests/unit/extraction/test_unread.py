"""Fields nothing was read for carry the evidence whether the lease states them."""

from __future__ import annotations

from lease_parser.extraction import extract_fields
from lease_parser.extraction.base import RawField
from lease_parser.extraction.evidence import Doubt
from lease_parser.extraction.flat import flatten
from lease_parser.extraction.unread import UNREAD_FEATURES, unread_fields
from lease_parser.model import FIELD_NAMES
from tests.unit.extraction.lease_text import document

LEASE = (
    "THIS LEASE is made as of April 9, 2019, by and between Orchard Row Holdings LLC "
    '("Landlord") and Tidewater Robotics, Inc. ("Tenant"). The Premises are located at 310 '
    "Ferry Street, Suite 500, Portland, Oregon. The Term commences on May 1, 2019 and expires "
    "on April 30, 2026. Base Rent is $15,000.00 per month. There is no option to renew."
    + " The parties agree to the terms of this Lease."
    * 30
)


def test_every_field_left_empty_is_there_with_its_unread_evidence() -> None:
    fields = extract_fields(document(LEASE))
    assert set(fields) == set(FIELD_NAMES)
    unread = fields["rentable_sqft"]
    assert unread.value is None
    assert set(UNREAD_FEATURES) - {"kind_sublease", "kind_amendment", "kind_form"} <= set(
        unread.evidence
    )
    assert unread.evidence["mentioned"] == 0.0  # no area words anywhere
    assert unread.evidence["kind_sublease"] == 0.0


def test_a_field_whose_sibling_was_read_says_so() -> None:
    fields = extract_fields(document(LEASE))
    assert fields["base_rent_monthly"].value == "15000.00"
    assert fields["base_rent_annual"].value is None
    assert fields["base_rent_annual"].evidence["sibling_read"] == 1.0
    assert fields["base_rent_annual"].evidence["mentioned"] == 1.0  # "rent" is there


def test_an_escalation_of_none_is_no_sign_of_a_schedule_missed() -> None:
    """One rent for the term: the lease has no schedule, so the escalation read beside it
    is not a sibling read where a schedule would be stated."""
    fields = extract_fields(document(LEASE))
    assert fields["escalation"].value == '{"kind": "none", "rate": null}'
    assert fields["rent_schedule"].value is None
    assert fields["rent_schedule"].evidence["sibling_read"] == 0.0


def test_a_field_stated_but_not_read_keeps_its_citation_and_flags_the_shape() -> None:
    flat = flatten(document(LEASE))
    flagged = RawField("tenant_share_percent", None, page=1, start=10, end=20)
    flagged.doubts[Doubt.STATED_NOT_READ] = "the lease states the tenant's share here"
    [share] = unread_fields(flat, (0, len(flat.text)), {flagged.name: flagged}, (flagged.name,))
    assert share is flagged  # the same field, its citation kept
    assert (share.page, share.start, share.end) == (1, 10, 20)
    assert share.evidence["shape_found"] == 1.0


def test_no_option_means_no_option_length_is_stated() -> None:
    flat = flatten(document(LEASE))
    read = {"renewal_option_count": RawField("renewal_option_count", "0")}
    names = ("renewal_term_months", "renewal_notice", "termination_notice")
    by_name = {r.name: r for r in unread_fields(flat, (0, len(flat.text)), read, names)}
    assert by_name["renewal_term_months"].evidence["no_option"] == 1.0
    assert by_name["renewal_notice"].evidence["no_option"] == 1.0
    assert by_name["termination_notice"].evidence["no_option"] == 0.0
