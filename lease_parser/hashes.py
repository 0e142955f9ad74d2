"""Content hashes as people type them: the full SHA-256, or a unique prefix of 8+ characters.

Listings print 12 characters; every command that takes a hash accepts any unique prefix
of at least ``MIN_PREFIX`` hex digits (``resolve_prefix``), like git's short ids. Where a
hash is *declared* rather than looked up (``submit --hash``), only the full 64 digits
make sense, and a malformed one is refused at once (``full_hash``) instead of surfacing
later as "the object changed after it was submitted". Pure: the lookup is passed in.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence

from lease_parser.errors import AmbiguousHash, DocumentNotFound, InvalidHash

HASH_LENGTH = 64
MIN_PREFIX = 8
# How many candidates an ambiguous prefix lists (one more is fetched to know there are more).
MAX_CANDIDATES = 10
_HEX = re.compile(r"[0-9a-f]+")


def ambiguous(prefix: str, candidates: Sequence[str]) -> AmbiguousHash:
    shown = list(candidates[:MAX_CANDIDATES])
    more = " …" if len(candidates) > MAX_CANDIDATES else ""
    message = (
        f"hash prefix {prefix} is ambiguous: it starts {', '.join(shown)}{more}; "
        "type more characters"
    )
    return AmbiguousHash(message, prefix, shown)


def _clean(text: str) -> str:
    return text.strip().lower()


def full_hash(text: str) -> str:
    """A declared SHA-256: exactly 64 hex digits (any case), returned lower-case."""
    value = _clean(text)
    if len(value) != HASH_LENGTH or not _HEX.fullmatch(value):
        raise InvalidHash(
            f"{text!r} is not a SHA-256: give the 64 hex digits of the content's hash "
            "(or leave --hash out and it is computed)"
        )
    return value


def hash_prefix(text: str) -> str:
    """A hash or a prefix of one to look up: 8–64 hex digits, returned lower-case."""
    value = _clean(text)
    if not MIN_PREFIX <= len(value) <= HASH_LENGTH or not _HEX.fullmatch(value):
        raise InvalidHash(
            f"{text!r} is not a document hash: give its 64 hex digits or a unique prefix "
            f"of at least {MIN_PREFIX} (listings show 12)"
        )
    return value


Lookup = Callable[[str, int], Sequence[str]]


def resolve_prefix(text: str, lookup: Lookup) -> str:
    """The one full hash ``text`` starts; ``lookup(prefix, limit)`` lists known hashes.

    A full hash is returned as is (the command says whether it exists). Raises
    ``InvalidHash``, ``DocumentNotFound`` or ``AmbiguousHash`` (lease_parser.errors).
    """
    prefix = hash_prefix(text)
    if len(prefix) == HASH_LENGTH:
        return prefix
    found = sorted(set(lookup(prefix, MAX_CANDIDATES + 1)))
    if not found:
        raise DocumentNotFound(f"no document with a hash starting {prefix}", doc_hash=prefix)
    if len(found) > 1:
        raise ambiguous(prefix, found)
    return found[0]
