"""Tables: rent schedules and "Basic Lease Information" summaries, located in the page text.

Two finders, each run only where it earns its cost:

* **Ruled tables** (drawn with lines or cell boxes): pdfplumber's table finder, ~80-300 ms a
  page, so pdf.py runs it only on pages whose vector graphics could form a grid
  (``is_ruled``), at most ``ParseLimits.max_table_pages`` of them. pdfplumber is the
  adapter's library here: its exceptions stay in this module and become a warning on the
  document (the page text is intact; only the table structure is lost).
* **Aligned tables** (columns set with tabs or spaces, no lines): built from pdfium's own
  text runs, on pages whose text names a schedule; free, since the runs are already there.

Either way the cells are then located in ``page.text`` (pdfium's text, which extraction
cites), so a table's offsets point into the page text (see ``Table``).
"""

from __future__ import annotations

import io
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import pdfplumber

from lease_parser.parsing.base import Span, Table
from lease_parser.parsing.layout import Rect
from lease_parser.parsing.text import normalize_text

# Pages naming a schedule or a lease summary get the (cheap) aligned-table finder.
TABLE_KEYWORDS = re.compile(
    r"\brent|schedule|basic lease|lease information|summary of|installment", re.IGNORECASE
)
MIN_ROWS = 3  # an aligned table: at least this many rows ...
MIN_COLUMNS = 2  # ... of at least this many cells
ALIGN_TOLERANCE = 4.0  # points: cells of one column start (or end) within this of each other
# pdfium splits a justified prose line into runs that touch; table cells have a gutter.
MIN_CELL_GAP = 8.0
# A first column of list markers ("1.", "(a)", "o", "•") is a list, not a table.
_LIST_MARKER = re.compile(r"\(?[0-9a-zA-Z]{1,3}[.)]|[o•·*▪■-]")


@dataclass(frozen=True)
class PageGraphics:
    """Vector and image statistics of one PDF page (measured by pdf.py from pdfium)."""

    image_coverage: float = 0.0
    vector_objects: int = 0
    horizontal_rules: int = 0  # thin horizontal paths (table rules, also form underlines)
    vertical_rules: int = 0
    # Cell-sized rectangles sharing an edge with another: a grid of cells. Form fields and
    # highlighted blanks are boxes too, but stand apart (form_georgia p1 has 15, none touch).
    cell_boxes: int = 0


# More paths than this is a drawing (a site plan), not a table, and pdfminer, pure Python,
# would spend seconds on it.
MAX_PATHS_FOR_TABLES = 3000


def is_ruled(g: PageGraphics) -> bool:
    """Could the page's lines form a table grid? Underlines and lone boxes (forms) cannot."""
    if g.vector_objects > MAX_PATHS_FOR_TABLES:
        return False
    return g.cell_boxes >= 3 or (g.horizontal_rules >= 2 and g.vertical_rules >= 2)


TOUCH = 2.0  # points between the edges of two adjacent cells


def _touch(a: Rect, b: Rect) -> bool:
    overlap_x = min(a[2], b[2]) - max(a[0], b[0]) > TOUCH
    overlap_y = min(a[3], b[3]) - max(a[1], b[1]) > TOUCH
    side_by_side = abs(a[2] - b[0]) <= TOUCH or abs(b[2] - a[0]) <= TOUCH
    stacked = abs(a[3] - b[1]) <= TOUCH or abs(b[3] - a[1]) <= TOUCH
    return (side_by_side and overlap_y) or (stacked and overlap_x)


def touching_boxes(boxes: Sequence[Rect]) -> int:
    """How many of the boxes share an edge with another box."""
    return sum(
        1 for i, a in enumerate(boxes) if any(_touch(a, b) for j, b in enumerate(boxes) if i != j)
    )


# ------------------------------------------------------------------ locating cells


def _find(cell: str, text: str, start: int) -> Span | None:
    tokens = cell.split()
    if not tokens:
        return None
    # Whitespace-insensitive: pdfminer and pdfium may break a cell's words differently.
    match = re.compile(r"\s*".join(re.escape(t) for t in tokens)).search(text, start)
    return (match.start(), match.end()) if match else None


def locate_table(rows: list[list[str]], text: str) -> Table:
    """A ``Table`` whose spans point at each cell in ``text`` (searched in reading order)."""
    cursor = 0
    spans: list[list[Span | None]] = []
    for row in rows:
        row_spans: list[Span | None] = []
        for cell in row:
            span = _find(cell, text, cursor) or _find(cell, text, 0)
            if span is not None:
                cursor = span[1]
            row_spans.append(span)
        spans.append(row_spans)
    located = [s for row in spans for s in row if s is not None]
    if not located:
        return Table(rows=rows, spans=spans)
    return Table(
        rows=rows,
        start=min(s[0] for s in located),
        end=max(s[1] for s in located),
        spans=spans,
    )


