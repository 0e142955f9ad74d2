"""The canonical model: every extracted value is a ``Field[T]`` with confidence and provenance.

Names follow docs/fields.md; the JSON output, the store, review screens and eval labels all use
them. Money is ``Decimal`` with two places, never a float.
"""

from __future__ import annotations

import datetime as dt
from decimal import ROUND_HALF_UP, Decimal
from enum import StrEnum
from typing import Any, Generic, TypeVar

from pydantic import BaseModel, ConfigDict, field_validator, model_validator
from pydantic import Field as PydanticField

from lease_parser.errors import Reason

T = TypeVar("T")
CENT = Decimal("0.01")
# The longest term read or accepted: 999 years (English leases run that long).
MAX_TERM_MONTHS = 999 * 12


class Route(StrEnum):
    """Where a document ends. ``duplicate`` is a submission whose content was seen before."""

    COMMITTED = "committed"
    REVIEW = "review"
    DEAD = "dead"
    DUPLICATE = "duplicate"


class DocumentKind(StrEnum):
    LEASE = "lease"
    SUBLEASE = "sublease"
    AMENDMENT = "amendment"
    FORM = "form"
    # An invoice, a statement, a letter…: routed to review as `not_a_lease` (scoring/gate.py).
    NOT_A_LEASE = "not_a_lease"


class Provenance(BaseModel):
    """Where a value came from: 1-based page, character span in that page's text, snippet."""

    model_config = ConfigDict(frozen=True)

    page: int = PydanticField(ge=1)
    start: int = PydanticField(ge=0)
    end: int = PydanticField(ge=0)
    text: str


class StatedRival(BaseModel):
    """Another value the lease states for a field, cited where it states it."""

    model_config = ConfigDict(frozen=True)

    value: str  # the canonical string extraction read
    provenance: Provenance


class Field(BaseModel, Generic[T]):
    """One extracted value. ``value is None`` means the document does not state it.

    ``confidence`` is the probability that the value is right (lease_parser.scoring.confidence).
    ``provenance`` cites where the value was read; a value derived from several statements
    also cites each of them in ``inputs``. ``doubts`` name what a person must check whatever
    the probability (a rival value, a failed relation, ambiguous wording, or — with no value
    — a field the lease states that was not read), ``evidence`` is what the probability was
    computed from, kept so reviewers' decisions can refit it.
    """

    value: T | None = None
    confidence: float = PydanticField(default=0.0, ge=0.0, le=1.0)
    provenance: Provenance | None = None
    inputs: list[Provenance] = PydanticField(default_factory=list)
    # Other values the lease states for it (a ``rival_value`` doubt), each where stated.
    rivals: list[StatedRival] = PydanticField(default_factory=list)
    # Evidence for and against in words: agreeing statements, checks, conflicts.
    notes: list[str] = PydanticField(default_factory=list)
    doubts: dict[str, str] = PydanticField(default_factory=dict)
    evidence: dict[str, float] = PydanticField(default_factory=dict)


class Money(BaseModel):
    model_config = ConfigDict(frozen=True)

    amount: Decimal = PydanticField(ge=0)
    currency: str = PydanticField(default="USD", pattern=r"^[A-Z]{3}$")

    @field_validator("amount")
    @classmethod
    def _two_places(cls, v: Decimal) -> Decimal:
        return v.quantize(CENT, rounding=ROUND_HALF_UP)

    def __str__(self) -> str:
        return f"{self.amount} {self.currency}"


class RentStep(BaseModel):
    """One period of base rent. ``start``/``end`` are dates or 1-based month numbers."""

    # A key the model does not know is refused, not dropped: a reviewer's typo
    # ("monthy") would otherwise commit a step without its rent.
    model_config = ConfigDict(extra="forbid")

    start: dt.date | int | None = None
    end: dt.date | int | None = None
    monthly: Decimal | None = PydanticField(default=None, ge=0)
    annual: Decimal | None = PydanticField(default=None, ge=0)
    per_sqft_annual: Decimal | None = PydanticField(default=None, ge=0)


