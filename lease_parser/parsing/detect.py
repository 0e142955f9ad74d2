"""Decide a document's format from its magic bytes, never from its file name."""

from __future__ import annotations

import io
import zipfile

from lease_parser.errors import EmptyDocument, EncryptedDocument, UnsupportedFormat
from lease_parser.parsing.base import SourceFormat

_OLE = b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1"


def detect_format(data: bytes) -> SourceFormat:
    """Return the format, or raise ``UnsupportedFormat`` / ``EmptyDocument`` naming what it is."""
    if not data or not data.strip():
        raise EmptyDocument("the document is empty (zero bytes)")
    head = data[:1024]
    if b"%PDF-" in head:
        return SourceFormat.PDF
    if head.startswith(b"PK\x03\x04"):
        return _zip_kind(data)
    if head.startswith(_OLE):
        # An encrypted DOCX is an OLE container holding an "EncryptionInfo" stream.
        if "EncryptionInfo".encode("utf-16-le") in data[:65536]:
            raise EncryptedDocument("the DOCX is password-protected")
        raise UnsupportedFormat("legacy Word/OLE document (.doc); save it as DOCX or PDF")
    if head.startswith((b"\x89PNG\r\n\x1a\n", b"\xff\xd8\xff", b"II*\x00", b"MM\x00*")):
        return SourceFormat.IMAGE
    if head.lstrip().startswith(b"{\\rtf"):
        raise UnsupportedFormat("RTF document; save it as DOCX or PDF")
    lowered = head.lstrip().lower()
    if lowered.startswith((b"<!doctype html", b"<html", b"<?xml", b"<")):
        raise UnsupportedFormat("HTML/XML document; print it to PDF")
    raise UnsupportedFormat("unknown file type (not PDF, DOCX, PNG, JPEG or TIFF)")


def _zip_kind(data: bytes) -> SourceFormat:
    try:
        with zipfile.ZipFile(io.BytesIO(data)) as zf:
            names = set(zf.namelist())
    except (zipfile.BadZipFile, ValueError):
        # A truncated DOCX still starts with PK: let the DOCX parser call it corrupt.
        return SourceFormat.DOCX
    if "word/document.xml" in names:
        return SourceFormat.DOCX
    raise UnsupportedFormat("a zip archive that is not a Word document")
