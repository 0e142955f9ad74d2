"""Generate the sample leases that ship in samples/ (and that `make run` processes).

Synthetic leases written in ordinary lease language (not copied from any real lease):
two text PDFs, the first one's amendment (extension, rent, expansion, a new option), a DOCX
whose rent was changed with tracked changes, a one-page scan (rendered, rotated and noised
so it needs OCR), and a truncated upload that must end as dead/corrupt. Run `make samples`
to regenerate; the outputs are checked in.

usage: python scripts/make_samples.py OUTDIR
"""

from __future__ import annotations

import datetime as dt
import io
import random
import sys
import textwrap
import zipfile
from pathlib import Path

from docx import Document as DocxDocument
from fpdf import FPDF
from PIL import Image, ImageDraw, ImageFilter, ImageFont

OFFICE_LEASE = [
    ("OFFICE LEASE", None),
    ("BASIC LEASE INFORMATION", None),
    (
        None,
        [
            ("Date of Lease:", "March 3, 2025"),
            ("Landlord:", "Harbor Point Owner LLC"),
            ("Tenant:", "Bluefin Analytics, Inc."),
            ("Premises:", "1200 Harbor Point Drive, Suite 400, Baltimore, Maryland 21230"),
            ("Rentable Area:", "8,750 rentable square feet"),
            ("Term:", "Sixty-three (63) months"),
            ("Commencement Date:", "May 1, 2025"),
            ("Expiration Date:", "July 31, 2030"),
            ("Monthly Base Rent:", "$24,062.50"),
            ("Annual Base Rent:", "$288,750.00"),
            ("Security Deposit:", "$48,125.00"),
        ],
    ),
    (
        "1. PARTIES.",
        'THIS OFFICE LEASE (this "Lease") is made and entered into as of the 3rd day '
        "of March, 2025, by and between HARBOR POINT OWNER LLC, a Delaware limited liability "
        'company ("Landlord"), and BLUEFIN ANALYTICS, INC., a Maryland corporation ("Tenant").',
    ),
    (
        "2. PREMISES.",
        "Landlord leases to Tenant, and Tenant leases from Landlord, approximately "
        "8,750 rentable square feet on the fourth floor of the building located at 1200 Harbor "
        'Point Drive, Suite 400, Baltimore, Maryland 21230 (the "Premises").',
    ),
    (
        "3. TERM.",
        'The term of this Lease shall be sixty-three (63) months (the "Term"), '
        'commencing on May 1, 2025 (the "Commencement Date") and expiring on July 31, 2030 '
        '(the "Expiration Date"), unless sooner terminated as provided herein.',
    ),
    (
        "4. BASE RENT.",
        "Tenant shall pay to Landlord annual Base Rent of Two Hundred Eighty-Eight "
        "Thousand Seven Hundred Fifty and 00/100 Dollars ($288,750.00), payable in equal monthly "
        "installments of Twenty-Four Thousand Sixty-Two and 50/100 Dollars ($24,062.50) in advance "
        "on the first day of each calendar month, being $33.00 per rentable square foot per annum. "
        "Base Rent shall increase by three percent (3%) on each anniversary of the Commencement "
        "Date as set forth in the following schedule:",
    ),
    (
        None,
        [
            ("Months 1-12", "$24,062.50 per month"),
            ("Months 13-24", "$24,784.38 per month"),
            ("Months 25-36", "$25,527.91 per month"),
            ("Months 37-48", "$26,293.75 per month"),
            ("Months 49-63", "$27,082.56 per month"),
        ],
    ),
    (
        "5. SECURITY DEPOSIT.",
        "Upon execution of this Lease, Tenant shall deposit with Landlord "
        "the sum of Forty-Eight Thousand One Hundred Twenty-Five and 00/100 Dollars ($48,125.00) "
        "as a security deposit for the performance of Tenant's obligations under this Lease.",
    ),
    (
        "6. OPERATING EXPENSES.",
        "Tenant shall pay Tenant's Proportionate Share, being 12.5%, of "
        "Operating Expenses in excess of those for the Base Year of 2025.",
    ),
    (
        "7. OPTION TO EXTEND.",
        "Provided Tenant is not in default, Tenant shall have one (1) "
        "option to extend the Term for a period of five (5) years at ninety-five percent (95%) of "
        "the then fair market rent, by written notice given not less than nine months before "
        "the Expiration Date.",
    ),
    (
        "8. USE.",
        "Tenant shall use the Premises for general office purposes and for no other "
        "purpose without Landlord's prior written consent.",
    ),
    (
        "9. NOTICES.",
        "Notices to Landlord shall be sent to Harbor Point Owner LLC, 77 Light "
        "Street, Baltimore, Maryland 21202, Attention: Asset Manager.",
    ),
    (
        "IN WITNESS WHEREOF",
        "the parties have executed this Lease as of the date first written "
        "above. LANDLORD: HARBOR POINT OWNER LLC. By: ____ Name: Dana Whitfield, Authorized "
        "Signatory. TENANT: BLUEFIN ANALYTICS, INC. By: ____ Name: Priya Raman, Chief Executive "
        "Officer.",
    ),
]