class EscalationKind(StrEnum):
    FIXED_PERCENT = "fixed_percent"
    FIXED_AMOUNT = "fixed_amount"
    CPI = "cpi"
    SCHEDULE = "schedule"
    NONE = "none"


class Escalation(BaseModel):
    """How base rent grows: ``rate`` is the percent (fixed_percent) or the amount
    (fixed_amount) per step; CPI, a schedule, or none need no rate."""

    # Unknown keys refused: {"kind": "fixed_percent", "percent": "2.5"} once committed
    # rate null.
    model_config = ConfigDict(extra="forbid")

    kind: EscalationKind
    rate: Decimal | None = PydanticField(default=None, ge=0)

    @model_validator(mode="after")
    def _fixed_kinds_state_their_rate(self) -> Escalation:
        if self.kind in (EscalationKind.FIXED_PERCENT, EscalationKind.FIXED_AMOUNT) and (
            self.rate is None
        ):
            raise ValueError(f"a {self.kind.value} escalation needs its rate")
        return self


class PeriodUnit(StrEnum):
    DAYS = "days"
    MONTHS = "months"  # years are written as months


class Period(BaseModel):
    """A length of time as a lease counts it: "nine (9) months", "ninety (90) days"."""

    model_config = ConfigDict(frozen=True)

    count: int = PydanticField(ge=1)
    unit: PeriodUnit


class NoticeWindow(BaseModel):
    """When a notice must be given, counted back from a date (the expiration, a break date).

    "not less than nine (9) months prior to the expiration" is ``least`` = 9 months;
    "not more than 12 months' and not less than 9 months' notice" adds ``most`` = 12
    months: the window opens 12 months and closes 9 months before the date.
    """

    model_config = ConfigDict(frozen=True)

    least: Period
    most: Period | None = None

    def describe(self) -> str:
        """ "9–12 months", "at least 90 days": how a person reads the window."""
        least = f"{self.least.count} {self.least.unit.value}"
        if self.most is None:
            return f"at least {least}"
        if self.most.unit is self.least.unit:
            return f"{self.least.count}–{self.most.count} {self.least.unit.value}"
        return f"{least} to {self.most.count} {self.most.unit.value}"


class NoticeAddresses(BaseModel):
    """Where each party takes notices, as the notices clause states the address:
    ``{"landlord": "1 Harbor Way, Suite 300, Portland, Maine 04101", "tenant": null}``."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    landlord: str | None = None
    tenant: str | None = None

    @model_validator(mode="after")
    def _one_at_least(self) -> NoticeAddresses:
        if self.landlord is None and self.tenant is None:
            raise ValueError("no notice address")
        return self


class AllowanceBasis(StrEnum):
    """What an allowance (or an expense stop) is stated per."""

    TOTAL = "total"  # one sum for the premises
    PER_SQFT = "per_sqft"  # per (rentable) square foot of the premises


class Allowance(BaseModel):
    """An amount stated in total or per square foot (a tenant improvement allowance, an
    expense stop): "$1,350,000.00" is ``{"amount": "1350000.00", "per": "total"}``, "$25.00
    per rentable square foot" is ``{"amount": "25.00", "per": "per_sqft"}``."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    amount: Decimal = PydanticField(ge=0)
    per: AllowanceBasis

    @field_validator("amount")
    @classmethod
    def _two_places(cls, v: Decimal) -> Decimal:
        return v.quantize(CENT, rounding=ROUND_HALF_UP)

    def describe(self) -> str:
        """ "25.00 per sq ft", "1350000.00 in total": how a person reads it."""
        return f"{self.amount} " + (
            "per sq ft" if self.per is AllowanceBasis.PER_SQFT else "in total"
        )


class Transfers(StrEnum):
    """What the lease says of assigning it or subletting the premises."""

    PERMITTED = "permitted"  # without the landlord's consent
    CONSENT = "consent"  # only with the landlord's consent
    PROHIBITED = "prohibited"  # not at all


