"""Exports round-trip: what `results export` writes parses back to exactly the store's values."""

from __future__ import annotations

import csv
import io
import json
from decimal import Decimal
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from lease_parser.cli import cli
from lease_parser.errors import Reason
from lease_parser.model import FIELD_NAMES
from lease_parser.store import (
    DocumentState,
    ReviewQueue,
    Store,
    document_json,
    read_leases_csv,
    read_schedule_csv,
    values_of,
    write_csv,
    write_jsonl,
)
from lease_parser.store.export import LEASE_COLUMNS
from tests.store_helpers import (
    VALID_VALUES,
    add_document,
    claim_and_reject,
    fields_json,
    review_and_approve,
)


@pytest.fixture
def data_dir(tmp_path: Path) -> Path:
    return tmp_path / "data"


@pytest.fixture
def store(data_dir: Path) -> Store:
    return Store(f"sqlite:///{data_dir / 'lease.db'}")  # where LEASE_DATA_DIR puts it


@pytest.fixture
def mixed(store: Store) -> dict[str, str]:
    """Committed, review-committed (corrected), in review, dead, and rejected documents."""
    auto = add_document(store, state=DocumentState.COMMITTED, reason=None, confidence=0.93)
    sparse = {"tenant": 'Crumb & "Sons", Bakery\nLLC', "base_rent_monthly": "0.10"}
    reviewed = add_document(store, fields=fields_json(sparse))
    review_and_approve(
        ReviewQueue(store), reviewed, "alice", {"security_deposit": "1234567890123.45"}
    )
    waiting = add_document(store)
    dead = add_document(store, state=DocumentState.DEAD, reason=Reason.CORRUPT, fields={})
    rejected = add_document(store)
    claim_and_reject(ReviewQueue(store), rejected, "bob", 'a scan of an "invoice",\nnot a lease')
    return {
        "auto": auto,
        "reviewed": reviewed,
        "review": waiting,
        "dead": dead,
        "rejected": rejected,
    }


def _export_csv(store: Store, states: tuple[str, ...] = ()) -> tuple[str, str]:
    leases, schedule = io.StringIO(), io.StringIO()
    write_csv(store.documents(states=states), leases, schedule)
    return leases.getvalue(), schedule.getvalue()


def test_the_lease_csv_parses_back_to_the_stores_values(
    store: Store, mixed: dict[str, str]
) -> None:
    leases, _ = _export_csv(store)
    back = {r["doc_hash"]: r for r in read_leases_csv(io.StringIO(leases))}
    assert list(back) == list(mixed.values())
    for row in store.documents():
        record = back[row.doc_hash]
        assert record["values"] == values_of(row)
        meta = document_json(row)
        assert {k: record[k] for k in record if k != "values"} == {
            k: meta[k] for k in record if k != "values"
        }
    reviewed = back[mixed["reviewed"]]
    assert reviewed["values"]["security_deposit"] == "1234567890123.45"  # exact, not a float
    assert reviewed["values"]["tenant"] == 'Crumb & "Sons", Bakery LLC'  # whitespace collapsed
    assert back[mixed["rejected"]]["detail"] == 'a scan of an "invoice",\nnot a lease'
    assert (reviewed["source"], reviewed["reviewer"]) == ("review", "alice")
    assert back[mixed["dead"]]["values"] == dict.fromkeys(FIELD_NAMES)


def test_the_csv_columns_are_fields_md_names_after_the_record_columns(
    store: Store, mixed: dict[str, str]
) -> None:
    leases, _ = _export_csv(store)
    header = leases.splitlines()[0].split(",")
    assert header == list(LEASE_COLUMNS)
    assert header[-len(FIELD_NAMES) :] == list(FIELD_NAMES)


def test_the_rent_schedule_csv_has_one_row_per_step(store: Store, mixed: dict[str, str]) -> None:
    _, schedule = _export_csv(store)
    steps = read_schedule_csv(io.StringIO(schedule))
    # The others state no schedule (or lost it: a rejected document keeps its fields).
    assert set(steps) == {mixed["auto"], mixed["review"], mixed["rejected"]}
    for doc_hash, parsed in steps.items():
        row = store.document(doc_hash)
        assert row is not None
        assert parsed == values_of(row)["rent_schedule"]
    assert steps[mixed["auto"]][0]["start"] == 1  # month numbers stay numbers
    assert steps[mixed["auto"]][1]["start"] == "2025-05-01"  # dates stay ISO dates
    assert len(schedule.splitlines()) == 1 + 3 * len(VALID_VALUES["rent_schedule"])


def test_json_lines_round_trip_the_whole_record(store: Store, mixed: dict[str, str]) -> None:
    out = io.StringIO()
    assert write_jsonl(store.documents(), out) == 5
    records = [json.loads(line) for line in out.getvalue().splitlines()]
    assert records == [document_json(row) for row in store.documents()]
    reviewed = next(r for r in records if r["doc_hash"] == mixed["reviewed"])
    assert reviewed["corrections"]["security_deposit"]["to"] == "1234567890123.45"
    assert reviewed["fields"]["security_deposit"]["confidence"] == 1.0


