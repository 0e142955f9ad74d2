"""Render docs/portfolio.md's picture of the Excel abstract (docs/images/workbook.png).

Exports the workbook from the store at LEASE_STORE_URL / LEASE_DATA_DIR (the sample leases
after `make run` and the amendment approved: see docs/portfolio.md), converts it to PDF with
LibreOffice headless (Debian: libreoffice-calc-nogui) and its pages to PNG with pdftoppm
(poppler-utils), and stacks the left part of the Portfolio sheet over the first lease's
own sheet.

usage: python scripts/render_workbook.py [OUT.png]
"""

from __future__ import annotations

import subprocess
import sys
import tempfile
from pathlib import Path

from PIL import Image, ImageDraw, ImageFont, ImageOps

WIDTH = 1800
FONT = "/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf"
CAPTIONS = (
    "Portfolio sheet (one row per lease, current terms; left part)",
    "A lease's own sheet: each field's value, confidence, page, cited text, the document "
    "that set it; the change log",
)


def _page(pdf: Path, number: int, out: Path, fraction: float = 1.0) -> Image.Image:
    prefix = out / f"page{number}"
    subprocess.run(
        ["pdftoppm", "-r", "300", "-png", "-f", str(number), "-l", str(number), pdf, prefix],
        check=True,
    )
    [png] = sorted(out.glob(f"page{number}-*.png"))
    image = Image.open(png).convert("RGB")
    box = ImageOps.invert(image.convert("L")).getbbox()
    assert box is not None, f"page {number} is blank"
    image = image.crop((box[0] - 15, box[1] - 15, box[2] + 15, box[3] + 15))
    image = image.crop((0, 0, int(image.size[0] * fraction), image.size[1]))
    return image.resize((WIDTH, int(image.size[1] * WIDTH / image.size[0])), Image.LANCZOS)


def main(target: Path) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp)
        xlsx = out / "portfolio.xlsx"
        subprocess.run(
            [
                sys.executable,
                "-m",
                "lease_parser",
                "results",
                "export",
                "--format",
                "xlsx",
                "--out",
                str(xlsx),
            ],
            check=True,
        )
        subprocess.run(
            ["soffice", "--headless", "--convert-to", "pdf", "--outdir", tmp, str(xlsx)],
            check=True,
            capture_output=True,
        )
        pdf = out / "portfolio.pdf"
        # Page 1: Portfolio; 2: Rent roll; 3: Critical dates; 4: the first lease's sheet.
        parts = [_page(pdf, 1, out, fraction=0.62), _page(pdf, 4, out)]
    caption = 48
    height = sum(p.size[1] + caption for p in parts) + 10
    picture = Image.new("RGB", (WIDTH, height), "white")
    draw = ImageDraw.Draw(picture)
    font = ImageFont.truetype(FONT, 26)
    y = 0
    for text, part in zip(CAPTIONS, parts, strict=True):
        draw.text((10, y + 10), text, fill=(40, 40, 40), font=font)
        picture.paste(part, (0, y + caption))
        y += caption + part.size[1]
    picture.save(target)
    print(f"wrote {target} ({picture.size[0]}x{picture.size[1]})")


if __name__ == "__main__":
    main(Path(sys.argv[1] if len(sys.argv) > 1 else "docs/images/workbook.png"))
