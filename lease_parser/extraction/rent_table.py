"""Rent schedules: a rent heading followed by periods and amounts, however the text lays them out.

Extracted text rarely keeps a table's shape: a DOCX row becomes one line, a PDF table one
cell per line, or all of one column before the next ("Year 1 Months 1-4 Months 5-12
$22,420.48 $44,840.96 $269,045.75 ..."). So we read a schedule as a stream of tokens —
period markers ("Months 1-12", "Lease Year 3", "13-24", "3/15/21 To 2/28/23"), amounts
("$42,750.00") and bare areas ("30,085") — starting at a rent heading and ending where
prose resumes, and cut it into rows at the period markers.

Which amount is the monthly rent, the annual rent or the rate per square foot is decided
by arithmetic first (annual = 12 × monthly; rate × area = annual), which is independent
evidence that the columns were read right, and only then by the heading's words.
"""

from __future__ import annotations

import datetime as dt
import re
from dataclasses import dataclass, field
from decimal import Decimal
from itertools import pairwise

from lease_parser.extraction.dates import DATE as _DATE_RE
from lease_parser.extraction.dates import parse_date
from lease_parser.extraction.money import FIGURE, Per, unit_after
from lease_parser.extraction.numbers import ORDINAL_WORD, ordinal_value, parse_figure

# A heading that opens a schedule of base rent (not additional, percentage or holdover rent).
ANCHOR = re.compile(
    r"(?i)\b(?:(?:base|basic|minimum|fixed|net|monthly|annual|annualized|yearly|gross)\s+"
    r"(?:(?:monthly|annual|base|basic|fixed|minimum|net)\s+)*(?:rent|rental)\b(?!\s+commencement)"
    r"|rent\s+schedule|schedule\s+of\s+(?:base\s+|fixed\s+|minimum\s+)?rent)"
)
_NOT_BASE = re.compile(
    r"(?i)\b(?:additional|percentage|holdover|holding\s+over|parking|storage|market|"
    r"operating|estimated|late)\s+$"
)
_RANGE = r"\s*(?:-|to|through|thru|until)\s*"
# The date pattern without its group names, so it can appear more than once below.
DATE = re.sub(r"\(\?P<\w+>", "(?:", _DATE_RE.pattern)
# Period markers: "Months 1-12", "Lease Year 3", date ranges, "First", "13-24", a bare "4".
_MARKER = (
    rf"(?P<months>(?:lease\s+)?(?:months?|mos?\.?)\s*#?\s*(?P<m1>\d{{1,3}})(?![\d,])"
    rf"(?:{_RANGE}(?P<m2>\d{{1,3}})(?![\d,]))?)"
    rf"|(?P<years>(?:lease\s+)?years?\s*#?\s*(?P<y1>\d{{1,2}})(?![\d,])(?:{_RANGE}(?P<y2>\d{{1,2}})(?![\d,]))?)"
    rf"|(?P<dates>(?:(?P<d1>{DATE})|commencement(?:\s+date)?){_RANGE}(?P<d2>{DATE})"
    rf"|(?P<d0>{DATE}))"
    rf"|(?P<ordinal>{ORDINAL_WORD}(?:\s+(?:lease\s+)?year)?)"
    rf"|(?P<bare>(?<![\d,.$/])(?P<b1>\d{{1,3}}){_RANGE}(?P<b2>\d{{1,3}})(?![\d,.]\d))"
    rf"|(?P<small>(?<![\d,.$/#])\d{{1,2}}(?![\d,.%/]|\s*(?:years?|months?|days?)\b))"
)
_AREA_NUMBER = re.compile(r"(?<![\d,.$/])(?P<n>\d{1,3}(?:,\d{3})+|\d{4,7})(?![\d,.]\d|%)")
_TOKEN = re.compile(rf"{FIGURE.pattern}|{_MARKER}|{_AREA_NUMBER.pattern}", re.IGNORECASE)
# Words that may sit between cells without ending the table.
_TABLE_WORDS = re.compile(
    r"(?i)^(?:per|month|months|monthly|year|years|annual|annum|lease|to|through|thru|n/a|na|"
    r"rsf|psf|sf|term|extension|renewal|option|abated|free|and|of|the|a|rent|base|total|"
    r"period|first|second|third|fourth|fifth|sixth|seventh|eighth|ninth|tenth|x|none)$"
)
HEADER_CHARS = 450
GAP_WORDS = 6
_MONTHLY_WORD = re.compile(r"(?i)\bmonth(?:ly)?\b|\bper\s+mo\b")
_ANNUAL_WORD = re.compile(r"(?i)\bannual(?:ized|ly)?\b|\byearly\b|\bper\s+(?:annum|year)\b")
_YEARS_HEADER = re.compile(r"(?i)\byears?\b")
_MONTHS_HEADER = re.compile(r"(?i)\bmonths?\b")