# The office lease's first amendment: it names the lease by its date, parties and premises,
# extends the term, sets the rent for the extension, adds space and grants a new option.
OFFICE_AMENDMENT = [
    ("FIRST AMENDMENT TO OFFICE LEASE", None),
    (
        "PREAMBLE.",
        'THIS FIRST AMENDMENT TO OFFICE LEASE (this "Amendment") is made and entered into as '
        "of November 16, 2026, by and between HARBOR POINT OWNER LLC, a Delaware limited "
        'liability company ("Landlord"), and BLUEFIN ANALYTICS, INC., a Maryland corporation '
        '("Tenant").',
    ),
    (
        "RECITALS.",
        "Landlord and Tenant are parties to that certain Office Lease dated March 3, 2025 (the "
        '"Lease") for approximately 8,750 rentable square feet known as 1200 Harbor Point '
        "Drive, Suite 400, Baltimore, Maryland 21230. The term of the Lease is scheduled to "
        "expire on July 31, 2030, and the parties wish to extend it and to expand the "
        "premises on the terms of this Amendment.",
    ),
    (
        "1. EXTENSION.",
        "The term of the Lease is hereby extended through July 31, 2035.",
    ),
    (
        "2. BASE RENT.",
        "Commencing August 1, 2030, Tenant shall pay monthly Base Rent of Twenty-Nine Thousand "
        "and 00/100 Dollars ($29,000.00) per month.",
    ),
    (
        "3. EXPANSION.",
        "Effective January 1, 2027, Landlord leases to Tenant the additional 1,250 rentable "
        'square feet on the fourth floor of the building (the "Expansion Space").',
    ),
    (
        "4. OPTION TO EXTEND.",
        "Tenant shall have one (1) option to extend the Term for a period of five (5) years. "
        "To exercise the option, Tenant shall give Landlord written notice not less than nine "
        "(9) months nor more than twelve (12) months prior to the expiration of the Term.",
    ),
    (
        "5. RATIFICATION.",
        "Except as amended by this Amendment, the Lease remains in full force and effect.",
    ),
]

RETAIL_LEASE = [
    ("SHOPPING CENTER LEASE", None),
    (
        "PREAMBLE.",
        "This Lease is dated as of June 15, 2024, and is entered into by and between "
        "Maple Grove Commons, L.P., a Texas limited partnership (hereinafter referred to as "
        '"Landlord"), and Sweet Crumb Bakery LLC, a Texas limited liability company '
        '(hereinafter referred to as "Tenant").',
    ),
    (
        "ARTICLE 1 - PREMISES.",
        "Landlord hereby leases to Tenant the retail store known as "
        "4410 Maple Grove Parkway, Unit 12, Austin, Texas 78745, containing approximately 2,400 "
        'square feet of gross leasable area (the "Premises").',
    ),
    (
        "ARTICLE 2 - TERM.",
        "The term of this Lease shall be for a period of five (5) years, "
        "commencing on the date Landlord delivers possession of the Premises to Tenant with "
        'Landlord\'s Work substantially complete (the "Commencement Date").',
    ),
    (
        "ARTICLE 3 - MINIMUM RENT.",
        "Tenant covenants to pay Landlord, without demand, deduction "
        "or set-off, minimum rent in the amount of Six Thousand Dollars ($6,000.00) per month, "
        "being Seventy-Two Thousand Dollars ($72,000.00) per annum, during the first lease year. "
        "On the first day of each lease year thereafter minimum rent shall increase by two and "
        "one-half percent (2.5%) over the minimum rent for the preceding lease year.",
    ),
    (
        "ARTICLE 4 - COMMON AREA MAINTENANCE.",
        "In addition to minimum rent, Tenant shall pay "
        "its pro rata share, being 8.0%, of Common Area Maintenance costs, estimated for the "
        "first lease year at $1,150.00 per month, payable with each installment of minimum rent.",
    ),
    (
        "ARTICLE 5 - SECURITY DEPOSIT.",
        "Tenant has deposited with Landlord the sum of Twelve "
        "Thousand Dollars ($12,000.00) as security for the faithful performance of this Lease.",
    ),
    (
        "ARTICLE 6 - RENEWAL.",
        "Tenant shall have two (2) options to renew this Lease, each for "
        "an additional term of five (5) years, upon the same terms and conditions, except that "
        "minimum rent shall be adjusted as provided in this Article.",
    ),
    (
        "ARTICLE 7 - USE.",
        "The Premises shall be used solely for the operation of a retail "
        "bakery and cafe and for no other purpose.",
    ),
]

