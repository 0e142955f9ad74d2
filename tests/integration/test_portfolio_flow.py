"""Issue 16 on real parts: a lease and its amendment go through redis-server and a real
`lease-parser worker` process (the amendment first, as ingestion may deliver them); the
worker links the amendment to its lease by what it states; a reviewer approves it with the
real CLI; then `lease-parser dates` (JSON and .ics, read back with icalendar), `results show`
and `results export --format xlsx` (read back with openpyxl) give the lease's current terms.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import openpyxl
import pytest
from icalendar import Calendar

from lease_parser.pipeline.submit import submit_document
from tests.integration.conftest import SAMPLES, Pipeline, RedisServer, make_pipeline, run_cli

LEASE = "harbor_point_office_lease.pdf"  # expires July 31, 2030; 9 months' renewal notice
AMENDMENT = "harbor_point_first_amendment.pdf"  # extends to July 31, 2035, new rent and space


def cli(pipeline: Pipeline, *args: str) -> Any:
    done = run_cli(pipeline, *args)
    assert done.returncode == 0, (args, done.stdout, done.stderr)
    return json.loads(done.stdout) if "--json" in args else done.stdout


def submit(pipeline: Pipeline, name: str) -> str:
    data = (SAMPLES / name).read_bytes()
    pipeline.put(f"incoming/{name}", data)
    receipt = submit_document(pipeline.app, f"incoming/{name}")
    assert receipt.doc_hash == hashlib.sha256(data).hexdigest()
    pipeline.wait_final(receipt.doc_hash)
    return receipt.doc_hash


REVIEWER = ("--reviewer", "alice")


def approve_as_read(pipeline: Pipeline, doc_hash: str) -> None:
    """A reviewer confirms every field the item asks about as read, then approves."""
    item = cli(pipeline, "review", "show", doc_hash, "--json")
    asked = sorted({p["field"] for p in item["problems"] if p["field"] != "*"})
    if asked:
        cli(pipeline, "review", "confirm", doc_hash, *asked, *REVIEWER)
    # Sent to a person for what it is (an amendment): say so (review approve --as).
    what = ["--as", item["kind"]] if any(p["field"] == "*" for p in item["problems"]) else []
    cli(pipeline, "review", "approve", doc_hash, *what, *REVIEWER)


def dates(pipeline: Pipeline) -> dict[str, str]:
    events = cli(pipeline, "dates", "--all", "--state", "committed", "--state", "review", "--json")
    return {e["kind"] + (f"#{e['option']}" if e["option"] else ""): e["date"] for e in events}


@pytest.fixture
def pipeline(tmp_path: Path, redis_server: RedisServer) -> Iterator[Pipeline]:
    """The sample amendment states its premises once, which the model fitted on the dev
    corpus believes at about 0.8: under the default gate the link would wait for a person.
    What these tests follow is the link and its application, so the gate is set below it."""
    p = make_pipeline(tmp_path, redis_server, LEASE_CONFIDENCE_GATE="0.75")
    yield p
    p.app.close()


def test_an_amendment_is_linked_reviewed_and_applied_to_its_lease(
    pipeline: Pipeline, tmp_path: Path
) -> None:
    worker = pipeline.worker(concurrency=1).start()
    try:
        amendment = submit(pipeline, AMENDMENT)
        [waiting] = cli(pipeline, "amendments", "list", "--json")
        assert (waiting["amendment_hash"], waiting["state"]) == (amendment, "needs_review")
        lease = submit(pipeline, LEASE)
    finally:
        worker.stop()

    # The worker that finished the lease linked the amendment waiting for it.
    [link] = cli(pipeline, "amendments", "list", "--json")
    assert (link["state"], link["lease_hash"], link["method"]) == ("linked", lease, "auto")
    assert dates(pipeline)["expiration"] == "2030-07-31"  # the amendment awaits a person

    claimed = cli(pipeline, "review", "claim", *REVIEWER, "--json")
    while claimed["doc_hash"] != amendment:  # the lease may be waiting for review too
        approve_as_read(pipeline, claimed["doc_hash"])
        claimed = cli(pipeline, "review", "claim", *REVIEWER, "--json")
    approve_as_read(pipeline, amendment)
    if cli(pipeline, "status", lease, "--json")["state"] == "review":
        cli(pipeline, "review", "claim", *REVIEWER)
        approve_as_read(pipeline, lease)

    got = dates(pipeline)
    assert got["expiration"] == "2035-07-31"
    assert got["renewal_notice_deadline#1"] == "2034-10-31"
    assert got["renewal_notice_opens#1"] == "2034-07-31"

    shown = cli(pipeline, "results", "show", lease, "--json")["current_terms"]
    assert shown["terms"]["expiration_date"]["set_by"]["doc_hash"] == amendment
    changes = {c["field"]: (c["old"], c["new"]) for c in shown["changes"]}
    assert changes["expiration_date"] == ("2030-07-31", "2035-07-31")
    assert changes["rentable_sqft"] == ("8750", "10000")
    assert changes["base_rent_monthly"] == ("24062.50", "29000.00")

    ics = tmp_path / "dates.ics"
    cli(pipeline, "dates", "--all", "--ics", str(ics))
    events = list(Calendar.from_ical(ics.read_bytes()).walk("VEVENT"))
    assert len(events) == len(cli(pipeline, "dates", "--all", "--json"))
    deadline = next(e for e in events if e.get("dtstart").dt == dt.date(2034, 10, 31))
    assert AMENDMENT in str(deadline.get("description"))  # cites the amendment's statements
    assert [a.get("trigger").dt for a in deadline.walk("VALARM")] == [dt.timedelta(days=-30)]

    xlsx = tmp_path / "portfolio.xlsx"
    cli(pipeline, "results", "export", "--format", "xlsx", "--out", str(xlsx))
    book = openpyxl.load_workbook(xlsx)
    header = [c.value for c in book["Portfolio"][1]]
    row = {name: cell.value for name, cell in zip(header, book["Portfolio"][2], strict=True)}
    assert row["Expiration"] == dt.datetime(2035, 7, 31)
    assert row["Amendments applied"] == 1
    steps = list(book["Rent roll"].iter_rows(min_row=2, values_only=True))
    assert (dt.datetime(2030, 8, 1), 29000) in {(r[3], r[5]) for r in steps}
