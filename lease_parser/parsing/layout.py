"""Reading order for pages set in newspaper columns. Pure geometry on text-line boxes.

pdfium returns text in content-stream order. Most producers write one column after the
other, which reads correctly; some write line by line across the page, and pdfium then
joins a left-column line and the right-column line beside it into one line of nonsense.
``column_regions`` finds the gutters from pdfium's text rectangles (one per run of text
on a line, ~40 a page, fetched in ~0.3 ms) and returns the regions to read in order:
full-width bands (headings) top to bottom, and inside each columnar band, column by column.

A label/value layout ("Landlord:  Acme LLC" in a Basic Lease Information summary, or a
rent schedule set with tabs) also has gutters, but must be read row by row, or every label
loses its value. Newspaper columns are told apart by their shape: each column is wide
and its lines fill it. Anything else keeps pdfium's order.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from statistics import median

Rect = tuple[float, float, float, float]  # left, bottom, right, top (PDF user space)

MIN_RECTS = 12  # fewer text runs: not enough text to call it a columnar page
SPANNING_SHARE = 0.6  # a run wider than this share of the text width crosses columns
MIN_GUTTER = 6.0  # points of empty x between columns
EDGE_MARGIN = 0.2  # a gutter lies in the middle 60% of the text width
MIN_COLUMN_SHARE = 0.28  # each newspaper column is at least this share of the text width
MIN_FILL = 0.7  # median line width / column width in a newspaper column
MIN_LINES_PER_COLUMN = 6


def _gutters(rects: Sequence[Rect], left: float, width: float) -> list[tuple[float, float]]:
    """Empty x-intervals between the runs that do not span the page."""
    narrow = sorted((r[0], r[2]) for r in rects if r[2] - r[0] < SPANNING_SHARE * width)
    gaps: list[tuple[float, float]] = []
    reach = None
    for lo, hi in narrow:
        if reach is not None and lo - reach >= MIN_GUTTER:
            middle = (lo + reach) / 2
            if left + EDGE_MARGIN * width < middle < left + (1 - EDGE_MARGIN) * width:
                gaps.append((reach, lo))
        reach = hi if reach is None else max(reach, hi)
    return gaps


def _columns(cuts: list[float], left: float, right: float) -> list[tuple[float, float]]:
    """Column extents (left, right): the text width cut at each gutter's middle."""
    edges = [left - 2, *cuts, right + 2]
    return list(itertools.pairwise(edges))


def _is_newspaper(rects: Sequence[Rect], columns: list[tuple[float, float]], width: float) -> bool:
    for col_left, col_right in columns:
        inside = [r for r in rects if r[0] >= col_left and r[2] <= col_right]
        if len(inside) < MIN_LINES_PER_COLUMN:
            return False
        col_width = max(r[2] for r in inside) - min(r[0] for r in inside)
        if col_width < MIN_COLUMN_SHARE * width:
            return False
        if median(r[2] - r[0] for r in inside) < MIN_FILL * col_width:
            return False
    return True


def _bands(rects: Sequence[Rect], cuts: list[float]) -> list[tuple[bool, float, float]]:
    """Top-to-bottom bands: (spanning, bottom, top); a spanning run crosses a gutter."""
    bands: list[tuple[bool, float, float]] = []
    for r in sorted(rects, key=lambda r: -r[3]):
        spanning = any(r[0] < cut < r[2] for cut in cuts)
        if bands and bands[-1][0] == spanning:
            _, bottom, top = bands[-1]
            bands[-1] = (spanning, min(bottom, r[1]), top)
        else:
            bands.append((spanning, r[1], r[3]))
    return bands


def column_regions(rects: Sequence[Rect]) -> list[Rect] | None:
    """Regions to read in order if the page is set in newspaper columns, else ``None``."""
    if len(rects) < MIN_RECTS:
        return None
    left, right = min(r[0] for r in rects), max(r[2] for r in rects)
    width = right - left
    if width <= 0:
        return None
    cuts = [(lo + hi) / 2 for lo, hi in _gutters(rects, left, width)]
    if not cuts:
        return None
    columns = _columns(cuts, left, right)
    if not _is_newspaper(rects, columns, width):
        return None
    regions: list[Rect] = []
    bands = _bands(rects, cuts)
    for i, (spanning, bottom, top) in enumerate(bands):
        # Split the space between bands halfway, so no character falls in two regions.
        upper = top + 2 if i == 0 else (bands[i - 1][1] + top) / 2
        lower = bottom - 2 if i == len(bands) - 1 else (bands[i + 1][2] + bottom) / 2
        if spanning:
            regions.append((left - 2, lower, right + 2, upper))
        else:
            regions.extend((col_left, lower, col_right, upper) for col_left, col_right in columns)
    return regions
