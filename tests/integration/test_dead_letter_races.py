"""A dead document has exactly one dead letter, whatever the interleaving (issue 22, defect 3).

`dead requeue` removed the letter after publishing the new message, unconditionally; a
document that failed again at once had its *new* letter removed (3 of 6 tries): `status`
said dead, `dead list` no longer listed it, and the dead-letter metric missed it.

Three tests, on a real redis-server and a real SQLite store. Every interleaving of a
requeue with the new delivery's failure, and of two deliveries of one document failing
at once, is run step by step (the steps are Job.dead's: record the letter, finish in the
store, settle the letter). Then the whole thing with a real worker and the real CLI,
including the interleaving that lost the letter, forced.
"""

from __future__ import annotations

import hashlib
import itertools
import json
import uuid
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field

import pytest

import lease_parser.pipeline.submit as submit_module
from lease_parser.deadletter import (
    DeadLetter,
    dead_letter_depth,
    get_dead_letter,
    list_dead_letters,
    record_dead_letter,
    remove_dead_letter,
    settle_dead_letter,
)
from lease_parser.local import WorkerProcess, wait_for
from lease_parser.pipeline.submit import requeue_dead_document, submit_document
from lease_parser.store import DocumentState, Outcome
from tests.integration.conftest import Pipeline, run_cli

DATA = b"%PDF-1.4 the bytes that landed, not the ones announced"
ANNOUNCED = hashlib.sha256(b"the bytes ingestion announced").hexdigest()


@dataclass
class Delivery:
    """One delivery of a document dying, in Job.dead's three steps."""

    pipeline: Pipeline
    doc_hash: str
    submission_id: str
    previous: DeadLetter | None = None
    won: bool = False
    letter: DeadLetter = field(init=False)

    def __post_init__(self) -> None:
        self.letter = DeadLetter(
            doc_hash=self.doc_hash,
            doc_key="incoming/x.pdf",
            submission_id=self.submission_id,
            task="lease_parser.extract_clauses",
            reason="hash_mismatch",
            attempts=1,
        )

    def steps(self) -> list[Callable[[], None]]:
        return [self.record, self.finish, self.settle]

    def record(self) -> None:
        self.previous = record_dead_letter(self.pipeline.runtime.redis, self.letter)

    def finish(self) -> None:
        outcome = Outcome(state=DocumentState.DEAD, reason="hash_mismatch")
        self.won = self.pipeline.runtime.store.finish(self.doc_hash, self.submission_id, outcome)

    def settle(self) -> None:
        store = self.pipeline.runtime.store
        state = None if self.won else store.document_state(self.doc_hash)
        settle_dead_letter(self.pipeline.runtime.redis, self.letter, self.previous, self.won, state)


def letters(pipeline: Pipeline) -> list[DeadLetter]:
    """Every letter there is, by the index (what `dead list` and the metric count)."""
    found = list_dead_letters(pipeline.runtime.redis, limit=1000)
    assert dead_letter_depth(pipeline.runtime.redis) == len(found)
    return found


def one_letter_of(pipeline: Pipeline, doc_hash: str) -> DeadLetter:
    row = pipeline.runtime.store.document(doc_hash)
    assert row is not None
    assert row.state == DocumentState.DEAD
    [letter] = letters(pipeline)
    assert letter.doc_hash == doc_hash
    assert letter.submission_id == row.processed_by  # the delivery that made it dead
    return letter


def pending_document(pipeline: Pipeline, *submissions: str) -> str:
    doc_hash = hashlib.sha256(uuid.uuid4().bytes).hexdigest()
    for submission in submissions:
        pipeline.runtime.store.register_submission(submission, "incoming/x.pdf", doc_hash)
    return doc_hash


def interleavings(a: int, b: int) -> Iterator[tuple[str, ...]]:
    """Every order of ``a`` steps of A and ``b`` of B, each keeping its own order."""
    for slots in itertools.combinations(range(a + b), a):
        yield tuple("A" if i in slots else "B" for i in range(a + b))


def clear(pipeline: Pipeline) -> None:
    for letter in letters(pipeline):
        remove_dead_letter(pipeline.runtime.redis, letter.doc_hash)


