"""Values typed into a form's blanks, put back where they were typed. Pure geometry on
text-run boxes, like parsing/layout.py.

E-signature services print each value typed into a form after the whole form, so pdfium's
stream order reads "Apartment No. , at" on one line and "755 … 755 Dublin" at the end of
the page: a lease read that way has no tenant, no address, no dates. Such a run is drawn
after both of its neighbours in reading order, which ordinary text never is; a page with a
few of them is read with each put after the words before its blank.
"""

from __future__ import annotations

import bisect
import math
from collections.abc import Sequence

from lease_parser.parsing.layout import MIN_RECTS, Rect

MIN_FILLS = 3
TAIL = 10  # the last runs of the stream: values filled in, at the end, are short
SHORT = 150.0  # points: a name, a date or an amount typed into a blank
SAME_LINE = 0.3  # share of the smaller height two runs of one line overlap by
SMALL = 0.6  # a run lower than this share of the median run is punctuation or a rule
NEAR = 2.5  # the line before a filled-in blank line lies within this many of its heights
# Share of a page's runs crossing a gap that makes it a blank in a column, not a gutter
# (a heading or a stamp may cross a gutter; a column's lines cross its blanks).
MIN_CROSSING = 0.1


def _height(r: Rect) -> float:
    return r[3] - r[1]


def filled_blanks(rects: Sequence[Rect]) -> dict[int, int] | None:
    """For a page whose blanks were filled in after its text was written, each filled-in
    run (by index) → the run it follows in reading order; ``None`` for any other page.

    A run written beside an earlier run of its line follows it; a run that starts its line
    in its column (a blank line under "list all residents:") follows the end of the line
    above it, when the line below was drawn before it too."""
    if len(rects) < MIN_RECTS or not _ends_in_values(rects):
        return None
    page = _Page(rects)
    fills: dict[int, int] = {}
    for line in page.lines:
        for at, run in enumerate(line):
            prev = line[at - 1] if at else None
            if prev is not None and rects[prev][2] > rects[run][0]:
                continue  # overlapping runs (a value typed over its underscores): as written
            if prev is not None and page.next_in_stream(prev, run):
                anchor = prev if prev in fills else None  # ordinary text, or a value's runs
            elif prev is not None and page.in_one_column(rects[prev][2], rects[run][0]):
                anchor = prev if run > prev else None
            else:
                anchor = page.after_line_above(run)
            if anchor is not None:
                fills[run] = anchor
    return fills if len(fills) >= MIN_FILLS else None


def _ends_in_values(rects: Sequence[Rect]) -> bool:
    """The cheap test first (most pages are not filled-in forms): the stream ends in short
    pieces of text, several on lines with other text."""
    centres = sorted((r[1] + r[3]) / 2 for r in rects)
    revisiting = 0
    for r in rects[-TAIL:]:
        if r[2] - r[0] < SHORT:  # another run's centre on its line: more than itself
            on_line = bisect.bisect_right(centres, r[3]) - bisect.bisect_left(centres, r[1])
            revisiting += on_line > 1
    return revisiting >= MIN_FILLS


