"""DOCX: body paragraphs and tables in document order, tracked changes resolved as accepted.

We walk the WordprocessingML ourselves rather than use python-docx's ``paragraph.text``,
which silently drops runs inside ``w:ins`` (inserted text of a tracked change). Accepting
all changes means: keep ``w:ins`` runs, drop ``w:del``/``w:delText`` and moved-from text.

Before anything is inflated, the zip's declared sizes and compression ratios are checked
(a zip bomb is refused as ``resource_bomb``); the XML parser never resolves entities or
touches the network.
"""

from __future__ import annotations

import io
import zipfile
from collections import defaultdict

from lxml import etree

from lease_parser.errors import CorruptDocument, EmptyDocument, ResourceBomb, TooManyPages
from lease_parser.parsing.base import (
    Document,
    Page,
    PageSource,
    ParseLimits,
    SourceFormat,
    Table,
)
from lease_parser.parsing.quality import measure_text
from lease_parser.parsing.text import normalize_text

W = "{http://schemas.openxmlformats.org/wordprocessingml/2006/main}"
MAX_COMPRESSION_RATIO = 200  # ordinary XML compresses ~10-30x; bombs ~1000x
PAGE_BREAK = "\f"

_XML_PARSER = etree.XMLParser(
    resolve_entities=False, no_network=True, huge_tree=False, remove_blank_text=False
)


def _check_zip(zf: zipfile.ZipFile, limits: ParseLimits) -> None:
    total = 0
    for info in zf.infolist():
        total += info.file_size
        ratio = info.file_size / max(info.compress_size, 1)
        if info.file_size > 1_000_000 and ratio > MAX_COMPRESSION_RATIO:
            raise ResourceBomb(f"{info.filename} inflates {ratio:.0f}x", member=info.filename)
    if total > limits.max_unpacked_bytes:
        raise ResourceBomb(
            f"declares {total} unpacked bytes, limit {limits.max_unpacked_bytes}", size=total
        )


def _read_xml(zf: zipfile.ZipFile, name: str) -> etree._Element | None:
    try:
        raw = zf.read(name)
    except KeyError:
        return None
    try:
        return etree.fromstring(raw, _XML_PARSER)
    except etree.XMLSyntaxError as exc:
        raise CorruptDocument(f"{name} is not well-formed XML: {exc}") from exc


class _NumberingCounter:
    """Generates "1.", "(a)" style labels for numbered paragraphs, per list and level."""

    def __init__(self) -> None:
        self._counts: dict[str, list[int]] = defaultdict(lambda: [0] * 9)

    def label(self, num_id: str, level: int) -> str:
        counts = self._counts[num_id]
        level = min(max(level, 0), 8)
        counts[level] += 1
        for deeper in range(level + 1, 9):
            counts[deeper] = 0
        n = counts[level]
        if level == 0:
            return f"{n}."
        if level == 1:
            return f"({chr(ord('a') + (n - 1) % 26)})"
        return f"({n})"


def _run_text(run: etree._Element) -> str:
    parts: list[str] = []
    for node in run.iter():
        tag = node.tag
        if tag == W + "t" and node.text:
            parts.append(node.text)
        elif tag == W + "tab":
            parts.append(" ")
        elif tag in (W + "br", W + "cr"):
            parts.append(PAGE_BREAK if node.get(W + "type") == "page" else "\n")
        elif tag == W + "lastRenderedPageBreak":
            parts.append(PAGE_BREAK)
        elif tag == W + "noBreakHyphen":
            parts.append("-")
    return "".join(parts)


def _paragraph_text(p: etree._Element, numbering: _NumberingCounter) -> str:
    parts: list[str] = []
    num_pr = p.find(f"{W}pPr/{W}numPr")
    if num_pr is not None:
        num_id = num_pr.find(W + "numId")
        ilvl = num_pr.find(W + "ilvl")
        if num_id is not None and num_id.get(W + "val") not in (None, "0"):
            level = int(ilvl.get(W + "val", "0")) if ilvl is not None else 0
            parts.append(numbering.label(str(num_id.get(W + "val")), level) + " ")
    in_field_instruction = False
    for node in p.iter(W + "r", W + "fldChar"):
        if node.tag == W + "fldChar":
            kind = node.get(W + "fldCharType")
            in_field_instruction = kind == "begin" or (in_field_instruction and kind != "separate")
            continue
        if in_field_instruction or _is_deleted(node):
            continue
        # Runs inside a text box belong to the text box's own paragraphs; skip them here.
        if _inside_textbox(node, p):
            continue
        parts.append(_run_text(node))
    return "".join(parts)


