"""Every hostile or broken input reaches a named route and reason through the real command:
``lease-parser abstract FILE --json`` (exit 0 whenever a route was reached)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from lease_parser.cli import cli
from tests.unit.parsing.conftest import FIXTURES, PASSWORD, fixture_bytes

REPO = Path(__file__).resolve().parents[3]


def _abstract(path: Path, *args: str, env: dict[str, str] | None = None) -> dict[str, Any]:
    result = CliRunner().invoke(cli, ["abstract", str(path), "--json", *args], env=env)
    assert result.exit_code == 0, result.output
    return json.loads(result.output)  # type: ignore[no-any-return]


@pytest.mark.parametrize(
    ("name", "route", "reason"),
    [
        ("encrypted.pdf", "review", "needs_credential"),
        ("encrypted.docx", "review", "needs_credential"),
        ("no_pages.pdf", "dead", "empty"),
        ("legacy.doc", "dead", "unsupported_format"),
        ("lease.rtf", "dead", "unsupported_format"),
        ("lease.html", "dead", "unsupported_format"),
        ("unknown.bin", "dead", "unsupported_format"),
        ("not_word.zip", "dead", "unsupported_format"),
        ("zip_bomb.docx", "dead", "resource_bomb"),
        ("overlapping_entries.docx", "dead", "resource_bomb"),
        ("billion_laughs.docx", "dead", "resource_bomb"),
        ("pixel_bomb.png", "dead", "resource_bomb"),
    ],
)
def test_hostile_fixture_route(name: str, route: str, reason: str) -> None:
    out = _abstract(FIXTURES / name)
    assert (out["route"], out["reason"]) == (route, reason)
    assert out["detail"]  # the message says what is wrong


@pytest.mark.parametrize(
    ("data", "reason"),
    [
        (b"", "empty"),
        (b"%PDF-1.7\n1 0 obj << /Type /Catalog", "corrupt"),
        (b"PK\x03\x04truncated", "corrupt"),
    ],
    ids=["zero bytes", "truncated pdf", "truncated docx"],
)
def test_broken_bytes_route(data: bytes, reason: str, tmp_path: Path) -> None:
    path = tmp_path / "lease.pdf"
    path.write_bytes(data)
    out = _abstract(path)
    assert (out["route"], out["reason"]) == ("dead", reason)


def test_truncated_fixture_is_dead_corrupt(tmp_path: Path) -> None:
    path = tmp_path / "lease.pdf"
    path.write_bytes(fixture_bytes("simple_lease.pdf")[:200])
    assert _abstract(path)["reason"] == "corrupt"


@pytest.mark.parametrize(
    ("env", "reason"),
    [
        ({"LEASE_MAX_PAGES": "2"}, "too_many_pages"),
        ({"LEASE_MAX_DOCUMENT_BYTES": "100"}, "too_large"),
    ],
)
def test_limits_route(env: dict[str, str], reason: str) -> None:
    out = _abstract(FIXTURES / "tables.pdf", env=env)
    assert (out["route"], out["reason"]) == ("dead", reason)


def test_the_password_resubmits_an_encrypted_pdf() -> None:
    by_flag = _abstract(FIXTURES / "encrypted.pdf", "--password", PASSWORD)
    by_env = _abstract(FIXTURES / "encrypted.pdf", env={"LEASE_DOCUMENT_PASSWORD": PASSWORD})
    for out in (by_flag, by_env):
        assert out["route"] != "dead"
        assert out["reason"] != "needs_credential"
        assert out["pages"] == 1


def test_a_pdf_named_doc_is_still_a_pdf(tmp_path: Path) -> None:
    path = tmp_path / "lease.doc"
    path.write_bytes(fixture_bytes("simple_lease.pdf"))
    out = _abstract(path)
    assert out["reason"] != "unsupported_format"
    assert out["pages"] == 2


def test_an_image_is_ocrd_on_its_way_to_a_route() -> None:
    out = _abstract(FIXTURES / "lease_page.png")
    assert out["route"] in ("committed", "review")
    assert (out["pages"], out["ocr_pages"]) == (1, 1)


def test_console_command_in_a_real_process() -> None:
    # The same entry point the installed `lease-parser` script calls, in its own process.
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    env = {k: v for k, v in env.items() if not k.startswith("LEASE_")}
    done = subprocess.run(
        [
            sys.executable,
            "-c",
            "from lease_parser.cli import main; main()",
            "abstract",
            str(FIXTURES / "zip_bomb.docx"),
            "--json",
        ],
        capture_output=True,
        text=True,
        env=env,
        cwd=REPO,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    out = json.loads(done.stdout)
    assert (out["route"], out["reason"]) == ("dead", "resource_bomb")
