"""The review queue over a real (SQLite) store: order, claims and their expiry, decisions,
and corrections validated by the pipeline's own model."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sqlalchemy import select

from lease_parser.corrections import parse_corrections
from lease_parser.errors import ItemNotFound, NotClaimed, Reason, ReviewRefused
from lease_parser.model import FieldProblem
from lease_parser.store import (
    DocumentRow,
    DocumentState,
    EventRow,
    Outcome,
    ReviewQueue,
    Store,
    entered_final_state,
)
from tests.store_helpers import VALID_VALUES, add_document, fields_json

T0 = dt.datetime(2030, 1, 1, 9, 0, tzinfo=dt.UTC)
TTL = 600


class Clock:
    """Time that moves only when a test says so."""

    def __init__(self) -> None:
        self.now = T0

    def __call__(self) -> dt.datetime:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += dt.timedelta(seconds=seconds)


@pytest.fixture
def store(tmp_path: Path) -> Store:
    return Store(f"sqlite:///{tmp_path / 'lease.db'}")


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
def queue(store: Store, clock: Clock) -> ReviewQueue:
    return ReviewQueue(store, claim_ttl=TTL, clock=clock)


def approve_checked(queue: ReviewQueue, doc_hash: str, reviewer: str) -> DocumentRow:
    """Claim, confirm every doubtful field, approve: the shortest legitimate decision."""
    item = queue.claim(doc_hash, reviewer)
    if item.unchecked:
        queue.confirm(doc_hash, reviewer, item.unchecked)
    return queue.approve(doc_hash, reviewer)


def correct_and_approve(
    queue: ReviewQueue, doc_hash: str, reviewer: str, changes: dict[str, str]
) -> DocumentRow:
    queue.claim(doc_hash, reviewer)
    queue.correct(doc_hash, reviewer, changes)
    return approve_checked(queue, doc_hash, reviewer)


# -- order and claims ------------------------------------------------------------------------


def test_items_come_out_by_priority_then_oldest_first(store: Store, queue: ReviewQueue) -> None:
    first, second, third = (add_document(store) for _ in range(3))
    add_document(store, state=DocumentState.COMMITTED, reason=None)  # not a review item
    queue.prioritize(third, 5)
    assert [i.doc_hash for i in queue.items()] == [third, first, second]
    claimed = [queue.claim_next(f"reviewer-{n}") for n in range(4)]
    assert [c.doc_hash if c else None for c in claimed] == [third, first, second, None]


def test_a_reviewer_who_claims_again_gets_the_item_they_hold(
    store: Store, queue: ReviewQueue, clock: Clock
) -> None:
    doc_hash = add_document(store)
    add_document(store)
    first = queue.claim_next("alice")
    clock.advance(TTL - 1)
    again = queue.claim_next("alice")
    assert first is not None
    assert again is not None
    assert again.doc_hash == first.doc_hash == doc_hash
    assert again.claim_expires_at == clock.now + dt.timedelta(seconds=TTL)  # renewed


def test_claims_and_releases_are_in_the_audit_trail(
    store: Store, queue: ReviewQueue, clock: Clock
) -> None:
    doc_hash = add_document(store)
    assert queue.claim_next("alice") is not None
    queue.claim_next("alice")  # a renewal is not a new claim
    queue.release(doc_hash, "alice")
    clock.advance(1)
    assert queue.claim_next("bob") is not None
    approve_checked(queue, doc_hash, "bob")
    trail = [(e.reason, e.actor) for e in store.events(doc_hash)][-4:]
    assert trail == [
        ("claimed", "alice"),
        ("released", "alice"),
        ("claimed", "bob"),
        ("approved", "bob"),
    ]
    # Holding an item is not entering review again: exactly-once counts stay right.
    with store.session() as s:
        entered = s.scalars(select(EventRow.state).where(entered_final_state())).all()
    assert sorted(entered) == ["committed", "review"]


def test_a_claimed_item_is_not_handed_to_another_reviewer(store: Store, queue: ReviewQueue) -> None:
    doc_hash = add_document(store)
    item = queue.claim_next("alice")
    assert item is not None
    assert item.claimed_by == "alice"
    assert queue.claim_next("bob") is None
    with pytest.raises(ReviewRefused, match="claimed by alice"):
        queue.approve(doc_hash, "bob")
    with pytest.raises(ReviewRefused, match="claimed by alice"):
        queue.reject(doc_hash, "bob", "not a lease")


def test_an_abandoned_claim_expires_and_the_item_returns_to_the_queue(
    store: Store, queue: ReviewQueue, clock: Clock
) -> None:
    doc_hash = add_document(store)
    assert queue.claim_next("alice") is not None
    clock.advance(TTL - 1)
    assert queue.claim_next("bob") is None
    clock.advance(1)
    [listed] = queue.items()
    assert listed.claimed_by is None  # shown as free once expired
    taken = queue.claim_next("bob")
    assert taken is not None
    assert (taken.doc_hash, taken.claimed_by) == (doc_hash, "bob")
    # Alice comes back from lunch: the item is Bob's now.
    assert queue.claim_next("alice") is None
    with pytest.raises(ReviewRefused, match="claimed by bob"):
        queue.approve(doc_hash, "alice")
    assert approve_checked(queue, doc_hash, "bob").reviewer == "bob"


def test_an_expired_claim_must_be_claimed_again_before_deciding(
    store: Store, queue: ReviewQueue, clock: Clock
) -> None:
    doc_hash = add_document(store)
    queue.claim_next("alice")
    clock.advance(TTL * 3)
    item = queue.item(doc_hash)
    assert (item.claimed_by, item.lapsed_claim_by) == (None, "alice")  # back in the queue
    with pytest.raises(NotClaimed, match=r"your claim on .* expired at .* claim it again"):
        queue.confirm(doc_hash, "alice", ["base_rent_monthly"])
    assert approve_checked(queue, doc_hash, "alice").state == DocumentState.COMMITTED


def test_release_gives_the_item_back(store: Store, queue: ReviewQueue) -> None:
    doc_hash = add_document(store)
    queue.claim_next("alice")
    with pytest.raises(ReviewRefused, match="bob does not hold"):
        queue.release(doc_hash, "bob")
    queue.release(doc_hash, "alice")
    item = queue.claim_next("bob")
    assert item is not None
    assert item.doc_hash == doc_hash


def test_nobody_decides_an_item_they_have_not_claimed(store: Store, queue: ReviewQueue) -> None:
    doc_hash = add_document(store)
    for attempt in (
        lambda: queue.approve(doc_hash, "alice"),
        lambda: queue.reject(doc_hash, "alice", "not a lease"),
        lambda: queue.confirm(doc_hash, "alice", ["base_rent_monthly"]),
        lambda: queue.correct(doc_hash, "alice", {"tenant": "Someone Else LLC"}),
    ):
        with pytest.raises(NotClaimed, match=r"alice does not hold a claim .* claim it first"):
            attempt()
    row = store.document(doc_hash)
    assert row is not None
    assert (row.state, row.fields) == ("review", fields_json())
    assert store.decisions(doc_hash) == []


def test_a_reviewer_can_claim_a_given_item_unless_another_holds_it(
    store: Store, queue: ReviewQueue, clock: Clock
) -> None:
    first, second = add_document(store), add_document(store)
    assert queue.claim(second, "alice").claimed_by == "alice"
    with pytest.raises(NotClaimed, match="claimed by alice"):
        queue.claim(second, "bob")
    clock.advance(TTL - 10)
    again = queue.claim(second, "alice")  # a renewal, not a new claim
    assert again.claim_expires_at == clock.now + dt.timedelta(seconds=TTL)
    assert [e.reason for e in store.events(second)].count("claimed") == 1
    assert queue.claim_next("bob") is not None
    assert queue.item(first).claimed_by == "bob"


# -- decisions -------------------------------------------------------------------------------


def test_approve_commits_once_with_source_review_and_an_audit_event(
    store: Store, queue: ReviewQueue, clock: Clock
) -> None:
    doc_hash = add_document(store)
    row = approve_checked(queue, doc_hash, "alice")
    assert (row.state, row.reason, row.source, row.reviewer) == (
        "committed",
        None,
        "review",
        "alice",
    )
    assert row.claimed_by is None
    assert row.fields == fields_json()  # values, confidences and provenance as they were
    assert row.reviewed_at is not None
    assert store.commit_events(doc_hash) == 1
    assert [(e.state, e.reason, e.actor) for e in store.events(doc_hash)][-1] == (
        "committed",
        "approved",
        "alice",
    )
    with pytest.raises(ReviewRefused, match="not in review: it is committed by alice"):
        queue.approve(doc_hash, "alice")
    with pytest.raises(ReviewRefused, match="not in review"):
        queue.correct(doc_hash, "bob", {"tenant": "Someone Else LLC"})
    assert store.commit_events(doc_hash) == 1


def test_an_auto_committed_document_cannot_be_committed_again(
    store: Store, queue: ReviewQueue
) -> None:
    doc_hash = add_document(store, state=DocumentState.COMMITTED, reason=None)
    with pytest.raises(ReviewRefused, match="not in review: it is committed"):
        queue.approve(doc_hash, "alice")
    assert store.commit_events(doc_hash) == 1


def test_an_unknown_hash_is_not_found(queue: ReviewQueue) -> None:
    with pytest.raises(ItemNotFound):
        queue.approve("f" * 64, "alice")
    with pytest.raises(ItemNotFound):
        queue.item("f" * 64)


def test_reject_makes_the_document_dead_with_the_reviewers_reason(
    store: Store, queue: ReviewQueue
) -> None:
    doc_hash = add_document(store)
    queue.claim(doc_hash, "alice")
    with pytest.raises(ReviewRefused, match="needs a reason"):
        queue.reject(doc_hash, "alice", "  ")
    row = queue.reject(doc_hash, "alice", "an invoice, not a lease")
    assert (row.state, row.reason, row.detail) == (
        "dead",
        "rejected_by_reviewer",
        "an invoice, not a lease",
    )
    assert (row.source, row.reviewer) == (None, "alice")
    event = store.events(doc_hash)[-1]
    assert (event.state, event.reason, event.detail) == (
        "dead",
        "rejected_by_reviewer",
        {"reason": "an invoice, not a lease"},
    )
    assert store.commit_events(doc_hash) == 0


def test_a_document_waiting_for_its_password_cannot_be_approved(
    store: Store, queue: ReviewQueue
) -> None:
    doc_hash = add_document(store, reason=Reason.NEEDS_CREDENTIAL)
    queue.claim(doc_hash, "alice")
    with pytest.raises(ReviewRefused, match="lease-parser unlock"):
        queue.approve(doc_hash, "alice")
    with pytest.raises(ReviewRefused, match="lease-parser unlock"):
        queue.correct(doc_hash, "alice", {"tenant": "Bluefin"})
    assert queue.reject(doc_hash, "alice", "client has no password").state == "dead"


# -- corrections -----------------------------------------------------------------------------


def test_a_correction_commits_the_typed_value_and_records_what_changed(
    store: Store, queue: ReviewQueue
) -> None:
    doc_hash = add_document(store)
    before = fields_json()
    row = correct_and_approve(
        queue,
        doc_hash,
        "alice",
        {
            "base_rent_monthly": "24000",
            "lease_date": "2024-03-16",
            "cam_monthly": "",
            "currency": "usd",
        },
    )
    assert row.fields is not None
    rent = row.fields["base_rent_monthly"]
    assert rent["value"] == "24000.00"  # Money: two places, a string, never a float
    assert rent["confidence"] == 1.0
    assert rent["provenance"] == before["base_rent_monthly"]["provenance"]
    assert row.fields["lease_date"]["value"] == "2024-03-16"
    assert row.fields["currency"]["value"] == "USD"
    assert row.fields["tenant"] == before["tenant"]  # untouched fields stay as they were
    # What changed, from → to; a value restated as it was is a confirmation.
    assert row.corrections == {
        "base_rent_monthly": {"from": "24062.50", "to": "24000.00"},
        "lease_date": {"from": "2024-03-15", "to": "2024-03-16"},
    }
    assert row.field_sources is not None
    assert {k: v for k, v in row.field_sources.items() if v != "pipeline"} == {
        "base_rent_monthly": "corrected",
        "lease_date": "corrected",
        "cam_monthly": "confirmed",  # "not stated", and the pipeline had it empty
        "currency": "confirmed",
    }
    assert (row.state, row.source, row.reviewer) == ("committed", "review", "alice")
    event = store.events(doc_hash)[-1]
    assert (event.reason, event.detail) == ("approved", {"corrections": row.corrections})


def test_compound_fields_are_corrected_as_json(store: Store, queue: ReviewQueue) -> None:
    doc_hash = add_document(store)
    row = correct_and_approve(
        queue,
        doc_hash,
        "alice",
        {
            "rent_schedule": '[{"start": 1, "end": 63, "monthly": "24062.5"}]',
            "escalation": '{"kind": "none"}',
        },
    )
    assert row.fields is not None
    assert row.fields["rent_schedule"]["value"] == [
        {"start": 1, "end": 63, "monthly": "24062.5", "annual": None, "per_sqft_annual": None}
    ]
    assert row.fields["escalation"]["value"] == {"kind": "none", "rate": None}


BAD_CORRECTIONS = [
    (
        "negative rent",
        {"base_rent_monthly": "-24062.50"},
        "base_rent_monthly",
        "greater than or equal to 0",
    ),
    ("rent in words", {"base_rent_monthly": "twelve grand"}, "base_rent_monthly", "not a number"),
    ("impossible date", {"lease_date": "2024-02-30"}, "lease_date", "day is out of range"),
    ("US-style date", {"lease_date": "03/15/2024"}, "lease_date", "Invalid isoformat"),
    ("term not a number", {"term_months": "five years"}, "term_months", "invalid literal"),
    ("negative term", {"term_months": "-60"}, "term_months", "cannot be negative"),
    ("negative area", {"rentable_sqft": "-1"}, "rentable_sqft", "cannot be negative"),
    ("currency not ISO 4217", {"currency": "dollars"}, "currency", "String should match"),
    ("schedule not JSON", {"rent_schedule": "1-12: 24062.50"}, "rent_schedule", "not JSON"),
    (
        "negative schedule step",
        {"rent_schedule": '[{"monthly": "-1"}]'},
        "rent_schedule",
        "monthly",
    ),
    ("unknown escalation", {"escalation": '{"kind": "whenever"}'}, "escalation", "kind"),
    (
        "expiration before commencement",
        {"expiration_date": "2024-04-30"},
        "expiration_date",
        "is not after commencement",
    ),
    ("term contradicts the dates", {"term_months": "36"}, "term_months", "contradicts dates"),
    ("implausible term", {"term_months": "0"}, "term_months", "implausible term"),
]


@pytest.mark.parametrize(
    ("changes", "field", "why"),
    [pytest.param(*case[1:], id=case[0]) for case in BAD_CORRECTIONS],
)
def test_a_bad_value_is_refused_with_the_reason(
    store: Store, queue: ReviewQueue, changes: dict[str, str], field: str, why: str
) -> None:
    doc_hash = add_document(store)
    queue.claim(doc_hash, "alice")
    with pytest.raises(ReviewRefused) as refused:
        queue.correct(doc_hash, "alice", changes)
    assert field in [p.field for p in refused.value.problems]
    assert why in str(refused.value)
    row = store.document(doc_hash)
    assert row is not None
    assert (row.state, row.fields) == ("review", fields_json())  # nothing changed
    assert store.decisions(doc_hash) == []  # nothing decided


def test_every_bad_value_of_a_correction_is_reported_at_once(
    store: Store, queue: ReviewQueue
) -> None:
    doc_hash = add_document(store)
    queue.claim(doc_hash, "alice")
    with pytest.raises(ReviewRefused) as refused:
        queue.correct(doc_hash, "alice", {"base_rent_monthly": "-1", "lease_date": "soon"})
    assert sorted(p.field for p in refused.value.problems) == ["base_rent_monthly", "lease_date"]


def test_an_unknown_field_or_a_malformed_pair_is_refused(store: Store, queue: ReviewQueue) -> None:
    doc_hash = add_document(store)
    queue.claim(doc_hash, "alice")
    with pytest.raises(ReviewRefused, match="unknown field"):
        queue.correct(doc_hash, "alice", {"monthly_rent": "1"})
    with pytest.raises(ReviewRefused, match="unknown field"):
        queue.confirm(doc_hash, "alice", ["monthly_rent"])
    with pytest.raises(ValueError, match="not field=value"):
        parse_corrections(["base_rent_monthly 1"])
    assert parse_corrections(["tenant= Acme =Co ", "cam_monthly="]) == {
        "tenant": "Acme =Co",
        "cam_monthly": "",
    }


def test_a_schema_invalid_document_is_committed_only_once_its_problems_are_corrected(
    store: Store, queue: ReviewQueue
) -> None:
    """The pipeline dropped the negative rent it could not type; approving as is would
    commit a lease with no rent, so the reviewer must restate (or clear) that field."""
    values = {k: v for k, v in VALID_VALUES.items() if k != "base_rent_monthly"}
    problem = FieldProblem(
        field="base_rent_monthly", problem="'-24062.50' is not valid: amount < 0"
    )
    doc_hash = add_document(
        store, reason=Reason.SCHEMA_INVALID, fields=fields_json(values), problems=[problem]
    )
    queue.claim(doc_hash, "alice")
    with pytest.raises(ReviewRefused, match="not checked: base_rent_monthly") as refused:
        queue.approve(doc_hash, "alice")
    assert [p.field for p in refused.value.problems] == ["base_rent_monthly"]
    queue.correct(doc_hash, "alice", {"tenant": "Bluefin Analytics, Inc."})
    with pytest.raises(ReviewRefused, match="base_rent_monthly"):
        queue.approve(doc_hash, "alice")
    queue.correct(doc_hash, "alice", {"base_rent_monthly": "24062.50"})
    row = queue.approve(doc_hash, "alice")
    assert row.fields is not None
    assert (row.state, row.fields["base_rent_monthly"]["value"]) == ("committed", "24062.50")


def test_inconsistent_stored_values_must_be_corrected_before_approval(
    store: Store, queue: ReviewQueue
) -> None:
    values = {**VALID_VALUES, "term_months": "36"}
    problem = FieldProblem(field="term_months", problem="term of 36 months contradicts dates")
    doc_hash = add_document(
        store, reason=Reason.SCHEMA_INVALID, fields=fields_json(values), problems=[problem]
    )
    queue.claim(doc_hash, "alice")
    queue.confirm(doc_hash, "alice", ["term_months"])
    with pytest.raises(ReviewRefused, match="contradicts dates"):
        queue.approve(doc_hash, "alice")
    queue.correct(doc_hash, "alice", {"term_months": "63"})
    assert queue.approve(doc_hash, "alice").state == "committed"


# No deadline: each example is a few SQLite transactions, slow on a loaded machine.
@settings(
    max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(cents=st.integers(min_value=0, max_value=10**13))
def test_corrected_money_is_stored_as_the_exact_decimal_string(
    store: Store, queue: ReviewQueue, cents: int
) -> None:
    amount = Decimal(cents).scaleb(-2)
    doc_hash = add_document(store)
    row = correct_and_approve(queue, doc_hash, "alice", {"security_deposit": str(amount)})
    assert row.fields is not None
    assert row.fields["security_deposit"]["value"] == f"{amount:.2f}"
    assert Decimal(row.fields["security_deposit"]["value"]) == amount


# -- field-level decisions ---------------------------------------------------------------------

THREE_DOUBTS = [
    FieldProblem(field="tenant", problem="confidence 0.71: single cue: preamble"),
    FieldProblem(field="premises_address", problem="confidence 0.57: single cue"),
    FieldProblem(field="landlord", problem="confidence 0.68: single cue: preamble"),
]


def test_correcting_one_field_commits_nothing_and_approve_names_the_unchecked_ones(
    store: Store, queue: ReviewQueue
) -> None:
    """The first-contact report: correcting the tenant committed a 0.57 premises and a
    0.68 landlord nobody had looked at, and a second correction was then refused."""
    doc_hash = add_document(store, problems=THREE_DOUBTS)
    queue.claim(doc_hash, "alice")
    item = queue.correct(doc_hash, "alice", {"tenant": "Bluefin Analytics, Inc. (DE)"})
    assert item.state == "review"
    assert item.unchecked == ["premises_address", "landlord"]  # in the item's order
    with pytest.raises(ReviewRefused) as refused:
        queue.approve(doc_hash, "alice")
    assert "not checked: premises_address, landlord" in refused.value.message
    assert [p.field for p in refused.value.problems] == ["premises_address", "landlord"]
    assert "0.57" in refused.value.problems[0].problem  # why it was doubtful
    item = queue.correct(doc_hash, "alice", {"tenant": "Bluefin Analytics, LLC"})  # again
    queue.confirm(doc_hash, "alice", ["landlord"])
    queue.correct(doc_hash, "alice", {"premises_address": ""})  # not stated
    row = queue.approve(doc_hash, "alice")
    assert row.fields is not None
    assert row.field_sources is not None
    assert row.fields["tenant"]["value"] == "Bluefin Analytics, LLC"
    assert row.fields["premises_address"]["value"] is None
    assert (row.field_sources["tenant"], row.field_sources["landlord"]) == (
        "corrected",
        "confirmed",
    )
    assert row.field_sources["premises_address"] == "corrected"  # it had a value
    assert row.field_sources["base_rent_monthly"] == "pipeline"
    assert store.commit_events(doc_hash) == 1


def test_each_decision_is_kept_with_its_reviewer_and_time_and_renews_the_claim(
    store: Store, queue: ReviewQueue, clock: Clock
) -> None:
    doc_hash = add_document(store, problems=THREE_DOUBTS)
    queue.claim(doc_hash, "alice")
    clock.advance(TTL - 5)
    item = queue.confirm(doc_hash, "alice", ["tenant", "landlord"])
    assert item.claim_expires_at == clock.now + dt.timedelta(seconds=TTL)
    clock.advance(60)
    queue.correct(doc_hash, "alice", {"landlord": "Harbor Point Owner II LLC"})  # changed mind
    decisions = {d.field: d for d in store.decisions(doc_hash)}
    assert sorted(decisions) == ["landlord", "tenant"]
    assert (decisions["tenant"].decision, decisions["tenant"].reviewer) == ("confirmed", "alice")
    assert decisions["landlord"].decision == "corrected"
    assert decisions["landlord"].value == "Harbor Point Owner II LLC"
    assert decisions["landlord"].decided_at > decisions["tenant"].decided_at


def test_decisions_outlive_a_lapsed_claim_and_keep_their_author(
    store: Store, queue: ReviewQueue, clock: Clock
) -> None:
    doc_hash = add_document(store, problems=THREE_DOUBTS)
    queue.claim(doc_hash, "alice")
    queue.confirm(doc_hash, "alice", ["tenant", "landlord"])
    clock.advance(TTL + 1)
    item = queue.claim(doc_hash, "bob")
    assert item.unchecked == ["premises_address"]
    assert item.decisions["tenant"].reviewer == "alice"
    queue.confirm(doc_hash, "bob", ["premises_address"])
    row = queue.approve(doc_hash, "bob")
    assert row.reviewer == "bob"
    authors = {d.field: d.reviewer for d in store.decisions(doc_hash)}
    assert authors == {"tenant": "alice", "landlord": "alice", "premises_address": "bob"}


def test_a_correction_that_breaks_the_dates_is_refused_and_an_old_conflict_is_not(
    store: Store, queue: ReviewQueue
) -> None:
    values = {**VALID_VALUES, "term_months": "36"}  # contradicts the dates already
    problem = FieldProblem(field="term_months", problem="term of 36 months contradicts dates")
    doc_hash = add_document(
        store, reason=Reason.SCHEMA_INVALID, fields=fields_json(values), problems=[problem]
    )
    queue.claim(doc_hash, "alice")
    queue.correct(doc_hash, "alice", {"tenant": "Bluefin Analytics, Inc."})  # unrelated: fine
    with pytest.raises(ReviewRefused, match="is not after commencement") as refused:
        queue.correct(doc_hash, "alice", {"commencement_date": "2030-01-01"})
    assert [p.field for p in refused.value.problems] == ["expiration_date"]


def test_a_new_stay_in_review_starts_with_no_decisions(store: Store, queue: ReviewQueue) -> None:
    doc_hash = add_document(store)
    queue.claim(doc_hash, "alice")
    queue.confirm(doc_hash, "alice", ["base_rent_monthly"])
    queue.release(doc_hash, "alice")
    assert store.requeue(doc_hash, "sub-again", "ops", [DocumentState.REVIEW])
    store.finish(
        doc_hash,
        "sub-again",
        Outcome(
            state=DocumentState.REVIEW,
            reason=Reason.LOW_CONFIDENCE,
            fields=fields_json(),
            problems=[{"field": "base_rent_monthly", "problem": "confidence 0.60"}],
        ),
    )
    item = queue.item(doc_hash)
    assert (item.decisions, item.unchecked) == ({}, ["base_rent_monthly"])
    assert len(store.decisions(doc_hash)) == 1  # the earlier stay's decision stays on record


# -- what a decision means (issue 20) ------------------------------------------------------


def test_confirm_confirms_the_value_shown_and_a_correction_stays_one(
    store: Store, queue: ReviewQueue
) -> None:
    doc_hash = add_document(store)
    queue.claim(doc_hash, "alice")
    queue.correct(doc_hash, "alice", {"security_deposit": "50000.00", "cam_monthly": "7048.80"})
    item = queue.confirm(doc_hash, "alice", ["security_deposit", "cam_monthly"])
    assert {n: (d.kind, d.value) for n, d in item.decisions.items()} == {
        "security_deposit": ("corrected", "50000.00"),
        "cam_monthly": ("corrected", "7048.80"),
    }
    # A page that showed an older value cannot confirm what it did not show.
    with pytest.raises(ReviewRefused, match="changed since the page was shown"):
        queue.confirm(doc_hash, "alice", ["security_deposit"], {"security_deposit": "48125.00"})
    queue.confirm(doc_hash, "alice", ["base_rent_monthly"], {"base_rent_monthly": "24062.50"})
    assert queue.item(doc_hash).decisions["base_rent_monthly"].kind == "confirmed"


def test_a_document_sent_for_what_it_is_is_committed_only_with_a_statement(
    store: Store, queue: ReviewQueue
) -> None:
    form = FieldProblem(field="*", problem="a blank form: its values are examples or blanks")
    doc_hash = add_document(store, kind="form", problems=[form])
    queue.claim(doc_hash, "alice")
    with pytest.raises(ReviewRefused, match="what you are committing it as"):
        queue.approve(doc_hash, "alice")
    with pytest.raises(ReviewRefused, match="is not something to commit"):
        queue.approve(doc_hash, "alice", "not_a_lease")
    row = queue.approve(doc_hash, "alice", "lease")
    assert (row.state, row.kind) == ("committed", "lease")
    [event] = [e for e in store.events(doc_hash) if e.reason == "approved"]
    assert event.detail == {"committed_as": "lease", "sent_for": [form.problem]}
