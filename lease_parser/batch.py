"""``lease-parser run PATH…``: the whole pipeline on local files, on embedded defaults.

Starts its own redis-server and a worker per queue (local.py), copies the files into the
``file://`` object store, submits them through the real broker, follows them to their
final state in the store, and stops everything it started — also on Ctrl-C and errors.
"""

from __future__ import annotations

import hashlib
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from lease_parser.local import LocalCluster
from lease_parser.pipeline.routing import QUEUES
from lease_parser.store import DocumentState, SubmissionState

SUMMARY_FIELDS = ("landlord", "tenant", "base_rent_monthly", "term_months")


@dataclass
class RunRow:
    """One submitted file and where its document ended."""

    path: Path
    doc_key: str
    doc_hash: str
    task_id: str
    state: str = DocumentState.PENDING
    reason: str | None = None
    confidence: float | None = None
    fields: dict[str, Any] | None = None
    duplicate: bool = False

    def value(self, name: str) -> str:
        field = (self.fields or {}).get(name) or {}
        value = field.get("value")
        return "" if value is None else str(value)


def collect_files(paths: Iterable[Path]) -> list[Path]:
    """Regular files under the given paths (hidden files skipped), in a stable order."""
    files: list[Path] = []
    for path in paths:
        if path.is_dir():
            files.extend(
                p
                for p in sorted(path.rglob("*"))
                if p.is_file() and not any(part.startswith(".") for part in p.parts)
            )
        elif path.is_file():
            files.append(path)
    return files


def _submit_all(cluster_env: dict[str, str], files: list[Path]) -> tuple[Any, list[RunRow]]:
    from lease_parser.pipeline.app import create_app
    from lease_parser.pipeline.runtime import runtime_for
    from lease_parser.pipeline.submit import submit_document
    from lease_parser.settings import load_settings

    settings = load_settings(
        data_dir=Path(cluster_env["LEASE_DATA_DIR"]),
        broker_url=cluster_env["LEASE_BROKER_URL"],
        result_backend=cluster_env["LEASE_RESULT_BACKEND"],
    )
    app = create_app(settings)
    objects = runtime_for(settings).objects
    rows = []
    for path in files:
        data = path.read_bytes()
        key = f"incoming/{path.name}"
        objects.put(key, data)
        receipt = submit_document(app, key, hashlib.sha256(data).hexdigest())
        rows.append(RunRow(path, key, receipt.doc_hash, receipt.task_id))
    return app, rows


def _refresh(store: Any, rows: list[RunRow]) -> int:
    """Update rows from the store; count submissions the workers are finished with."""
    done = 0
    for row in rows:
        sub = store.submission(row.task_id)
        if sub is None or sub.state == SubmissionState.PENDING:
            continue
        doc = store.document(row.doc_hash)
        row.state, row.reason, row.confidence, row.fields = (
            doc.state,
            doc.reason,
            doc.confidence,
            doc.fields,
        )
        row.duplicate = sub.state == SubmissionState.DUPLICATE
        done += 1
    return done


def run_files(
    files: list[Path],
    data_dir: Path,
    concurrency: int = 1,
    timeout: float = 1800,
    on_progress: Callable[[int, int], None] = lambda done, total: None,
) -> list[RunRow]:
    """Process ``files`` on a local cluster; return one row per file (pending if timed out)."""
    cluster = LocalCluster(
        data_dir, concurrency=dict.fromkeys(QUEUES, concurrency), command="lease-parser run"
    )
    with cluster:
        app, rows = _submit_all(cluster.env, files)
        from lease_parser.pipeline.runtime import runtime_for

        store = runtime_for(app.lease_settings).store
        deadline = time.monotonic() + timeout
        done = 0
        while done < len(rows) and time.monotonic() < deadline:
            done = _refresh(store, rows)
            on_progress(done, len(rows))
            time.sleep(0.25)
        app.close()
    return rows


def totals(rows: list[RunRow]) -> dict[str, int]:
    out: dict[str, int] = {}
    for row in rows:
        out[row.state] = out.get(row.state, 0) + 1
    return out
