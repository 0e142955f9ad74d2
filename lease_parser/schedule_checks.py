"""A rent schedule checked as a whole, and a refusal that names the row and the cell. Pure.

The model types each step (``RentStep``); these checks say whether the steps can be one
lease's schedule: each period starts before it ends, periods follow one another without
overlapping, they lie inside the term, a step's monthly and annual rents agree, its rent per
square foot agrees with the area, and the monthly base rent, where stated, is one of the
schedule's rents. A rent of a few cents is a typing slip, not a rent (a rent-free period is
0.00).

Rows are counted from 1, as a reviewer sees them; columns are ``RentStep`` keys, named in
words in every message. Tolerances allow for rounding to the cent (a monthly rent is an
annual one divided by 12, a rent per square foot is rounded), not for a wrong figure: the
labelled schedules of the dev corpus all pass (a unit test checks).
"""

from __future__ import annotations

import datetime as dt
import json
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation
from typing import Any

from lease_parser.model import FieldProblem, LeaseAbstraction, ProblemKind, RentStep

FIELD = "rent_schedule"
COLUMN_WORDS = {
    "start": "start",
    "end": "end",
    "monthly": "monthly rent",
    "annual": "annual rent",
    "per_sqft_annual": "annual rent per sq ft",
}
DATES = ("start", "end")
AMOUNTS = ("monthly", "annual", "per_sqft_annual")
# Below this a monthly or annual rent is a slip (0.01 typed for 0.00 or for the amount).
LEAST_RENT = Decimal("1.00")
# Relative slack between figures that should agree (annual = 12 × monthly, …): rounding.
SLACK = Decimal("0.005")
CENT = Decimal("0.01")


class CellProblem(FieldProblem):
    """A problem with one cell (or one row) of the rent schedule: ``row`` counted from 1,
    ``column`` a ``RentStep`` key (None: the row, or the schedule, as a whole)."""

    row: int | None = None
    column: str | None = None


def _problem(row: int | None, column: str | None, text: str) -> CellProblem:
    where = "" if row is None else f"Row {row}" + (f", {COLUMN_WORDS[column]}" if column else "")
    return CellProblem(
        field=FIELD,
        problem=f"{where}: {text}" if where else text,
        kind=ProblemKind.INVALID,
        row=row,
        column=column,
    )


def money(amount: Decimal) -> str:
    return f"{amount:,.2f}"


# -- each cell, before the model types the rows ------------------------------------------


def schedule_cell_problems(raw: str) -> list[CellProblem]:
    """What is wrong with each cell of a schedule a reviewer typed (JSON rows); [] when
    every cell has the right form (the model then types them; a value that is not a list
    is left to it)."""
    try:
        rows = json.loads(raw)
    except ValueError:
        return []
    if not isinstance(rows, list):
        return []
    problems: list[CellProblem] = []
    for number, row in enumerate(rows, start=1):
        if not isinstance(row, dict):
            problems.append(_problem(number, None, "not a row of start, end and rents"))
            continue
        problems += _row_problems(number, row)
    return problems


def _row_problems(number: int, row: dict[str, Any]) -> list[CellProblem]:
    out = [
        _problem(
            number, None, f"unknown column {key!r} (columns: {', '.join(RentStep.model_fields)})"
        )
        for key in row
        if key not in RentStep.model_fields
    ]
    for column in DATES:
        if (why := _period_cell(row.get(column))) is not None:
            out.append(_problem(number, column, why))
    for column in AMOUNTS:
        if (why := _amount_cell(column, row.get(column))) is not None:
            out.append(_problem(number, column, why))
    return out


def _period_cell(value: Any) -> str | None:
    if value is None or (isinstance(value, int) and not isinstance(value, bool) and value >= 1):
        return None
    if isinstance(value, int) and not isinstance(value, bool):
        return f"month {value}: months count from 1 (the first month of the term)"
    if isinstance(value, str):
        try:
            dt.date.fromisoformat(value)
            return None
        except ValueError:
            pass
    return (
        f"{value!r} is not a month or a date: use a month number like 13, or a date like 2026-02-28"
    )


