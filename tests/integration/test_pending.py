"""`lease-parser pending` (issue 22, defect 4): a document submitted to a broker that then
lost its message is found, re-driven once however often the command runs, and finished by
a real worker; one whose message is merely waiting is listed and left alone."""

from __future__ import annotations

import json

from click.testing import CliRunner

from lease_parser.cli import cli
from lease_parser.pipeline.submit import submit_document
from lease_parser.store import FINAL_STATES
from tests.integration.conftest import SAMPLES, Pipeline, run_cli


def pending(pipeline: Pipeline, *args: str) -> list[dict[str, object]]:
    """The command in this process (cheap to repeat); the test's first call is a real one."""
    done = CliRunner().invoke(
        cli, ["pending", "--older-than", "0s", "--json", *args], env=pipeline.env
    )
    assert done.exit_code == 0, done.output
    listed: list[dict[str, object]] = json.loads(done.stdout)
    return listed


def test_a_document_whose_message_the_broker_lost_is_found_and_redriven_once(
    pipeline: Pipeline,
) -> None:
    data = (SAMPLES / "maple_grove_retail_lease.pdf").read_bytes()
    pipeline.put("incoming/lost.pdf", data)
    receipt = submit_document(pipeline.app, "incoming/lost.pdf")  # no worker runs yet
    young = run_cli(pipeline, "pending")  # --older-than 10m: a fresh submission is not stuck
    assert young.returncode == 0, young.stderr
    assert "0 document(s) pending and quiet for 10m" in young.stdout

    [waiting] = pending(pipeline)
    assert (waiting["doc_hash"], waiting["message"]) == (receipt.doc_hash, "queued")
    assert waiting["queue"] == "lease_extraction"
    assert pending(pipeline, "--redrive")[0]["redriven_task_id"] is None  # it has a message

    # The broker loses it (a Redis restarted without its AOF, a queue deleted by hand).
    r = pipeline.runtime.redis
    assert r.delete("lease_extraction") == 1
    [lost] = pending(pipeline)
    assert lost["message"] == "missing"
    shown = CliRunner().invoke(cli, ["pending", "--older-than", "0s"], env=pipeline.env)
    assert "1 lost by the broker: re-drive with --redrive" in shown.stdout

    [redriven] = pending(pipeline, "--redrive")
    assert redriven["redriven_task_id"]
    assert redriven["submission_id"] == receipt.task_id  # the same submission, re-sent
    assert pending(pipeline, "--redrive")[0]["redriven_task_id"] is None  # idempotent
    assert r.llen("lease_extraction") == 1

    worker = pipeline.worker().start()
    try:
        row = pipeline.wait_final(receipt.doc_hash)
    finally:
        worker.stop()
    assert row.state in FINAL_STATES
    assert pipeline.final_events(receipt.doc_hash) == 1
    assert pending(pipeline) == []
