"""`lease-parser review …` against a real SQLite store under LEASE_DATA_DIR: output, --json,
exit codes."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from lease_parser.cli import cli
from lease_parser.errors import Reason
from lease_parser.model import FieldProblem, ProblemKind
from lease_parser.store import DocumentState, Store
from tests.store_helpers import add_document


@pytest.fixture
def data_dir(tmp_path: Path) -> Path:
    return tmp_path / "data"


@pytest.fixture
def store(data_dir: Path) -> Store:
    return Store(f"sqlite:///{data_dir / 'lease.db'}")


def run(data_dir: Path, *args: str, reviewer: str | None = None) -> tuple[int, Any, str]:
    env = {"LEASE_DATA_DIR": str(data_dir)}
    if reviewer:
        env["LEASE_REVIEWER"] = reviewer
    result = CliRunner().invoke(cli, list(args), env=env)
    out: Any = result.stdout
    if "--json" in args and out.strip():
        out = json.loads(out)
    return result.exit_code, out, result.stderr


def test_a_reviewer_drains_the_queue(store: Store, data_dir: Path) -> None:
    first = add_document(store)
    second = add_document(store, reason=Reason.NEEDS_CREDENTIAL)
    code, items, _ = run(data_dir, "review", "list", "--json")
    assert code == 0
    assert [i["doc_hash"] for i in items] == [first, second]
    assert items[0]["problems"] == [
        {
            "field": "base_rent_monthly",
            "problem": "confidence 0.60: one cue",
            "kind": "low_probability",
            "page": None,
        }
    ]

    code, claimed, _ = run(data_dir, "review", "claim", "--reviewer", "alice", "--json")
    assert (code, claimed["doc_hash"], claimed["claimed_by"]) == (0, first, "alice")
    code, shown, _ = run(data_dir, "review", "show", first, "--json")
    rent = shown["fields"]["base_rent_monthly"]
    assert (rent["value"], rent["confidence"], rent["provenance"]["page"]) == ("24062.50", 0.6, 1)

    code, refused, err = run(
        data_dir,
        "review",
        "correct",
        first,
        "base_rent_monthly=-1",
        "--reviewer",
        "alice",
        "--json",
    )
    assert code == 1
    assert refused["ok"] is False
    assert [p["field"] for p in refused["problems"]] == ["base_rent_monthly"]
    assert "greater than or equal to 0" in err

    code, item, _ = run(
        data_dir,
        "review",
        "correct",
        first,
        "base_rent_monthly=24000",
        "--reviewer",
        "alice",
        "--json",
    )
    assert code == 0
    assert (item["state"], item["unchecked"]) == ("review", [])  # recorded, not committed
    assert item["decisions"]["base_rent_monthly"]["decision"] == "corrected"
    code, row, _ = run(data_dir, "review", "approve", first, "--reviewer", "alice", "--json")
    assert code == 0
    assert (row["state"], row["source"], row["reviewer"]) == ("committed", "review", "alice")
    assert row["fields"]["base_rent_monthly"]["value"] == "24000.00"
    assert row["field_sources"]["base_rent_monthly"] == "corrected"
    assert row["field_sources"]["tenant"] == "pipeline"

    code, again, _ = run(data_dir, "review", "approve", first, "--reviewer", "bob", "--json")
    assert code == 1
    assert "not in review" in again["error"]

    code, claimed, _ = run(
        data_dir, "review", "claim", "--json", reviewer="alice"
    )  # $LEASE_REVIEWER
    assert claimed["doc_hash"] == second
    code, _, err = run(data_dir, "review", "claim", second, "--reviewer", "bob")
    assert code == 1
    assert "claimed by alice" in err
    code, row, _ = run(
        data_dir, "review", "reject", second, "--reason", "no password", "--json", reviewer="alice"
    )
    assert (row["state"], row["reason"], row["detail"]) == (
        "dead",
        "rejected_by_reviewer",
        "no password",
    )

    code, empty, err = run(data_dir, "review", "claim", "--reviewer", "alice", "--json")
    assert (code, empty["ok"], empty["error"]) == (5, False, "the review queue is empty")
    assert "queue is empty" in err


def test_the_human_screens_show_what_a_reviewer_needs(store: Store, data_dir: Path) -> None:
    doc_hash = add_document(store)
    locked = add_document(store, reason=Reason.NEEDS_CREDENTIAL)
    code, out, _ = run(data_dir, "review", "list")
    assert code == 0
    assert f"{doc_hash[:12]}" in out
    assert "[base_rent_monthly]" in out
    assert "2 item(s) in review (0 claimed)" in out
    code, out, _ = run(data_dir, "review", "claim", "--reviewer", "alice")
    assert "claimed: alice until" in out
    assert "! base_rent_monthly     24062.50" in out
    assert '"... base_rent_monthly ..."' in out  # the source snippet
    assert "p.1" in out
    assert "to check: base_rent_monthly" in out
    code, out, _ = run(data_dir, "review", "show", locked)
    assert f"lease-parser unlock {locked[:12]}" in out
    code, out, _ = run(
        data_dir, "review", "correct", doc_hash, "lease_date=2024-03-16", "--reviewer", "alice"
    )
    assert code == 0
    assert "lease_date: corrected (2024-03-16)" in out
    code, out, err = run(data_dir, "review", "approve", doc_hash, "--reviewer", "alice")
    assert code == 1
    assert "doubtful fields not checked: base_rent_monthly" in err
    code, out, _ = run(
        data_dir, "review", "confirm", doc_hash, "base_rent_monthly", "--reviewer", "alice"
    )
    assert code == 0
    assert "every doubtful field is checked" in out
    code, out, _ = run(data_dir, "review", "approve", doc_hash, "--reviewer", "alice")
    assert code == 0
    assert "committed" in out
    assert "lease_date: 2024-03-15 -> 2024-03-16" in out
    code, out, _ = run(data_dir, "results", "show", doc_hash)
    assert "corrected" in out
    assert "confirmed" in out
    code, shown, _ = run(data_dir, "results", "show", doc_hash, "--json")
    assert {d["field"]: d["decision"] for d in shown["decisions"]} == {
        "lease_date": "corrected",
        "base_rent_monthly": "confirmed",
    }
    assert shown["field_sources"]["base_rent_monthly"] == "confirmed"


def test_show_names_what_needs_a_person_first_then_the_rest(store: Store, data_dir: Path) -> None:
    problems = [
        FieldProblem(
            field="tenant",
            problem="also stated as 'Other Co'",
            kind=ProblemKind.RIVAL_VALUE,
            page=4,
        ),
        FieldProblem(
            field="base_rent_monthly", problem="probability 0.70", kind=ProblemKind.LOW_PROBABILITY
        ),
    ]
    doc_hash = add_document(store, problems=problems)
    code, out, _ = run(data_dir, "review", "show", doc_hash)
    assert code == 0
    lines = out.splitlines()
    start = lines.index("check these (most serious first):")
    assert lines[start + 1] == "  1. tenant [rival_value] p.4: also stated as 'Other Co'"
    assert lines[start + 2] == "  2. base_rent_monthly [low_probability]: probability 0.70"
    fields = [
        line.split()[1] if line.startswith("!") else line.split()[0] for line in lines[start + 3 :]
    ]
    assert fields[:3] == ["tenant", "base_rent_monthly", "landlord"]
    assert [line[:1] for line in lines[start + 3 : start + 6]] == ["!", "!", " "]


def test_release_and_prioritize(store: Store, data_dir: Path) -> None:
    older, newer = add_document(store), add_document(store)
    assert run(data_dir, "review", "prioritize", newer, "3")[0] == 0
    code, item, _ = run(data_dir, "review", "claim", "--reviewer", "alice", "--json")
    assert item["doc_hash"] == newer
    assert run(data_dir, "review", "release", newer, "--reviewer", "bob")[0] == 1
    assert run(data_dir, "review", "release", newer, "--reviewer", "alice")[0] == 0
    code, item, _ = run(data_dir, "review", "claim", "--reviewer", "bob", "--json")
    assert (code, item["doc_hash"]) == (0, newer)
    assert older != newer


def test_usage_errors_and_unknown_documents(store: Store, data_dir: Path) -> None:
    doc_hash = add_document(store, state=DocumentState.COMMITTED, reason=None)
    assert run(data_dir, "review", "claim")[0] == 2  # --reviewer is required
    assert run(data_dir, "review", "correct", doc_hash, "--reviewer", "a")[0] == 2  # no pairs
    code, _, err = run(data_dir, "review", "correct", doc_hash, "tenant", "--reviewer", "a")
    assert code == 2
    assert "not field=value" in err
    code, _, err = run(data_dir, "review", "show", "e" * 64)
    assert code == 5
    assert "no document" in err
    code, _, err = run(data_dir, "review", "approve", doc_hash, "--reviewer", "alice")
    assert code == 1
    assert "not in review: it is committed" in err


def test_a_malformed_escalation_is_refused_and_nothing_is_committed(
    store: Store, data_dir: Path
) -> None:
    doc_hash = add_document(store)
    assert run(data_dir, "review", "claim", doc_hash[:12], "--reviewer", "alice")[0] == 0
    bad = 'escalation={"kind":"fixed_percent","percent":"2.5"}'
    code, refused, _ = run(
        data_dir, "review", "correct", doc_hash[:12], bad, "--reviewer", "alice", "--json"
    )
    assert code == 1
    assert refused["ok"] is False
    [problem] = refused["problems"]
    assert problem["field"] == "escalation"
    assert "percent" in problem["problem"]
    assert '"rate"' in problem["problem"]  # the expected form
    row = store.document(doc_hash)
    assert row is not None
    assert (row.state, row.corrections) == ("review", None)
