"""OCR with Tesseract (pytesseract): pages rendered at 300 DPI, per-word confidences kept.

Tesseract's OpenMP threads cost ~6x the CPU on a 2-core worker for no wall-time gain when
the worker already runs one task per core, so ``OMP_THREAD_LIMIT=1`` is forced for the
Tesseract subprocess. Every call has its own ``timeout``; a page that times out raises
``OperationTimeout`` (transient: a busy node may manage it on retry, and the task's hard
time limit bounds the total).
"""

from __future__ import annotations

import io
import os
import re
from dataclasses import dataclass

import pytesseract
from PIL import Image, ImageOps

from lease_parser.errors import (
    CorruptDocument,
    EmptyDocument,
    OperationTimeout,
    ResourceBomb,
    TooManyPages,
    UnsupportedFormat,
)
from lease_parser.parsing.base import (
    Document,
    Page,
    PageSource,
    ParseLimits,
    SourceFormat,
)
from lease_parser.parsing.pdf import open_pdf
from lease_parser.parsing.quality import measure_text
from lease_parser.parsing.text import normalize_text

# Below this mean word confidence we try orientation detection and a rotated re-read.
LOW_CONFIDENCE_FOR_OSD = 60.0
_ROTATE = re.compile(r"Rotate:\s*(\d+)")


@dataclass(frozen=True)
class OcrOptions:
    dpi: int = 300
    page_timeout: int = 120
    lang: str = "eng"


@dataclass
class OcrText:
    text: str
    mean_confidence: float  # 0-100 over recognised words
    words: int
    low_confidence_words: int


def _tesseract_env() -> None:
    os.environ["OMP_THREAD_LIMIT"] = "1"


def _words_to_text(data: dict[str, list[object]]) -> OcrText:
    lines: dict[tuple[int, int, int], list[str]] = {}
    confs: list[float] = []
    for i, word in enumerate(data["text"]):
        word_s = str(word).strip()
        conf = float(str(data["conf"][i]))
        if not word_s or conf < 0:
            continue
        key = (
            int(str(data["block_num"][i])),
            int(str(data["par_num"][i])),
            int(str(data["line_num"][i])),
        )
        lines.setdefault(key, []).append(word_s)
        confs.append(conf)
    paragraphs: list[str] = []
    last_par: tuple[int, int] | None = None
    for key in sorted(lines):
        if last_par is not None and key[:2] != last_par:
            paragraphs.append("")
        paragraphs.append(" ".join(lines[key]))
        last_par = key[:2]
    mean = sum(confs) / len(confs) if confs else 0.0
    return OcrText(
        text=normalize_text("\n".join(paragraphs)),
        mean_confidence=mean,
        words=len(confs),
        low_confidence_words=sum(1 for c in confs if c < 50),
    )


def _tesseract_words(image: Image.Image, options: OcrOptions) -> OcrText:
    _tesseract_env()
    try:
        data = pytesseract.image_to_data(
            image,
            lang=options.lang,
            output_type=pytesseract.Output.DICT,
            timeout=options.page_timeout,
        )
    except RuntimeError as exc:  # pytesseract raises RuntimeError on its timeout
        raise OperationTimeout(f"Tesseract exceeded {options.page_timeout}s") from exc
    except pytesseract.TesseractError as exc:
        raise CorruptDocument(f"Tesseract could not read the image: {exc}") from exc
    return _words_to_text(data)


def _detected_rotation(image: Image.Image, options: OcrOptions) -> int:
    _tesseract_env()
    try:
        osd = pytesseract.image_to_osd(image, timeout=options.page_timeout)
    except (pytesseract.TesseractError, RuntimeError):
        return 0  # too little text to decide; keep the page as it is
    match = _ROTATE.search(str(osd))
    return int(match.group(1)) if match else 0


def ocr_image(image: Image.Image, options: OcrOptions) -> OcrText:
    """OCR one page image; if it reads badly, detect orientation (OSD) and retry rotated."""
    image = ImageOps.grayscale(image)
    result = _tesseract_words(image, options)
    if result.mean_confidence >= LOW_CONFIDENCE_FOR_OSD and result.words > 0:
        return result
    rotation = _detected_rotation(image, options)
    if rotation:
        # OSD reports the clockwise rotation needed; PIL rotates counter-clockwise.
        rotated = _tesseract_words(image.rotate(-rotation, expand=True), options)
        if rotated.mean_confidence > result.mean_confidence:
            return rotated
    return result


def _ocr_page(number: int, image: Image.Image, options: OcrOptions) -> Page:
    read = ocr_image(image, options)
    quality = measure_text(read.text)
    quality.ocr_confidence = read.mean_confidence
    return Page(number=number, text=read.text, source=PageSource.OCR, quality=quality)


def ocr_pdf_pages(
    data: bytes, page_numbers: list[int], options: OcrOptions, password: str | None = None
) -> list[Page]:
    """Render the given 1-based pages at ``options.dpi`` and OCR them."""
    pages = []
    with open_pdf(data, password) as pdf:
        for number in page_numbers:
            page = pdf[number - 1]
            try:
                bitmap = page.render(scale=options.dpi / 72)
                image = bitmap.to_pil()
            finally:
                page.close()
            pages.append(_ocr_page(number, image, options))
    return pages


def parse_image(data: bytes, limits: ParseLimits, options: OcrOptions) -> Document:
    """PNG, JPEG or TIFF (every frame a page), refusing pixel bombs before decoding."""
    try:
        image = Image.open(io.BytesIO(data))
    except Image.DecompressionBombError as exc:
        raise ResourceBomb(str(exc)) from exc
    except (OSError, ValueError, SyntaxError) as exc:
        raise CorruptDocument(f"the image cannot be read: {exc}") from exc
    if image.format not in ("PNG", "JPEG", "TIFF", "MPO"):
        raise UnsupportedFormat(f"image format {image.format} is not supported")
    frames = getattr(image, "n_frames", 1)
    if frames > limits.max_pages:
        raise TooManyPages(f"{frames} frames, limit {limits.max_pages}")
    pages = []
    for index in range(frames):
        try:
            image.seek(index)
            width, height = image.size
            if width * height > limits.max_image_pixels:
                raise ResourceBomb(f"{width}x{height} pixels, limit {limits.max_image_pixels}")
            frame = ImageOps.exif_transpose(image.convert("RGB"))
        except (OSError, ValueError, EOFError) as exc:
            raise CorruptDocument(f"image frame {index + 1} cannot be decoded: {exc}") from exc
        pages.append(_ocr_page(index + 1, frame, options))
    if not pages:
        raise EmptyDocument("the image has no frames")
    return Document(format=SourceFormat.IMAGE, pages=pages)
