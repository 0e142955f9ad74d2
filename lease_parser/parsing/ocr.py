"""OCR with Tesseract: scanned PDF pages (rendered at ``OcrOptions.dpi``) and PNG/JPEG/TIFF.

Every Tesseract call is a subprocess with its own ``timeout``; one that runs out raises
``OperationTimeout`` (transient: a busy node may manage it on retry, and the task's hard
time limit bounds the total). ``OMP_THREAD_LIMIT=1`` is set for those subprocesses:
threaded Tesseract costs about 6x the CPU for the same page on a shared node. A page that
reads badly is checked with orientation detection (OSD) and re-read upright.

Images are refused before decoding when their declared size is over
``OcrOptions.max_pixels`` (a pixel bomb is a few KB of PNG that decodes to gigabytes). Pillow
has its own guard (a warning above ~89 Mpx, an error above twice that); we apply ours
first, and turn Pillow's into the same ``ResourceBomb`` rather than a warning in a log.
"""

from __future__ import annotations

import io
import os
import re
import struct
import warnings
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field

import pytesseract
from PIL import Image, ImageOps, UnidentifiedImageError

from lease_parser.errors import (
    ConfigurationError,
    CorruptDocument,
    EmptyDocument,
    OperationTimeout,
    ResourceBomb,
    TooManyPages,
    UnsupportedFormat,
)
from lease_parser.parsing.base import (
    Document,
    OcrReason,
    Page,
    PageQuality,
    PageSource,
    ParseLimits,
    SourceFormat,
)
from lease_parser.parsing.quality import measure_text
from lease_parser.parsing.text import normalize_text

# Below this mean word confidence we try orientation detection and a rotated re-read.
LOW_CONFIDENCE_FOR_OSD = 60.0
LOW_WORD_CONFIDENCE = 60  # a word under this is counted in ocr_low_confidence_ratio
_ROTATE = re.compile(r"Rotate:\s*(\d+)")
IMAGE_FORMATS = frozenset({"PNG", "JPEG", "MPO", "TIFF"})


@dataclass(frozen=True)
class OcrOptions:
    dpi: int = 300
    page_timeout: float = 120  # seconds for one Tesseract subprocess
    lang: str = "eng"
    threads: int = 1  # OMP_THREAD_LIMIT for Tesseract
    # A page rendered (or an image decoded) over this many pixels is refused / scaled down.
    max_pixels: int = 50_000_000


# Word boxes are kept in ten-thousandths of the page image's width and height: the
# workspace draws them over a rendering of any size.
BOX_SCALE = 10_000
Box = tuple[int, int, int, int]  # left, top, right, bottom


@dataclass
class OcrText:
    text: str
    words: list[tuple[int, int, int]]  # (start, end, confidence) in ``text``
    # One box per word of ``words``, on the image as it was read (after ``rotation``).
    boxes: list[Box] = field(default_factory=list)
    rotation: int = 0  # degrees clockwise the page was turned upright before reading

    @property
    def mean_confidence(self) -> float:
        return sum(c for _, _, c in self.words) / len(self.words) if self.words else 0.0


def _locate_words(
    words: list[tuple[str, int]], text: str, boxes: list[Box]
) -> tuple[list[tuple[int, int, int]], list[Box]]:
    """Find each recognised word in the normalised text, in order (hyphen joins included);
    the boxes of the words found."""
    spans = []
    found: list[Box] = []
    cursor = 0
    for (word, conf), box in zip(words, boxes, strict=True):
        needle = normalize_text(word)
        at = text.find(needle, cursor)
        if at < 0 and needle.endswith("-"):  # "commence-" joined with the next line's "ment"
            needle = needle[:-1]
            at = text.find(needle, cursor)
        if at < 0 or not needle:
            continue
        spans.append((at, at + len(needle), conf))
        found.append(box)
        cursor = at + len(needle)
    return spans, found


