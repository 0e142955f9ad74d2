"""Time limits never lose work silently: a task killed at its hard limit is dead-lettered."""

from __future__ import annotations

import hashlib
from pathlib import Path

from lease_parser.deadletter import get_dead_letter
from lease_parser.local import RedisServer
from lease_parser.pipeline.submit import submit_document
from tests.integration.conftest import SAMPLES, make_pipeline
from tests.integration.documents import text_bomb_pdf


def test_a_task_killed_at_the_hard_time_limit_is_dead_lettered_and_the_worker_goes_on(
    tmp_path: Path, redis_server: RedisServer
) -> None:
    pipeline = make_pipeline(
        tmp_path,
        redis_server,
        # The bomb holds pdfium in one C call for well over a minute; the soft limit must
        # not land before that call starts (on a CI box running the suite, reaching it took
        # over 3 s), or the task raises the soft limit's exception and is never killed.
        LEASE_TIME_LIMITS__EXTRACTION__SOFT="8",
        LEASE_TIME_LIMITS__EXTRACTION__HARD="9",
    )
    worker = pipeline.worker("limits", concurrency=1).start()
    try:
        bomb = text_bomb_pdf()
        pipeline.put("hostile/bomb.pdf", bomb)
        bomb_hash = submit_document(
            pipeline.app, "hostile/bomb.pdf", hashlib.sha256(bomb).hexdigest()
        ).doc_hash
        row = pipeline.wait_final(bomb_hash, timeout=120)
        assert (row.state, row.reason) == ("dead", "time_limit")
        letter = get_dead_letter(pipeline.runtime.redis, bomb_hash)
        assert letter is not None
        # Recorded by the worker's main process after it killed the child: pdfium sat in
        # one C call, so the soft limit's exception never got a chance to run.
        assert "hard time limit" in letter.detail, letter.traceback
        assert (letter.reason, letter.attempts, letter.task) == (
            "time_limit",
            1,
            "lease_parser.extract_clauses",
        )
        assert pipeline.final_events(bomb_hash) == 1

        # The pool replaced the killed child: the next lease goes through.
        data = (SAMPLES / "harbor_point_office_lease.pdf").read_bytes()
        pipeline.put("incoming/office.pdf", data)
        ok = submit_document(pipeline.app, "incoming/office.pdf").doc_hash
        assert pipeline.wait_final(ok, timeout=120).state in ("committed", "review")
    finally:
        worker.stop()
        pipeline.app.close()