@dataclass(frozen=True)
class Amount:
    value: Decimal
    start: int
    end: int
    per: Per


@dataclass
class Row:
    """The cells between one period marker (or group of markers) and the next."""

    markers: list[re.Match[str]] = field(default_factory=list)
    amounts: list[Amount] = field(default_factory=list)
    areas: list[tuple[Decimal, int, int]] = field(default_factory=list)


@dataclass
class RentTable:
    anchor_start: int
    header: str
    rows: list[Row]
    end: int

    @property
    def names_monthly(self) -> bool:
        return bool(_MONTHLY_WORD.search(self.header))

    @property
    def names_annual(self) -> bool:
        return bool(_ANNUAL_WORD.search(self.header))

    @property
    def counts_years(self) -> bool:
        """Bare row numbers ("1-3") count lease years when the heading says years, not months."""
        return bool(_YEARS_HEADER.search(self.header)) and not _MONTHS_HEADER.search(self.header)


def _gap_breaks(gap: str) -> bool:
    words = [w for w in re.findall(r"[A-Za-z][A-Za-z/.']+", gap) if not _TABLE_WORDS.match(w)]
    return len(words) > GAP_WORDS


def _is_marker(token: re.Match[str]) -> bool:
    return any(token.group(g) for g in ("months", "years", "dates", "ordinal", "bare", "small"))


def _tokens(text: str, start: int, stop: int) -> tuple[list[re.Match[str]], int]:
    """Table tokens from ``start``; stops where prose resumes. Returns tokens and the end."""
    tokens: list[re.Match[str]] = []
    last = start
    for token in _TOKEN.finditer(text, start, stop):
        gap = text[last : token.start()]
        if _gap_breaks(gap) if tokens else len(gap) > HEADER_CHARS:
            break
        tokens.append(token)
        last = token.end()
    return tokens, last


def _rows(text: str, tokens: list[re.Match[str]]) -> list[Row]:
    rows: list[Row] = []
    current = Row()
    for token in tokens:
        if _is_marker(token):
            if current.amounts or current.areas:
                rows.append(current)
                current = Row()
            current.markers.append(token)
        elif token.group("fig"):
            value = parse_figure(token.group("fig"))
            if value is not None:
                per = unit_after(text, token.end())
                current.amounts.append(Amount(value, token.start(), token.end(), per))
        elif token.group("n"):
            value = parse_figure(token.group("n"))
            if value is not None:
                current.areas.append((value, token.start(), token.end()))
    if current.amounts:
        rows.append(current)
    return rows


def _credible(rows: list[Row]) -> bool:
    """A schedule has periods with amounts: two such rows, or one row naming a period
    outright ("Lease Years 1 through 10") with several amounts."""
    dated = [r for r in rows if r.markers and r.amounts]
    if len(dated) >= 2:
        counted = [int(m.group("small")) for r in dated for m in r.markers if m.group("small")]
        if len(counted) < sum(len(r.markers) for r in dated):
            return True
        # Bare row numbers must count up from the start (a lost page-break line may skip one).
        steps = [b - a for a, b in pairwise(counted)]
        return counted[0] <= 2 and all(0 < step <= 2 for step in steps)
    if len(dated) == 1:
        row = dated[0]
        return len(row.amounts) >= 2 and any(not m.group("small") for m in row.markers)
    return False


