"""``lease-parser bench``: throughput, overhead and scaling, measured side by side.

corpus.py generates a seeded mixed corpus; inprocess.py runs the baselines (sequential,
threads); cluster.py runs the full pipeline on its own redis-server with probed workers
(probes.py, worker.py); broker.py measures the dedup hash lock and Redis bytes per queued
document; memory.py samples worker RSS from /proc; stats.py and report.py do the
arithmetic and the table; run.py puts the phases in order.
"""

from lease_parser.bench.run import BenchOptions, run_benchmark

__all__ = ["BenchOptions", "run_benchmark"]
