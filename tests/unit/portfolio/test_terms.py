"""A lease's current terms with its amendments applied (portfolio/terms.py): extensions, rent
changes and premises changes, each field with the document that last set it, a change log."""

from __future__ import annotations

from typing import Any

from lease_parser.portfolio.terms import current_terms
from tests.unit.portfolio.helpers import LEASE, amendment, source, stored

EXTENSION: dict[str, Any] = {
    "landlord": "Quarry Lane Partners LLC",
    "tenant": "Brightwater Labs, Inc.",
    "lease_date": "2029-06-15",
    "amended_lease_date": "2025-03-03",
    "commencement_date": "2030-08-01",  # the extension's start: sets nothing
    "expiration_date": "2035-07-31",
    "base_rent_monthly": "23000.00",
}


def test_an_extension_sets_the_expiration_and_is_logged() -> None:
    terms = current_terms(stored(LEASE), [amendment(EXTENSION, 1)])
    assert terms.value("expiration_date") == "2035-07-31"
    assert terms.terms["expiration_date"].source.title == "Amendment 1"
    assert terms.value("commencement_date") == "2025-05-01"  # the lease's, kept
    assert terms.terms["tenant"].source.title == "lease"  # restated, not changed
    changed = {c.field: (c.old, c.new, c.source.date) for c in terms.changes}
    assert changed["expiration_date"] == ("2030-07-31", "2035-07-31", "2029-06-15")
    assert "tenant" not in changed
    assert "lease_date" not in changed


def test_an_extensions_rent_becomes_a_step_after_the_old_expiration() -> None:
    terms = current_terms(stored(LEASE), [amendment(EXTENSION, 1)])
    steps = terms.value("rent_schedule")
    # The lease's month-numbered steps are dated from its commencement, then the new rent.
    assert [(s["start"], s["end"], s["monthly"]) for s in steps] == [
        ("2025-05-01", "2026-04-30", "20000.00"),
        ("2026-05-01", "2027-04-30", "20600.00"),
        ("2027-05-01", "2030-07-31", "21218.00"),
        ("2030-08-01", "2035-07-31", "23000.00"),
    ]
    assert terms.value("base_rent_monthly") == "23000.00"


def test_an_amendments_schedule_replaces_the_rent_from_its_first_step() -> None:
    change = {
        "lease_date": "2026-09-01",
        "rent_schedule": [
            {"start": "2026-11-01", "end": "2027-10-31", "monthly": "18000.00", "annual": None},
            {"start": "2027-11-01", "end": "2030-07-31", "monthly": "18500.00", "annual": None},
        ],
    }
    steps = current_terms(stored(LEASE), [amendment(change, 1)]).value("rent_schedule")
    assert [(s["start"], s["end"], s["monthly"]) for s in steps] == [
        ("2025-05-01", "2026-04-30", "20000.00"),
        ("2026-05-01", "2026-10-31", "20600.00"),  # cut the day before the new rent
        ("2026-11-01", "2027-10-31", "18000.00"),
        ("2027-11-01", "2030-07-31", "18500.00"),
    ]


def test_a_premises_change_sets_or_adds_the_area() -> None:
    added = amendment({"lease_date": "2026-01-10", "premises_added_sqft": "2500"}, 1)
    total = amendment({"lease_date": "2027-01-10", "rentable_sqft": "6100"}, 2)
    terms = current_terms(stored(LEASE), [added])
    area = terms.terms["rentable_sqft"]
    assert area.value == "10500"
    # The sum cites both statements: the amendment's and the lease's.
    assert area.provenance is not None
    assert area.inputs
    terms = current_terms(stored(LEASE), [added, total])
    assert terms.value("rentable_sqft") == "6100"
    assert [(c.old, c.new) for c in terms.changes if c.field == "rentable_sqft"] == [
        ("8000", "10500"),
        ("10500", "6100"),
    ]