def described(
    *,
    group: str,
    label: str,
    meaning: str,
    example: str,
    core: bool = False,
    amendable: bool = False,
    column: str | None = None,
    hint: str = "",
) -> Any:
    """A field of the abstraction, described once, where it is declared (lease_parser/
    fields.py reads it): how it is read (``group``: fields read alike share what the
    confidence model learns), what a reviewer sees (``label``, ``hint`` for typing it),
    what docs/fields.md says (``meaning``, ``example``: its JSON form), whether it is a
    ``core`` field (the targets' and the gate's), whether an amendment's value replaces the
    lease's (``amendable``), and its column in the Excel abstract's Portfolio sheet."""
    spec: dict[str, str | bool | None] = {
        "group": group,
        "label": label,
        "meaning": meaning,
        "example": example,
        "core": core,
        "amendable": amendable,
        "column": column,
        "hint": hint,
    }
    extra: dict[str, Any] = {"lease_field": spec}
    return PydanticField(default_factory=Field, json_schema_extra=extra)


class LeaseAbstraction(BaseModel):
    """The typed abstraction of one document: each field's type and description, once."""

    kind: DocumentKind = DocumentKind.LEASE
    landlord: Field[str] = described(
        group="party",
        label="Landlord",
        column="Landlord",
        core=True,
        amendable=True,
        example='`"Harbor Point Owner LLC"`',
        meaning="legal name of the landlord / lessor / sublandlord as stated in the preamble "
        '(without "a Delaware corporation")',
    )
    tenant: Field[str] = described(
        group="party",
        label="Tenant",
        column="Tenant",
        core=True,
        amendable=True,
        example='`"Bluefin Analytics, Inc."`',
        meaning="legal name of the tenant / lessee / subtenant",
    )
    premises_address: Field[str] = described(
        group="address",
        label="Premises address",
        column="Premises",
        core=True,
        amendable=True,
        example='`"1200 Harbor Point Blvd, Suite 400, Baltimore, MD 21230"`',
        meaning="street address of the building or unit, one line, suite included where stated",
    )
    rentable_sqft: Field[Decimal] = described(
        group="area",
        label="Rentable area (sq ft)",
        column="Rentable sq ft",
        core=True,
        hint="a number, e.g. 8750",
        example='`"11550"`',
        meaning="rentable square feet of the premises (only areas the premises are the subject of)",
    )
    lease_date: Field[dt.date] = described(
        group="date",
        label="Lease date",
        column="Lease date",
        core=True,
        example='`"2024-03-15"`',
        meaning='the date the agreement is "made as of" / dated / effective',
    )
    commencement_date: Field[dt.date] = described(
        group="date",
        label="Commencement date",
        column="Commencement",
        example='`"2024-05-01"`',
        meaning="the date the term starts, **only when a calendar date is stated**; a "
        'commencement defined by an event ("upon delivery of possession") is `null`',
    )
    expiration_date: Field[dt.date] = described(
        group="date",
        label="Expiration date",
        column="Expiration",
        amendable=True,
        example='`"2029-07-31"`',
        meaning="last day of the term, when stated as a calendar date",
    )
    term_months: Field[int] = described(
        group="term",
        label="Term (months)",
        column="Term (months)",
        core=True,
        hint="whole months, e.g. 60",
        example="`63`",
        meaning='length of the initial term in months (`"five (5) years"` → 60)',
    )
    base_rent_monthly: Field[Money] = described(
        group="rent",
        label="Base rent, monthly",
        column="Monthly base rent",
        core=True,
        amendable=True,
        example='`"24062.50"`',
        meaning="the initial monthly base/minimum/fixed rent (the first period with rent to pay)",
    )
    base_rent_annual: Field[Money] = described(
        group="rent",
        label="Base rent, annual",
        column="Annual base rent",
        core=True,
        amendable=True,
        example='`"288750.00"`',
        meaning="the initial annual base rent",
    )
    rent_schedule: Field[list[RentStep]] = described(
        group="schedule",
        label="Rent schedule",
        example="a list of steps, below",
        meaning="each period of base rent",
    )
    escalation: Field[Escalation] = described(
        group="schedule",
        label="Escalation",
        amendable=True,
        example='`{"kind": "fixed_percent", "rate": "3.00"}`, below',
        meaning="how base rent grows",
    )
    cam_monthly: Field[Money] = described(
        group="charge",
        label="CAM, monthly",
        amendable=True,
        example='`"1925.00"`',
        meaning="estimated monthly CAM / operating-expense charge, when stated as money",
    )
    tenant_share_percent: Field[Decimal] = described(
        group="charge",
        label="Tenant's share (%)",
        amendable=True,
        hint="a percent, e.g. 12.5",
        example='`"4.25"`',
        meaning="tenant's proportionate share, as a percent",
    )
    security_deposit: Field[Money] = described(
        group="deposit",
        label="Security deposit",
        column="Security deposit",
        core=True,
        amendable=True,
        example='`"48125.00"`',
        meaning='the security deposit (cash, or the letter of credit\'s amount); "none" is '
        '`"0.00"`, never mentioned is `null`',
    )
    renewal_option_count: Field[int] = described(
        group="option",
        label="Renewal options",
        column="Renewal options",
        amendable=True,
        hint="a whole number",
        example="`2`",
        meaning="options to renew or extend (`0` when the lease says there is none)",
    )
    renewal_term_months: Field[int] = described(
        group="option",
        label="Renewal term (months)",
        column="Renewal term (months)",
        amendable=True,
        hint="whole months",
        example="`60`",
        meaning="length of each renewal term in months",
    )
    currency: Field[str] = described(
        group="currency",
        label="Currency",
        hint="ISO 4217, e.g. USD",
        example='`"USD"`',
        meaning="ISO 4217 code: written codes first, then the jurisdiction, else `USD`",
    )
    # Portfolio fields (issue 16): what critical dates and amendments need. Listed after
    # the first eighteen so export columns keep their places.
    renewal_notice: Field[NoticeWindow] = described(
        group="notice",
        label="Renewal notice",
        column="Renewal notice",
        amendable=True,
        example='`{"least": {"count": 9, "unit": "months"}, "most": {"count": 12, "unit": '
        '"months"}}`, below',
        meaning="when notice exercising a renewal or extension option is due, counted back "
        "from the end of the term it follows",
    )
    termination_option_date: Field[dt.date] = described(
        group="date",
        label="Break date",
        amendable=True,
        example='`"2027-06-30"`',
        meaning="the date a tenant's break option ends the lease on, when stated as a date",
    )
    termination_notice: Field[NoticeWindow] = described(
        group="notice",
        label="Break notice",
        amendable=True,
        example='`{"least": {"count": 6, "unit": "months"}, "most": null}`',
        meaning="the notice the break option needs, counted back from that date",
    )
    amended_lease_date: Field[dt.date] = described(
        group="date",
        label="Amends the lease dated",
        example='`"2019-04-09"`',
        meaning="an amendment only: the date of the lease it amends (what links it to its lease)",
    )
    premises_added_sqft: Field[Decimal] = described(
        group="area",
        label="Area added (sq ft)",
        hint="a number, e.g. 2400",
        example='`"2400"`',
        meaning="an amendment only: area it adds to the premises",
    )
    # What lease abstractors expect next (issue 23). Not labelled yet, so the confidence
    # model has no calibration data for them: each is shown with its score and never
    # holds a document back, and extraction gives them no doubts (extraction/concessions.py,
    # extraction/covenants.py).
    letter_of_credit: Field[Money] = described(
        amendable=True,
        group="deposit",
        label="Letter of credit",
        column="Letter of credit",
        example='`"100000.00"`',
        meaning="the amount of a letter of credit the tenant gives as security (besides or "
        "instead of a cash deposit); none stated is `null`",
    )
    free_rent_months: Field[int] = described(
        amendable=True,
        group="schedule",
        label="Free rent (months)",
        hint="whole months, e.g. 6",
        example="`6`",
        meaning="months of free or abated base rent at the start of the term "
        '("Base Rent shall be abated for the first six (6) months" → 6)',
    )
    percentage_rent: Field[Decimal] = described(
        group="charge",
        label="Percentage rent (%)",
        hint="a percent, e.g. 5",
        example='`"5"`',
        meaning="percentage rent as a percent of gross sales (or revenue, receipts); the "
        "first rate where the lease states several",
    )
    ti_allowance: Field[Allowance] = described(
        amendable=True,
        group="charge",
        label="TI allowance",
        hint='JSON, e.g. {"amount": "25.00", "per": "per_sqft"}',
        example='`{"amount": "25.00", "per": "per_sqft"}`',
        meaning="the tenant improvement allowance: the total (`per`: `total`) where the lease "
        "states it, else the amount per square foot (`per_sqft`)",
    )
    expense_base_year: Field[int] = described(
        amendable=True,
        group="charge",
        label="Expense base year",
        hint="a year, e.g. 2024",
        example="`2008`",
        meaning="the base year the tenant's share of operating expenses or taxes is measured "
        'from ("Base Year: calendar year 2008")',
    )
    expense_stop: Field[Allowance] = described(
        group="charge",
        label="Expense stop",
        amendable=True,
        hint='JSON, e.g. {"amount": "9.75", "per": "per_sqft"}',
        example='`{"amount": "9.75", "per": "per_sqft"}`',
        meaning="the operating expenses the landlord bears before the tenant pays the excess: "
        "per square foot a year (`per_sqft`) or a total (`total`)",
    )
    break_dates: Field[list[dt.date]] = described(
        group="date",
        label="Break dates",
        amendable=True,
        hint='JSON, e.g. ["2027-06-30", "2030-06-30"]',
        example='`["2027-06-30", "2030-06-30"]`',
        meaning="every date a tenant's break option may end the lease on, when the lease states "
        "more than one (one date is `termination_option_date`)",
    )
    notice_addresses: Field[NoticeAddresses] = described(
        group="clause",
        label="Notice addresses",
        hint='JSON, e.g. {"landlord": "1 Harbor Way, Portland, Maine 04101", "tenant": null}',
        example='`{"landlord": "1 Harbor Way, Portland, Maine 04101", "tenant": null}`',
        meaning="where the notices clause sends each party's notices (the street address "
        "after the party's name)",
    )
    assignment_subletting: Field[Transfers] = described(
        group="clause",
        label="Assignment and subletting",
        hint="permitted, consent or prohibited",
        example='`"consent"`',
        meaning="whether the tenant may assign or sublet: `permitted` (without consent), "
        "`consent` (only with the landlord's consent), `prohibited`",
    )
    guarantor: Field[str] = described(
        group="party",
        label="Guarantor",
        column="Guarantor",
        example='`"Bluefin Holdings, Inc."`',
        meaning="the name of the guarantor of the tenant's obligations, as stated",
    )
    permitted_use: Field[str] = described(
        group="clause",
        label="Permitted use",
        example='`"general office purposes"`',
        meaning='the use the use clause permits, in its words, short ("general office purposes")',
    )

    @classmethod
    def field_names(cls) -> list[str]:
        return [name for name in cls.model_fields if name != "kind"]

    def field(self, name: str) -> Field[Any]:
        value = getattr(self, name)
        assert isinstance(value, Field)
        return value


