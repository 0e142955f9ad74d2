"""The term: its length in words and figures, and its calendar start and end."""

from __future__ import annotations

import pytest

from lease_parser.extraction import extract_fields
from lease_parser.extraction.base import RawField
from lease_parser.extraction.evidence import Doubt
from lease_parser.extraction.term import DURATION, extract_term, parse_duration
from tests.unit.extraction.lease_text import APARTMENT_FORM, by_name, document

FILLER = " The parties agree to the terms below." * 40
PREAMBLE = (
    'THIS LEASE is made as of May 1, 2019, between A LLC ("Landlord") and B Inc. ("Tenant"). '
)
# Dated just before the term below starts, so only the term relation is at stake.
PREAMBLE_2008 = (
    'THIS LEASE is made as of February 1, 2008, between A LLC ("Landlord") and B Inc. ("Tenant"). '
)
TERM_FIELDS = ("commencement_date", "term_months", "expiration_date")


def term(text: str) -> dict[str, RawField]:
    return by_name(extract_term(document(PREAMBLE + text + FILLER)))


def all_fields(text: str) -> dict[str, RawField]:
    """Every field, with the relations between them checked."""
    return extract_fields(document(PREAMBLE_2008 + text + FILLER))


@pytest.mark.parametrize(
    ("text", "months", "agree"),
    [
        ("five (5) years", 60, True),
        ("sixty-three (63) months", 63, True),
        ("ten (10) years and three (3) months", 123, True),
        ("20 years and 10 months", 250, None),
        ("84 full calendar months", 84, None),
        ("One year(s)", 12, None),
        ("TWELVE (12) months", 12, True),
        ("ten (10) Lease Years", 120, True),
        ("ten (10), years", 120, True),
        ("six (7) years", 84, False),
    ],
)
def test_durations(text: str, months: int, agree: bool | None) -> None:
    match = DURATION.search(text)
    assert match is not None
    length = parse_duration(match)
    assert length is not None
    assert (length.months, length.agree) == (months, agree)


@pytest.mark.parametrize(
    ("clause", "months"),
    [
        ('The term of this Lease ("Term") shall be for a period of five (5) years.', 60),
        ("This Sublease shall commence on the Commencement Date for a term of 37 months.", 37),
        (
            "The term shall commence on delivery and shall continue for ten (10) years thereafter.",
            120,
        ),
        (
            '"Term" shall mean the term of this Lease, which is three (3) years and two (2) '
            "months.",
            38,
        ),
        ("Term: 96 full calendar months, plus any partial month.", 96),
        ("Term: 125 years from the Commencement Date.", 1500),
        (
            "The Term shall end on the last day of the one hundred twentieth (120th) full calendar "
            "month following the Commencement Date.",
            120,
        ),
    ],
)
def test_term_length(clause: str, months: int) -> None:
    assert term(clause)["term_months"].value == str(months)


@pytest.mark.parametrize(
    "clause",
    [
        "Tenant may extend the term of this Lease for two (2) successive periods of five years.",
        "The Renewal Term shall be for a term of five (5) years.",
        "The term of the Master Lease is ten (10) years.",
        "The amortization term is 240 months.",
    ],
)
def test_renewals_and_other_terms_are_not_the_term(clause: str) -> None:
    assert "term_months" not in term(clause)


def test_words_agreeing_with_figures_check_the_length_figures_alone_do_not() -> None:
    checked = term("The term of this Lease shall be five (5) years.")["term_months"]
    assert checked.value == "60"
    assert checked.evidence["checks"] >= 1
    assert "checked by: words = figures" in checked.notes
    alone = term("The term of this Lease shall be 60 months.")["term_months"]
    assert alone.value == "60"
    assert alone.evidence["checks"] == 0


def test_calendar_commencement_and_expiration_agreeing_with_the_term_in_one_sentence() -> None:
    """commencement + term = expiration holds, but all three are read from one sentence: it
    counts as met for none of them."""
    found = all_fields(
        "The Term of this Lease shall be for a period of twelve (12) months, commencing on "
        'March 1, 2008 (the "Commencement Date") and ending at midnight on February 28, 2009.'
    )
    assert found["commencement_date"].value == "2008-03-01"
    assert found["expiration_date"].value == "2009-02-28"
    assert found["term_months"].value == "12"
    for name in TERM_FIELDS:
        assert Doubt.FAILED_RELATION not in found[name].doubts
        assert not any("+ 12 months" in note for note in found[name].notes)
    # The term's length is in no other relation.
    assert found["term_months"].evidence.get("relations_met", 0) == 0