SUBLEASE_PARAGRAPHS = [
    "SUBLEASE AGREEMENT",
    'This Sublease Agreement (this "Sublease") is entered into as of September 1, 2023, by '
    'and between Northwind Logistics Corp., a Washington corporation ("Sublandlord"), and '
    'Cascade Robotics, Inc., a Delaware corporation ("Subtenant").',
    "1. Subleased Premises. Sublandlord subleases to Subtenant approximately 5,200 rentable "
    "square feet known as 900 Riverside Avenue, Suite 210, Spokane, Washington 99201 (the "
    '"Subleased Premises").',
    "2. Term. The term of this Sublease shall be thirty-six (36) months, commencing on "
    "October 1, 2023 and ending on September 30, 2026.",
]
SUBLEASE_RENT_OLD = "$9,750.00"
SUBLEASE_RENT_NEW = "$10,400.00"
SUBLEASE_TAIL = [
    "4. Security Deposit. Subtenant shall deposit with Sublandlord a security deposit of Ten "
    "Thousand Four Hundred and 00/100 Dollars ($10,400.00).",
    "5. Master Lease. This Sublease is subject and subordinate to the Master Lease between "
    "Sublandlord and Riverside Tower Partners LLC, as landlord.",
    "6. Renewal. Subtenant shall have no option to renew or extend the term of this Sublease.",
]

SCAN_TEXT = """COMMERCIAL LEASE

This Lease is made as of January 10, 2025, by and between Elm Street Holdings LLC,
an Ohio limited liability company ("Landlord"), and Riverbend Dental Group, P.C.,
an Ohio professional corporation ("Tenant").

1. Premises. Landlord leases to Tenant the premises at 215 Elm Street, Suite B,
Columbus, Ohio 43215, containing approximately 1,850 rentable square feet.

2. Term. The term of this Lease shall be three (3) years, commencing on
February 1, 2025 and ending on January 31, 2028.

3. Rent. Tenant shall pay monthly base rent of Four Thousand Two Hundred
Dollars ($4,200.00) on the first day of each month, being Fifty Thousand Four
Hundred Dollars ($50,400.00) per year.

4. Security Deposit. Tenant shall pay a security deposit of Eight Thousand
Four Hundred Dollars ($8,400.00) upon signing this Lease."""


# When each checked-in sample was first written, pinned: a PDF embeds its /CreationDate
# (and fpdf2 derives its /ID from it), a DOCX its parts' zip times. With them fixed,
# `make samples` rewrites the files byte for byte, so their hashes (in docs/portfolio.md, the
# tests) never move unless their content does.
FIRST_WRITTEN = dt.datetime(2026, 11, 29, 21, 42, 28, tzinfo=dt.UTC)
AMENDMENT_WRITTEN = dt.datetime(2026, 12, 1, 15, 42, 29, tzinfo=dt.UTC)
SCAN_WRITTEN = dt.datetime(2026, 11, 29, 21, 42, 29, tzinfo=dt.UTC)