FIELD_NAMES: tuple[str, ...] = tuple(LeaseAbstraction.field_names())


def field_description(name: str) -> dict[str, Any]:
    """What ``described`` said of a field (lease_parser/fields.py makes it a ``FieldSpec``)."""
    extra = LeaseAbstraction.model_fields[name].json_schema_extra
    assert isinstance(extra, dict), f"{name} is not declared with described()"
    spec = extra["lease_field"]
    assert isinstance(spec, dict)
    return dict(spec)


# The fields the targets are scored on; the gate looks hardest at these.
CORE_FIELDS: tuple[str, ...] = tuple(n for n in FIELD_NAMES if field_description(n)["core"])


class ProblemKind(StrEnum):
    """Why a field needs a person: the review item lists them in this order."""

    INVALID = "invalid"  # the value cannot be right (a negative rent, dates out of order)
    FAILED_RELATION = "failed_relation"  # it contradicts another value
    RIVAL_VALUE = "rival_value"  # the lease also states another value
    STATED_NOT_READ = "stated_not_read"  # the lease states it; nothing was read
    NOT_READ = "not_read"  # a core field nothing was read for: does the lease state it?
    CAVEAT = "caveat"  # the wording leaves it open ("The" before a name, words ≠ figures)
    LOW_PROBABILITY = "low_probability"  # probably right, not enough to commit unread
    DOCUMENT = "document"  # the document as a whole (a blank form, an amendment)


