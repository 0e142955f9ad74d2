"""What a new user meets first (issue 14, item 10): `make run`'s data where the README says,
a summary table that does not turn .docx into .doc, and docs that ship with the code."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from lease_parser.batch import RunRow
from lease_parser.cli.run import _print_table, shorten_middle
from lease_parser.model import FIELD_NAMES, EscalationKind, RentStep

ROOT = Path(__file__).resolve().parents[2]
DOCS = ROOT / "docs"


def make_dry_run(target: str, *flags: str) -> str:
    make = shutil.which("make")
    assert make is not None, "make is needed (apt-get install make)"
    # Not the calling make's flags: under `make test` they would add "Entering directory".
    env = {k: v for k, v in os.environ.items() if k not in ("MAKEFLAGS", "MAKELEVEL", "MFLAGS")}
    done = subprocess.run(
        [make, "--no-print-directory", "-n", *flags, target],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        check=True,
        timeout=60,
    )
    return done.stdout


def test_make_run_keeps_its_data_where_the_readme_says_and_make_clean_removes_it() -> None:
    run = make_dry_run("run")
    data_dir = re.search(r"LEASE_DATA_DIR=(\S+) \S*lease-parser run", run)
    assert data_dir is not None, run
    assert Path(data_dir.group(1)) == ROOT / ".lease_data"
    assert "rm -rf" in make_dry_run("clean")
    assert data_dir.group(1) in make_dry_run("clean")
    assert "`.lease_data/objects`" in (ROOT / "README.md").read_text()


def test_make_serve_serves_the_data_make_run_wrote() -> None:
    """Issue 22: `make serve` started a second system under ~/.local/share (a new token,
    an empty /v1/documents). The bare CLI's default is the same directory (test_first_run)."""
    run = re.search(r"LEASE_DATA_DIR=(\S+) \S*lease-parser run", make_dry_run("run"))
    serve = re.search(r"LEASE_DATA_DIR=(\S+) \S*lease-parser serve --local", make_dry_run("serve"))
    assert run is not None
    assert serve is not None
    assert serve.group(1) == run.group(1)


def test_make_installs_only_when_pyproject_changes(tmp_path: Path) -> None:
    """Every target re-ran pip (2.6 s and a warning each time): now a stamp in the venv."""
    venv = tmp_path / "venv"
    (venv / "bin").mkdir(parents=True)
    (venv / "bin" / "python").symlink_to(shutil.which("python3") or "/usr/bin/python3")
    (venv / ".installed").touch()  # newer than pyproject.toml: installed already
    assert "pip install" not in make_dry_run("lint", f"VENV={venv}")
    # -W: as if pyproject.toml had just changed.
    assert "pip install" in make_dry_run("lint", f"VENV={venv}", "-W", "pyproject.toml")


@pytest.mark.parametrize(
    ("name", "width", "expected"),
    [
        ("riverside_sublease_tracked_changes.docx", 38, "riverside_sublease_…acked_changes.docx"),
        ("short.pdf", 38, "short.pdf"),
        ("a" * 50 + ".scan.pdf", 20, "aaaaaaaaaa….scan.pdf"),
    ],
)
def test_names_are_shortened_in_the_middle(name: str, width: int, expected: str) -> None:
    assert shorten_middle(name, width) == expected
    assert len(shorten_middle(name, width)) <= width


def test_the_summary_table_keeps_each_extension(capsys: pytest.CaptureFixture[str]) -> None:
    names = ["riverside_sublease_tracked_changes_final_v2.docx", "harbor_point_office_lease.pdf"]
    rows = [RunRow(Path(n), f"incoming/{n}", "0" * 64, "t", state="committed") for n in names]
    _print_table(rows)
    out = capsys.readouterr().out
    assert ".docx " in out
    assert ".doc " not in out


def test_the_docs_a_user_is_pointed_to_are_in_the_repository() -> None:
    """README and docstrings cite docs/…, never the FIELDS.md/DESIGN.md a clone lacks."""
    cited = set()
    for path in [ROOT / "README.md", *ROOT.glob("lease_parser/**/*.py"), *DOCS.glob("*.md")]:
        text = path.read_text()
        assert not re.search(r"\b(?:FIELDS|DESIGN)\.md\b", text), path
        cited |= set(re.findall(r"\bdocs/[\w./-]+\.md\b", text))
    assert {"docs/fields.md", "docs/architecture.md"} <= cited
    missing = {doc for doc in cited if not (ROOT / doc).exists()}
    # docs/operations.md is written on the ops branch; every other cited doc is here.
    assert missing <= {"docs/operations.md"}


def test_docs_fields_describes_every_field_and_every_json_form() -> None:
    text = (DOCS / "fields.md").read_text()
    for name in FIELD_NAMES:
        assert f"`{name}`" in text, name
    for kind in EscalationKind:
        assert f"`{kind.value}`" in text, kind
    for key in RentStep.model_fields:
        assert f'"{key}"' in text, key