def _is_deleted(run: etree._Element) -> bool:
    parent = run.getparent()
    while parent is not None and parent.tag != W + "body":
        if parent.tag in (W + "del", W + "moveFrom"):
            return True
        parent = parent.getparent()
    return False


def _inside_textbox(run: etree._Element, paragraph: etree._Element) -> bool:
    parent = run.getparent()
    while parent is not None and parent is not paragraph:
        if parent.tag == W + "txbxContent":
            return True
        parent = parent.getparent()
    return False


def _table(tbl: etree._Element, numbering: _NumberingCounter) -> Table:
    rows: list[list[str]] = []
    for tr in tbl.iter(W + "tr"):
        if tr.getparent() is not None and _is_deleted(tr):
            continue
        cells = []
        for tc in tr.findall(W + "tc"):
            text = " ".join(_paragraph_text(p, numbering) for p in tc.iter(W + "p"))
            cells.append(normalize_text(text.replace(PAGE_BREAK, " ")))
        rows.append(cells)
    return Table(rows=rows)


def _body_blocks(
    body: etree._Element, numbering: _NumberingCounter
) -> list[tuple[str, Table | None]]:
    blocks: list[tuple[str, Table | None]] = []
    for child in body:
        if child.tag == W + "p":
            blocks.append((_paragraph_text(child, numbering), None))
            for box in child.iter(W + "txbxContent"):
                for p in box.iter(W + "p"):
                    blocks.append((_paragraph_text(p, numbering), None))
        elif child.tag == W + "tbl":
            table = _table(child, numbering)
            blocks.append(("\n".join(" | ".join(r) for r in table.rows), table))
        elif child.tag == W + "sdt":
            content = child.find(W + "sdtContent")
            if content is not None:
                blocks.extend(_body_blocks(content, numbering))
    return blocks


def _paginate(blocks: list[tuple[str, Table | None]], limits: ParseLimits) -> list[Page]:
    pages: list[Page] = []
    lines: list[str] = []
    tables: list[Table] = []

    def flush() -> None:
        text = normalize_text("\n".join(lines))
        if text or not pages:
            pages.append(
                Page(
                    number=len(pages) + 1,
                    text=text,
                    source=PageSource.DOCX,
                    tables=list(tables),
                    quality=measure_text(text),
                )
            )
        lines.clear()
        tables.clear()

    for text, table in blocks:
        pieces = text.split(PAGE_BREAK)
        for i, piece in enumerate(pieces):
            if i > 0 and any(line.strip() for line in lines):
                flush()
                if len(pages) > limits.max_pages:
                    raise TooManyPages(f"over {limits.max_pages} pages")
            lines.append(piece)
        if table is not None:
            tables.append(table)
    flush()
    return pages


def _header_footer_texts(zf: zipfile.ZipFile, prefix: str) -> list[str]:
    texts = []
    numbering = _NumberingCounter()
    for name in sorted(n for n in zf.namelist() if n.startswith(f"word/{prefix}")):
        root = _read_xml(zf, name)
        if root is not None:
            text = "\n".join(_paragraph_text(p, numbering) for p in root.iter(W + "p"))
            if text.strip():
                texts.append(normalize_text(text.replace(PAGE_BREAK, " ")))
    return texts


def parse_docx(data: bytes, limits: ParseLimits) -> Document:
    """Body text (tracked changes accepted) split into pages at rendered/explicit breaks."""
    try:
        zf = zipfile.ZipFile(io.BytesIO(data))
    except (zipfile.BadZipFile, ValueError) as exc:
        raise CorruptDocument(f"the DOCX is not a valid zip archive: {exc}") from exc
    with zf:
        _check_zip(zf, limits)
        try:
            root = _read_xml(zf, "word/document.xml")
            if root is None:
                raise CorruptDocument("the DOCX has no word/document.xml")
            body = root.find(W + "body")
            if body is None:
                raise EmptyDocument("the DOCX has no body")
            pages = _paginate(_body_blocks(body, _NumberingCounter()), limits)
            headers = _header_footer_texts(zf, "header")
            footers = _header_footer_texts(zf, "footer")
        except (zipfile.BadZipFile, EOFError, OSError) as exc:
            raise CorruptDocument(f"the DOCX archive is damaged: {exc}") from exc
    if not any(p.text for p in pages):
        raise EmptyDocument("the DOCX contains no text")
    return Document(format=SourceFormat.DOCX, pages=pages, headers=headers, footers=footers)