def find_rent_tables(text: str, span: tuple[int, int]) -> list[RentTable]:
    """Every base-rent schedule in ``text[span]``, in order."""
    tables: list[RentTable] = []
    lo, hi = span
    position = lo
    for anchor in ANCHOR.finditer(text, lo, hi):
        if anchor.start() < position:
            continue
        if _NOT_BASE.search(text[max(0, anchor.start() - 25) : anchor.start()]):
            continue
        tokens, end = _tokens(text, anchor.end(), hi)
        rows = _rows(text, tokens)
        if not tokens or not _credible(rows):
            continue
        header = text[anchor.start() : tokens[0].start()]
        tables.append(RentTable(anchor.start(), header, rows, end))
        position = end
    return tables


# ---------------------------------------------------------------- periods


def marker_period(
    marker: re.Match[str], years: bool = False
) -> tuple[int | dt.date | None, int | dt.date | None]:
    """The start and end a period marker names: month numbers or dates. ``years``: bare
    numbers count lease years (the schedule's heading says so)."""
    if marker.group("months"):
        first = int(marker.group("m1"))
        return first, int(marker.group("m2")) if marker.group("m2") else first
    if marker.group("years"):
        first = int(marker.group("y1"))
        last = int(marker.group("y2")) if marker.group("y2") else first
        return 12 * (first - 1) + 1, 12 * last
    if marker.group("dates"):
        if marker.group("d0"):
            return parse_date(marker.group("d0")), None
        start = parse_date(marker.group("d1")) if marker.group("d1") else None
        return start, parse_date(marker.group("d2"))
    if marker.group("bare"):
        first, last = int(marker.group("b1")), int(marker.group("b2"))
        return (12 * (first - 1) + 1, 12 * last) if years else (first, last)
    year = ordinal_value(marker.group("ordinal").split()[0]) if marker.group("ordinal") else None
    if year is None and marker.group("small"):
        year = int(marker.group("small"))
    if year is None:
        return None, None
    return 12 * (year - 1) + 1, 12 * year


# ---------------------------------------------------------------- reading a row

# Within a dollar: a monthly figure rounded to cents, times twelve, is off by at most $0.06.
EXACT_DOLLARS = Decimal("1.00")
# Leases also print annual and monthly figures that were rounded separately.
NEAR_SHARE = Decimal("0.005")
# A rate is printed to the cent: rate × area is exact within half a cent per foot.
RATE_ROUNDING = Decimal("0.005")
# A rate per foot is small next to the rent it produces.
RATE_RATIO = 50


@dataclass
class RowReading:
    """What one schedule row says, and the arithmetic that says the columns were read right."""

    monthly: Amount | None = None
    annual: Amount | None = None
    rate: Amount | None = None
    area: tuple[Decimal, int, int] | None = None
    checks: dict[str, str] = field(default_factory=dict)  # kind -> "exact" | "near"

    @property
    def rent_amounts(self) -> list[Amount]:
        return [a for a in (self.monthly, self.annual) if a is not None]


def twelve_times(monthly: Decimal, annual: Decimal) -> str | None:
    gap = abs(annual - 12 * monthly)
    if gap <= EXACT_DOLLARS:
        return "exact"
    if annual > 0 and gap / annual <= NEAR_SHARE:
        return "near"
    return None


def annual_rate(rate: Amount) -> Decimal:
    """A rate per foot per year; "$0.65 monthly" per foot is $7.80 a year."""
    return rate.value * 12 if rate.per in (Per.SQFT_MONTH, Per.MONTH) else rate.value


def rate_fits(rate: Decimal, area: Decimal, rent: Decimal, months: int) -> bool:
    """``rate`` per foot per year × ``area`` × ``months`` / 12 ≈ ``rent``."""
    tolerance = RATE_ROUNDING * area * months / 12 + Decimal("0.01")
    return abs(rate * area * months / 12 - rent) <= tolerance


