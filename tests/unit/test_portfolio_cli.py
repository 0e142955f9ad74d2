"""`lease-parser dates`, `amendments …`, `results show` and `results export --format xlsx`
against a real SQLite store under LEASE_DATA_DIR: output, --json, files, exit codes."""

from __future__ import annotations

import datetime as dt
import json
from pathlib import Path
from typing import Any

import openpyxl
import pytest
from click.testing import CliRunner
from icalendar import Calendar

from lease_parser.cli import cli
from lease_parser.cli.portfolio import end_of_span
from lease_parser.store import DocumentState, Store, after_finish
from tests.store_helpers import add_document, fields_json
from tests.unit.portfolio.helpers import LEASE

AMENDMENT: dict[str, Any] = {
    "amended_lease_date": LEASE["lease_date"],
    "lease_date": "2029-06-15",
    "tenant": LEASE["tenant"],
    "premises_address": LEASE["premises_address"],
    "expiration_date": "2035-07-31",
}


@pytest.fixture
def data_dir(tmp_path: Path) -> Path:
    return tmp_path / "data"


@pytest.fixture
def portfolio(data_dir: Path) -> dict[str, str]:
    store = Store(f"sqlite:///{data_dir / 'lease.db'}")
    hashes = {}
    for name, values, kind in (("lease", LEASE, "lease"), ("amendment", AMENDMENT, "amendment")):
        hashes[name] = add_document(
            store,
            state=DocumentState.COMMITTED,
            reason=None,
            fields=fields_json(values, confidence=0.97),
            kind=kind,
            key=f"leases/{name}.pdf",
        )
        after_finish(store, hashes[name], 0.9)
    return hashes


def run(data_dir: Path, *args: str) -> tuple[int, Any, str]:
    env = {"LEASE_DATA_DIR": str(data_dir), "LEASE_REVIEWER": "alice"}
    result = CliRunner().invoke(cli, list(args), env=env)
    out: Any = result.stdout
    if "--json" in args and out.strip():
        out = json.loads(out)
    return result.exit_code, out, result.stderr


def test_dates_lists_the_portfolios_dates_with_the_amendment_applied(
    data_dir: Path, portfolio: dict[str, str]
) -> None:
    code, events, _ = run(data_dir, "dates", "--all", "--json")
    assert code == 0
    got = {(e["kind"], e["date"]) for e in events}
    assert ("expiration", "2035-07-31") in got
    assert ("renewal_notice_deadline", "2034-10-31") in got
    assert all(e["doc_hash"] == portfolio["lease"] for e in events)
    deadline = next(e for e in events if e["kind"] == "renewal_notice_deadline")
    assert deadline["confirmed"] is True
    assert {c["field"] for c in deadline["citations"]} >= {"expiration_date", "renewal_notice"}


def test_dates_within_a_span(data_dir: Path, portfolio: dict[str, str]) -> None:
    code, events, _ = run(data_dir, "dates", "--from", "2034-01-01", "--within", "12m", "--json")
    assert code == 0
    assert [(e["kind"], e["date"]) for e in events] == [
        ("renewal_notice_opens", "2034-07-31"),
        ("renewal_notice_deadline", "2034-10-31"),
    ]
    code, text, _ = run(data_dir, "dates", "--from", "2034-01-01", "--within", "12m")
    assert "2034-10-31" in text
    assert "Brightwater Labs, Inc." in text
    code, _, err = run(data_dir, "dates", "--within", "soon")
    assert code == 2
    assert "180d" in err


def test_dates_ics_is_read_back_by_icalendar(data_dir: Path, portfolio: dict[str, str]) -> None:
    ics = data_dir / "dates.ics"
    code, _, err = run(data_dir, "dates", "--all", "--ics", str(ics), "--remind", "14")
    assert code == 0
    assert "wrote" in err
    calendar = Calendar.from_ical(ics.read_bytes())
    events = list(calendar.walk("VEVENT"))
    deadline = next(e for e in events if e.get("dtstart").dt == dt.date(2034, 10, 31))
    assert [a.get("trigger").dt for a in deadline.walk("VALARM")] == [dt.timedelta(days=-14)]
    assert "leases/lease.pdf" in str(deadline.get("description"))


