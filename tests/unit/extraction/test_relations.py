"""What must hold between a lease's values (extraction/relations.py): a relation that holds
supports every value in it, unless all of them are read from one sentence; one that fails is
a doubt naming it; a value missing, or one normalization will refuse, leaves it unchecked."""

from __future__ import annotations

import datetime as dt
import json
from collections.abc import Callable

import pytest

from lease_parser.extraction import extract_fields, relations
from lease_parser.extraction.base import RawField
from lease_parser.extraction.evidence import Doubt
from lease_parser.extraction.relations import RELATIONS, check_relations, months_between
from lease_parser.parsing.base import Document
from tests.unit.extraction.lease_text import document

# How a synthetic lease states each field, one sentence per field.
SAYS = {
    "lease_date": "This Lease is dated",
    "commencement_date": "The Commencement Date is",
    "expiration_date": "The Expiration Date is",
    "term_months": "The Term in months is",
    "base_rent_monthly": "The Monthly Base Rent in dollars is",
    "base_rent_annual": "The Annual Base Rent in dollars is",
    "rent_schedule": "The Base Rent by period is",
    "rentable_sqft": "The rentable square feet of the Premises are",
    "renewal_option_count": "The number of options to renew is",
    "renewal_term_months": "Each renewal term in months is",
    "termination_option_date": "The Break Date is",
    "escalation": "The escalation of Base Rent is",
    "renewal_notice": "The notice to renew is",
}


def schedule(*steps: dict[str, object]) -> str:
    return json.dumps(list(steps))


FIRST_YEAR = {"start": 1, "end": 12, "monthly": "5000.00", "annual": "60000.00"}
RATED = {**FIRST_YEAR, "per_sqft_annual": "24.00"}
SECOND_YEAR = {"start": 13, "end": 24, "monthly": "5150.00", "annual": "61800.00"}
THREE_PERCENT = json.dumps({"kind": "fixed_percent", "rate": "3.00"})
DATED = {"start": "2024-01-01", "end": "2024-12-31", "monthly": "5000.00", "annual": None}
NOTICE = json.dumps({"least": {"count": 9, "unit": "months"}, "most": None})

