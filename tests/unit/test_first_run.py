"""The first-run path's one-line answers (issue 22, defects 5 and 6): a command that reads
never creates a store, a file to write needs its directory, `unlock` checks the state
before it asks for a password. The real CLI through its error boundary (exit codes and
messages are what is tested) on a real SQLite store in a temporary directory; no server."""

from __future__ import annotations

import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest
from click.testing import CliRunner

from lease_parser.cli import cli as cli_group
from lease_parser.settings import Settings
from lease_parser.store import DocumentState, Store
from tests.store_helpers import add_document

ROOT = Path(__file__).resolve().parents[2]


@dataclass
class Done:
    returncode: int
    stdout: str
    stderr: str


def cli(*args: str, **env: str) -> Done:
    """``lease-parser ARGS`` in this process through its error boundary, with only ``env``
    of the LEASE_* variables (the autouse fixture scrubs the rest), stdin not a terminal."""
    result = CliRunner().invoke(cli_group, list(args), env=env, input="")
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise result.exception  # a traceback: what the boundary must never let out
    return Done(result.exit_code, result.stdout, result.stderr)


def one_line_error(done: Done) -> str:
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1, done.stderr
    assert lines[0].startswith("error: "), done.stderr
    return lines[0]


@pytest.fixture
def data_dir(tmp_path: Path) -> Path:
    """A data directory whose store holds one committed document."""
    store = Store(f"sqlite:///{tmp_path / 'data' / 'lease.db'}")
    add_document(store, state=DocumentState.COMMITTED, reason=None)
    store.close()
    return tmp_path / "data"


def test_in_a_checkout_the_default_data_dir_is_the_one_make_run_uses() -> None:
    assert Settings().data_dir == ROOT / ".lease_data"


def test_a_read_never_creates_a_store_and_names_the_url_it_tried(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path}/nonexistent/dir/x.db"
    done = cli("results", "list", LEASE_STORE_URL=url)
    assert done.returncode == 5
    assert url in one_line_error(done)
    assert "LEASE_STORE_URL" in done.stderr
    assert not (tmp_path / "nonexistent").exists()
    for args in (["status", "0123456789ab"], ["dates"], ["amendments", "list"], ["review", "list"]):
        assert cli(*args, LEASE_STORE_URL=url).returncode == 5, args
    assert not (tmp_path / "nonexistent").exists()


def test_a_data_dir_that_cannot_exist_is_one_line_too() -> None:
    done = cli("results", "list", LEASE_DATA_DIR="/proc/nope")
    assert done.returncode == 5
    assert "/proc/nope" in one_line_error(done)


def test_a_document_that_is_not_there_says_which_store_was_read(data_dir: Path) -> None:
    done = cli("status", "0123456789ab", LEASE_DATA_DIR=str(data_dir))
    assert done.returncode == 5
    line = one_line_error(done)
    assert f"sqlite:///{data_dir}/lease.db" in line
    assert "LEASE_DATA_DIR or LEASE_STORE_URL" in line
    listed = cli("results", "list", LEASE_DATA_DIR=str(data_dir))
    assert f"1 document(s) in the store sqlite:///{data_dir}/lease.db" in listed.stdout


@pytest.mark.parametrize(
    "args",
    [
        ["results", "export", "--out", "{missing}/x.csv"],
        ["results", "export", "--format", "xlsx", "--out", "{missing}/x.xlsx"],
        ["dates", "--ics", "{missing}/x.ics"],
    ],
)
def test_a_file_in_a_missing_directory_is_refused_before_any_work(
    data_dir: Path, args: list[str]
) -> None:
    missing = data_dir.parent / "no" / "such"
    done = cli(*[a.format(missing=missing) for a in args], LEASE_DATA_DIR=str(data_dir))
    assert done.returncode == 2, done.stderr
    assert f"directory '{missing}' does not exist" in done.stderr


def test_unlock_checks_the_state_before_it_asks_for_the_password(data_dir: Path) -> None:
    store = Store(f"sqlite:///{data_dir / 'lease.db'}")
    doc_hash = next(iter(store.hashes_starting_with("", 1)))
    store.close()
    done = cli(
        "unlock",
        doc_hash[:12],
        LEASE_DATA_DIR=str(data_dir),
        # Never reached: the state is checked before the broker is used.
        LEASE_BROKER_URL="redis://127.0.0.1:1/0",
    )
    assert done.returncode == 1
    assert "is committed: only a document waiting for its password" in one_line_error(done)
    assert "Password" not in done.stderr
    assert "GetPassWarning" not in done.stderr


