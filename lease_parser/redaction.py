"""Credentials never reach a terminal or a log: passwords in URLs are masked.

``LEASE_BROKER_URL=redis://:PASSWORD@host`` and ``LEASE_STORE_URL=postgresql://user:PASSWORD@db``
end up in error messages (a driver's, ours), in tracebacks and in log lines. Every message
the CLI prints goes through ``redact``; ``install_log_redaction`` makes every log record of
the process (ours, Celery's, the drivers') pass through it too, whatever handler prints it.
"""

from __future__ import annotations

import logging
import re
import traceback
from typing import Any

MASK = "***"
# scheme://user:password@  or  scheme://:password@ (Redis). The password runs to the last
# "@" before the host: passwords may contain "@" or ":" when URL-quoted loosely.
_URL_PASSWORD = re.compile(r"(?P<head>[a-zA-Z][a-zA-Z0-9+.\-]*://[^\s:/@'\"]*:)[^\s/'\"]+(?=@)")


def redact(text: str) -> str:
    """``text`` with the password of every URL in it replaced by ``***``."""
    return _URL_PASSWORD.sub(lambda m: m.group("head") + MASK, text)


_installed = False


def _redacted_arg(value: Any) -> Any:
    """A string redacted; anything else kept as it is (a formatter may need its type: %d)
    unless its text holds a password, which then leaves as redacted text."""
    if isinstance(value, str):
        return redact(value)
    text = str(value)
    clean = redact(text)
    return value if clean == text else clean


def install_log_redaction() -> None:
    """Redact every log record this process creates (idempotent; forked children inherit)."""
    global _installed
    if _installed:
        return
    _installed = True
    make_record = logging.getLogRecordFactory()

    def redacted_record(*args: Any, **kwargs: Any) -> logging.LogRecord:
        record = make_record(*args, **kwargs)
        try:
            # Each argument is redacted in place, not folded into the message: formatters
            # read them (uvicorn's access log unpacks (client, method, path, version, status)).
            record.msg = redact(str(record.msg))
            if isinstance(record.args, tuple):
                record.args = tuple(_redacted_arg(a) for a in record.args)
            elif isinstance(record.args, dict):
                record.args = {k: _redacted_arg(v) for k, v in record.args.items()}
        except Exception:  # a malformed record stays as it was: logging must not fail
            return record
        if record.exc_info and record.exc_info[0] is not None:
            record.exc_text = redact("".join(traceback.format_exception(*record.exc_info)))
            record.exc_text = record.exc_text.rstrip("\n")
        return record

    logging.setLogRecordFactory(redacted_record)