def test_calendar_commencement_and_expiration_agreeing_with_the_term_across_sentences() -> None:
    found = all_fields(
        "The Term of this Lease shall be for a period of twelve (12) months. The Term shall "
        'commence on March 1, 2008 (the "Commencement Date"). The Term shall end at midnight on '
        "February 28, 2009."
    )
    assert [found[name].value for name in TERM_FIELDS] == ["2008-03-01", "12", "2009-02-28"]
    for name in TERM_FIELDS:
        assert found[name].evidence["relations_met"] >= 1
        assert "consistent: commencement 2008-03-01 + 12 months = expiration 2009-02-28" in (
            found[name].notes
        )
        assert Doubt.FAILED_RELATION not in found[name].doubts


def test_dates_contradicting_the_term_are_a_failed_relation_for_each() -> None:
    found = all_fields(
        "The Term of this Lease shall be for a period of twelve (12) months, "
        "commencing on March 1, 2008 and ending on February 28, 2010."
    )
    assert [found[name].value for name in TERM_FIELDS] == ["2008-03-01", "12", "2010-02-28"]
    for name in TERM_FIELDS:
        why = found[name].doubts[Doubt.FAILED_RELATION]
        assert why.startswith("term fails: commencement 2008-03-01 + 12 months")
        assert found[name].evidence["relations_failed"] >= 1


@pytest.mark.parametrize(
    "clause",
    [
        "The Term shall commence on the later of July 1, 2020 and the date Landlord delivers "
        "the Premises.",
        "The Commencement Date shall be the date which is 30 days after the Delivery Date; "
        "the Estimated Commencement Date is June 1, 2020.",
        "The term shall commence on October 1, 2005 or the date Sublandlord delivers the premises.",
        "Rent shall commence on October 15, 2004.",
    ],
)
def test_event_based_commencement_is_null(clause: str) -> None:
    assert "commencement_date" not in term(clause)


def test_amendment_extension_date_is_the_expiration_but_not_a_term_length() -> None:
    text = (
        'This letter agreement ("Extension"), when executed by the parties, amends the Lease as '
        "follows: 1. The term of the Lease is extended for three (3) years, through "
        "February 28, 2013." + FILLER
    )
    found = by_name(extract_term(document(text)))
    assert found["expiration_date"].value == "2013-02-28"
    assert "term_months" not in found


def test_a_rent_schedule_running_from_month_one_confirms_the_term() -> None:
    text = (
        "A term commencing on the Commencement Date and continuing for 36 full calendar months. "
        "Months Monthly Rent 1-12 $1,000.00 13-24 $1,030.00 25-36 $1,060.90"
    )
    raw = term(text)["term_months"]
    assert raw.value == "36"
    assert raw.evidence["statements"] >= 2
    assert raw.notes[0] == "stated by: rent schedule, term clause"


@pytest.mark.parametrize(
    "clause",
    [
        "If Tenant holds over, the tenancy shall be for a term of one (1) month at a time.",
        "The term of the Letter of Credit shall be one (1) year, renewed annually.",
    ],
)
def test_holdover_and_instrument_terms_are_not_the_lease_term(clause: str) -> None:
    assert "term_months" not in term(clause)


@pytest.mark.parametrize(
    ("clause", "start", "end"),
    [
        (
            "Contractual Term: 4 years from and including 14 May 2021 to and including "
            "13 May 2025.",
            "2021-05-14",
            "2025-05-13",
        ),
        (
            "(h) Commencement Date: Subject to Section 3.2 of Schedule C, March 1, 2022 "
            "(i) Expiry Date: Subject to Section 3.2 of Schedule C, February 28, 2026",
            "2022-03-01",
            "2026-02-28",
        ),
        (
            "The initial term of this Lease shall commence on 1st of April, 2023 and will end on "
            "31st of March, 2024.",
            "2023-04-01",
            "2024-03-31",
        ),
    ],
)
def test_calendar_start_and_end_as_other_drafters_write_them(
    clause: str, start: str, end: str
) -> None:
    read = term(clause)
    assert (read["commencement_date"].value, read["expiration_date"].value) == (start, end)


# ---------------------------------------------------------------- residential and English
# forms, and lengths read whole (issue 19)