def test_two_deliveries_dying_at_once_leave_the_winners_letter_in_every_order(
    pipeline: Pipeline,
) -> None:
    orders = list(interleavings(3, 3))
    assert len(orders) == 20
    for n, order in enumerate(orders):
        clear(pipeline)
        doc_hash = pending_document(pipeline, f"sub-a-{n}", f"sub-b-{n}")
        a = Delivery(pipeline, doc_hash, f"sub-a-{n}")
        b = Delivery(pipeline, doc_hash, f"sub-b-{n}")
        queues = {"A": iter(a.steps()), "B": iter(b.steps())}
        for who in order:
            next(queues[who])()
        assert a.won != b.won, order
        one_letter_of(pipeline, doc_hash)


def test_a_requeue_and_its_delivery_failing_at_once_leave_one_letter_in_every_order(
    pipeline: Pipeline, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`dead requeue` publishes, then withdraws the letter it read; the new delivery's
    record / finish / settle run before (0-3 of them) and after that withdrawal."""
    publish = submit_module._publish_extraction
    deliveries: list[Delivery] = []
    for before_withdrawal in range(4):
        clear(pipeline)
        doc_hash = pending_document(pipeline, f"sub-{before_withdrawal}")
        for step in Delivery(pipeline, doc_hash, f"sub-{before_withdrawal}").steps():
            step()
        one_letter_of(pipeline, doc_hash)
        deliveries.clear()

        def publish_then_fail(
            app: object, doc_key: str, doc_hash: str, submission_id: str, n: int = before_withdrawal
        ) -> None:
            publish(app, doc_key, doc_hash, submission_id)
            deliveries.append(Delivery(pipeline, doc_hash, submission_id))
            for step in deliveries[0].steps()[:n]:
                step()

        monkeypatch.setattr(submit_module, "_publish_extraction", publish_then_fail)
        receipt = requeue_dead_document(pipeline.app, doc_hash, "dead requeue")
        assert receipt is not None
        for step in deliveries[0].steps()[before_withdrawal:]:
            step()
        assert one_letter_of(pipeline, doc_hash).submission_id == receipt.task_id, before_withdrawal


def test_requeues_failing_at_once_on_a_real_worker_never_lose_the_letter(
    pipeline: Pipeline, worker: WorkerProcess, monkeypatch: pytest.MonkeyPatch
) -> None:
    pipeline.put("incoming/x.pdf", DATA)
    submit_document(pipeline.app, "incoming/x.pdf", ANNOUNCED)  # hash_mismatch, at once
    assert pipeline.wait_final(ANNOUNCED).reason == "hash_mismatch"
    one_letter_of(pipeline, ANNOUNCED)

    # The interleaving that lost it: the worker's failure lands before the requeue's
    # clean-up (the publish waits until the worker has recorded the document dead).
    publish = submit_module._publish_extraction

    def publish_and_wait(app: object, doc_key: str, doc_hash: str, submission_id: str) -> None:
        publish(app, doc_key, doc_hash, submission_id)
        store = pipeline.runtime.store
        wait_for(lambda: store.document(doc_hash).processed_by == submission_id, 120, "dead")  # type: ignore[union-attr]

    with monkeypatch.context() as patch:
        patch.setattr(submit_module, "_publish_extraction", publish_and_wait)
        receipt = requeue_dead_document(pipeline.app, ANNOUNCED, "dead requeue")
    assert receipt is not None
    assert one_letter_of(pipeline, ANNOUNCED).submission_id == receipt.task_id

    # And as an operator types it (the real CLI, whatever the timing).
    store, r = pipeline.runtime.store, pipeline.runtime.redis
    requeued = run_cli(pipeline, "dead", "requeue", ANNOUNCED[:12], "--json")
    assert requeued.returncode == 0, requeued.stderr
    [new] = json.loads(requeued.stdout)

    def dead_again() -> bool:
        row = store.document(ANNOUNCED)
        return row is not None and row.processed_by == new["task_id"]

    def new_letter() -> bool:  # the worker settles its letter just after its finish
        letter = get_dead_letter(r, ANNOUNCED)
        return letter is not None and letter.submission_id == new["task_id"]

    wait_for(dead_again, 120, "the requeued document dead again")
    wait_for(new_letter, 30, "its new letter")
    assert one_letter_of(pipeline, ANNOUNCED).submission_id == new["task_id"]
    listed = run_cli(pipeline, "dead", "list", "--json")
    assert [d["doc_hash"] for d in json.loads(listed.stdout)] == [ANNOUNCED]
