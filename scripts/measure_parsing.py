"""Measure the parsing layer: text-PDF speed, OCR cost, and peak memory on hostile files.

    PYTHONPATH=. .venv/bin/python scripts/measure_parsing.py [--corpus DIR] [--only text|ocr|memory]

* **text**: ms/page over every corpus PDF that has a text layer: pdfplumber alone
  (``page.extract_text()`` on every page) against our path (``parse_document``: pypdfium2
  text, layout, quality, OCR decision, gated table finding). CPU time of this process, so a
  busy shared machine inflates it less than wall time would.
* **ocr**: s/page of OCR at 300 DPI on the corpus scan (or the mixed-scan fixture): CPU time
  of the Tesseract subprocesses (``RUSAGE_CHILDREN``), with ``OMP_THREAD_LIMIT=1``; also the
  render + parse CPU of this process and wall time.
* **memory**: each hostile input parsed (and OCR'd where it asks for OCR) in a fresh child
  process; its peak RSS (``ru_maxrss`` from ``wait4``) against a child that only imports.

Speed is measured here, never asserted in tests.
"""

from __future__ import annotations

import argparse
import io
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
import zipfile
from pathlib import Path

import pdfplumber

from lease_parser.errors import LeaseParserError
from lease_parser.parsing import OcrOptions, ParseLimits, apply_ocr, parse_document

ROOT = Path(__file__).resolve().parents[1]
FIXTURES = ROOT / "tests" / "fixtures" / "parsing"
DEFAULT_CORPUS = ROOT.parent / "shared" / "corpus" / "dev"
SAMPLES = ROOT / "samples"


def _cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


# ------------------------------------------------------------------ text PDFs


def _plumber_ms(data: bytes) -> tuple[float, int]:
    started = _cpu()
    with pdfplumber.open(io.BytesIO(data)) as pdf:
        pages = len(pdf.pages)
        for page in pdf.pages:
            page.extract_text()
            page.close()
    return (_cpu() - started) * 1000, pages


def _ours_ms(data: bytes, repeat: int) -> float:
    best = float("inf")
    for _ in range(repeat):
        started = _cpu()
        parse_document(data, ParseLimits())
        best = min(best, (_cpu() - started) * 1000)
    return best


def measure_text(corpus: Path, repeat: int) -> None:
    print(
        f"== text PDFs: CPU ms/page, pdfplumber extract_text vs parse_document (best of {repeat})"
    )
    print(f"{'document':42} {'pages':>5} {'pdfplumber':>11} {'ours':>8} {'tables':>6}")
    rows = []
    for path in sorted(corpus.glob("*.pdf")):
        data = path.read_bytes()
        try:
            document = parse_document(data, ParseLimits())
        except LeaseParserError as exc:  # samples/ holds a truncated upload on purpose
            print(f"{path.name:42} skipped: {exc}")
            continue
        if document.pages_needing_ocr == [p.number for p in document.pages]:
            continue  # image-only: no text layer to read
        plumber, pages = _plumber_ms(data)
        ours = _ours_ms(data, repeat)
        tables = sum(len(p.tables) for p in document.pages)
        rows.append((pages, plumber, ours))
        print(
            f"{path.name:42} {pages:5d} {plumber / pages:9.1f}ms {ours / pages:6.2f}ms {tables:6d}"
        )
    pages = sum(r[0] for r in rows)
    print(
        f"{'all (total time / total pages)':42} {pages:5d} "
        f"{sum(r[1] for r in rows) / pages:9.1f}ms {sum(r[2] for r in rows) / pages:6.2f}ms"
    )
    print(
        f"{'median of per-document ms/page':42} {'':5} "
        f"{statistics.median(r[1] / r[0] for r in rows):9.1f}ms "
        f"{statistics.median(r[2] / r[0] for r in rows):6.2f}ms"
    )


# ------------------------------------------------------------------ OCR


def measure_ocr(corpus: Path) -> None:
    scan = corpus / "lx_hohman_post_tension.scan.pdf"
    path = scan if scan.exists() else FIXTURES / "mixed_scan.pdf"
    data = path.read_bytes()
    document = parse_document(data, ParseLimits())
    pages = len(document.pages_needing_ocr)
    options = OcrOptions(dpi=300, threads=1)
    wall, own, child = time.perf_counter(), _cpu(), _children_cpu()
    done = apply_ocr(document, data, options)
    wall, own, child = time.perf_counter() - wall, _cpu() - own, _children_cpu() - child
    confidences = [p.quality.ocr_confidence or 0 for p in done.pages if p.word_confidences]
    print(
        f"== OCR at {options.dpi} DPI, OMP_THREAD_LIMIT={options.threads}: {path.name}, "
        f"{pages} pages"
    )
    print(f"Tesseract CPU  {child / pages:6.2f} s/page")
    print(f"render+parse   {own / pages:6.2f} s/page (this process)")
    print(f"wall           {wall / pages:6.2f} s/page")
    print(f"mean word confidence {statistics.mean(confidences):.1f}")


# ------------------------------------------------------------------ memory