@settings(max_examples=30, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    cents=st.lists(st.integers(min_value=0, max_value=10**15), min_size=4, max_size=4),
    tenant=st.text(st.characters(codec="utf-8", exclude_categories=["Cs", "Cc"]), min_size=1),
)
def test_any_money_and_text_survive_the_csv_round_trip(
    tmp_path_factory: pytest.TempPathFactory, cents: list[int], tenant: str
) -> None:
    store = Store(f"sqlite:///{tmp_path_factory.mktemp('rt') / 'lease.db'}")
    names = ["base_rent_monthly", "base_rent_annual", "cam_monthly", "security_deposit"]
    values = {n: str(Decimal(c).scaleb(-2)) for n, c in zip(names, cents, strict=True)}
    doc_hash = add_document(
        store,
        state=DocumentState.COMMITTED,
        reason=None,
        fields=fields_json({**values, "tenant": tenant}),
    )
    leases, _ = _export_csv(store)
    [back] = read_leases_csv(io.StringIO(leases))
    row = store.document(doc_hash)
    assert row is not None
    assert back["values"] == values_of(row)
    for name in names:
        assert Decimal(back["values"][name]) == Decimal(values[name])
    store.close()


@pytest.mark.parametrize(
    "tenant", ['=HYPERLINK("http://evil.example","x")', "+1 Corp", "-SUM(A1)", "@cmd", "'quoted"]
)
def test_a_cell_a_spreadsheet_would_run_as_a_formula_is_quoted(store: Store, tenant: str) -> None:
    add_document(
        store, state=DocumentState.COMMITTED, reason=None, fields=fields_json({"tenant": tenant})
    )
    leases, _ = _export_csv(store)
    [cells] = list(csv.DictReader(io.StringIO(leases)))
    assert cells["tenant"] == "'" + tenant
    [back] = read_leases_csv(io.StringIO(leases))
    assert back["values"]["tenant"] == tenant


# -- the CLI ---------------------------------------------------------------------------------


def _run(data_dir: Path, *args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(cli, list(args), env={"LEASE_DATA_DIR": str(data_dir)})
    return result.exit_code, result.stdout, result.stderr


def test_results_export_writes_the_lease_and_schedule_csv_files(
    store: Store, mixed: dict[str, str], data_dir: Path, tmp_path: Path
) -> None:
    out = tmp_path / "leases.csv"
    code, _, err = _run(data_dir, "results", "export", "--format", "csv", "--out", str(out))
    assert code == 0
    assert "exported 2 document(s)" in err  # committed only, by default
    with out.open(newline="") as f:
        exported = [r["doc_hash"] for r in read_leases_csv(f)]
    assert exported == [mixed["auto"], mixed["reviewed"]]
    with (tmp_path / "leases.rent_schedule.csv").open(newline="") as f:
        assert list(read_schedule_csv(f)) == [mixed["auto"]]


def test_results_export_filters_by_state_and_date(
    store: Store, mixed: dict[str, str], data_dir: Path
) -> None:
    code, out, _ = _run(data_dir, "results", "export", "--format", "jsonl", "--state", "all")
    assert code == 0
    assert [json.loads(line)["doc_hash"] for line in out.splitlines()] == list(mixed.values())
    code, out, _ = _run(
        data_dir, "results", "export", "--format", "jsonl", "--state", "review", "--state", "dead"
    )
    assert [json.loads(line)["state"] for line in out.splitlines()] == ["review", "dead", "dead"]
    row = store.document(mixed["review"])
    assert row is not None
    day = document_json(row)["state_changed_at"][:10]
    for args, expected in [
        (("--since", day, "--until", day), 5),  # a bare --until date includes that day
        (("--until", day + "T00:00:00"), 0),
        (("--since", "2999-01-01"), 0),
    ]:
        code, out, _ = _run(
            data_dir, "results", "export", "--format", "jsonl", "--state", "all", *args
        )
        assert code == 0
        assert len(out.splitlines()) == expected, args
    code, _, err = _run(data_dir, "results", "export", "--since", "last tuesday")
    assert code == 2
    assert "not an ISO date" in err


def test_results_list_and_show(store: Store, mixed: dict[str, str], data_dir: Path) -> None:
    code, out, _ = _run(data_dir, "results", "list", "--json", "--state", "committed")
    assert code == 0
    assert [r["doc_hash"] for r in json.loads(out)] == [mixed["reviewed"], mixed["auto"]]
    code, out, _ = _run(data_dir, "results", "show", mixed["reviewed"], "--json")
    record = json.loads(out)
    assert [e["reason"] for e in record["events"]] == [
        "low_confidence",
        "claimed",
        "approved",
    ]
    assert record["versions"] == [
        {"key_version": 1, "doc_hash": mixed["reviewed"], "state": "committed"}
    ]
    code, out, _ = _run(data_dir, "results", "show", mixed["reviewed"])
    assert code == 0
    assert "source review by alice" in out
    assert _run(data_dir, "results", "show", "0" * 64)[0] == 5
