"""The field registry: every field described once, and every table derived from it."""

from __future__ import annotations

import re
from pathlib import Path

from lease_parser.extraction.stated import SHAPES, UNSHAPED
from lease_parser.fields import AMENDABLE, FIELD_SPECS, HINTS, LABELS, SPECS, markdown_table
from lease_parser.model import CORE_FIELDS, FIELD_NAMES, LeaseAbstraction
from lease_parser.portfolio.workbook import PORTFOLIO_FIELDS, PortfolioWorkbook
from lease_parser.scoring.confidence import FIELD_GROUPS, GROUPS
from lease_parser.scoring.normalization import MONEY_FIELDS, TEXT_FIELDS

DOCS = Path(__file__).resolve().parents[2] / "docs"


def test_every_field_of_the_model_is_described_and_nothing_else() -> None:
    assert [s.name for s in FIELD_SPECS] == list(FIELD_NAMES)
    assert list(FIELD_NAMES) == [n for n in LeaseAbstraction.model_fields if n != "kind"]
    for spec in FIELD_SPECS:
        assert spec.label, spec.name
        assert spec.meaning, spec.name
        assert spec.example, spec.name
        assert spec.group in GROUPS, spec.name


def test_the_tables_are_derived_from_the_descriptions() -> None:
    assert {s.name: s.group for s in FIELD_SPECS} == FIELD_GROUPS
    assert set(LABELS) == set(FIELD_NAMES)
    assert len(set(LABELS.values())) == len(LABELS)  # no two fields read the same
    assert tuple(s.name for s in FIELD_SPECS if s.core) == CORE_FIELDS
    assert set(PORTFOLIO_FIELDS) == {s.name for s in FIELD_SPECS if s.column}
    headings = PortfolioWorkbook.PORTFOLIO_COLUMNS
    assert [SPECS[n].column for n in PORTFOLIO_FIELDS] == list(
        headings[1 : 1 + len(PORTFOLIO_FIELDS)]
    )


def test_every_field_a_reviewer_types_has_a_hint() -> None:
    # Names are typed as they read; a schedule and an escalation are forms of their own.
    typed = set(FIELD_NAMES) - TEXT_FIELDS - {"rent_schedule", "escalation"}
    assert set(HINTS) == typed | {"currency"}
    assert all(HINTS[n].startswith("an amount") for n in MONEY_FIELDS)


def test_what_an_amendment_may_change_is_its_descriptions_say() -> None:
    assert set(AMENDABLE) == {
        "landlord",
        "tenant",
        "premises_address",
        "expiration_date",
        "base_rent_monthly",
        "base_rent_annual",
        "escalation",
        "cam_monthly",
        "tenant_share_percent",
        "security_deposit",
        "renewal_option_count",
        "renewal_term_months",
        "renewal_notice",
        "termination_option_date",
        "termination_notice",
        # What an amendment grants again: new free months, an allowance, a base year, a
        # letter of credit, an expense stop, new break dates.
        "letter_of_credit",
        "free_rent_months",
        "ti_allowance",
        "expense_base_year",
        "expense_stop",
        "break_dates",
    }


def test_every_field_has_a_stated_shape_or_a_reason_it_has_none() -> None:
    assert set(SHAPES) | set(UNSHAPED) == set(FIELD_NAMES)
    assert not set(SHAPES) & set(UNSHAPED)


def test_docs_fields_table_is_the_registry_s() -> None:
    text = (DOCS / "fields.md").read_text()
    table = "\n".join(line for line in text.splitlines() if re.match(r"\| `\w+` \|", line))
    expected = "\n".join(markdown_table().splitlines()[2:])
    assert table == expected, "regenerate it: python -m lease_parser.fields"
