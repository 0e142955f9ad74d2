"""The container image: built by `make image` (buildah), then lease-parser run inside it.

Marked ``image`` and run by ``make image-test`` (and by .ci/run as its own step), not by
``make test``: a cold build makes a Debian base with mmdebstrap first. Commands run in the
image with ``buildah run --isolation chroot`` (podman run does not work in this sandbox).
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from collections.abc import Iterator
from importlib.metadata import version
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]
SAMPLES = ROOT / "samples"
TEXT_PDF = "harbor_point_office_lease.pdf"
SCAN = "elm_street_lease.scan.pdf"

pytestmark = [
    pytest.mark.image,
    pytest.mark.skipif(
        shutil.which("buildah") is None,
        reason="buildah is not installed (apt-get install buildah podman mmdebstrap)",
    ),
    # A cold build (mmdebstrap base, apt, wheels) takes minutes on 2 cores.
    pytest.mark.timeout(2400),
]


def run(*args: str, timeout: float = 600) -> subprocess.CompletedProcess[str]:
    result = subprocess.run(args, capture_output=True, text=True, timeout=timeout, check=False)
    assert result.returncode == 0, f"{args}: {result.stderr[-4000:]}"
    return result


@pytest.fixture(scope="module")
def image() -> str:
    built = subprocess.run(
        ["bash", str(ROOT / "scripts" / "build_image.sh")],
        capture_output=True,
        text=True,
        timeout=2400,
        env={**os.environ, "PY": sys.executable},
        cwd=ROOT,
        check=False,
    )
    assert built.returncode == 0, built.stderr[-4000:]
    return built.stdout.strip().splitlines()[-1]


@pytest.fixture(scope="module")
def container(image: str) -> Iterator[str]:
    name = run("buildah", "from", "--pull=never", image).stdout.strip()
    try:
        run("buildah", "copy", name, str(SAMPLES / TEXT_PDF), str(SAMPLES / SCAN), "/tmp/samples/")
        yield name
    finally:
        subprocess.run(["buildah", "rm", name], capture_output=True, check=False)


def inside(container: str, *args: str) -> subprocess.CompletedProcess[str]:
    return run("buildah", "run", "--isolation", "chroot", container, "--", *args)


def abstract_here(path: Path) -> dict[str, Any]:
    out = run(sys.executable, "-m", "lease_parser", "abstract", str(path), "--json")
    return dict(json.loads(out.stdout))


def test_the_image_runs_this_version_as_a_non_root_user(image: str, container: str) -> None:
    assert inside(container, "lease-parser", "--version").stdout.split()[-1] == version(
        "lease-parser"
    )
    assert inside(container, "id", "-u").stdout.strip() == "10001"
    config = json.loads(run("buildah", "inspect", "--type", "image", image).stdout)
    assert config["Docker"]["config"]["Healthcheck"]["Test"][1:3] == ["lease-parser", "healthcheck"]
    assert "OMP_THREAD_LIMIT=1" in config["OCIv1"]["config"]["Env"]


def test_a_text_pdf_abstracts_in_the_image_exactly_as_here(container: str) -> None:
    there = json.loads(
        inside(container, "lease-parser", "abstract", f"/tmp/samples/{TEXT_PDF}", "--json").stdout
    )
    assert there == abstract_here(SAMPLES / TEXT_PDF)


def test_a_scan_is_read_by_tesseract_in_the_image(container: str) -> None:
    there = json.loads(
        inside(container, "lease-parser", "abstract", f"/tmp/samples/{SCAN}", "--json").stdout
    )
    here = abstract_here(SAMPLES / SCAN)
    assert there["ocr_pages"] == here["ocr_pages"] >= 1
    for name in ("landlord", "tenant"):
        assert there["fields"][name]["value"] == here["fields"][name]["value"]
