"""The public API is pinned: changing it is a deliberate act."""

from __future__ import annotations

import lease_parser


def test_public_api() -> None:
    assert sorted(lease_parser.__all__) == ["__version__", "abstraction", "status", "submit"]
    assert callable(lease_parser.submit)
    assert callable(lease_parser.status)
    assert callable(lease_parser.abstraction)
