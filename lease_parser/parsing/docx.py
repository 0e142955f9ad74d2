"""DOCX: body paragraphs and tables in document order, tracked changes resolved as accepted.

We walk the WordprocessingML ourselves rather than use python-docx's ``paragraph.text``,
which silently drops runs inside ``w:ins`` (inserted text of a tracked change). Accepting
all changes means: keep ``w:ins`` and ``w:moveTo`` runs, drop ``w:del`` (its
``w:delText``), ``w:moveFrom`` and rows marked deleted. Fields keep their displayed result
and drop their instruction (``PAGE``, ``REF _Ref123 \\h``). Text boxes follow the paragraph
that anchors them (once: Word stores a VML fallback copy, which we skip). List labels come
from numbering.xml (docx_numbering.py). Headers and footers are kept apart from the body.

With ``marks=True`` (the reviewers' workspace, never the pipeline) the text also keeps
what was deleted, and brackets tracked insertions and deletions with private-use
characters (``INS_OPEN`` … ``INS_CLOSE``, ``DEL_OPEN`` … ``DEL_CLOSE``) so a page can show
them; without the deleted text and the marks it is the same text the pipeline reads.

The zip and XML are read through archive.py, which refuses bombs before inflating.
"""

from __future__ import annotations

from lxml import etree

from lease_parser.errors import CorruptDocument, EmptyDocument, TooManyPages
from lease_parser.parsing.archive import SafeZip
from lease_parser.parsing.base import Document, Page, PageSource, ParseLimits, SourceFormat
from lease_parser.parsing.docx_numbering import Numbering, W
from lease_parser.parsing.quality import measure_text
from lease_parser.parsing.tables import locate_table
from lease_parser.parsing.text import normalize_text

MC_FALLBACK = "{http://schemas.openxmlformats.org/markup-compatibility/2006}Fallback"
PAGE_BREAK = "\f"
# Tracked-change marks (Unicode private use: no lease text contains them, and
# normalisation keeps them).
INS_OPEN, INS_CLOSE, DEL_OPEN, DEL_CLOSE = "\ue000", "\ue001", "\ue002", "\ue003"
_REMOVED = frozenset({W + "del", W + "moveFrom"})
_ADDED = frozenset({W + "ins", W + "moveTo"})
_CONTAINERS = frozenset({W + "sdt", W + "sdtContent", W + "customXml", W + "smartTag"})

Block = tuple[str, list[list[str]] | None]  # text, and the rows when the block is a table


def _run_text(run: etree._Element, deleted: bool = False) -> str:
    """A run's text; a deleted run's (``w:delText``) never breaks a page."""
    parts: list[str] = []
    for node in run:
        tag = node.tag
        if tag == (W + "delText" if deleted else W + "t") and node.text:
            parts.append(node.text)
        elif tag in (W + "tab", W + "ptab"):
            parts.append(" ")
        elif tag in (W + "br", W + "cr"):
            page = node.get(W + "type") == "page" and not deleted
            parts.append(PAGE_BREAK if page else "\n")
        elif tag == W + "lastRenderedPageBreak":
            parts.append("" if deleted else PAGE_BREAK)
        elif tag == W + "noBreakHyphen":
            parts.append("-")
        elif tag == W + "sym":
            parts.append(" ")
    return "".join(parts)


def _hidden(run: etree._Element) -> bool:
    vanish = run.find(f"{W}rPr/{W}vanish")
    return vanish is not None and vanish.get(W + "val", "true") not in ("0", "false", "off")


def _change(run: etree._Element, paragraph: etree._Element) -> str | None:
    """``"skip"`` for hidden text or a text box's run (read with the text box), ``"del"``
    for deleted or moved-away text, ``"ins"`` for a tracked insertion, else None."""
    if _hidden(run):
        return "skip"
    change = None
    parent = run.getparent()
    while parent is not None and parent is not paragraph:
        if parent.tag == W + "txbxContent":
            return "skip"
        if parent.tag in _REMOVED:
            change = "del"
        elif parent.tag in _ADDED and change is None:
            change = "ins"
        parent = parent.getparent()
    return change


def _marked_run(run: etree._Element, change: str | None, marks: bool) -> str:
    """A run's text as accepted ("" when deleted); with ``marks``, changes bracketed."""
    if change == "del":
        return DEL_OPEN + _run_text(run, deleted=True) + DEL_CLOSE if marks else ""
    text = _run_text(run)
    return INS_OPEN + text + INS_CLOSE if marks and change == "ins" and text else text


def paragraph_text(p: etree._Element, numbering: Numbering, marks: bool = False) -> str:
    """Text of one ``w:p`` as accepted, with its list label and field results (and, with
    ``marks``, its tracked changes marked)."""
    parts = [numbering.label(p)]
    if parts[0]:
        parts.append(" ")
    # Field nesting: 1 while inside an instruction (begin..separate), 0 inside a result.
    fields: list[int] = []
    for node in p.iter(W + "r", W + "fldChar"):
        if node.tag == W + "fldChar":
            kind = node.get(W + "fldCharType")
            if kind == "begin":
                fields.append(1)
            elif kind == "separate" and fields:
                fields[-1] = 0
            elif kind == "end" and fields:
                fields.pop()
            continue
        change = None if any(fields) else _change(node, p)
        if any(fields) or change == "skip":
            continue
        parts.append(_marked_run(node, change, marks))
    return "".join(parts)


