"""Measure the CLI's start-up: wall time of short commands, and what their imports cost.

    .venv/bin/python scripts/measure_startup.py [--runs 15] [--importtime]

Each command runs ``--runs`` times as a fresh process (``python -m lease_parser …``, the
same code path as the ``lease-parser`` script) against an empty data directory; the
median and the fastest wall time are printed, and the median CPU time (user + system of
the child), which a busy shared machine inflates far less than wall time.
``--importtime`` adds the ten most costly imports of each command (``python -X
importtime``, cumulative microseconds) so a regression can be traced to the module that
brought it in.

Speed is measured here, never asserted in tests (tests/unit/test_cli_startup.py pins the
structure instead: which heavy libraries a short command must not import).
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time

COMMANDS: dict[str, list[str]] = {
    "--version": ["--version"],
    "--help": ["--help"],
    "status": ["status", "0" * 64],
}


def _cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def _wall(args: list[str], env: dict[str, str]) -> tuple[float, float]:
    """Wall and CPU seconds of one run."""
    started, cpu = time.perf_counter(), _cpu()
    subprocess.run(
        [sys.executable, "-m", "lease_parser", *args],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        check=False,
    )
    return time.perf_counter() - started, _cpu() - cpu


def _top_imports(args: list[str], env: dict[str, str], count: int = 10) -> list[tuple[int, str]]:
    done = subprocess.run(
        [sys.executable, "-X", "importtime", "-m", "lease_parser", *args],
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    rows = []
    for line in done.stderr.splitlines():
        parts = line.split("|")
        if len(parts) == 3 and parts[1].strip().isdigit():
            rows.append((int(parts[1]), parts[2].rstrip()))
    return sorted(rows, reverse=True)[:count]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=15)
    parser.add_argument("--importtime", action="store_true")
    options = parser.parse_args()
    with tempfile.TemporaryDirectory() as data_dir:
        env = {**os.environ, "LEASE_DATA_DIR": data_dir}
        _wall(["status", "0" * 64], env)  # creates the empty store once, outside the timing
        for name, args in COMMANDS.items():
            runs = [_wall(args, env) for _ in range(options.runs)]
            walls, cpus = [w for w, _ in runs], [c for _, c in runs]
            print(
                f"{name:10} wall median {statistics.median(walls):.3f} s  "
                f"min {min(walls):.3f} s  CPU median {statistics.median(cpus):.3f} s  "
                f"({options.runs} runs)"
            )
            if options.importtime:
                for micros, module in _top_imports(args, env):
                    print(f"    {micros / 1000:8.1f} ms  {module}")


if __name__ == "__main__":
    main()
