"""DOCX on a document built with python-docx plus raw WordprocessingML (tracked changes,
fields, numbering, a text box, header/footer, a deleted table row, hidden text)."""

from __future__ import annotations

import docx
import pytest
from lxml import etree

from lease_parser.parsing import Document, PageSource, ParseLimits, SourceFormat, parse_document
from lease_parser.parsing.docx import paragraph_text
from lease_parser.parsing.docx_numbering import Numbering, format_number
from tests.unit.parsing.conftest import FIXTURES, fixture_bytes

W_NS = "http://schemas.openxmlformats.org/wordprocessingml/2006/main"


@pytest.fixture(scope="module")
def parsed() -> Document:
    return parse_document(fixture_bytes("tracked_changes.docx"), ParseLimits())


def test_python_docx_drops_the_insertion_and_we_keep_it(parsed: Document) -> None:
    rent = docx.Document(str(FIXTURES / "tracked_changes.docx")).paragraphs[1].text
    # python-docx reads only the paragraph's direct runs: the inserted "$15,000.00" is lost.
    assert rent == "Tenant shall pay monthly base rent of  in advance."
    assert "Tenant shall pay monthly base rent of $15,000.00 in advance." in parsed.text


def test_deleted_and_moved_away_text_is_dropped(parsed: Document) -> None:
    text = parsed.text
    assert "$12,000.00" not in text
    assert "(moved away)" not in text
    assert "(moved here)" in text


def test_hidden_text_is_dropped(parsed: Document) -> None:
    assert "The term is five years." in parsed.text
    assert "DRAFTING NOTE" not in parsed.text


def test_fields_keep_their_result_and_drop_the_instruction(parsed: Document) -> None:
    text = parsed.text
    assert "See Section 4.2 on page 7" in text
    assert "REF" not in text
    assert "_Ref42" not in text
    assert "PAGE" not in text


def test_numbering_labels_from_numbering_xml(parsed: Document) -> None:
    text = parsed.text
    assert "1. Premises.\n(a) Suite 210.\n(b) Parking.\n2. Rent." in text


def test_text_box_is_read_once_after_its_paragraph(parsed: Document) -> None:
    text = parsed.text
    assert text.count("Landlord's Notice Address") == 1  # not also its VML fallback copy
    assert text.index("Notices go to the address") < text.index("Landlord's Notice Address")


def test_headers_and_footers_are_kept_apart(parsed: Document) -> None:
    assert parsed.headers == ["Harbor Point - Lease - Confidential"]
    assert parsed.footers == ["Tenant initials ____"]
    assert "Confidential" not in parsed.text


def test_table_in_document_order_without_its_deleted_row(parsed: Document) -> None:
    page = parsed.pages[0]
    (table,) = page.tables
    assert table.rows[0] == ["Period", "Annual Base Rent", "Monthly Installment"]
    assert table.rows[-1] == ["Months 25-36", "$190,962.00", "$15,913.50"]
    assert "$999,999.00" not in page.text
    assert page.text.index("2. Rent.") < table.start
    start, end = table.spans[1][2]
    assert page.text[start:end] == "$15,000.00"


def test_page_break_splits_pages(parsed: Document) -> None:
    pages = parsed.pages
    assert parsed.format is SourceFormat.DOCX
    assert [p.number for p in pages] == [1, 2]
    assert pages[1].text == "IN WITNESS WHEREOF the parties have signed this Lease."
    assert all(p.source is PageSource.DOCX and not p.needs_ocr for p in pages)


def _p(xml: str) -> etree._Element:
    return etree.fromstring(f'<w:p xmlns:w="{W_NS}">{xml}</w:p>')


@pytest.mark.parametrize(
    ("xml", "text"),
    [
        pytest.param("<w:r><w:t>plain</w:t></w:r>", "plain", id="run"),
        pytest.param(
            '<w:ins w:id="1"><w:r><w:t>new</w:t></w:r></w:ins>'
            '<w:del w:id="2"><w:r><w:delText>old</w:delText></w:r></w:del>',
            "new",
            id="insertion kept, deletion dropped",
        ),
        pytest.param(
            '<w:r><w:fldChar w:fldCharType="begin"/></w:r>'
            "<w:r><w:instrText>IF </w:instrText></w:r>"
            '<w:r><w:fldChar w:fldCharType="begin"/></w:r>'
            "<w:r><w:instrText>PAGE</w:instrText></w:r>"
            '<w:r><w:fldChar w:fldCharType="separate"/></w:r><w:r><w:t>9</w:t></w:r>'
            '<w:r><w:fldChar w:fldCharType="end"/></w:r>'
            '<w:r><w:instrText> = 1 "a" "b"</w:instrText></w:r>'
            '<w:r><w:fldChar w:fldCharType="separate"/></w:r><w:r><w:t>b</w:t></w:r>'
            '<w:r><w:fldChar w:fldCharType="end"/></w:r>',
            "b",
            id="nested field: only the outer result",
        ),
        pytest.param(
            "<w:r><w:t>a</w:t><w:tab/><w:t>b</w:t><w:br/><w:t>c</w:t><w:noBreakHyphen/></w:r>",
            "a b\nc-",
            id="tab, line break, non-breaking hyphen",
        ),
        pytest.param(
            '<w:r><w:rPr><w:vanish w:val="false"/></w:rPr><w:t>shown</w:t></w:r>',
            "shown",
            id="vanish switched off",
        ),
        pytest.param(
            "<w:hyperlink><w:r><w:t>link</w:t></w:r></w:hyperlink>"
            "<w:smartTag><w:r><w:t> tag</w:t></w:r></w:smartTag>",
            "link tag",
            id="hyperlink and smart tag runs",
        ),
    ],
)
def test_paragraph_text(xml: str, text: str) -> None:
    assert paragraph_text(_p(xml), Numbering(None, None)) == text