def monthly_annual_pairs(amounts: list[Amount]) -> list[tuple[Amount, Amount]]:
    """Every (monthly, annual) pair with annual = 12 × monthly, in order of the monthly."""
    pairs = []
    used: set[int] = set()
    for monthly in amounts:
        for annual in amounts:
            if annual is monthly or id(annual) in used or monthly.value <= 0:
                continue
            if twelve_times(monthly.value, annual.value) == "exact":
                pairs.append((monthly, annual))
                used.update((id(monthly), id(annual)))
                break
    return pairs


def _pairs(amounts: list[Amount]) -> tuple[Amount, Amount, str] | None:
    """The first (monthly, annual) pair whose annual is twelve times the monthly."""
    best: tuple[Amount, Amount, str] | None = None
    for monthly in amounts:
        for annual in amounts:
            if annual is monthly or monthly.value <= 0:
                continue
            fit = twelve_times(monthly.value, annual.value)
            if fit == "exact":
                return monthly, annual, fit
            if fit and best is None:
                best = (monthly, annual, fit)
    return best


def _is_rate(amount: Amount, others: list[Amount]) -> bool:
    if amount.per.per_foot:
        return True
    small = 0 < amount.value < 500
    return small and any(o.value >= RATE_RATIO * amount.value for o in others)


def read_row(row: Row, table: RentTable, areas: list[Decimal]) -> RowReading:
    """Assign monthly / annual / rate / area to a row's cells, arithmetic first."""
    reading = RowReading()
    rates = [a for a in row.amounts if _is_rate(a, row.amounts)]
    rents = [a for a in row.amounts if a not in rates]
    pair = _pairs(rents)
    if pair:
        reading.monthly, reading.annual, fit = pair
        reading.checks["annual = 12 × monthly"] = fit
    known = [(value, -1, -1) for value in areas if value not in {a[0] for a in row.areas}]
    for rate in rates:
        for area in row.areas + known:
            _fit_rate(reading, rate, area, rents)
    if reading.monthly is None and reading.annual is None:
        _by_heading(reading, rents, table)
    if reading.rate is None and rates:
        reading.rate = rates[0]
    return reading


def _fit_rate(
    reading: RowReading, rate: Amount, area: tuple[Decimal, int, int], rents: list[Amount]
) -> None:
    """Rate × area = a rent in the row: that rent is annual (or monthly), the rate a rate."""
    for rent in rents:
        for months, role in ((12, "annual"), (1, "monthly")):
            if getattr(reading, role) not in (None, rent):
                continue
            if rate_fits(annual_rate(rate), area[0], rent.value, months):
                setattr(reading, role, rent)
                reading.rate, reading.area = rate, area
                reading.checks["rate × area"] = "exact"


def _by_heading(reading: RowReading, rents: list[Amount], table: RentTable) -> None:
    """No arithmetic: the first amount with rent to pay, by its unit or its column heading.

    Without arithmetic we cannot tell columns apart, so only a schedule whose heading names
    one period (monthly or annual, not both) or whose figure says "per month" is read.
    """
    nonzero = [a for a in rents if a.value > 0]
    if not nonzero:
        return
    first = nonzero[0]
    if first.per is Per.MONTH or (
        first.per is Per.NONE and table.names_monthly and not table.names_annual
    ):
        reading.monthly = first
    elif first.per is Per.YEAR or (
        first.per is Per.NONE and table.names_annual and not table.names_monthly
    ):
        reading.annual = first


def first_scheduled(table: RentTable, areas: list[Decimal]) -> tuple[Row, RowReading] | None:
    """The first row with rent to pay: abated (zero) rows are skipped, per the label rules."""
    for row in table.rows:
        reading = read_row(row, table, areas)
        if any(a.value > 0 for a in reading.rent_amounts):
            return row, reading
    return None
