"""The soak at test size: leases through a real cluster while children are SIGKILLed.

``make soak`` runs the full one (500 documents, scripts/soak.py); this is the small run
``make test`` includes, plus the full one marked slow.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from lease_parser.soak import run_soak


def _check(report_documents: int, tmp_path: Path, kill_every: tuple[float, float]) -> None:
    report = run_soak(report_documents, tmp_path / "soak", kill_every, timeout=1800)
    print("\n" + "\n".join(report.lines()))
    assert report.submitted == report_documents
    assert (report.lost, report.committed_twice, report.finished_twice) == (0, 0, 0)
    assert report.committed + report.review + report.dead == report_documents
    assert report.kills >= 3


def test_soak_under_random_child_kills_loses_nothing_and_commits_nothing_twice(
    tmp_path: Path,
) -> None:
    _check(60, tmp_path, (0.5, 1.0))


@pytest.mark.slow
@pytest.mark.timeout(3600)
def test_full_soak_500_documents(tmp_path: Path) -> None:
    _check(500, tmp_path, (2.0, 5.0))
