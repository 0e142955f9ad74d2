"""The worker probes: spans recorded per task, and a loud failure if a target disappears."""

from __future__ import annotations

import types
from pathlib import Path
from typing import Any

import pytest

from lease_parser.bench import probes


class FakeTask:
    name = "lease_parser.extract_clauses"


def test_a_task_span_records_its_stages_and_what_it_published(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(probes, "_spans_dir", tmp_path)
    parse = probes._timed("parse", lambda data: sum(range(10_000)))
    publish = probes._timed_publish(lambda *a, **k: "next-task-id")
    probes._on_prerun(task_id="t1", task=FakeTask(), kwargs={"doc_hash": "abc"})
    parse(b"x")
    parse(b"y")
    publish()
    probes._on_postrun()
    [span] = probes.read_spans(tmp_path)
    assert (span.task_id, span.name, span.doc_hash) == ("t1", FakeTask.name, "abc")
    assert set(span.stages) == set(span.stage_cpu) == {"parse", "publish"}
    assert 0 < span.stages["parse"] <= span.duration
    assert span.published["next-task-id"] <= span.end
    assert span.cpu >= span.stage_cpu["parse"] > 0


def test_calls_outside_a_task_are_not_recorded(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(probes, "_spans_dir", tmp_path)
    probes._timed("parse", lambda: None)()
    probes._on_postrun()
    assert probes.read_spans(tmp_path) == []


def test_ocr_probe_counts_pages_and_tesseract_cpu(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(probes, "_spans_dir", tmp_path)
    document = types.SimpleNamespace(pages_needing_ocr=[1, 2])
    ocr = probes._timed_ocr(lambda doc, *a: doc)
    probes._on_prerun(task_id="t2", task=FakeTask(), kwargs={"doc_hash": "h"})
    ocr(document, b"data")
    probes._on_postrun()
    [span] = probes.read_spans(tmp_path)
    assert span.ocr_pages == 2
    assert "ocr" in span.stages


def test_a_probe_target_that_no_longer_exists_fails_loudly() -> None:
    with pytest.raises(RuntimeError, match="no_such_stage"):
        probes._patch("lease_parser.pipeline.tasks", "no_such_stage", lambda fn: fn)


def test_every_probe_target_exists_in_the_pipeline() -> None:
    for path, attribute, _stage in (
        *probes.PROBES,
        (*probes.OCR_PROBE, ""),
        (*probes.PUBLISH_PROBE, ""),
    ):
        owner: Any = probes._resolve(path)
        assert callable(getattr(owner, attribute)), f"{path}.{attribute}"
