"""`make soak`: leases through a real local cluster while worker children are SIGKILLed.

usage: python scripts/soak.py [--documents 500] [--kill-every 2,5] [--data-dir DIR] [--json]

Prints documents submitted / committed / review / dead / lost / committed twice; exits
1 unless lost and committed-twice (and finished-twice) are all 0.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from pathlib import Path

from lease_parser.soak import run_soak


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--documents", type=int, default=500)
    parser.add_argument("--kill-every", default="2,5", help="seconds between kills: MIN,MAX")
    parser.add_argument("--timeout", type=float, default=3600)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--data-dir", type=Path, default=None)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    low, high = (float(v) for v in args.kill_every.split(","))
    with tempfile.TemporaryDirectory(prefix="lease-soak-") as tmp:
        data_dir = args.data_dir or Path(tmp)
        log = (lambda _msg: None) if args.json else (lambda msg: print(msg, file=sys.stderr))
        report = run_soak(args.documents, data_dir, (low, high), args.timeout, args.seed, log)
    if args.json:
        print(json.dumps(report.to_json()))
    else:
        print("\n".join(report.lines()))
        print("OK: nothing lost, nothing committed twice" if report.ok else "FAILED")
    return 0 if report.ok else 1


if __name__ == "__main__":
    sys.exit(main())
