"""pipeline/signals.py: the handlers connect when the app is made, never on import."""

from __future__ import annotations

import subprocess
import sys


def test_importing_the_metrics_loads_no_celery_and_connects_nothing() -> None:
    """The exporter and the CLI load metrics.py; only ``create_app`` connects the handlers."""
    code = (
        "import sys\n"
        "import lease_parser.metrics, lease_parser.pipeline.heartbeat\n"
        "from celery import signals\n"
        "import lease_parser.pipeline.signals\n"
        "assert not signals.task_prerun.has_listeners()\n"
        "assert not signals.worker_init.has_listeners()\n"
        "from lease_parser.pipeline.app import create_app\n"
        "from lease_parser.settings import Settings\n"
        "create_app(Settings())\n"
        "create_app(Settings())\n"
        "assert len(signals.task_prerun.receivers) == 1, signals.task_prerun.receivers\n"
        "assert len(signals.worker_init.receivers) == 2, signals.worker_init.receivers\n"
    )
    bare = "import sys, lease_parser.metrics\nassert 'celery' not in sys.modules\n"
    for script in (bare, code):
        result = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True)
        assert result.returncode == 0, result.stderr
