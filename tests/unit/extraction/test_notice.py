"""Notice periods as leases write them (extraction/notice.py): the bounds of the window, in
days or months, and only when the period counts back from a date. Synthetic text."""

from __future__ import annotations

import pytest

from lease_parser.extraction.notice import describe, notice_windows, window_value
from lease_parser.model import NoticeWindow, Period, PeriodUnit


def months(n: int) -> Period:
    return Period(count=n, unit=PeriodUnit.MONTHS)


def days(n: int) -> Period:
    return Period(count=n, unit=PeriodUnit.DAYS)


CASES = [
    (
        "Tenant shall deliver notice of exercise not later than eight (8) months prior to the "
        "expiration of the Term.",
        NoticeWindow(least=months(8)),
    ),
    (
        "by written notice given no earlier than 14 months and no later than ten months before "
        "the scheduled Expiration Date.",
        NoticeWindow(least=months(10), most=months(14)),
    ),
    (
        "Tenant shall elect to extend no later than the date which is eleven (11) months prior "
        "to the Expiration Date.",
        NoticeWindow(least=months(11)),
    ),
    (
        "upon giving Landlord not more than 18 months' and not less than 12 months' notice prior "
        "to the expiration of the Term.",
        NoticeWindow(least=months(12), most=months(18)),
    ),
    (
        "provided that not less than 6 and not more than 10 full calendar months before the "
        "Expiration Date, Tenant delivers an Extension Notice.",
        NoticeWindow(least=months(6), most=months(10)),
    ),
    (
        "by giving written notice not less than one hundred twenty (120) days prior to the end "
        "of the Initial Term.",
        NoticeWindow(least=days(120)),
    ),
    (
        "written notice not less than three (3) months nor more than two (2) years prior to the "
        "expiration of the Term.",
        NoticeWindow(least=months(3), most=months(24)),
    ),
    (
        "the renewal must be requested not more than 9 months nor less than 4 months before the "
        "end of the term.",
        NoticeWindow(least=months(4), most=months(9)),
    ),
    (
        "lessee must notify lessor at least sixty days before this lease expires.",
        NoticeWindow(least=days(60)),
    ),
    (
        "a notice after the date that is eighteen (18) months, and on or before the date that is "
        "fourteen (14) months, prior to the Expiration Date",
        NoticeWindow(least=months(14), most=months(18)),
    ),
    (
        "by notice given between nine (9) and thirteen (13) months prior to the Expiration Date",
        NoticeWindow(least=months(9), most=months(13)),
    ),
    (
        "The Tenant may end the Term on the Break Date by giving not less than six (6) months' "
        "previous notice in writing.",
        NoticeWindow(least=months(6)),
    ),
    (
        "Tenant may cancel by giving Landlord four (4) months' prior written notice.",
        NoticeWindow(least=months(4)),
    ),
    (
        "no earlier than the date which is two hundred (200) days prior to the expiration of the "
        "then current Term but no later than the date which is ninety (90) days prior to it.",
        NoticeWindow(least=days(90), most=days(200)),
    ),
    (
        "if at least twelve (12), but not more than eighteen (18), months prior to the then "
        "current Stated Expiration Date, Tenant delivers a Renewal Notice",
        NoticeWindow(least=months(12), most=months(18)),
    ),
]


@pytest.mark.parametrize(("text", "expected"), CASES, ids=[str(i) for i in range(len(CASES))])
def test_a_notice_period_is_read_as_its_window(text: str, expected: NoticeWindow) -> None:
    [mention] = notice_windows(text, 0, len(text))
    assert mention.window == expected
    # The mention spans the bounds, so a reviewer is shown them.
    assert text[mention.start : mention.end].strip()


@pytest.mark.parametrize(
    "text",
    [
        "Rent is due not less than five (5) days after Landlord's invoice.",
        "Tenant shall maintain not less than $1,000,000 of insurance.",
        "The Premises contain not less than 5,000 rentable square feet.",
        "no earlier than fifteen (15) months before the Expiration Date.",  # no latest day
    ],
)
def test_no_window_where_nothing_counts_back_from_a_date(text: str) -> None:
    assert notice_windows(text, 0, len(text)) == []


def test_words_and_figures_agreeing_is_noted() -> None:
    text = "not less than nine (9) months prior to the expiration"
    [mention] = notice_windows(text, 0, len(text))
    assert mention.words_agree is True
    text = "not less than nine (8) months prior to the expiration"
    [mention] = notice_windows(text, 0, len(text))
    assert mention.words_agree is False
    assert mention.window.least == months(8)  # the figures are kept


def test_the_canonical_value_round_trips_and_reads_well() -> None:
    window = NoticeWindow(least=months(9), most=months(12))
    assert NoticeWindow.model_validate_json(window_value(window)) == window
    assert describe(window) == "9–12 months"
    assert describe(NoticeWindow(least=days(90))) == "at least 90 days"
    assert describe(NoticeWindow(least=days(90), most=months(6))) == "90 days to 6 months"