def _amount_cell(column: str, value: Any) -> str | None:
    if value is None:
        return None
    try:
        amount = Decimal(str(value))
    except InvalidOperation:
        amount = Decimal("NaN")
    if not amount.is_finite() or isinstance(value, bool):
        return f"{value!r} is not a number: use a number like 7048.80"
    if amount < 0:
        return f"{money(amount)} is negative: a rent is 0.00 or more"
    return None


# -- the schedule as a whole, with the lease's other values ------------------------------


@dataclass(frozen=True)
class _Period:
    """Where a step starts or ends, as a reviewer typed it and (when the commencement date
    is known) as a date."""

    typed: dt.date | int
    date: dt.date | None

    def words(self) -> str:
        return f"month {self.typed}" if isinstance(self.typed, int) else self.typed.isoformat()


def add_months(day: dt.date, months: int) -> dt.date:
    index = day.year * 12 + day.month - 1 + months
    year, month = divmod(index, 12)
    month += 1
    for last in (31, 30, 29, 28):
        try:
            return dt.date(year, month, min(day.day, last))
        except ValueError:
            continue
    raise ValueError(f"no date {months} months after {day}")  # unreachable


def _period(value: dt.date | int | None, start: dt.date | None, end: bool) -> _Period | None:
    if value is None:
        return None
    if isinstance(value, dt.date):
        return _Period(value, value)
    if start is None:
        return _Period(value, None)
    # Month n runs from commencement + (n - 1) months to the day before commencement + n.
    date = add_months(start, value) - dt.timedelta(days=1) if end else add_months(start, value - 1)
    return _Period(value, date)


def _before(a: _Period, b: _Period) -> bool | None:
    """a < b, or None when the two cannot be compared (a month and a date, no commencement)."""
    if isinstance(a.typed, int) and isinstance(b.typed, int):
        return a.typed < b.typed
    if a.date is not None and b.date is not None:
        return a.date < b.date
    return None


def schedule_problems(abstraction: LeaseAbstraction) -> list[CellProblem]:
    """Why this schedule cannot be the lease's, with the lease's other values."""
    steps = abstraction.rent_schedule.value or []
    if not steps:
        return []
    commencement = abstraction.commencement_date.value
    periods = [
        (_period(s.start, commencement, False), _period(s.end, commencement, True)) for s in steps
    ]
    problems: list[CellProblem] = []
    for number, (start, end) in enumerate(periods, start=1):
        if start is not None and end is not None and _before(end, start):
            problems.append(
                _problem(
                    number, "end", f"{end.words()} is before the period's start, {start.words()}"
                )
            )
    problems += _overlaps(periods)
    problems += _outside_term(abstraction, periods)
    for number, step in enumerate(steps, start=1):
        problems += _implausible_rents(number, step)
        problems += _rents_disagree(number, step, periods[number - 1], abstraction)
    problems += _base_rent_missing(abstraction, steps)
    return problems


def _overlaps(periods: list[tuple[_Period | None, _Period | None]]) -> list[CellProblem]:
    out = []
    for number in range(2, len(periods) + 1):
        start = periods[number - 1][0]
        last_start, last_end = periods[number - 2]
        if start is None or last_end is None:
            continue
        if _before(last_end, start) is False:
            span = f"{last_start.words()} to {last_end.words()}" if last_start else last_end.words()
            out.append(
                _problem(
                    number,
                    "start",
                    f"{start.words()} is within row {number - 1} ({span}): periods follow "
                    "one another, in order, without overlapping",
                )
            )
    return out


def _term_end(abstraction: LeaseAbstraction) -> dt.date | None:
    expiration = abstraction.expiration_date.value
    start, months = abstraction.commencement_date.value, abstraction.term_months.value
    if expiration is not None:
        return expiration
    if start is not None and months:
        return add_months(start, months) - dt.timedelta(days=1)
    return None