class FieldProblem(BaseModel):
    """Why a field is doubtful: shown to reviewers and stored with the review item."""

    field: str
    problem: str
    kind: ProblemKind = ProblemKind.INVALID
    page: int | None = None


class AppendedAbstraction(BaseModel):
    """An amendment filed after the lease in the same document, read on its own."""

    title: str
    abstraction: LeaseAbstraction


class AbstractionResult(BaseModel):
    """What the core returns for one document: a route, never an exception, for known outcomes.

    ``amendments``: the amendments that follow the lease in the same file, in file order;
    what they change is applied to the lease's current terms (lease_parser/portfolio).
    """

    route: Route
    reason: Reason | None = None
    confidence: float = 0.0
    abstraction: LeaseAbstraction | None = None
    problems: list[FieldProblem] = PydanticField(default_factory=list)
    pages: int = 0
    ocr_pages: int = 0
    detail: str | None = None
    amendments: list[AppendedAbstraction] = PydanticField(default_factory=list)


def json_value(value: Any) -> Any:
    """A field value as JSON: money and decimals as strings, dates as ISO strings."""
    if isinstance(value, Money):
        return str(value.amount)
    if isinstance(value, Decimal):
        return str(value)
    if isinstance(value, dt.date):
        return value.isoformat()
    if isinstance(value, BaseModel):
        return {k: json_value(v) for k, v in value.model_dump().items()}
    if isinstance(value, list):
        return [json_value(v) for v in value]
    if isinstance(value, StrEnum):
        return value.value
    return value


