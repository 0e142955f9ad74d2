"""Each party's address for notices, from the notices clause."""

from __future__ import annotations

import json

from lease_parser.extraction.notice_addresses import extract_notice_addresses
from tests.unit.extraction.lease_text import document

FILLER = " The parties agree to the terms below." * 40
PREAMBLE = 'THIS LEASE is made between Harbor Point LLC ("Landlord") and Nimbus Inc. ("Tenant").'


def addresses(clause: str) -> dict[str, str | None] | None:
    found = extract_notice_addresses(document(PREAMBLE + FILLER + clause + FILLER))
    return json.loads(found[0].value) if found else None


def test_each_party_s_address_follows_it_in_the_notices_clause() -> None:
    clause = (
        " 20. NOTICES. All notices shall be sent by certified mail, if to Landlord, to: Harbor "
        "Point LLC, 77 Dock Street, Suite 9, Portland, Maine 04101, Attention: Asset Manager; "
        "and if to Tenant, to: Nimbus Inc., 5 Hill Road, Boston, Massachusetts 02110."
    )
    assert addresses(clause) == {
        "landlord": "77 Dock Street, Suite 9, Portland, Maine 04101",
        "tenant": "5 Hill Road, Boston, Massachusetts 02110",
    }


def test_a_summary_line_gives_one_party_s_address() -> None:
    clause = " Tenant's Address for Notices: 5 Hill Road, Boston, Massachusetts 02110."
    assert addresses(clause) == {
        "landlord": None,
        "tenant": "5 Hill Road, Boston, Massachusetts 02110",
    }


def test_an_address_far_from_any_notice_is_not_a_notice_address() -> None:
    clause = " Landlord leases to Tenant the premises at 480 Meadow Lane, Fairview, Indiana 46012."
    assert addresses(clause) is None