def _outside_term(
    abstraction: LeaseAbstraction, periods: list[tuple[_Period | None, _Period | None]]
) -> list[CellProblem]:
    months, last_day = abstraction.term_months.value, _term_end(abstraction)
    first_day = abstraction.commencement_date.value
    out = []
    for number, pair in enumerate(periods, start=1):
        for column, period in zip(DATES, pair, strict=True):
            if period is None:
                continue
            if isinstance(period.typed, int) and months and period.typed > months:
                why = f"month {period.typed} is after the end of the term ({months} months)"
            elif period.date is not None and last_day is not None and period.date > last_day:
                why = f"{period.words()} is after the end of the term, {last_day}"
            elif period.date is not None and first_day is not None and period.date < first_day:
                why = f"{period.words()} is before the commencement date, {first_day}"
            else:
                continue
            out.append(_problem(number, column, why))
    return out


def _implausible_rents(number: int, step: RentStep) -> list[CellProblem]:
    if all(getattr(step, c) is None for c in AMOUNTS):
        return [
            _problem(number, None, "no rent: give the monthly or annual rent (0.00 if rent-free)")
        ]
    return [
        _problem(
            number,
            column,
            f"{amount} is not a rent: use 0.00 for a rent-free period, or the amount, like 7048.80",
        )
        for column in ("monthly", "annual")
        if (amount := getattr(step, column)) is not None and 0 < amount < LEAST_RENT
    ]


def _close(a: Decimal, b: Decimal, slack: Decimal = Decimal(0)) -> bool:
    return abs(a - b) <= max(CENT * 12, SLACK * max(abs(a), abs(b)), slack)


def _months_in(pair: tuple[_Period | None, _Period | None]) -> int | None:
    start, end = pair
    if start is None or end is None:
        return None
    if isinstance(start.typed, int) and isinstance(end.typed, int):
        return end.typed - start.typed + 1
    if start.date is not None and end.date is not None:
        after = end.date + dt.timedelta(days=1)
        return (after.year - start.date.year) * 12 + after.month - start.date.month
    return None


def _rents_disagree(
    number: int,
    step: RentStep,
    pair: tuple[_Period | None, _Period | None],
    abstraction: LeaseAbstraction,
) -> list[CellProblem]:
    """A step's annual rent is 12 × its monthly rent (or the rent of a shorter period); its
    rent per square foot times the area is its rent for a year."""
    out = []
    months = _months_in(pair)
    monthly, annual = step.monthly, step.annual
    if monthly is not None and annual is not None:
        agrees = _close(annual, monthly * 12) or (
            months is not None and 0 < months < 12 and _close(annual, monthly * months)
        )
        if not agrees:
            out.append(
                _problem(
                    number,
                    "annual",
                    f"{money(annual)} is not 12 × the monthly rent "
                    f"({money(monthly)} × 12 = {money(monthly * 12)})",
                )
            )
    yearly = monthly * 12 if monthly is not None else (annual if months in (None, 12) else None)
    out += _per_sqft_disagrees(number, step.per_sqft_annual, yearly, abstraction)
    return out


def _per_sqft_disagrees(
    number: int, per_sqft: Decimal | None, yearly: Decimal | None, abstraction: LeaseAbstraction
) -> list[CellProblem]:
    area = abstraction.rentable_sqft.value
    if per_sqft is None or yearly is None or not area or (per_sqft == 0 and yearly == 0):
        return []
    added = abstraction.premises_added_sqft.value or Decimal(0)
    # The rate is rounded to the cent: over the whole area that is up to half a cent a foot.
    rounding = (area + added) * Decimal("0.005")
    if any(_close(per_sqft * a, yearly, rounding) for a in {area, area + added}):
        return []
    return [
        _problem(
            number,
            "per_sqft_annual",
            f"{per_sqft} × {area:,} sq ft is {money(per_sqft * area)} a year, not the "
            f"step's {money(yearly)}",
        )
    ]


def _monthly(step: RentStep) -> Decimal:
    if step.monthly is not None:
        return step.monthly
    assert step.annual is not None
    return step.annual / 12


def _base_rent_missing(abstraction: LeaseAbstraction, steps: list[RentStep]) -> list[CellProblem]:
    base = abstraction.base_rent_monthly.value
    rents = [_monthly(s) for s in steps if s.monthly is not None or s.annual is not None]
    if base is None or not rents or any(_close(base.amount, r) for r in rents):
        return []
    return [
        _problem(
            None,
            None,
            f"no row has the monthly base rent, {money(base.amount)}: correct the schedule "
            "or the monthly rent",
        )
    ]