def _numbering_xml(fmt: str, lvl_text: str, start: int = 1) -> etree._Element:
    return etree.fromstring(
        f'<w:numbering xmlns:w="{W_NS}"><w:abstractNum w:abstractNumId="1">'
        f'<w:lvl w:ilvl="0"><w:start w:val="{start}"/><w:numFmt w:val="{fmt}"/>'
        f'<w:lvlText w:val="{lvl_text}"/></w:lvl></w:abstractNum>'
        '<w:num w:numId="3"><w:abstractNumId w:val="1"/></w:num></w:numbering>'
    )


def _numbered() -> etree._Element:
    return _p('<w:pPr><w:numPr><w:ilvl w:val="0"/><w:numId w:val="3"/></w:numPr></w:pPr>')


@pytest.mark.parametrize(
    ("fmt", "lvl_text", "start", "labels"),
    [
        ("decimal", "%1.", 1, ["1.", "2.", "3."]),
        ("upperRoman", "ARTICLE %1", 1, ["ARTICLE I", "ARTICLE II", "ARTICLE III"]),
        ("lowerLetter", "(%1)", 25, ["(y)", "(z)", "(aa)"]),
        ("decimalZero", "%1", 9, ["09", "10", "11"]),
        ("bullet", "\uf0b7", 1, ["•", "•", "•"]),
    ],
)
def test_numbering_formats(fmt: str, lvl_text: str, start: int, labels: list[str]) -> None:
    numbering = Numbering(_numbering_xml(fmt, lvl_text, start), None)
    assert [numbering.label(_numbered()) for _ in labels] == labels


def test_numbering_through_a_paragraph_style() -> None:
    styles = etree.fromstring(
        f'<w:styles xmlns:w="{W_NS}"><w:style w:styleId="Heading1"><w:pPr><w:numPr>'
        '<w:numId w:val="3"/></w:numPr></w:pPr></w:style></w:styles>'
    )
    numbering = Numbering(_numbering_xml("decimal", "Section %1."), styles)
    heading = _p('<w:pPr><w:pStyle w:val="Heading1"/></w:pPr><w:r><w:t>Rent</w:t></w:r>')
    assert paragraph_text(heading, numbering) == "Section 1. Rent"
    off = _p('<w:pPr><w:pStyle w:val="Heading1"/><w:numPr><w:numId w:val="0"/></w:numPr></w:pPr>')
    assert numbering.label(off) == ""


@pytest.mark.parametrize(
    ("n", "fmt", "out"),
    [
        (4, "lowerRoman", "iv"),
        (1999, "upperRoman", "MCMXCIX"),
        (27, "upperLetter", "AA"),
        (3, "ordinalText", "3"),
        (5, "none", ""),
    ],
)
def test_format_number(n: int, fmt: str, out: str) -> None:
    assert format_number(n, fmt) == out


def test_marks_show_tracked_changes_and_hide_nothing_the_pipeline_reads() -> None:
    from lease_parser.parsing.docx import DEL_CLOSE, DEL_OPEN, INS_CLOSE, INS_OPEN, parse_docx

    data = fixture_bytes("tracked_changes.docx")
    plain = parse_docx(data, ParseLimits())
    marked = parse_docx(data, ParseLimits(), marks=True)
    text = marked.pages[0].text
    assert DEL_OPEN in text
    assert INS_OPEN in text
    accepted = []
    deleted = False
    for char in text:
        if char in (DEL_OPEN, DEL_CLOSE):
            deleted = char == DEL_OPEN
        elif char not in (INS_OPEN, INS_CLOSE) and not deleted:
            accepted.append(char)
    assert " ".join("".join(accepted).split()) == " ".join(plain.pages[0].text.split())
