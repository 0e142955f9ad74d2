"""How long the Excel abstract of a large portfolio takes (issue 16's target: 1,000 leases in
under 10 seconds).

Builds a SQLite store of N committed leases (seeded: parties, premises, dates, a five-step
rent schedule, a renewal option with its notice window, a break option on one lease in
five, a cited snippet per field) with one linked, committed amendment extending every
fourth lease and an amendment filed in the same file as every tenth. Then it times what
``lease-parser results export --format xlsx`` does: read the leases and their amendments
from the store, apply the amendments, compute the critical dates, write the workbook. The
export is run ``--rounds`` times (default 3) in this process; the best and the median are
reported, with the file's size and sheet count. ``--cli`` also times the real command in a
subprocess (its start-up included).

usage: python scripts/bench_xlsx.py [--leases 1000] [--rounds 3] [--cli] [--json]
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import random
import statistics
import subprocess
import sys
import tempfile
import time
from decimal import Decimal
from pathlib import Path
from typing import Any

from lease_parser.model import (
    Field,
    LeaseAbstraction,
    Provenance,
    abstraction_fields_json,
)
from lease_parser.portfolio.schedule import months_after
from lease_parser.portfolio.workbook import write_workbook
from lease_parser.scoring.normalization import typed_value
from lease_parser.store import DocumentState, Outcome, Store, after_finish, lease_records

TARGET_SECONDS = 10.0
GATE = 0.9
STREETS = ("Harbor", "Foundry", "Canal", "Quarry", "Orchard", "Mill", "Ferry", "Lark")


def _fields(values: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    typed = {
        name: Field(
            value=typed_value(name, raw),
            confidence=round(rng.uniform(0.8, 0.999), 3),
            provenance=Provenance(
                page=rng.randint(1, 40),
                start=100,
                end=140,
                text=f"... the {name.replace('_', ' ')} is {raw} as stated in this Lease ...",
            ),
        )
        for name, raw in values.items()
    }
    return abstraction_fields_json(LeaseAbstraction(**typed))


def lease_values(n: int, rng: random.Random) -> dict[str, Any]:
    start = dt.date(2022, 1, 1) + dt.timedelta(days=rng.randint(0, 1500))
    start = start.replace(day=1)
    months = rng.choice((36, 60, 63, 84, 120))
    monthly = Decimal(rng.randint(4000, 90000))
    area = rng.randint(1500, 60000)
    steps = [
        {
            "start": 1 + 12 * i,
            "end": min(12 * (i + 1), months),
            "monthly": str((monthly * Decimal("1.03") ** i).quantize(Decimal("0.01"))),
            "annual": None,
            "per_sqft_annual": None,
        }
        for i in range(min(5, months // 12))
    ]
    values: dict[str, Any] = {
        "landlord": f"{rng.choice(STREETS)} Holdings {n % 97} LLC",
        "tenant": f"Tenant {n:05d}, Inc.",
        "premises_address": f"{100 + n} {rng.choice(STREETS)} Street, Suite {n % 900}, Dayton, OH",
        "rentable_sqft": str(area),
        "lease_date": (start - dt.timedelta(days=45)).isoformat(),
        "commencement_date": start.isoformat(),
        "expiration_date": (months_after(start, months) - dt.timedelta(days=1)).isoformat(),
        "term_months": str(months),
        "base_rent_monthly": str(monthly),
        "base_rent_annual": str(monthly * 12),
        "rent_schedule": steps,
        "security_deposit": str(monthly * 2),
        "renewal_option_count": str(rng.randint(1, 3)),
        "renewal_term_months": "60",
        "renewal_notice": {
            "least": {"count": rng.choice((6, 9, 12)), "unit": "months"},
            "most": {"count": 15, "unit": "months"},
        },
        "currency": rng.choice(("USD", "USD", "USD", "CAD", "GBP")),
    }
    if n % 5 == 0:
        values["termination_option_date"] = months_after(start, months // 2).isoformat()
        values["termination_notice"] = {"least": {"count": 9, "unit": "months"}, "most": None}
    return values


def extension(lease: dict[str, Any]) -> dict[str, Any]:
    end = dt.date.fromisoformat(lease["expiration_date"])
    return {
        "landlord": lease["landlord"],
        "tenant": lease["tenant"],
        "premises_address": lease["premises_address"],
        "lease_date": months_after(end, -14).isoformat(),
        "amended_lease_date": lease["lease_date"],
        "expiration_date": months_after(end, 60).isoformat(),
        "base_rent_monthly": str(Decimal(lease["base_rent_monthly"]) * Decimal("1.2")),
    }


def _finish(store: Store, key: str, fields: dict[str, Any], kind: str, **more: Any) -> str:
    import hashlib

    doc_hash = hashlib.sha256(key.encode()).hexdigest()
    store.register_submission(f"sub-{doc_hash[:24]}", key, doc_hash)
    outcome = Outcome(
        state=DocumentState.COMMITTED, kind=kind, confidence=0.93, fields=fields, pages=40, **more
    )
    store.finish(doc_hash, f"sub-{doc_hash[:24]}", outcome)
    return doc_hash


def build(store: Store, leases: int, seed: int = 16) -> None:
    rng = random.Random(seed)
    for n in range(leases):
        values = lease_values(n, rng)
        appended = None
        if n % 10 == 0:
            appended = [{"title": "Amendment to Lease", "fields": _fields(extension(values), rng)}]
        _finish(store, f"leases/{n:05d}.pdf", _fields(values, rng), "lease", amendments=appended)
        if n % 4 == 0:
            doc_hash = _finish(
                store, f"leases/{n:05d}-amendment.pdf", _fields(extension(values), rng), "amendment"
            )
            after_finish(store, doc_hash, GATE)
        if (n + 1) % 200 == 0:
            print(f"  built {n + 1}/{leases} leases", file=sys.stderr)


def export_once(store: Store, out: Path) -> float:
    started = time.perf_counter()
    count = write_workbook(lease_records(store), out, GATE)
    seconds = time.perf_counter() - started
    assert count > 0
    return seconds


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--leases", type=int, default=1000)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--cli", action="store_true", help="also time the real command")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        url = f"sqlite:///{tmp}/lease.db"
        store = Store(url)
        print(f"building a store of {args.leases} leases ...", file=sys.stderr)
        build(store, args.leases)
        out = Path(tmp) / "portfolio.xlsx"
        times = []
        for round_ in range(1, args.rounds + 1):
            times.append(export_once(store, out))
            print(f"  round {round_}: {times[-1]:.2f} s", file=sys.stderr)
        import openpyxl

        book = openpyxl.load_workbook(out, read_only=True)
        report: dict[str, Any] = {
            "leases": args.leases,
            "sheets": len(book.sheetnames),
            "bytes": out.stat().st_size,
            "seconds_best": round(min(times), 2),
            "seconds_median": round(statistics.median(times), 2),
            "target_seconds": TARGET_SECONDS,
            "met": min(times) < TARGET_SECONDS,
        }
        if args.cli:
            started = time.perf_counter()
            subprocess.run(
                [
                    sys.executable,
                    "-m",
                    "lease_parser",
                    "results",
                    "export",
                    "--format",
                    "xlsx",
                    "--out",
                    str(out),
                ],
                env={"LEASE_STORE_URL": url, "PATH": "/usr/bin:/bin"},
                check=True,
                capture_output=True,
            )
            report["seconds_cli"] = round(time.perf_counter() - started, 2)
    if args.json:
        print(json.dumps(report))
    else:
        for key, value in report.items():
            print(f"{key:16} {value}")
    return 0 if report["met"] else 1


if __name__ == "__main__":
    sys.exit(main())