# relation -> (values for which it holds, values for which it fails)
CASES: dict[str, tuple[dict[str, str], dict[str, str]]] = {
    "term": (
        {"commencement_date": "2024-03-01", "term_months": "60", "expiration_date": "2029-02-28"},
        {"commencement_date": "2024-03-01", "term_months": "60", "expiration_date": "2030-02-28"},
    ),
    "dates in order": (
        {"commencement_date": "2024-03-01", "expiration_date": "2029-02-28"},
        {"commencement_date": "2024-03-01", "expiration_date": "2023-02-28"},
    ),
    "dated before expiration": (
        {"lease_date": "2024-01-15", "expiration_date": "2029-02-28"},
        {"lease_date": "2030-01-15", "expiration_date": "2029-02-28"},
    ),
    "dated near commencement": (
        {"lease_date": "2024-01-15", "commencement_date": "2024-03-01"},
        {"lease_date": "2025-06-01", "commencement_date": "2024-03-01"},
    ),
    "annual = 12 × monthly": (
        {"base_rent_monthly": "5000.00", "base_rent_annual": "60000.00"},
        {"base_rent_monthly": "5000.00", "base_rent_annual": "66000.00"},
    ),
    "schedule starts at the rent": (
        {"rent_schedule": schedule(FIRST_YEAR), "base_rent_monthly": "5000.00"},
        {"rent_schedule": schedule(FIRST_YEAR), "base_rent_monthly": "5200.00"},
    ),
    "rate × area = annual rent": (
        {"rent_schedule": schedule(RATED), "rentable_sqft": "2500", "base_rent_annual": "60000.00"},
        {"rent_schedule": schedule(RATED), "rentable_sqft": "2600", "base_rent_annual": "60000.00"},
    ),
    "schedule follows the escalation": (
        {"rent_schedule": schedule(FIRST_YEAR, SECOND_YEAR), "escalation": THREE_PERCENT},
        {
            "rent_schedule": schedule(FIRST_YEAR, {**SECOND_YEAR, "annual": "62400.00"}),
            "escalation": THREE_PERCENT,
        },
    ),
    "schedule spans the term": (
        {"rent_schedule": schedule(FIRST_YEAR, SECOND_YEAR), "term_months": "24"},
        {"rent_schedule": schedule(FIRST_YEAR, SECOND_YEAR), "term_months": "26"},
    ),
    "schedule ends at expiration": (
        {"rent_schedule": schedule(DATED), "expiration_date": "2024-12-31"},
        {"rent_schedule": schedule(DATED), "expiration_date": "2025-02-28"},
    ),
    "renewal term needs an option": (
        {"renewal_option_count": "2", "renewal_term_months": "60"},
        {"renewal_option_count": "0", "renewal_term_months": "60"},
    ),
    "renewal notice needs an option": (
        {"renewal_option_count": "1", "renewal_notice": NOTICE},
        {"renewal_option_count": "0", "renewal_notice": NOTICE},
    ),
    "break date after commencement": (
        {"commencement_date": "2024-03-01", "termination_option_date": "2027-02-28"},
        {"commencement_date": "2024-03-01", "termination_option_date": "2023-12-31"},
    ),
    "break date within the term": (
        {"termination_option_date": "2027-02-28", "expiration_date": "2029-02-28"},
        {"termination_option_date": "2030-02-28", "expiration_date": "2029-02-28"},
    ),
}
# relation -> a field and a value normalization would refuse
UNTYPABLE = {
    "term": ("term_months", "sixty"),
    "dates in order": ("commencement_date", "2024-13-45"),
    "dated before expiration": ("lease_date", "sometime in 2024"),
    "dated near commencement": ("lease_date", "2024-02-30"),
    "annual = 12 × monthly": ("base_rent_monthly", "five thousand"),
    "schedule starts at the rent": ("rent_schedule", "see Exhibit B"),
    "rate × area = annual rent": ("rentable_sqft", "about 2,500"),
    "schedule follows the escalation": ("escalation", "three percent"),
    "schedule spans the term": ("term_months", "two years"),
    "schedule ends at expiration": ("expiration_date", "2024-12-32"),
    "renewal term needs an option": ("renewal_option_count", "two"),
    "renewal notice needs an option": ("renewal_notice", "nine months"),
    "break date after commencement": ("termination_option_date", "after year three"),
    "break date within the term": ("termination_option_date", "2027-02-30"),
}
NAMES = [relation.name for relation in RELATIONS]


def lease(
    values: dict[str, str], one_sentence: bool = False
) -> tuple[dict[str, RawField], Document]:
    """A one-page lease stating ``values`` (each in its own sentence, or all in one), and
    the fields read from it, each citing its value."""
    parts = [f"{SAYS[name]} {value}" for name, value in values.items()]
    if one_sentence:
        text = ", and ".join(parts) + ". The parties agree."
    else:
        text = " ".join(f"{part}." for part in parts) + " The parties agree."
    doc = document(text)
    page = doc.pages[0].text
    fields = {}
    for name, value in values.items():
        start = page.index(value, page.index(SAYS[name]))
        fields[name] = RawField(name, value, page=1, start=start, end=start + len(value))
    return fields, doc


Only = Callable[[str], None]


@pytest.fixture
def only(monkeypatch: pytest.MonkeyPatch) -> Only:
    """Check one relation alone (several share fields)."""

    def use(name: str) -> None:
        (relation,) = [r for r in RELATIONS if r.name == name]
        monkeypatch.setattr(relations, "RELATIONS", (relation,))

    return use


def test_every_relation_has_cases() -> None:
    assert set(CASES) == set(NAMES)
    assert set(UNTYPABLE) == set(NAMES)
    for relation in RELATIONS:
        holds, fails = CASES[relation.name]
        assert set(holds) == set(fails) == set(relation.fields)


@pytest.mark.parametrize("name", NAMES)
def test_a_relation_that_holds_supports_every_value_in_it(name: str, only: Only) -> None:
    only(name)
    fields, doc = lease(CASES[name][0])
    check_relations(fields, doc)
    for raw in fields.values():
        assert raw.evidence == {"relations_met": 1.0}
        assert raw.doubts == {}
        assert len(raw.notes) == 1
        assert raw.notes[0].startswith("consistent: ")