def _pdf_from_sections(
    sections: list[tuple[str | None, object]], written: dt.datetime = FIRST_WRITTEN
) -> bytes:
    pdf = FPDF(format="letter")
    pdf.set_creation_date(written)
    pdf.set_auto_page_break(True, margin=20)
    pdf.set_margins(22, 20, 22)
    pdf.add_page()
    for title, body in sections:
        if title and body is None:
            pdf.set_font("Helvetica", "B", 13)
            pdf.cell(0, 9, title, align="C", new_x="LMARGIN", new_y="NEXT")
            pdf.ln(2)
        elif isinstance(body, list):
            pdf.set_font("Helvetica", "", 10)
            with pdf.table(col_widths=(45, 110), text_align="LEFT") as table:
                for left, right in body:
                    row = table.row()
                    row.cell(left)
                    row.cell(right)
            pdf.ln(4)
        else:
            pdf.set_font("Helvetica", "B", 10)
            pdf.write(5.5, f"{title} ")
            pdf.set_font("Helvetica", "", 10)
            pdf.write(5.5, str(body))
            pdf.ln(8)
    return bytes(pdf.output())


def _docx_with_tracked_change() -> bytes:
    doc = DocxDocument()
    for text in SUBLEASE_PARAGRAPHS:
        doc.add_paragraph(text)
    marker = "@@RENT@@"
    doc.add_paragraph(
        f"3. Rent. Subtenant shall pay monthly base rent of {marker} in advance on "
        "the first day of each month."
    )
    for text in SUBLEASE_TAIL:
        doc.add_paragraph(text)
    buf = io.BytesIO()
    doc.save(buf)
    # Replace the marker run with a tracked deletion of the old rent and insertion of the new.
    w = 'w:author="Counsel" w:date="2023-08-28T10:00:00Z"'
    tracked = (
        f'</w:t></w:r><w:del w:id="1" {w}><w:r><w:delText>{SUBLEASE_RENT_OLD}</w:delText></w:r>'
        f'</w:del><w:ins w:id="2" {w}><w:r><w:t>{SUBLEASE_RENT_NEW}</w:t></w:r></w:ins>'
        '<w:r><w:t xml:space="preserve">'
    )
    src = zipfile.ZipFile(io.BytesIO(buf.getvalue()))
    out = io.BytesIO()
    stamp = FIRST_WRITTEN.timetuple()[:6]
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as dst:
        for item in src.infolist():
            data = src.read(item.filename)
            if item.filename == "word/document.xml":
                data = data.replace(marker.encode(), tracked.encode())
            item.date_time = stamp
            dst.writestr(item, data)
    return out.getvalue()


def _scanned_pdf(seed: int = 7) -> bytes:
    rng = random.Random(seed)
    width, height = 2550, 3300  # letter at 300 DPI
    page = Image.new("L", (width, height), 255)
    draw = ImageDraw.Draw(page)
    font = ImageFont.truetype("/usr/share/fonts/truetype/dejavu/DejaVuSerif.ttf", 44)
    y = 260
    for paragraph in SCAN_TEXT.split("\n"):
        for line in textwrap.wrap(paragraph, 80) or [""]:
            draw.text((220, y), line, fill=0, font=font)
            y += 66
    page = page.rotate(0.8, fillcolor=255, resample=Image.Resampling.BICUBIC)
    pixels = page.load()
    assert pixels is not None
    for _ in range(40000):  # speckle noise, as a photocopier leaves it
        pixels[rng.randrange(width), rng.randrange(height)] = rng.choice((0, 90, 180))
    page = page.filter(ImageFilter.GaussianBlur(0.6))
    buf = io.BytesIO()
    written = SCAN_WRITTEN.timetuple()
    page.save(buf, format="PDF", resolution=300, creationDate=written, modDate=written)
    return buf.getvalue()


def main(outdir: Path) -> None:
    outdir.mkdir(parents=True, exist_ok=True)
    office = _pdf_from_sections(OFFICE_LEASE)
    files = {
        "harbor_point_office_lease.pdf": office,
        "harbor_point_first_amendment.pdf": _pdf_from_sections(OFFICE_AMENDMENT, AMENDMENT_WRITTEN),
        "maple_grove_retail_lease.pdf": _pdf_from_sections(RETAIL_LEASE),
        "riverside_sublease_tracked_changes.docx": _docx_with_tracked_change(),
        "elm_street_lease.scan.pdf": _scanned_pdf(),
        # An upload cut off in transit: must end dead/corrupt, not crash a worker.
        "truncated_upload.pdf": office[: len(office) // 3],
    }
    for name, data in files.items():
        (outdir / name).write_bytes(data)
        print(f"wrote {outdir / name} ({len(data)} bytes)")


if __name__ == "__main__":
    main(Path(sys.argv[1] if len(sys.argv) > 1 else "samples"))
