"""Whether a predicted value equals its label: the comparison rules (lease_parser.comparison)."""

from lease_parser.comparison import (
    DOCUMENT_SUFFIXES,
    canonical_text,
    plain_value,
    strings_match,
    token_set_similarity,
    values_match,
)

__all__ = [
    "DOCUMENT_SUFFIXES",
    "canonical_text",
    "plain_value",
    "strings_match",
    "token_set_similarity",
    "values_match",
]