def test_the_same_premises_written_another_way_is_not_a_change() -> None:
    restated = {"lease_date": "2026-01-10", "premises_address": "410 Foundry St., Dayton, OH"}
    moved = {"lease_date": "2027-01-10", "premises_address": "95 Canal Street, Dayton, Ohio"}
    terms = current_terms(stored(LEASE), [amendment(restated, 1)])
    assert terms.changes == []
    terms = current_terms(stored(LEASE), [amendment(restated, 1), amendment(moved, 2)])
    assert terms.value("premises_address") == "95 Canal Street, Dayton, Ohio"


def test_amendments_apply_in_date_order_an_undated_one_keeps_its_file_place() -> None:
    first = amendment({"landlord": "Second Owner LLC"}, 1)  # its date was not read
    second = amendment({"lease_date": "2028-01-01", "landlord": "Third Owner LLC"}, 2)
    later_filed = amendment({"lease_date": "2027-01-01", "expiration_date": "2031-07-31"}, 3)
    terms = current_terms(stored(LEASE), [second, later_filed, first])
    assert terms.value("landlord") == "Third Owner LLC"
    assert [c.source.title for c in terms.changes] == ["Amendment 1", "Amendment 3", "Amendment 2"]


def test_pending_amendments_are_listed_not_applied() -> None:
    pending = source(doc_hash="f" * 64, title="Third Amendment", date="2029-01-01")
    terms = current_terms(stored(LEASE), [], [pending])
    assert terms.value("expiration_date") == "2030-07-31"
    assert terms.to_json()["amendments_pending"][0]["title"] == "Third Amendment"


def test_an_option_waived_takes_its_length_and_notice_with_it() -> None:
    lease = {
        **LEASE,
        "renewal_option_count": 1,
        "renewal_term_months": 60,
        "renewal_notice": {"least": {"count": 9, "unit": "months"}, "most": None},
    }
    waiver = {"lease_date": "2027-01-10", "renewal_option_count": 0}
    terms = current_terms(stored(lease), [amendment(waiver, 1)])
    assert terms.value("renewal_option_count") == 0
    assert terms.value("renewal_term_months") is None
    assert terms.value("renewal_notice") is None
    changed = {c.field: (c.old, c.new) for c in terms.changes}
    assert changed["renewal_term_months"] == (60, None)
    # An amendment that restates nothing about the option leaves it as it was.
    kept = current_terms(stored(lease), [amendment({"lease_date": "2027-01-10"}, 1)])
    assert kept.value("renewal_term_months") == 60


def test_an_extensions_month_numbered_schedule_is_dated_from_its_start() -> None:
    months = [
        {"start": 1, "end": 12, "monthly": "23000.00", "annual": None},
        {"start": 13, "end": 60, "monthly": "23690.00", "annual": None},
    ]
    extension = {**EXTENSION, "rent_schedule": months}
    steps = current_terms(stored(LEASE), [amendment(extension, 1)]).value("rent_schedule")
    assert [(s["start"], s["end"], s["monthly"]) for s in steps][-2:] == [
        ("2030-08-01", "2031-07-31", "23000.00"),
        ("2031-08-01", "2035-07-31", "23690.00"),
    ]
    # No start stated: from the day after the expiration it extends.
    unstated = {k: v for k, v in extension.items() if k != "commencement_date"}
    steps = current_terms(stored(LEASE), [amendment(unstated, 1)]).value("rent_schedule")
    assert steps[-2]["start"] == "2030-08-01"


def test_an_amendments_free_months_and_break_dates_are_the_leases_now() -> None:
    lease = {**LEASE, "free_rent_months": 3, "termination_option_date": None}
    granted = {
        **EXTENSION,
        "free_rent_months": 2,
        "break_dates": ["2032-07-31", "2033-07-31"],
        "expense_base_year": 2030,
    }
    terms = current_terms(stored(lease), [amendment(granted, 1)])
    assert terms.value("free_rent_months") == 2
    assert terms.value("break_dates") == ["2032-07-31", "2033-07-31"]
    assert terms.value("expense_base_year") == 2030
    changed = {c.field: (c.old, c.new) for c in terms.changes}
    assert changed["free_rent_months"] == (3, 2)
