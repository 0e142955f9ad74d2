"""The ops commands' own rules, without servers: Flower never starts without credentials."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from lease_parser.cli.ops import parse_basic_auth
from lease_parser.errors import ConfigurationError


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        ("ops:pw", ["ops:pw"]),
        ("ops:pw, admin:p:w", ["ops:pw", "admin:p:w"]),  # a colon may sit inside a password
    ],
)
def test_basic_auth_pairs_are_accepted(value: str, expected: list[str]) -> None:
    assert parse_basic_auth(value) == expected


@pytest.mark.parametrize("value", [None, "", "  ", "ops", "ops:", ":pw", "ops:pw,admin", "ops:pw,"])
def test_unusable_basic_auth_is_refused(value: str | None) -> None:
    with pytest.raises(ConfigurationError, match="LEASE_FLOWER_BASIC_AUTH"):
        parse_basic_auth(value)


def test_flower_command_exits_with_the_configuration_code_and_says_what_to_set() -> None:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("LEASE_", "FLOWER_"))}
    result = subprocess.run(
        [sys.executable, "-m", "lease_parser", "flower"],
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert result.returncode == 3  # ExitCode.CONFIG, before any broker is contacted
    assert "LEASE_FLOWER_BASIC_AUTH=user:password" in result.stderr