def test_results_show_gives_current_terms_and_the_change_log(
    data_dir: Path, portfolio: dict[str, str]
) -> None:
    code, record, _ = run(data_dir, "results", "show", portfolio["lease"], "--json")
    assert code == 0
    terms = record["current_terms"]
    assert terms["terms"]["expiration_date"]["value"] == "2035-07-31"
    assert terms["terms"]["expiration_date"]["set_by"]["doc_hash"] == portfolio["amendment"]
    assert [(c["field"], c["old"], c["new"], c["date"]) for c in terms["changes"]] == [
        ("expiration_date", "2030-07-31", "2035-07-31", "2029-06-15")
    ]
    code, text, _ = run(data_dir, "results", "show", portfolio["lease"])
    assert "current terms (amendments applied):" in text
    assert "2030-07-31" in text
    assert "2035-07-31" in text
    code, record, _ = run(data_dir, "results", "show", portfolio["amendment"], "--json")
    assert record["link"]["lease_hash"] == portfolio["lease"]


def test_amendments_list_show_unlink_and_link(data_dir: Path, portfolio: dict[str, str]) -> None:
    code, listed, _ = run(data_dir, "amendments", "list", "--json")
    assert code == 0
    assert [(v["amendment_hash"], v["state"], v["lease_hash"]) for v in listed] == [
        (portfolio["amendment"], "linked", portfolio["lease"])
    ]
    code, text, _ = run(data_dir, "amendments", "show", portfolio["amendment"])
    assert "match" in text
    assert "lease date" in text
    code, done, _ = run(data_dir, "amendments", "unlink", portfolio["amendment"], "--json")
    assert (code, done["state"]) == (0, "unlinked")
    code, events, _ = run(data_dir, "dates", "--all", "--json")
    assert ("expiration", "2030-07-31") in {(e["kind"], e["date"]) for e in events}
    code, done, _ = run(
        data_dir, "amendments", "link", portfolio["amendment"], portfolio["lease"], "--json"
    )
    assert (code, done["state"], done["lease_hash"]) == (0, "linked", portfolio["lease"])
    code, _, err = run(data_dir, "amendments", "link", portfolio["lease"], portfolio["lease"])
    assert code == 5
    assert "not an amendment" in err


def test_results_export_xlsx(data_dir: Path, portfolio: dict[str, str]) -> None:
    out = data_dir / "portfolio.xlsx"
    code, _, err = run(data_dir, "results", "export", "--format", "xlsx", "--out", str(out))
    assert code == 0
    assert "exported 1 lease(s)" in err
    book = openpyxl.load_workbook(out)
    assert book.sheetnames[:3] == ["Portfolio", "Rent roll", "Critical dates"]
    assert book["Portfolio"]["H2"].value == dt.datetime(2035, 7, 31)
    code, _, err = run(data_dir, "results", "export", "--format", "xlsx")
    assert code == 2
    assert "--out" in err


@pytest.mark.parametrize(
    ("span", "end"),
    [
        ("180d", dt.date(2026, 7, 4)),
        ("2w", dt.date(2026, 1, 19)),
        ("6m", dt.date(2026, 7, 5)),
        ("1y", dt.date(2027, 1, 5)),
    ],
)
def test_spans(span: str, end: dt.date) -> None:
    assert end_of_span(dt.date(2026, 1, 5), span) == end


def test_a_reviewer_correcting_an_amendment_relinks_it(data_dir: Path) -> None:
    store = Store(f"sqlite:///{data_dir / 'lease.db'}")
    lease = add_document(
        store,
        state=DocumentState.COMMITTED,
        reason=None,
        fields=fields_json(LEASE, 0.97),
        key="leases/lease.pdf",
    )
    misread = {**AMENDMENT, "amended_lease_date": "2015-03-03"}
    amendment = add_document(
        store, fields=fields_json(misread, 0.97), kind="amendment", problems=[]
    )
    after_finish(store, amendment, 0.9)
    code, listed, _ = run(data_dir, "amendments", "list", "--json")
    assert [v["state"] for v in listed] == ["needs_review"]
    code, _, _ = run(data_dir, "review", "claim")
    assert code == 0
    code, _, err = run(
        data_dir, "review", "correct", amendment, f"amended_lease_date={LEASE['lease_date']}"
    )
    assert code == 0, err
    code, _, err = run(data_dir, "review", "approve", amendment[:12])
    assert code == 0, err
    code, listed, _ = run(data_dir, "amendments", "list", "--json")
    assert [(v["state"], v["lease_hash"]) for v in listed] == [("linked", lease)]