def test_a_data_dir_that_cannot_be_written_stops_run_with_one_line() -> None:
    sample = ROOT / "samples" / "maple_grove_retail_lease.pdf"
    done = cli("run", str(sample), LEASE_DATA_DIR="/proc/nope")
    assert done.returncode == 3
    last = done.stderr.strip().splitlines()[-1]  # after its "starting redis-server ..."
    assert last.startswith("error: LEASE_DATA_DIR=/proc/nope cannot hold"), done.stderr


def script(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, *args], cwd=ROOT, capture_output=True, text=True, timeout=300
    )


def test_the_measure_scripts_without_the_corpus_say_so_in_one_line(tmp_path: Path) -> None:
    """A clone has no ../shared: measure-dates stops with one line (it needs labels),
    measure-parsing measures the samples' text PDFs instead (it needs none)."""
    dates = script("scripts/measure_dates.py", str(tmp_path))
    assert dates.returncode == 2
    assert "Traceback" not in dates.stderr
    assert "the dev corpus is not part of a clone" in dates.stderr
    parsing = script(
        "scripts/measure_parsing.py", "--corpus", str(tmp_path), "--only", "text", "--repeat", "1"
    )
    assert parsing.returncode == 0, parsing.stderr
    assert "measuring the text PDFs of" in parsing.stderr
    assert "harbor_point_office_lease.pdf" in parsing.stdout


def test_a_cut_value_ends_in_an_ellipsis_in_make_runs_table(
    capsys: pytest.CaptureFixture[str],
) -> None:
    from lease_parser.batch import RunRow
    from lease_parser.cli.run import _print_table

    fields = {"landlord": {"value": "Maple Grove Commons, L.P."}, "tenant": {"value": "Sweet Co"}}
    _print_table([RunRow(Path("x.pdf"), "incoming/x.pdf", "0" * 64, "t", "review", fields=fields)])
    out = capsys.readouterr().out
    assert "Maple Grove Commons, L.… " in out
    assert "L.P " not in out
    assert out.splitlines()[2].startswith("000000000000  x.pdf")  # what `status` takes


def test_abstract_cuts_with_an_ellipsis_and_never_a_zip_code_short() -> None:
    done = cli("abstract", str(ROOT / "samples" / "harbor_point_office_lease.pdf"))
    assert done.returncode == 0, done.stderr
    [premises] = [line for line in done.stdout.splitlines() if "premises_address" in line]
    assert "Baltimore, Maryland 212… " in premises  # "…2123" read as the ZIP before


def test_review_show_prints_structured_values_in_words_in_aligned_columns(
    data_dir: Path,
) -> None:
    from tests.store_helpers import VALID_VALUES, fields_json

    window = {"least": {"count": 9, "unit": "months"}, "most": {"count": 12, "unit": "months"}}
    long_address = "1200 Harbor Point Drive, Suite 400, Baltimore, Maryland 21230"
    values = {**VALID_VALUES, "renewal_notice": window, "premises_address": long_address}
    store = Store(f"sqlite:///{data_dir / 'lease.db'}")
    doc_hash = add_document(store, fields=fields_json(values, confidence=0.7))
    store.close()
    done = cli("review", "show", doc_hash[:12], LEASE_DATA_DIR=str(data_dir))
    assert done.returncode == 0, done.stderr
    assert "9–12 months before the term ends" in done.stdout
    assert "up 3% at each step" in done.stdout
    assert "'least'" not in done.stdout
    assert "{'" not in done.stdout
    lines = [line for line in done.stdout.splitlines() if " 0.70  p.1" in line]
    assert len(lines) == len(values)  # every field with a value, one line each
    assert len({line.index(" 0.70  p.1") for line in lines}) == 1  # one confidence column
    address = next(i for i, line in enumerate(done.stdout.splitlines()) if "premises_add" in line)
    wrapped = done.stdout.splitlines()[address : address + 2]
    assert "".join(part.strip() + " " for part in wrapped).strip().endswith("Maryland 21230")


def test_make_samples_rewrites_the_checked_in_samples_byte_for_byte(tmp_path: Path) -> None:
    """Their PDFs embedded the time they were made (/CreationDate, and an /ID from it),
    so every `make samples` changed their hashes and the docs' examples."""
    done = script("scripts/make_samples.py", str(tmp_path))
    assert done.returncode == 0, done.stderr
    written = sorted(p.name for p in tmp_path.iterdir())
    assert written == sorted(p.name for p in (ROOT / "samples").iterdir())
    for name in written:
        assert (tmp_path / name).read_bytes() == (ROOT / "samples" / name).read_bytes(), name