def _word_box(data: dict[str, list[object]], i: int, size: tuple[int, int]) -> Box:
    width, height = max(size[0], 1), max(size[1], 1)
    left, top = (int(str(data[k][i])) for k in ("left", "top"))
    right = left + int(str(data["width"][i]))
    bottom = top + int(str(data["height"][i]))
    return (
        left * BOX_SCALE // width,
        top * BOX_SCALE // height,
        min(right * BOX_SCALE // width, BOX_SCALE),
        min(bottom * BOX_SCALE // height, BOX_SCALE),
    )


def words_to_text(data: dict[str, list[object]], size: tuple[int, int] = (0, 0)) -> OcrText:
    """Tesseract's TSV rows → text in block/paragraph/line order, plus word confidences and
    (when the image ``size`` is given) each word's box."""
    lines: dict[tuple[int, int, int], list[str]] = {}
    words: list[tuple[str, int]] = []
    boxes: list[Box] = []
    for i, word in enumerate(data["text"]):
        word_s = str(word).strip()
        conf = float(str(data["conf"][i]))
        if not word_s or conf < 0:
            continue
        key = tuple(int(str(data[k][i])) for k in ("block_num", "par_num", "line_num"))
        lines.setdefault(key, []).append(word_s)  # type: ignore[arg-type]
        words.append((word_s, round(conf)))
        boxes.append(_word_box(data, i, size) if all(size) else (0, 0, 0, 0))
    paragraphs: list[str] = []
    last_par: tuple[int, int] | None = None
    for key in sorted(lines):
        if last_par is not None and key[:2] != last_par:
            paragraphs.append("")
        paragraphs.append(" ".join(lines[key]))
        last_par = key[:2]
    text = normalize_text("\n".join(paragraphs))
    spans, found = _locate_words(words, text, boxes)
    return OcrText(text=text, words=spans, boxes=found if all(size) else [])


def _limit_threads(threads: int) -> None:
    """Tesseract's OpenMP threads. pytesseract hands the subprocess os.environ itself, so
    that is the only way in; it is written once per process (the settings are the
    process's), not on every page."""
    if os.environ.get("OMP_THREAD_LIMIT") != str(threads):
        os.environ["OMP_THREAD_LIMIT"] = str(threads)


def _tesseract(call: str, image: Image.Image, options: OcrOptions, **kwargs: object) -> object:
    """One Tesseract subprocess, its failures mapped to the taxonomy."""
    _limit_threads(options.threads)
    image.format = "PPM"  # a raw temp file: PNG-encoding a 300 DPI page costs ~0.1 s
    try:
        return getattr(pytesseract, call)(image, timeout=options.page_timeout, **kwargs)
    except pytesseract.TesseractNotFoundError as exc:
        raise ConfigurationError("tesseract is not installed or not on PATH") from exc
    except pytesseract.TesseractError as exc:  # a RuntimeError too: must come first
        raise CorruptDocument(f"Tesseract could not read the image: {exc}") from exc
    except RuntimeError as exc:  # pytesseract's timeout is a bare RuntimeError
        raise OperationTimeout(f"Tesseract exceeded {options.page_timeout}s: {exc}") from exc


def _read(image: Image.Image, options: OcrOptions) -> OcrText:
    data = _tesseract(
        "image_to_data", image, options, lang=options.lang, output_type=pytesseract.Output.DICT
    )
    return words_to_text(data, image.size)  # type: ignore[arg-type]


def _detected_rotation(image: Image.Image, options: OcrOptions) -> int:
    try:
        osd = _tesseract("image_to_osd", image, options)
    except CorruptDocument:
        return 0  # too little text to decide; keep the page as it is
    match = _ROTATE.search(str(osd))
    return int(match.group(1)) % 360 if match else 0


def ocr_image(image: Image.Image, options: OcrOptions) -> OcrText:
    """OCR one page image; if it reads badly, detect orientation (OSD) and retry rotated."""
    if image.mode != "L":
        image = ImageOps.grayscale(image)
    result = _read(image, options)
    if result.mean_confidence >= LOW_CONFIDENCE_FOR_OSD and result.words:
        return result
    rotation = _detected_rotation(image, options)
    if rotation:
        # OSD reports the clockwise rotation that makes the page upright; PIL's rotate
        # turns counter-clockwise, hence the minus.
        rotated = _read(image.rotate(-rotation, expand=True), options)
        if rotated.mean_confidence > result.mean_confidence:
            rotated.rotation = rotation
            return rotated
    return result


def ocr_page(number: int, image: Image.Image, options: OcrOptions, reason: OcrReason) -> Page:
    """A ``Page`` from one image: OCR text, word confidences and their per-page summary."""
    read = ocr_image(image, options)
    quality = measure_text(read.text)
    confidences = [c for _, _, c in read.words]
    quality.ocr_confidence = read.mean_confidence
    quality.ocr_low_confidence_ratio = (
        sum(1 for c in confidences if c < LOW_WORD_CONFIDENCE) / len(confidences)
        if confidences
        else 1.0
    )
    return Page(
        number=number,
        text=read.text,
        source=PageSource.OCR,
        quality=quality,
        ocr_reason=reason,
        word_confidences=read.words,
        word_boxes=read.boxes,
        ocr_rotation=read.rotation,
    )


# ------------------------------------------------------------------ image files

# What Pillow raises on a damaged file. Beyond its documented OSError/ValueError/SyntaxError,
# the fuzz test (test_fuzz.py) found struct.error, IndexError, KeyError and TypeError
# ("Missing dimensions") leaking from its TIFF and PNG readers on mutated input.
_PILLOW_ERRORS = (
    UnidentifiedImageError,
    OSError,
    ValueError,
    SyntaxError,
    struct.error,
    IndexError,
    KeyError,
    TypeError,
    ZeroDivisionError,
)


@contextmanager
def _pillow(what: str, notes: list[str], page: int = 1) -> Iterator[None]:
    """Map Pillow's failures to the taxonomy; keep its warnings (corrupt EXIF ...) as notes.

    Its magic bytes said PNG/JPEG/TIFF (detect.py), so an unreadable file is damaged, not
    unsupported. Our pixel limit is checked before this; Pillow's own bomb error is the same
    ``ResourceBomb``, and its bomb warning is dropped (it fires below our limit).
    """
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            yield
        except Image.DecompressionBombError as exc:
            raise ResourceBomb(f"image pixel bomb: {exc}", page=page) from exc
        except _PILLOW_ERRORS as exc:
            raise CorruptDocument(f"{what}: {exc}", page=page) from exc
        finally:
            notes.extend(
                f"page {page}: {w.message}"
                for w in caught
                if not issubclass(w.category, Image.DecompressionBombWarning)
            )


def _check_pixels(image: Image.Image, frame: int, max_pixels: int) -> None:
    width, height = image.size
    if width * height > max_pixels:
        raise ResourceBomb(
            f"image frame {frame} is {width}x{height} pixels, limit {max_pixels}", page=frame
        )


def _open_image(data: bytes, max_pixels: int, notes: list[str]) -> Image.Image:
    with _pillow("the image cannot be read", notes):
        image = Image.open(io.BytesIO(data))
    if image.format not in IMAGE_FORMATS:
        raise UnsupportedFormat(f"image format {image.format} is not supported")
    _check_pixels(image, 1, max_pixels)
    return image


def _frames(
    image: Image.Image, max_frames: int, max_pixels: int, notes: list[str]
) -> Iterator[int]:
    """Seek to each frame in turn (checking its size before any pixel is decoded)."""
    index = 0
    while True:
        try:
            with _pillow("an image frame cannot be read", notes, index + 1):
                image.seek(index)
        except EOFError:
            return
        _check_pixels(image, index + 1, max_pixels)
        if index >= max_frames:
            raise TooManyPages(f"over {max_frames} frames", pages=index + 1)
        yield index
        index += 1


def image_frames(
    data: bytes, max_frames: int, max_pixels: int, notes: list[str] | None = None
) -> Iterator[Image.Image]:
    """Decode PNG/JPEG/TIFF frames one at a time, each checked before it is decoded."""
    notes = [] if notes is None else notes
    image = _open_image(data, max_pixels, notes)
    for index in _frames(image, max_frames, max_pixels, notes):
        try:
            with _pillow("an image frame cannot be decoded", notes, index + 1):
                frame = ImageOps.exif_transpose(image.convert("L"))
        except EOFError as exc:  # data ends inside the frame
            raise CorruptDocument(f"image frame {index + 1} is truncated", page=index + 1) from exc
        yield frame


def parse_image(data: bytes, limits: ParseLimits) -> Document:
    """PNG, JPEG or TIFF: validated frame by frame (no pixels decoded); OCR comes later."""
    notes: list[str] = []
    image = _open_image(data, limits.max_image_pixels, notes)
    count = sum(1 for _ in _frames(image, limits.max_pages, limits.max_image_pixels, notes))
    if count == 0:
        raise EmptyDocument("the image has no frames")
    pages = [scanned_placeholder(n) for n in range(1, count + 1)]
    return Document(format=SourceFormat.IMAGE, pages=pages, warnings=notes)


def scanned_placeholder(number: int) -> Page:
    """An image page before OCR: no text layer, so it needs OCR."""
    return Page(
        number=number,
        text="",
        quality=PageQuality(
            chars=0, words=0, printable_ratio=0.0, dictionary_ratio=0.0, image_coverage=1.0
        ),
        needs_ocr=True,
        ocr_reason=OcrReason.SCANNED,
    )