@pytest.mark.parametrize("name", NAMES)
def test_a_relation_that_fails_is_a_doubt_naming_it(name: str, only: Only) -> None:
    only(name)
    fields, doc = lease(CASES[name][1])
    check_relations(fields, doc)
    for raw in fields.values():
        assert raw.evidence == {"relations_failed": 1.0}
        why = raw.doubts[Doubt.FAILED_RELATION]
        assert why.startswith(f"{name} fails: ")
        assert why.endswith(" does not hold")
        assert raw.notes == [why]


@pytest.mark.parametrize("name", NAMES)
def test_a_relation_within_one_sentence_counts_for_none_of_its_values(
    name: str, only: Only
) -> None:
    """ "$5,000.00 per month ($60,000.00 per year)" agreeing with itself says the drafter can
    multiply, not that the right sentence was read."""
    only(name)
    fields, doc = lease(CASES[name][0], one_sentence=True)
    check_relations(fields, doc)
    for raw in fields.values():
        assert raw.evidence == {}
        assert raw.doubts == {}
        assert raw.notes == []


@pytest.mark.parametrize("name", NAMES)
def test_a_relation_within_one_sentence_still_fails(name: str, only: Only) -> None:
    only(name)
    fields, doc = lease(CASES[name][1], one_sentence=True)
    check_relations(fields, doc)
    for raw in fields.values():
        assert raw.doubts[Doubt.FAILED_RELATION].startswith(f"{name} fails: ")


@pytest.mark.parametrize(
    ("name", "missing"),
    [(relation.name, field) for relation in RELATIONS for field in relation.fields],
)
@pytest.mark.parametrize("how", ["absent", "not read"])
def test_a_missing_value_leaves_the_relation_unchecked(
    name: str,
    missing: str,
    how: str,
    only: Only,
) -> None:
    only(name)
    fields, doc = lease(CASES[name][1])
    if how == "absent":
        del fields[missing]
    else:  # stated but not read: present, without a value
        fields[missing].value = None
    check_relations(fields, doc)
    for raw in fields.values():
        assert raw.evidence == {}
        assert raw.doubts == {}


@pytest.mark.parametrize("name", NAMES)
def test_an_untypable_value_leaves_the_relation_unchecked(name: str, only: Only) -> None:
    """Normalization refuses the value and says so; the relation has nothing to add."""
    only(name)
    field, junk = UNTYPABLE[name]
    values = {**CASES[name][1], field: junk}
    fields, doc = lease(values)
    check_relations(fields, doc)
    for raw in fields.values():
        assert raw.evidence == {}
        assert raw.doubts == {}


def test_a_schedule_without_a_rate_gives_rate_times_area_nothing_to_check(only: Only) -> None:
    only("rate × area = annual rent")
    values = {**CASES["rate × area = annual rent"][1], "rent_schedule": schedule(FIRST_YEAR)}
    fields, doc = lease(values)
    check_relations(fields, doc)
    assert all(raw.evidence == {} for raw in fields.values())


def test_the_schedule_starts_at_its_first_period_with_rent(only: Only) -> None:
    """Abated months are not the initial rent."""
    only("schedule starts at the rent")
    abated = {"start": 1, "end": 3, "monthly": "0.00"}
    values = {"rent_schedule": schedule(abated, FIRST_YEAR), "base_rent_monthly": "5000.00"}
    fields, doc = lease(values)
    check_relations(fields, doc)
    assert fields["base_rent_monthly"].evidence == {"relations_met": 1.0}


def test_relations_add_up_on_a_value_and_their_doubts_join() -> None:
    values = {
        "lease_date": "2030-01-15",
        "commencement_date": "2024-03-01",
        "term_months": "60",
        "expiration_date": "2029-02-28",
    }
    fields, doc = lease(values)
    check_relations(fields, doc)
    # term and dates in order hold; dated near commencement fails.
    assert fields["commencement_date"].evidence == {"relations_met": 2.0, "relations_failed": 1.0}
    # dated before expiration and dated near commencement both fail.
    lease_date = fields["lease_date"]
    assert lease_date.evidence == {"relations_failed": 2.0}
    why = lease_date.doubts[Doubt.FAILED_RELATION].split("; ")
    assert [w.split(" fails: ")[0] for w in why] == [
        "dated before expiration",
        "dated near commencement",
    ]


