"""Reading a DOCX's zip and XML without letting it inflate, loop or expand without bound.

Everything is decided from the zip's central directory before a byte is inflated:

* total declared size over ``max_unpacked_bytes``, or one part over ``max_member_bytes``,
  or a large part inflating more than ``max_compression_ratio`` times → ``ResourceBomb``;
* entries that share or overlap their compressed data (the "overlapping files" zip bomb,
  where thousands of entries point at one deflate stream) → ``ResourceBomb``;
* archives nested inside (``word/embeddings/*.docx``) are never opened.

Reading a part is then bounded twice: zipfile stops at the declared size, and we read at
most the limit plus one byte. XML parts are parsed with entities unresolved, no network,
no DTD loading and libxml2's huge-tree guard on; a part that declares a DTD at all (the
billion-laughs carrier, forbidden in OOXML by ECMA-376 Part 2) is refused. zipfile and lxml
exceptions are translated here, once.
"""

from __future__ import annotations

import io
import itertools
import zipfile
import zlib

from lxml import etree

from lease_parser.errors import CorruptDocument, ResourceBomb
from lease_parser.parsing.base import ParseLimits

# A small part may compress very well (an empty header is ~10x); only big ones can bomb.
RATIO_CHECK_ABOVE = 1_000_000
_LOCAL_HEADER = 30  # fixed bytes of a zip local file header before the name

_XML_PARSER = etree.XMLParser(
    resolve_entities=False,
    no_network=True,
    load_dtd=False,
    dtd_validation=False,
    huge_tree=False,
    remove_blank_text=False,
)


def _check_overlap(infos: list[zipfile.ZipInfo]) -> None:
    ordered = sorted(infos, key=lambda i: i.header_offset)
    for before, after in itertools.pairwise(ordered):
        end = before.header_offset + _LOCAL_HEADER + len(before.filename) + before.compress_size
        if after.header_offset < end:
            raise ResourceBomb(
                f"zip entries {before.filename!r} and {after.filename!r} overlap "
                "(an overlapping-entries zip bomb)",
                member=after.filename,
            )


class SafeZip:
    """A zip opened from bytes whose central directory passed the bomb checks."""

    def __init__(self, data: bytes, limits: ParseLimits) -> None:
        try:
            self._zf = zipfile.ZipFile(io.BytesIO(data))
            infos = self._zf.infolist()
        except (zipfile.BadZipFile, zipfile.LargeZipFile, ValueError, OSError) as exc:
            raise CorruptDocument(f"the DOCX is not a valid zip archive: {exc}") from exc
        self._limits = limits
        total = sum(i.file_size for i in infos)
        if total > limits.max_unpacked_bytes:
            raise ResourceBomb(
                f"the archive declares {total} unpacked bytes, limit {limits.max_unpacked_bytes}",
                size=total,
            )
        _check_overlap(infos)
        self._infos = {i.filename: i for i in infos}

    def __enter__(self) -> SafeZip:
        return self

    def __exit__(self, *exc: object) -> None:
        self._zf.close()

    def names(self) -> list[str]:
        return list(self._infos)

    def _check_member(self, info: zipfile.ZipInfo) -> None:
        if info.file_size > self._limits.max_member_bytes:
            raise ResourceBomb(
                f"{info.filename} declares {info.file_size} bytes, "
                f"limit {self._limits.max_member_bytes}",
                member=info.filename,
            )
        ratio = info.file_size / max(info.compress_size, 1)
        if info.file_size > RATIO_CHECK_ABOVE and ratio > self._limits.max_compression_ratio:
            raise ResourceBomb(
                f"{info.filename} inflates {ratio:.0f}x, limit "
                f"{self._limits.max_compression_ratio}x",
                member=info.filename,
            )

    def read(self, name: str) -> bytes | None:
        """The part's bytes, or ``None`` if absent; bounded by its checked declared size."""
        info = self._infos.get(name)
        if info is None:
            return None
        self._check_member(info)
        try:
            with self._zf.open(info) as part:
                raw = part.read(self._limits.max_member_bytes + 1)
        except (zipfile.BadZipFile, zlib.error, EOFError, OSError, NotImplementedError) as exc:
            raise CorruptDocument(f"{name} cannot be read from the archive: {exc}") from exc
        if len(raw) > self._limits.max_member_bytes:  # pragma: no cover - zipfile stops first
            raise ResourceBomb(f"{name} inflates past its declared size", member=name)
        return raw

    def read_xml(self, name: str) -> etree._Element | None:
        """Parse one XML part safely, or ``None`` if the part is absent."""
        raw = self.read(name)
        if raw is None:
            return None
        try:
            root = etree.fromstring(raw, _XML_PARSER)
        except etree.XMLSyntaxError as exc:
            if "amplification" in str(exc) or "entity" in str(exc).lower():
                raise ResourceBomb(f"{name}: entity expansion refused: {exc}", member=name) from exc
            raise CorruptDocument(f"{name} is not well-formed XML: {exc}", member=name) from exc
        if root.getroottree().docinfo.internalDTD is not None:
            raise ResourceBomb(
                f"{name} declares a DTD (entity expansion; OOXML forbids DTDs)", member=name
            )
        return root