class _Page:
    """A page's runs in lines, top to bottom, each line left to right."""

    def __init__(self, rects: Sequence[Rect]) -> None:
        self.rects = rects
        self.centres = [(r[1] + r[3]) / 2 for r in rects]
        heights = [r[3] - r[1] for r in rects]
        positive = sorted(h for h in heights if h > 0)
        small = SMALL * positive[len(positive) // 2] if positive else 0.0
        self.smalls = [h < small for h in heights]
        self.lines = self._lines()
        self.line_of = {i: n for n, line in enumerate(self.lines) for i in line}

    def is_small(self, run: int) -> bool:
        """Punctuation, a space or an underscore rule: part of a line, but no line's measure."""
        return self.smalls[run]

    def _lines(self) -> list[list[int]]:
        """Runs of a letter's height make the lines, each measured against its first
        (highest) run; each small run then joins the line whose band it lies in (one in no
        line's band stays off the lines)."""
        rects = self.rects
        lines: list[list[int]] = []
        bands: list[list[float]] = []  # each line's [bottom, top]
        smalls: list[int] = []
        bottom = top = 0.0  # the current line's first run
        for i in sorted(range(len(rects)), key=self.centres.__getitem__, reverse=True):
            r = rects[i]
            if self.smalls[i]:
                smalls.append(i)
            elif lines and min(top, r[3]) - max(bottom, r[1]) >= SAME_LINE * min(
                top - bottom, r[3] - r[1]
            ):
                lines[-1].append(i)
                band = bands[-1]
                band[0], band[1] = min(band[0], r[1]), max(band[1], r[3])
            else:
                lines.append([i])
                bands.append([r[1], r[3]])
                bottom, top = r[1], r[3]
        keys = [-(b + t) / 2 for b, t in bands]  # ascending, as the lines run
        for i in smalls:
            y = self.centres[i]
            at = bisect.bisect_left(keys, -y)
            for n in (at - 1, at):
                if 0 <= n < len(lines) and bands[n][0] - 1 <= y <= bands[n][1] + 1:
                    lines[n].append(i)
                    break
        return [sorted(line, key=lambda i: rects[i][0]) for line in lines]

    def in_one_column(self, left: float, right: float) -> bool:
        """Whether the gap from ``left`` to ``right`` is a blank in a column: other lines of
        the page run across it (nothing runs across a gutter between columns)."""
        needed, crossing = max(3, MIN_CROSSING * len(self.rects)), 0
        for r in self.rects:
            if r[0] <= left and r[2] >= right:
                crossing += 1
                if crossing >= needed:
                    return True
        return False

    def next_in_stream(self, prev: int, run: int) -> bool:
        """Whether ``run`` follows ``prev`` in the stream, but for small runs between."""
        return run > prev and all(self.is_small(i) for i in range(prev + 1, run))

    def after_line_above(self, run: int) -> int | None:
        """The run that ``run``, first on its line in its column, follows if it fills a
        blank line in: the end of the line above, when the lines above and below it were
        drawn before it and the stream did not just come from the line above."""
        came_from = next((k for k in range(run - 1, -1, -1) if not self.smalls[k]), None)
        if came_from is not None and 0 <= self.line_of[run] - self.line_of.get(came_from, -9) <= 1:
            return None  # the stream comes along its line or from the line above: prose
        # The line below may lie far down (room for four residents' names).
        below = self._nearest(run, +1, math.inf)
        if below is None or below > run:
            return None
        above = self._nearest(run, -1, NEAR * _height(self.rects[run]), joined=True)
        if above is None:
            return None
        line = self.lines[self.line_of[above]]
        if came_from in line:
            return None
        return self._end_of_line(line, above)

    def _nearest(self, run: int, step: int, reach: float, joined: bool = False) -> int | None:
        """The nearest run of a letter's height above (``step`` -1) or below (+1) ``run``
        that it overlaps across (or, ``joined``, that lies in its column), within ``reach``
        points."""
        rects, y = self.rects, self.centres[run]
        n = self.line_of[run] + step
        while 0 <= n < len(self.lines):
            for other in self.lines[n]:
                if self.smalls[other]:
                    continue
                if abs(self.centres[other] - y) > reach:
                    return None
                if _overlap_x(rects[other], rects[run]) or (joined and self._joined(other, run)):
                    return other
            n += step
        return None

    def _joined(self, a: int, b: int) -> bool:
        """Whether runs ``a`` and ``b`` lie in one column, side by side or overlapping."""
        left, right = sorted((self.rects[a], self.rects[b]))
        return left[2] >= right[0] or self.in_one_column(left[2], right[0])

    def _end_of_line(self, line: list[int], run: int) -> int:
        """The last run of ``run``'s line in its column: followed right while the gaps
        are blanks."""
        at = line.index(run)
        while at + 1 < len(line) and self.in_one_column(
            self.rects[line[at]][2], self.rects[line[at + 1]][0]
        ):
            at += 1
        return line[at]


def _overlap_x(a: Rect, b: Rect) -> bool:
    return a[0] < b[2] and b[0] < a[2]