def test_values_on_two_pages_are_never_one_sentence() -> None:
    doc = document(
        "The Monthly Base Rent in dollars is 5000.00",
        "The Annual Base Rent in dollars is 60000.00 and is payable monthly.",
    )
    fields = {}
    for page, (name, value) in enumerate(
        [("base_rent_monthly", "5000.00"), ("base_rent_annual", "60000.00")], start=1
    ):
        start = doc.pages[page - 1].text.index(value)
        fields[name] = RawField(name, value, page=page, start=start, end=start + len(value))
    check_relations(fields, doc)
    assert fields["base_rent_monthly"].evidence == {"relations_met": 1.0}


@pytest.mark.parametrize(
    ("start", "end", "months"),
    [
        ("2024-03-01", "2029-02-28", 60),
        ("2024-03-15", "2029-03-14", 60),
        ("2024-01-01", "2024-12-31", 12),
        ("2024-03-01", "2024-03-31", 1),
        ("2024-03-01", "2024-03-30", 0),
        ("2024-02-01", "2027-04-30", 39),
    ],
)
def test_months_between_counts_whole_months_to_the_day_after_the_last(
    start: str, end: str, months: int
) -> None:
    assert months_between(dt.date.fromisoformat(start), dt.date.fromisoformat(end)) == months


def test_extract_fields_checks_the_relations_of_what_it_read() -> None:
    fields = extract_fields(
        document(
            'THIS LEASE is made as of January 15, 2024, between A LLC ("Landlord") and B Inc. '
            '("Tenant"). The Term of this Lease shall be five (5) years. The Term shall commence '
            'on March 1, 2024 (the "Commencement Date"). The Term shall end on February 28, '
            "2029." + " The parties agree to the terms below." * 20
        )
    )
    assert fields["term_months"].value == "60"
    assert fields["term_months"].evidence["relations_met"] == 1
    assert fields["lease_date"].evidence["relations_met"] == 2
    assert not any(Doubt.FAILED_RELATION in raw.doubts for raw in fields.values())


ROW_MAJOR_TABLE = """1.10 Base Rent. The following amounts:
| Period | Monthly Base Rent | Annual Base Rent |
| Months 1 - 12 | $12,500.00 | $150,000.00 |
| Months 13 - 24 | $12,875.00 | $154,500.00 |
Rent shall be paid on the first day of each calendar month."""


def test_a_rent_read_from_the_schedule_is_not_confirmed_by_the_schedule() -> None:
    fields = extract_fields(document(ROW_MAJOR_TABLE))
    monthly = fields["base_rent_monthly"]
    assert monthly.value == "12500.00"
    assert monthly.notes[0] == "stated by: rent schedule"
    assert not any(note.startswith("consistent: first scheduled rent") for note in monthly.notes)
    assert monthly.evidence.get("relations_met", 0) == 0


@pytest.mark.parametrize(
    ("kind", "second", "holds"),
    [
        ("schedule", SECOND_YEAR, True),
        ("schedule", {**SECOND_YEAR, "monthly": "5000.00", "annual": "60000.00"}, False),
        ("none", {**SECOND_YEAR, "monthly": "5000.00", "annual": "60000.00"}, True),
        ("none", SECOND_YEAR, False),
    ],
)
def test_a_schedule_or_none_escalation_is_checked_by_whether_the_rents_change(
    kind: str, second: dict[str, object], holds: bool, only: Only
) -> None:
    only("schedule follows the escalation")
    escalation = json.dumps({"kind": kind, "rate": None})
    fields, doc = lease({"rent_schedule": schedule(FIRST_YEAR, second), "escalation": escalation})
    check_relations(fields, doc)
    key = "relations_met" if holds else "relations_failed"
    assert fields["escalation"].evidence == {key: 1.0}


def test_a_dated_schedule_gives_the_months_of_the_term_nothing_to_check(only: Only) -> None:
    only("schedule spans the term")
    fields, doc = lease({"rent_schedule": schedule(DATED), "term_months": "6"})
    check_relations(fields, doc)
    assert fields["term_months"].evidence == {}


def test_a_schedule_whose_last_row_is_open_gives_expiration_nothing_to_check(only: Only) -> None:
    only("schedule ends at expiration")
    fields, doc = lease(
        {"rent_schedule": schedule({**DATED, "end": None}), "expiration_date": "2025-02-28"}
    )
    check_relations(fields, doc)
    assert fields["expiration_date"].evidence == {}
