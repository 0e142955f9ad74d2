"""Hashes as people type them (issue 14, item 7): any unique prefix of 8+, everywhere."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from lease_parser.cli import cli
from lease_parser.errors import AmbiguousHash, DocumentNotFound, InvalidHash, Reason
from lease_parser.hashes import full_hash, hash_prefix, resolve_prefix
from lease_parser.store import DocumentState, Outcome, Store

ZEROS = "abcdef12" + "0" * 56
ONES = "abcdef12" + "1" * 56
OTHER = "0123456789" + "f" * 54


@pytest.mark.parametrize("text", ["abc", "abcdef1", "g" * 64, "0" * 65, "abcdef12 34", ""])
def test_a_malformed_prefix_is_refused(text: str) -> None:
    with pytest.raises(InvalidHash, match="at least 8"):
        hash_prefix(text)


@pytest.mark.parametrize("text", ["abc", "0" * 63, "z" * 64, ZEROS + "0"])
def test_a_declared_hash_must_be_all_64_digits(text: str) -> None:
    with pytest.raises(InvalidHash, match="64 hex digits"):
        full_hash(text)


def test_a_declared_hash_is_lower_cased() -> None:
    assert full_hash(ZEROS.upper()) == ZEROS


def test_resolution() -> None:
    known = [ZEROS, ONES, OTHER]

    def lookup(prefix: str, limit: int) -> list[str]:
        return [h for h in known if h.startswith(prefix)][:limit]

    assert resolve_prefix("ABCDEF120", lookup) == ZEROS
    assert resolve_prefix(OTHER[:8], lookup) == OTHER
    assert resolve_prefix("f" * 64, lookup) == "f" * 64  # full: the command says if it exists
    with pytest.raises(DocumentNotFound):
        resolve_prefix("99999999", lookup)
    with pytest.raises(AmbiguousHash) as ambiguous:
        resolve_prefix("abcdef12", lookup)
    assert ambiguous.value.candidates == [ZEROS, ONES]


@pytest.fixture
def data_dir(tmp_path: Path) -> Path:
    store = Store(f"sqlite:///{tmp_path / 'data' / 'lease.db'}")
    for n, doc_hash in enumerate((ZEROS, ONES, OTHER)):
        store.register_submission(f"s{n}", f"incoming/{n}.pdf", doc_hash)
        outcome = Outcome(state=DocumentState.REVIEW, reason=Reason.LOW_CONFIDENCE, fields={})
        store.finish(doc_hash, f"s{n}", outcome)
    store.close()
    return tmp_path / "data"


def run(data_dir: Path, *args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(cli, list(args), env={"LEASE_DATA_DIR": str(data_dir)})
    return result.exit_code, result.stdout, result.stderr


@pytest.mark.parametrize(
    "command",
    [("status",), ("results", "show"), ("review", "show"), ("review", "prioritize")],
    ids=" ".join,
)
def test_every_command_taking_a_hash_takes_a_unique_prefix(
    data_dir: Path, command: tuple[str, ...]
) -> None:
    extra = ("5",) if command[-1] == "prioritize" else ()
    code, out, err = run(data_dir, *command, OTHER[:8], *extra, "--json")
    assert code == 0, err
    assert OTHER in out

    code, out, err = run(data_dir, *command, "abcdef12", *extra, "--json")
    assert code == 2  # ambiguous: usage, with the candidates listed
    assert ZEROS in err
    assert ONES in err
    assert json.loads(out)["candidates"] == [ZEROS, ONES]

    assert run(data_dir, *command, "abc", *extra)[0] == 2  # too short
    assert run(data_dir, *command, "99999999", *extra)[0] == 5  # nobody starts so
