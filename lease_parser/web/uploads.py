"""The document of ``POST /v1/documents/upload``: one multipart part named ``file``, read
as it streams, bounded.

Parsed here rather than by the framework's form handling for two reasons: a part that
names its file only as ``filename*=UTF-8''…`` (RFC 5987; python-multipart ignores it and
hands the bytes over as a *text field*) is still the document, and only this part's bytes
are kept, never more than the limit.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from email.message import Message

from fastapi import Request
from python_multipart.exceptions import MultipartParseError
from python_multipart.multipart import MultipartParser, parse_options_header
from starlette.requests import ClientDisconnect

from lease_parser.errors import DocumentTooLarge
from lease_parser.web.errors import ApiError

FIELD = "file"


@dataclass
class Upload:
    filename: str | None
    data: bytes


@dataclass
class _Parts:
    """What the parser has seen so far: the current part's headers, and the file part."""

    limit: int
    header_name: bytes = b""
    header_value: bytes = b""
    headers: dict[str, str] = field(default_factory=dict)
    in_file: bool = False
    found: Upload | None = None
    buffer: bytearray = field(default_factory=bytearray)

    def on_header_field(self, data: bytes, start: int, end: int) -> None:
        self.header_name += data[start:end]

    def on_header_value(self, data: bytes, start: int, end: int) -> None:
        self.header_value += data[start:end]

    def on_header_end(self) -> None:
        name = self.header_name.decode("latin-1").lower()
        self.headers[name] = self.header_value.decode("utf-8", "replace")
        self.header_name, self.header_value = b"", b""

    def on_headers_finished(self) -> None:
        disposition = Message()
        disposition["content-disposition"] = self.headers.get("content-disposition", "")
        name = disposition.get_param("name", header="content-disposition")
        self.in_file = name == FIELD and self.found is None
        if self.in_file:
            # get_filename reads filename*= (RFC 2231/5987) as well as filename=.
            self.found = Upload(disposition.get_filename(), b"")
        self.headers = {}

    def on_part_data(self, data: bytes, start: int, end: int) -> None:
        if self.in_file:
            self.buffer += data[start:end]
            if len(self.buffer) > self.limit:
                raise DocumentTooLarge(f"over {self.limit} bytes")

    def on_part_end(self) -> None:
        if self.in_file and self.found is not None:
            self.found.data = bytes(self.buffer)
        self.in_file = False


async def read_upload(request: Request, limit: int) -> Upload:
    """The ``file`` part; 415 for a body that is not multipart, 422 without that part,
    413 past ``limit`` bytes (as soon as it passes)."""
    kind, options = parse_options_header(request.headers.get("content-type"))
    boundary = options.get(b"boundary")
    if kind != b"multipart/form-data" or not boundary:
        raise ApiError(
            415,
            "unsupported_media_type",
            "send multipart/form-data with the document in a part named file "
            "(curl -F file=@lease.pdf)",
        )
    parts = _Parts(limit)
    parser = MultipartParser(
        boundary,
        {
            "on_header_field": parts.on_header_field,
            "on_header_value": parts.on_header_value,
            "on_header_end": parts.on_header_end,
            "on_headers_finished": parts.on_headers_finished,
            "on_part_data": parts.on_part_data,
            "on_part_end": parts.on_part_end,
        },
    )
    try:
        async for chunk in request.stream():
            parser.write(chunk)
        parser.finalize()
    except MultipartParseError:
        raise ApiError(400, "bad_request", "the multipart body is malformed") from None
    except ClientDisconnect:
        raise ApiError(400, "bad_request", "the body ended before it was complete") from None
    if parts.found is None:
        raise ApiError(422, "invalid_request", "no part named file: send the document as file")
    return parts.found