@pytest.mark.parametrize(
    ("clause", "start", "end"),
    [
        (
            "The term of this lease shall be from June 1, 2022 to May 31, 2023.",
            "2022-06-01",
            "2023-05-31",
        ),
        ("Lease Term: June 1, 2022 through May 31, 2023.", "2022-06-01", "2023-05-31"),
        (
            "The terms of this tenancy shall commence on 02/01/2023 and end on 01/31/2024, and "
            "thereafter, shall be month-to-month.",
            "2023-02-01",
            "2024-01-31",
        ),
        (
            "LEASE TERM. Resident leases the unit for a period of 14 months for the term "
            "beginning on the first day of 01/01/2023 and ending on the last day of 02/29/2024.",
            "2023-01-01",
            "2024-02-29",
        ),
        (
            "Tenancy Period beginning on 14/09/2024 ending on 05/09/2025 (51 weeks). Agreement "
            "dated 28/06/2024.",
            "2024-09-14",
            "2025-09-05",
        ),
        (
            "The Term shall commence on 14th September 2024 and end on 5th September 2025.",
            "2024-09-14",
            "2025-09-05",
        ),
        ("The lease term shall begin on 9/24/23 and end on 8/31/24.", "2023-09-24", "2024-08-31"),
    ],
)
def test_term_dates_as_residential_and_english_leases_write_them(
    clause: str, start: str, end: str
) -> None:
    read = term(clause)
    assert (read["commencement_date"].value, read["expiration_date"].value) == (start, end)


@pytest.mark.parametrize(
    ("clause", "months"),
    [
        (
            "Lease Term. One hundred twenty-four (124) months, beginning on the Commencement Date.",
            124,
        ),
        # a soft hyphen, dropped from the text: "twentyfour"
        ("The Term shall be one hundred twenty\u00adfour (124) months.", 124),
        (
            "TERM OF LEASE: Approximately four (4) years, zero (0) months and zero (0) days "
            "beginning on the Commencement Date and ending on the Termination Date.",
            48,
        ),
        ("Term: three (3) years and zero (0) months.", 36),
    ],
)
def test_term_lengths_read_whole(clause: str, months: int) -> None:
    assert term(clause)["term_months"].value == str(months)


def test_a_sentence_in_capitals_before_the_term_clause_ends_at_its_full_stop() -> None:
    read = term(
        "TENANTS SHALL PROVIDE A 60-DAY WRITTEN NOTICE OF INTENT TO VACATE. 1.2 LEASE DURATION "
        "The terms of this tenancy shall commence on 02/01/2023 and end on 01/31/2024."
    )
    assert read["commencement_date"].value == "2023-02-01"
    assert read["expiration_date"].value == "2024-01-31"


@pytest.mark.parametrize(
    ("clause", "months"),
    [
        ("LEASE TERM. Resident hereby leases a 1 unit for a period of 14 months.", 14),
        ("Landlord rents the apartment to Tenant for a term of one (1) year.", 12),
    ],
)
def test_the_letting_verb_states_the_term(clause: str, months: int) -> None:
    assert term(clause)["term_months"].value == str(months)


def test_a_renewal_let_for_a_period_is_not_the_term() -> None:
    clause = "On renewal Landlord shall lease the Premises to Tenant for a period of five years."
    assert "term_months" not in term(clause)


@pytest.mark.parametrize(
    "clause",
    [
        "Tenant may terminate this Lease on December 31, 2025 upon a transfer of its diplomat.",
        "This Lease may be terminated on June 30, 2026 under the diplomatic clause below.",
        "The Lease shall end on the Expiration Date or such sooner date on which it ends.",
    ],
)
def test_a_date_the_lease_may_end_early_is_no_expiration(clause: str) -> None:
    assert "expiration_date" not in term(clause)


@pytest.mark.parametrize(
    ("clause", "months"),
    [
        ('"Duration of The Lease" - A period of 60 months, beginning at The Date of Delivery.', 60),
        ("Tenancy Period: 12 months from the Start Date.", 12),
    ],
)
def test_a_labelled_lease_period_is_the_term(clause: str, months: int) -> None:
    assert term(clause)["term_months"].value == str(months)


def test_a_term_ending_at_a_time_of_day_ends_on_the_date_after_it() -> None:
    found = all_fields(APARTMENT_FORM)
    assert found["commencement_date"].value == "2023-07-01"
    assert found["expiration_date"].value == "2024-06-30"