def _textboxes(p: etree._Element, numbering: Numbering, marks: bool) -> list[Block]:
    blocks: list[Block] = []
    for box in p.iter(W + "txbxContent"):
        if any(a.tag == MC_FALLBACK for a in box.iterancestors()):
            continue  # the VML copy of a text box Word also stores as DrawingML
        blocks.extend((paragraph_text(q, numbering, marks), None) for q in box.iter(W + "p"))
    return blocks


def _rows(tbl: etree._Element) -> list[etree._Element]:
    rows = []
    for child in tbl:
        if child.tag == W + "tr":
            rows.append(child)
        elif child.tag in _CONTAINERS:
            rows.extend(_rows(child))
    return rows


def _cell_text(tc: etree._Element, numbering: Numbering, marks: bool) -> str:
    texts = [paragraph_text(p, numbering, marks) for p in tc.iter(W + "p")]
    return " ".join(normalize_text(" ".join(texts).replace(PAGE_BREAK, " ")).split())


def _table_rows(tbl: etree._Element, numbering: Numbering, marks: bool) -> list[list[str]]:
    rows = []
    for tr in _rows(tbl):
        if tr.find(f"{W}trPr/{W}del") is not None:
            continue  # a deleted row
        rows.append([_cell_text(tc, numbering, marks) for tc in tr.findall(W + "tc")])
    return rows


def body_blocks(
    container: etree._Element, numbering: Numbering, marks: bool = False
) -> list[Block]:
    """Paragraphs and tables in document order, descending into content controls."""
    blocks: list[Block] = []
    for child in container:
        if child.tag == W + "p":
            blocks.append((paragraph_text(child, numbering, marks), None))
            blocks.extend(_textboxes(child, numbering, marks))
        elif child.tag == W + "tbl":
            rows = _table_rows(child, numbering, marks)
            blocks.append(("\n".join(" | ".join(r) for r in rows), rows))
        elif child.tag in _CONTAINERS or child.tag in _ADDED:
            blocks.extend(body_blocks(child, numbering, marks))
    return blocks


def _page(number: int, lines: list[str], tables: list[list[list[str]]]) -> Page:
    text = normalize_text("\n".join(lines))
    return Page(
        number=number,
        text=text,
        source=PageSource.DOCX,
        tables=[locate_table(rows, text) for rows in tables],
        quality=measure_text(text),
    )


def paginate(blocks: list[Block], limits: ParseLimits) -> list[Page]:
    """Split at explicit and last-rendered page breaks; empty pages are not kept."""
    pages: list[Page] = []
    lines: list[str] = []
    tables: list[list[list[str]]] = []
    for text, rows in blocks:
        for i, piece in enumerate(text.split(PAGE_BREAK)):
            if i > 0 and any(line.strip() for line in lines):
                pages.append(_page(len(pages) + 1, lines, tables))
                lines, tables = [], []
                if len(pages) >= limits.max_pages:
                    raise TooManyPages(f"over {limits.max_pages} pages", pages=len(pages) + 1)
            lines.append(piece)
        if rows is not None:
            tables.append(rows)
    if any(line.strip() for line in lines) or not pages:
        pages.append(_page(len(pages) + 1, lines, tables))
    return pages


def _parts_text(zf: SafeZip, prefix: str, numbering: Numbering) -> list[str]:
    texts = []
    for name in sorted(n for n in zf.names() if n.startswith(f"word/{prefix}")):
        root = zf.read_xml(name)
        if root is None:
            continue
        blocks = body_blocks(root, numbering)
        text = normalize_text("\n".join(t for t, _ in blocks).replace(PAGE_BREAK, " "))
        if text:
            texts.append(text)
    return texts


def parse_docx(data: bytes, limits: ParseLimits, marks: bool = False) -> Document:
    """Body text (tracked changes accepted) split into pages at rendered/explicit breaks;
    with ``marks``, deleted text kept and every change bracketed (see the module)."""
    with SafeZip(data, limits) as zf:
        root = zf.read_xml("word/document.xml")
        if root is None:
            raise CorruptDocument("the DOCX has no word/document.xml")
        body = root.find(W + "body")
        if body is None:
            raise EmptyDocument("the DOCX has no body")
        numbering = Numbering(zf.read_xml("word/numbering.xml"), zf.read_xml("word/styles.xml"))
        pages = paginate(body_blocks(body, numbering, marks), limits)
        plain = Numbering(None, None)  # header/footer lists do not advance the body's
        headers = _parts_text(zf, "header", plain)
        footers = _parts_text(zf, "footer", plain)
    if not any(p.text for p in pages):
        raise EmptyDocument("the DOCX contains no text")
    return Document(format=SourceFormat.DOCX, pages=pages, headers=headers, footers=footers)