def _clean_rows(raw: Sequence[Sequence[str | None]]) -> list[list[str]]:
    return [[" ".join(normalize_text(c or "").split()) for c in row] for row in raw]


def _worth_keeping(rows: list[list[str]]) -> bool:
    filled = sum(1 for row in rows for cell in row if cell)
    return len(rows) >= 2 and max(len(r) for r in rows) >= 2 and filled >= 2


# ------------------------------------------------------------------ ruled (pdfplumber)


# PDF readers look for the header in the first 1024 bytes; pdfium skips what precedes it,
# pdfminer does not (a lease published with an HTTP multipart preamble in front).
HEADER_WINDOW = 1024


def _from_header(data: bytes) -> bytes:
    """The bytes from the ``%PDF-`` header on, so both readers see the same file."""
    start = data.find(b"%PDF-", 0, HEADER_WINDOW)
    return data[start:] if start > 0 else data


def ruled_tables(
    data: bytes, texts: dict[int, str], password: str | None
) -> tuple[dict[int, list[Table]], list[str]]:
    """pdfplumber's table finder on the given 1-based pages; failures become warnings."""
    found: dict[int, list[Table]] = {}
    warnings: list[str] = []
    try:
        with pdfplumber.open(
            io.BytesIO(_from_header(data)), pages=sorted(texts), password=password or ""
        ) as pdf:
            for page in pdf.pages:
                try:
                    raw_tables = page.extract_tables()
                except Exception as exc:  # pdfminer raises many unrelated types
                    warnings.append(f"page {page.page_number}: table finder failed: {exc!r}")
                    continue
                finally:
                    page.close()
                tables = [_clean_rows(t) for t in raw_tables]
                text = texts[page.page_number]
                kept = [locate_table(rows, text) for rows in tables if _worth_keeping(rows)]
                if kept:
                    found[page.page_number] = kept
    except Exception as exc:  # pdfminer could not open what pdfium read: keep the text
        warnings.append(f"table finder could not open the PDF: {exc!r}")
    return found, warnings


# ------------------------------------------------------------------ aligned (pdfium runs)


def _centre(rect: Rect) -> float:
    return (rect[1] + rect[3]) / 2


def _lines(rects: Sequence[Rect]) -> list[list[Rect]]:
    """Group text runs into lines (vertical centres within half a line height), top down."""
    lines: list[list[Rect]] = []
    for rect in sorted(rects, key=lambda r: (-_centre(r), r[0])):
        height = max(rect[3] - rect[1], 1.0)
        if lines and abs(_centre(lines[-1][0]) - _centre(rect)) < height / 2:
            lines[-1].append(rect)
        else:
            lines.append([rect])
    return [_merge_touching(sorted(line, key=lambda r: r[0])) for line in lines]


def _merge_touching(line: list[Rect]) -> list[Rect]:
    merged = [line[0]]
    for rect in line[1:]:
        last = merged[-1]
        if rect[0] - last[2] < MIN_CELL_GAP:
            merged[-1] = (
                last[0],
                min(last[1], rect[1]),
                max(last[2], rect[2]),
                max(last[3], rect[3]),
            )
        else:
            merged.append(rect)
    return merged


def _aligned(a: list[Rect], b: list[Rect]) -> bool:
    if len(a) != len(b):
        return False
    return all(
        abs(x[0] - y[0]) <= ALIGN_TOLERANCE or abs(x[2] - y[2]) <= ALIGN_TOLERANCE
        for x, y in zip(a, b, strict=True)
    )


def aligned_blocks(rects: Sequence[Rect]) -> list[list[list[Rect]]]:
    """Runs of ≥3 lines whose ≥2 text runs line up column by column: geometry only."""
    blocks: list[list[list[Rect]]] = []
    block: list[list[Rect]] = []
    for line in [*_lines(rects), []]:  # the empty sentinel line closes the last block
        if len(line) >= MIN_COLUMNS and (not block or _aligned(block[-1], line)):
            block.append(line)
            continue
        if len(block) >= MIN_ROWS:
            blocks.append(block)
        block = [line] if len(line) >= MIN_COLUMNS else []
    return blocks


def aligned_tables(
    blocks: list[list[list[Rect]]], read: Callable[[Rect], str], text: str
) -> list[Table]:
    """Tables set with tabs or spaces; ``read`` gives the text inside one run's box."""
    tables = []
    for block in blocks:
        rows = _clean_rows([[read(r) for r in line] for line in block])
        if not all(_LIST_MARKER.fullmatch(row[0]) for row in rows):
            tables.append(locate_table(rows, text))
    return tables