CHILD = """
import sys, resource
from pathlib import Path
from lease_parser.errors import LeaseParserError
from lease_parser.parsing import OcrOptions, ParseLimits, apply_ocr, parse_document
data = Path(sys.argv[1]).read_bytes() if len(sys.argv) > 1 else None
if data is not None:
    try:
        document = parse_document(data, ParseLimits())
        outcome = f"{len(document.pages)} pages"
        wanted = document.pages_needing_ocr
        if wanted:
            document = apply_ocr(document, data, OcrOptions())
            outcome += f", OCR'd {len(wanted)}; " + "; ".join(document.warnings)
    except LeaseParserError as exc:
        outcome = f"{type(exc).__name__} [{exc.reason}]"
    print(outcome)
# VmHWM: this process's own peak (ru_maxrss would also count the parent it was forked from).
hwm = next(l for l in open("/proc/self/status") if l.startswith("VmHWM")).split()[1]
tess = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
print(f"{hwm} {tess}")
"""


def _huge_document_xml(path: Path, megabytes: int) -> None:
    """A DOCX whose document.xml is ``megabytes`` of varied clauses (inflates ~20x)."""
    paragraph = (
        b"<w:p><w:r><w:t>Clause %d. Tenant shall pay Landlord additional rent of $%d.%02d "
        b"for item %x within %d days.</w:t></w:r></w:p>"
    )
    body = io.BytesIO()
    i = 0
    while body.tell() < megabytes * 1024 * 1024:
        body.write(paragraph % (i, i * 37 % 99991, i % 100, i * 7919, i % 90))
        i += 1
    xml = (
        b'<w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main">'
        b"<w:body>" + body.getvalue() + b"</w:body></w:document>"
    )
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as z:
        z.writestr("[Content_Types].xml", "<Types/>")
        z.writestr("word/document.xml", xml)


def _huge_page_pdf(path: Path) -> None:
    """One 200 x 200 inch page (the PDF maximum) holding a scan: OCR must bound the render."""
    from fpdf import FPDF
    from PIL import Image

    pdf = FPDF(unit="pt", format=(14400, 14400))
    pdf.add_page()
    pdf.image(Image.open(FIXTURES / "lease_page.png"), x=0, y=0, w=14400, h=14400)
    pdf.output(str(path))


def _many_pages_pdf(path: Path, pages: int) -> None:
    """The page limit's worth of text pages."""
    from fpdf import FPDF

    pdf = FPDF()
    pdf.set_font("Helvetica", size=10)
    for i in range(pages):
        pdf.add_page()
        pdf.multi_cell(0, 5, f"Page {i}. " + "Tenant shall pay base rent monthly. " * 80)
    pdf.output(str(path))


def _peak_kb(args: list[str]) -> tuple[int, int, str, float]:
    """Peak RSS (kB) of a child parsing ``args``, of its Tesseract subprocesses, outcome."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    started = time.perf_counter()
    done = subprocess.run(
        [sys.executable, "-c", CHILD, *args],
        capture_output=True,
        env=env,
        text=True,
        check=False,
    )
    lines = done.stdout.strip().splitlines()
    if done.returncode or len(lines) < 1:
        return 0, 0, f"failed: {done.stderr.strip()[-300:]}", time.perf_counter() - started
    own, tesseract = (int(v) for v in lines[-1].split())
    return own, tesseract, " ".join(lines[:-1]), time.perf_counter() - started


def measure_memory() -> None:
    print("== peak RSS of a fresh process parsing (and OCR'ing) one hostile input")
    with tempfile.TemporaryDirectory() as tmp:
        generated = {
            "huge_document_xml_19MB.docx": lambda p: _huge_document_xml(p, 19),
            "huge_page_200in.pdf": _huge_page_pdf,
            "500_pages.pdf": lambda p: _many_pages_pdf(p, 500),
        }
        files = [
            FIXTURES / n
            for n in (
                "zip_bomb.docx",
                "overlapping_entries.docx",
                "billion_laughs.docx",
                "nested_zip.docx",
                "pixel_bomb.png",
                "encrypted.pdf",
                "no_pages.pdf",
            )
        ]
        for name, make in generated.items():
            path = Path(tmp) / name
            make(path)
            files.append(path)
        baseline, _, _, _ = _peak_kb([])
        print(f"{'file':32} {'peak RSS':>9} {'tesseract':>9} {'file size':>10} {'time':>6}")
        print(f"{'(imports only)':32} {baseline / 1024:6.0f} MB")
        results = []
        for path in files:
            peak, tesseract, outcome, seconds = _peak_kb([str(path)])
            size = path.stat().st_size
            results.append((peak, path.name))
            print(
                f"{path.name:32} {peak / 1024:6.0f} MB {tesseract / 1024:6.0f} MB "
                f"{size / 1024:7.0f} KB {seconds:5.1f}s  {outcome}"
            )
        peak, name = max(results)
        print(
            f"worst: {name} at {peak / 1024:.0f} MB peak RSS "
            f"({(peak - baseline) / 1024:.0f} MB over the import baseline)"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--corpus", type=Path, default=DEFAULT_CORPUS)
    parser.add_argument("--only", choices=["text", "ocr", "memory"])
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    if not any(args.corpus.glob("*.pdf")):
        # The dev corpus is real leases, beside the checkout and never in a clone.
        print(
            f"note: no corpus PDFs in {args.corpus} (the dev corpus is not part of a clone); "
            f"measuring the text PDFs of {SAMPLES} instead (--corpus DIR, or "
            "make measure-parsing CORPUS=DIR, for another)",
            file=sys.stderr,
        )
        args.corpus = SAMPLES
    if args.only in (None, "text"):
        measure_text(args.corpus, args.repeat)
    if args.only in (None, "ocr"):
        measure_ocr(args.corpus)
    if args.only in (None, "memory"):
        measure_memory()


if __name__ == "__main__":
    main()
