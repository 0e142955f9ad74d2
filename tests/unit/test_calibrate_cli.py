"""`lease-parser calibrate` learns from reviewers' decisions in the store."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from lease_parser.cli import cli
from lease_parser.scoring.confidence import ConfidenceModel
from lease_parser.store import ReviewQueue, Store
from tests.store_helpers import add_document, fields_json


def _with_evidence(statements: int) -> dict[str, dict[str, object]]:
    fields = fields_json()
    for stored in fields.values():
        if stored["value"] is not None:
            stored["evidence"] = {"statements": statements}
    return fields


def test_approved_and_corrected_values_are_learned_from(tmp_path: Path) -> None:
    store = Store(f"sqlite:///{tmp_path / 'lease.db'}")
    queue = ReviewQueue(store, claim_ttl=600)
    approved = add_document(store, fields=_with_evidence(3), problems=[])
    corrected = add_document(store, fields=_with_evidence(1))
    first, second = queue.claim_next("alice"), queue.claim_next("bob")
    assert first is not None
    assert second is not None
    assert (first.doc_hash, second.doc_hash) == (approved, corrected)
    queue.approve(approved, "alice")
    # Its doubtful field, to another rent of its schedule (a rent no row has is refused).
    queue.correct(corrected, "bob", {"base_rent_monthly": "24784.38"})
    queue.approve(corrected, "bob")
    store.close()

    out = tmp_path / "model.json"
    result = CliRunner().invoke(
        cli,
        ["calibrate", "--out", str(out), "--json"],
        env={"LEASE_DATA_DIR": str(tmp_path)},
    )
    assert result.exit_code == 0, result.output
    summary = json.loads(result.stdout)
    stated = len([f for f in fields_json().values() if f["value"] is not None])
    assert summary["from_reviews"] == summary["examples"] == 2 * stated
    assert summary["wrong"] == 1  # the corrected rent
    model = ConfidenceModel.from_json(json.loads(out.read_text()))
    assert model.fitted_on is not None
    assert model.fitted_on["documents"] == 2


def test_nothing_to_learn_from_is_a_usage_error(tmp_path: Path) -> None:
    result = CliRunner().invoke(
        cli, ["calibrate", "--out", str(tmp_path / "m.json")], env={"LEASE_DATA_DIR": str(tmp_path)}
    )
    assert result.exit_code == 2
    assert "nothing to learn from" in result.output
