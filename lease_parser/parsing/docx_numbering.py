"""DOCX list numbering: the labels Word draws ("1.", "(a)", "Section 2.3") but never stores.

A lease's clauses are cited by their numbers, so the labels matter. ``numbering.xml``
defines, per abstract list and level, a start value, a format (decimal, lowerLetter,
upperRoman, bullet …) and a template (``lvlText`` such as ``"%1.%2"`` or ``"(%3)"``).
A paragraph joins a list through its own ``w:numPr`` or through its paragraph style's.
Lists that share an abstract definition continue one sequence, as Word does, unless a
``w:num`` overrides the start.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from lxml import etree

W = "{http://schemas.openxmlformats.org/wordprocessingml/2006/main}"
LEVELS = 9
_ROMAN = [
    (1000, "m"),
    (900, "cm"),
    (500, "d"),
    (400, "cd"),
    (100, "c"),
    (90, "xc"),
    (50, "l"),
    (40, "xl"),
    (10, "x"),
    (9, "ix"),
    (5, "v"),
    (4, "iv"),
    (1, "i"),
]


def _roman(n: int) -> str:
    out = []
    for value, letters in _ROMAN:
        count, n = divmod(n, value)
        out.append(letters * count)
    return "".join(out)


def _letters(n: int) -> str:
    # Word repeats the letter past z: a..z, aa..zz, aaa..
    n = max(n, 1)
    return chr(ord("a") + (n - 1) % 26) * ((n - 1) // 26 + 1)


def format_number(n: int, fmt: str) -> str:
    """One level's value in its ``w:numFmt``; unknown formats fall back to decimal."""
    if fmt in ("lowerLetter", "upperLetter"):
        return _letters(n) if fmt == "lowerLetter" else _letters(n).upper()
    if fmt in ("lowerRoman", "upperRoman"):
        return _roman(n) if fmt == "lowerRoman" else _roman(n).upper()
    if fmt == "decimalZero":
        return f"{n:02d}"
    return "" if fmt == "none" else str(n)


@dataclass
class _Level:
    start: int = 1
    fmt: str = "decimal"
    text: str = ""
    style: str | None = None


@dataclass
class _Abstract:
    levels: dict[int, _Level] = field(default_factory=dict)


def _val(node: etree._Element | None, default: str = "") -> str:
    return default if node is None else str(node.get(W + "val", default))


def _int(text: str, default: int) -> int:
    try:
        return int(text)
    except ValueError:
        return default


def _level(lvl: etree._Element) -> _Level:
    return _Level(
        start=_int(_val(lvl.find(W + "start"), "1"), 1),
        fmt=_val(lvl.find(W + "numFmt"), "decimal"),
        text=_val(lvl.find(W + "lvlText"), ""),
        style=_val(lvl.find(W + "pStyle")) or None,
    )


class Numbering:
    """Counters for every list in one document part; ``label`` advances them."""

    def __init__(self, numbering: etree._Element | None, styles: etree._Element | None) -> None:
        self._abstracts: dict[str, _Abstract] = {}
        self._nums: dict[str, str] = {}  # numId -> abstractNumId
        self._starts: dict[str, dict[int, int]] = {}  # numId -> level -> start override
        self._styles: dict[str, tuple[str, int | None]] = {}
        self._counts: dict[str, list[int]] = {}
        self._restarted: set[str] = set()
        if numbering is not None:
            self._read_numbering(numbering)
        if styles is not None:
            self._read_styles(styles)

    def _read_numbering(self, root: etree._Element) -> None:
        for abstract in root.iter(W + "abstractNum"):
            levels = {
                _int(str(lvl.get(W + "ilvl", "0")), 0): _level(lvl)
                for lvl in abstract.iter(W + "lvl")
            }
            self._abstracts[str(abstract.get(W + "abstractNumId"))] = _Abstract(levels)
        for num in root.iter(W + "num"):
            num_id = str(num.get(W + "numId"))
            self._nums[num_id] = _val(num.find(W + "abstractNumId"))
            self._starts[num_id] = {
                _int(str(o.get(W + "ilvl", "0")), 0): _int(_val(o.find(W + "startOverride")), 1)
                for o in num.iter(W + "lvlOverride")
                if o.find(W + "startOverride") is not None
            }

    def _read_styles(self, root: etree._Element) -> None:
        for style in root.iter(W + "style"):
            num_pr = style.find(f"{W}pPr/{W}numPr")
            if num_pr is None:
                continue
            ilvl = num_pr.find(W + "ilvl")
            level = _int(_val(ilvl), 0) if ilvl is not None else None
            self._styles[str(style.get(W + "styleId"))] = (_val(num_pr.find(W + "numId")), level)

    def _list_of(self, paragraph: etree._Element) -> tuple[str, int] | None:
        num_pr = paragraph.find(f"{W}pPr/{W}numPr")
        style = _val(paragraph.find(f"{W}pPr/{W}pStyle")) or None
        if num_pr is not None and num_pr.find(W + "numId") is not None:
            num_id = _val(num_pr.find(W + "numId"))
            level = _int(_val(num_pr.find(W + "ilvl"), "0"), 0)
        elif style in self._styles:
            num_id, style_level = self._styles[style]
            level = style_level if style_level is not None else self._level_of_style(num_id, style)
        else:
            return None
        if num_id in ("", "0") or num_id not in self._nums:
            return None  # numId 0 switches numbering off
        return num_id, min(max(level, 0), LEVELS - 1)

    def _level_of_style(self, num_id: str, style: str | None) -> int:
        abstract = self._abstracts.get(self._nums.get(num_id, ""), _Abstract())
        return next((i for i, lvl in abstract.levels.items() if lvl.style == style), 0)

    def label(self, paragraph: etree._Element) -> str:
        """The paragraph's list label ("" when it is not in a list), advancing the counter."""
        found = self._list_of(paragraph)
        if found is None:
            return ""
        num_id, level = found
        abstract_id = self._nums[num_id]
        levels = self._abstracts.get(abstract_id, _Abstract()).levels
        starts = {i: lvl.start for i, lvl in levels.items()} | self._starts.get(num_id, {})
        counts = self._counts.setdefault(abstract_id, [0] * LEVELS)
        if self._starts.get(num_id) and num_id not in self._restarted:
            self._restarted.add(num_id)  # a start override restarts the shared sequence
            counts[:] = [0] * LEVELS
        counts[level] = counts[level] + 1 if counts[level] else starts.get(level, 1)
        for deeper in range(level + 1, LEVELS):
            counts[deeper] = 0
        definition = levels.get(level, _Level(text=f"%{level + 1}."))
        if definition.fmt == "bullet":
            return "•"
        text = definition.text
        for i in range(level, -1, -1):
            lvl = levels.get(i, _Level())
            value = counts[i] or starts.get(i, 1)
            text = text.replace(f"%{i + 1}", format_number(value, lvl.fmt))
        return text