def abstraction_fields_json(abstraction: LeaseAbstraction) -> dict[str, dict[str, Any]]:
    """The ``fields`` object of ``abstract --json``: value, probability, provenance (and
    inputs), doubts and the evidence features, per field."""
    out: dict[str, dict[str, Any]] = {}
    for name in FIELD_NAMES:
        f = abstraction.field(name)
        out[name] = {
            "value": json_value(f.value),
            "confidence": round(f.confidence, 4),
            "provenance": f.provenance.model_dump() if f.provenance else None,
            "inputs": [p.model_dump() for p in f.inputs],
            "rivals": [r.model_dump() for r in f.rivals],
            "doubts": dict(f.doubts),
            "evidence": dict(f.evidence),
        }
    return out


def result_json(result: AbstractionResult) -> dict[str, Any]:
    """The one-object JSON form of ``abstract FILE --json`` (docs/fields.md)."""
    return {
        "route": result.route.value,
        "reason": result.reason.value if result.reason else None,
        "confidence": round(result.confidence, 4),
        "kind": result.abstraction.kind.value if result.abstraction else None,
        "pages": result.pages,
        "ocr_pages": result.ocr_pages,
        "detail": result.detail,
        "problems": [p.model_dump() for p in result.problems],
        "fields": abstraction_fields_json(result.abstraction) if result.abstraction else {},
        "amendments": [
            {"title": a.title, "fields": abstraction_fields_json(a.abstraction)}
            for a in result.amendments
        ],
    }
