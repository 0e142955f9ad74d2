"""The Excel abstract (``results export --format xlsx``), written by openpyxl in write-only mode.

Sheets:

- **Portfolio**: one row per lease — its current terms (amendments applied), its next
  critical date, state, aggregate confidence, reviewer, amendments applied and pending;
- **Rent roll**: each rent step of each lease, monthly and annual, per square foot;
- **Critical dates**: every date of every lease (portfolio/dates.py), with its confidence
  and the text it was computed from;
- one sheet per lease: each field's value, confidence, page, cited text and the document
  that set it, then the change log of its amendments.

Money is a number with its currency's format, dates are dates, areas and percentages are
numbers. A value below the gate or in doubt has a yellow fill. Lease text is untrusted:
every string is written as a string cell, so a tenant named "=HYPERLINK(...)" is text in
the workbook, never a formula (the CSV export quotes such cells for the same reason).
Write-only mode streams each sheet to disk as it is written: a 1,000-lease portfolio is
exported in a few seconds (``make bench-xlsx``).
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Collection, Iterable, Sequence
from decimal import Decimal
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any, cast

from openpyxl import Workbook
from openpyxl.cell import WriteOnlyCell
from openpyxl.styles import Alignment, Font, PatternFill
from openpyxl.worksheet._write_only import WriteOnlyWorksheet
from openpyxl.worksheet.hyperlink import Hyperlink

from lease_parser.fields import FIELD_SPECS, SPECS
from lease_parser.model import FIELD_NAMES
from lease_parser.portfolio.dates import CriticalDate, critical_dates
from lease_parser.portfolio.display import as_date, as_decimal, display_value, shown
from lease_parser.portfolio.terms import CurrentTerms, Term
from lease_parser.scoring.normalization import DATE_FIELDS, MONEY_FIELDS

if TYPE_CHECKING:  # a type only: the workbook is written from any lease's row and terms
    from lease_parser.store import LeaseRecord

DOUBTFUL = PatternFill("solid", fgColor="FFF2CC")
HEADER = Font(bold=True)
WRAP = Alignment(wrap_text=True, vertical="top")
DATE_FORMAT = "yyyy-mm-dd"
AREA_FORMAT = "#,##0"
RATE_FORMAT = "#,##0.00"
CURRENCY_FORMATS = {
    "USD": '"$"#,##0.00',
    "CAD": '"CA$"#,##0.00',
    "AUD": '"A$"#,##0.00',
    "GBP": '"£"#,##0.00',
    "EUR": '"€"#,##0.00',
}
_SHEET_UNSAFE = re.compile(r"[\[\]:*?/\\']")
SHEET_NAME_MAX = 31

# Column widths (characters), so dates and amounts show in full.
PORTFOLIO_WIDTHS = (
    *(34, 28, 28, 40, 10, 11, 13, 11, 8, 14, 15, 14, 9, 9, 13, 14, 28, 9, 12, 50),
    *(10, 10, 10, 10, 10, 30, 66),
)
RENT_WIDTHS = (34, 28, 6, 11, 11, 14, 15, 10, 10, 9, 36)
DATE_WIDTHS = (11, 24, 34, 28, 70, 10, 18, 100)
LEASE_WIDTHS = (24, 40, 11, 6, 80, 34, 40)
HEADER_HEIGHT = 32.0  # points: two lines of a wrapped column name

# The fields with a column in the Portfolio sheet (``column`` in their description), in
# the model's order but for the tenant, first: a rent roll is read by tenant.
PORTFOLIO_FIELDS: tuple[str, ...] = (
    "tenant",
    *(s.name for s in FIELD_SPECS if s.column and s.name != "tenant"),
)


def currency_format(currency: str | None) -> str:
    code = (currency or "USD").upper()
    return CURRENCY_FORMATS.get(code, f'#,##0.00 "{code}"')


class _Sheet:
    """A write-only sheet that types and styles each cell it appends."""

    def __init__(self, ws: WriteOnlyWorksheet, widths: Sequence[float]) -> None:
        # openpyxl's write-only sheet has a regular sheet's column dimensions, page setup
        # and properties at run time; its type stubs do not list them.
        self.ws: Any = cast(Any, ws)
        for index, width in enumerate(widths):
            self.ws.column_dimensions[_column(index)].width = width

    def cell(self, value: Any, number_format: str | None = None, doubtful: bool = False) -> Any:
        plain = isinstance(value, int | float | Decimal) and not (doubtful or number_format)
        if value is None or plain:
            return value
        cell = WriteOnlyCell(self.ws, value=value)
        if isinstance(value, str):
            cell.data_type = "s"  # never a formula, whatever the text starts with
        if number_format:
            cell.number_format = number_format
        if doubtful:
            cell.fill = DOUBTFUL
        return cell

    def print_one_page_wide(self) -> None:
        """Printed (or saved as PDF) landscape, one page wide: the columns stay together."""
        self.ws.page_setup.orientation = "landscape"
        self.ws.page_setup.fitToWidth = 1
        self.ws.page_setup.fitToHeight = 0
        self.ws.sheet_properties.pageSetUpPr.fitToPage = True

    def header(self, names: Sequence[str], first_row_height: float | None = None) -> None:
        if first_row_height is not None:
            # Wrapped column names need the height: nothing grows a written row to fit.
            self.ws.row_dimensions[1].height = first_row_height
        row = []
        for name in names:
            cell = WriteOnlyCell(self.ws, value=name)
            cell.data_type = "s"
            cell.font = HEADER
            cell.alignment = WRAP
            row.append(cell)
        self.ws.append(row)

    def append(self, values: Sequence[Any]) -> None:
        self.ws.append([self.text(v) if isinstance(v, str) else v for v in values])

    def text(self, value: str) -> Any:
        # openpyxl would make "=..." a formula and "#N/A" an error value; any other
        # string it writes as a string cell.
        return self.cell(value) if value[:1] in ("=", "#") else value


def _column(index: int) -> str:
    letters = ""
    index += 1
    while index:
        index, rem = divmod(index - 1, 26)
        letters = chr(65 + rem) + letters
    return letters


def sheet_title(doc_key: str, doc_hash: str, taken: set[str]) -> str:
    """A unique, valid sheet name (31 characters, none of []:*?/\\'): the file's stem and
    as many of the hash's first characters as it takes to be unique."""
    stem = _SHEET_UNSAFE.sub("_", Path(doc_key).stem).strip() or "lease"
    for length in range(8, len(doc_hash) + 1):
        title = f"{stem[: SHEET_NAME_MAX - length - 1]}-{doc_hash[:length]}"
        if title.lower() not in taken:
            break
    else:  # the same hash twice: the store's hashes are unique, so never in practice
        title = f"{stem[:20]}-{len(taken)}"
    taken.add(title.lower())
    return title


def value_format(name: str, currency: str | None) -> str | None:
    if name in MONEY_FIELDS:
        return currency_format(currency)
    if name in DATE_FIELDS:
        return DATE_FORMAT
    if name == "rentable_sqft" or name == "premises_added_sqft":
        return AREA_FORMAT
    return None


def _doubtful(term: Term | None, gate: float, measured: bool = True) -> bool:
    """Below the gate or in doubt; for a field the confidence model has no labelled examples
    of (``measured`` false), any value a person did not set: its score is not a probability."""
    if term is None:
        return False
    unchecked = not measured and term.confidence < 1.0
    return unchecked or term.confidence < gate or bool(term.doubts)


class PortfolioWorkbook:
    """Writes the workbook lease by lease; ``save`` finishes it."""

    PORTFOLIO_COLUMNS = (
        "Lease",
        *(str(SPECS[name].column) for name in PORTFOLIO_FIELDS),
        "Currency",
        "Next critical date",
        "Next event",
        "State",
        "Confidence",
        "Reviewer",
        "Amendments applied",
        "Amendments pending",
        "Sheet",
        "Document hash",
    )
    RENT_COLUMNS = (
        "Lease",
        "Tenant",
        "Step",
        "Start",
        "End",
        "Monthly",
        "Annual",
        "Annual per sq ft",
        "Monthly per sq ft",
        "Currency",
        "Set by",
    )
    DATE_COLUMNS = (
        "Date",
        "Event",
        "Lease",
        "Tenant",
        "What",
        "Confidence",
        "Confirmed",
        "Cited",
    )
    LEASE_COLUMNS = ("Field", "Value", "Confidence", "Page", "Cited text", "Set by", "Doubts")

    def __init__(
        self, gate: float, today: dt.date | None = None, measured: Collection[str] | None = None
    ) -> None:
        self.gate = gate
        # The fields whose probabilities the confidence model was calibrated on (all: None).
        self.measured = frozenset(FIELD_NAMES if measured is None else measured)
        self.today = today or dt.date.today()
        self.book = Workbook(write_only=True)
        self.portfolio = self._sheet("Portfolio", self.PORTFOLIO_COLUMNS, PORTFOLIO_WIDTHS)
        self.rent_roll = self._sheet("Rent roll", self.RENT_COLUMNS, RENT_WIDTHS)
        self.dates = self._sheet("Critical dates", self.DATE_COLUMNS, DATE_WIDTHS)
        self.taken = {"portfolio", "rent roll", "critical dates"}
        self.count = 0

    def _sheet(self, title: str, columns: Sequence[str], widths: Sequence[float]) -> _Sheet:
        sheet = _Sheet(self.book.create_sheet(title), widths)
        sheet.ws.freeze_panes = "A2"
        sheet.print_one_page_wide()
        sheet.header(columns, first_row_height=HEADER_HEIGHT)
        return sheet

    def add(self, record: LeaseRecord) -> None:
        terms = record.terms
        events = critical_dates(terms)
        title = sheet_title(record.row.doc_key, record.row.doc_hash, self.taken)
        self._portfolio_row(record, events, title)
        self._rent_rows(record)
        self._date_rows(events)
        self._lease_sheet(record, title)
        self.count += 1

    def _term_cell(self, sheet: _Sheet, terms: CurrentTerms, name: str) -> Any:
        term = terms.terms.get(name)
        value = display_value(name, term.value if term else None)
        if value is None:
            return None
        currency = terms.value("currency")
        doubtful = _doubtful(term, self.gate, name in self.measured)
        return sheet.cell(value, value_format(name, currency), doubtful)

    def _portfolio_row(self, record: LeaseRecord, events: list[CriticalDate], title: str) -> None:
        terms, row, sheet = record.terms, record.row, self.portfolio
        upcoming = next((e for e in events if e.date >= self.today), None)
        link = sheet.cell(title)
        link.hyperlink = Hyperlink(ref="", location=f"'{title}'!A1")
        sheet.append(
            [
                row.doc_key,
                *(self._term_cell(sheet, terms, name) for name in PORTFOLIO_FIELDS),
                terms.value("currency") or "USD",
                sheet.cell(upcoming.date, DATE_FORMAT) if upcoming else None,
                upcoming.summary if upcoming else None,
                row.state,
                round(row.confidence, 4) if row.confidence is not None else None,
                row.reviewer,
                len(terms.applied),
                len(terms.pending),
                link,
                row.doc_hash,
            ]
        )

    def _rent_rows(self, record: LeaseRecord) -> None:
        terms, sheet = record.terms, self.rent_roll
        currency = terms.value("currency") or "USD"
        money = currency_format(currency)
        area = as_decimal(terms.value("rentable_sqft"))
        schedule = terms.terms.get("rent_schedule")
        steps = list(schedule.value) if schedule else _single_step(terms)
        set_by = schedule.source.title if schedule else "lease"
        doubtful = _doubtful(schedule, self.gate) if schedule else False
        for number, step in enumerate(steps, start=1):
            monthly, annual = as_decimal(step.get("monthly")), as_decimal(step.get("annual"))
            annual = (
                annual if annual is not None else (monthly * 12 if monthly is not None else None)
            )
            monthly = (
                monthly if monthly is not None else (annual / 12 if annual is not None else None)
            )
            per_foot = as_decimal(step.get("per_sqft_annual"))
            if per_foot is None and annual is not None and area:
                per_foot = (annual / area).quantize(Decimal("0.01"))
            sheet.append(
                [
                    record.row.doc_key,
                    terms.value("tenant"),
                    number,
                    _bound_cell(sheet, step.get("start")),
                    _bound_cell(sheet, step.get("end")),
                    sheet.cell(monthly, money, doubtful) if monthly is not None else None,
                    sheet.cell(annual, money, doubtful) if annual is not None else None,
                    sheet.cell(per_foot, RATE_FORMAT) if per_foot is not None else None,
                    sheet.cell((per_foot / 12).quantize(Decimal("0.0001")), "#,##0.0000")
                    if per_foot is not None
                    else None,
                    currency,
                    set_by,
                ]
            )

    def _date_rows(self, events: list[CriticalDate]) -> None:
        sheet = self.dates
        for event in events:
            confirmed = event.confirmed(self.gate)
            sheet.append(
                [
                    sheet.cell(event.date, DATE_FORMAT),
                    event.kind.value,
                    event.lease.doc_key,
                    event.tenant,
                    event.summary,
                    sheet.cell(round(event.confidence, 4), "0.00", not confirmed),
                    "yes" if confirmed else "no: check the lease",
                    "\n".join(str(c) for c in event.citations),
                ]
            )

    def _lease_sheet(self, record: LeaseRecord, title: str) -> None:
        terms, row = record.terms, record.row
        sheet = _Sheet(self.book.create_sheet(title), LEASE_WIDTHS)
        sheet.print_one_page_wide()
        sheet.append(["Lease", row.doc_key])
        sheet.append(["Document hash", row.doc_hash])
        sheet.append(["State", row.state, "Reviewer", row.reviewer or "-"])
        sheet.append([])
        sheet.header(self.LEASE_COLUMNS)
        for name in FIELD_NAMES:
            term = terms.terms.get(name)
            if term is None:
                continue
            provenance = term.provenance or {}
            sheet.append(
                [
                    name,
                    self._term_cell(sheet, terms, name),
                    sheet.cell(
                        round(term.confidence, 4),
                        "0.00",
                        _doubtful(term, self.gate, name in self.measured),
                    ),
                    provenance.get("page"),
                    provenance.get("text"),
                    term.source.title,
                    "; ".join(term.doubts.values()) or None,
                ]
            )
        if terms.changes:
            sheet.append([])
            sheet.header(("Changed", "Old", "New", "", "Amendment", "Date"))
            for change in terms.changes:
                sheet.append(
                    [
                        change.field,
                        shown(change.field, change.old),
                        shown(change.field, change.new),
                        None,
                        change.source.title,
                        change.source.date,
                    ]
                )
        sheet.ws.close()

    def save(self, out: Path | IO[bytes]) -> None:
        self.book.save(out)


def _bound_cell(sheet: _Sheet, value: Any) -> Any:
    day = as_date(value)
    return sheet.cell(day, DATE_FORMAT) if day else value


def _single_step(terms: CurrentTerms) -> list[dict[str, Any]]:
    """A lease with a rent and no schedule: one step over the term."""
    monthly, annual = terms.value("base_rent_monthly"), terms.value("base_rent_annual")
    if monthly is None and annual is None:
        return []
    return [
        {
            "start": terms.value("commencement_date"),
            "end": terms.value("expiration_date"),
            "monthly": monthly,
            "annual": annual,
        }
    ]


def write_workbook(
    records: Iterable[LeaseRecord],
    out: Path | IO[bytes],
    gate: float,
    today: dt.date | None = None,
    measured: Collection[str] | None = None,
) -> int:
    """Write every lease of ``records`` to one workbook; returns how many. ``measured``: the
    fields the confidence model was calibrated on (``ConfidenceModel.fields``); a value of
    any other field is filled as unchecked unless a person set it."""
    book = PortfolioWorkbook(gate, today, measured)
    for record in records:
        book.add(record)
    book.save(out)
    return book.count
