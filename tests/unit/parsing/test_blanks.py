"""Values typed into a form's blanks after the form was written, on synthetic text-run
boxes (left, bottom, right, top)."""

from __future__ import annotations

from lease_parser.parsing.blanks import filled_blanks
from lease_parser.parsing.layout import Rect


def _lines(left: float, right: float, top: float, count: int, step: float = 12) -> list[Rect]:
    return [(left, top - i * step - 9, right, top - i * step) for i in range(count)]


def _line(n: int, left: float, right: float) -> Rect:
    top = 740.0 - 12 * n
    return (left, top - 9, right, top)


def _filled_form() -> list[Rect]:
    """A form's lines (a label over a blank line, a line with a blank between two runs, a
    date label), then the values typed into its blanks, drawn last, and a stamp."""
    prose = [_line(n, 50, 560) for n in (0, 1, *range(5, 21))]
    form = [_line(2, 50, 300), _line(4, 50, 150), _line(4, 260, 290), _line(21, 50, 90)]
    body = prose[:2] + form[:3] + prose[2:] + form[3:]
    values = [_line(4, 170, 200), _line(3, 50, 200), _line(4, 300, 400), _line(21, 100, 180)]
    return body + values + [(50.0, 40.0, 400.0, 48.0)]


def test_values_filled_in_after_a_form_follow_the_words_before_their_blanks() -> None:
    rects = _filled_form()
    label, apartment, at, date = 2, 3, 4, 21
    assert filled_blanks(rects) == {
        22: apartment,  # beside "Apartment No." on its line
        23: label,  # on the blank line under "list all residents:"
        24: at,
        25: date,
    }


def test_ordinary_pages_are_read_in_stream_order() -> None:
    assert filled_blanks(_lines(50, 560, 740, 40)) is None
    columns = _lines(50, 285, 740, 20) + _lines(320, 560, 740, 20)
    assert filled_blanks(columns) is None
    labels = [(50.0, 740 - i * 16 - 9, 120.0, 740 - i * 16) for i in range(10)]
    summary = [
        r for pair in zip(labels, _lines(220, 330, 740, 10, step=16), strict=True) for r in pair
    ]
    assert filled_blanks(summary) is None  # label, value, label, value: as written


def test_a_comma_and_an_underscore_rule_stay_on_their_line() -> None:
    """Measured against a quote mark the line would break, and a value typed over its
    underscores would look filled in."""
    line = [(50.0, 700.0, 120.0, 710.0), (121.0, 706.0, 124.0, 710.0), (125.0, 700.0, 200.0, 710.0)]
    rule = (201.0, 699.0, 260.0, 699.5)
    value = (205.0, 700.0, 240.0, 709.0)
    rects = _lines(50, 560, 690, 30) + line + [rule, value] + _lines(50, 100, 300, 8)
    assert filled_blanks(rects) is None
