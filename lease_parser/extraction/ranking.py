"""Which learned ranker chooses among a field's candidates while a document is read.

The extractors call ``cues.resolve`` deep inside their own logic, many times per document;
threading a model through every one of them would put scoring into each extractor's
signature. Instead the caller of extraction says which ranker to use for the duration of
one document (``ranking_with``), and ``resolve`` asks ``current_ranker``. A context variable,
not a global: two documents read at once in two threads each see their own.

A ranker maps a field name and a candidate's features to a score; only the order of the
scores matters (the highest is chosen). With none, candidates keep the extractors' own
order (their places' weights), which is what extractor unit tests exercise.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from contextvars import ContextVar

Ranker = Callable[[str, Mapping[str, float]], float]

_RANKER: ContextVar[Ranker | None] = ContextVar("lease_parser_ranker", default=None)


@contextmanager
def ranking_with(ranker: Ranker | None) -> Iterator[None]:
    """Candidates are chosen by ``ranker`` inside the block."""
    token = _RANKER.set(ranker)
    try:
        yield
    finally:
        _RANKER.reset(token)


def current_ranker() -> Ranker | None:
    return _RANKER.get()
