from __future__ import annotations

import pytest

from lease_parser.errors import ConfigurationError
from lease_parser.settings import RetryPolicy, Settings, load_settings


def test_defaults_are_consistent() -> None:
    s = Settings()
    assert s.visibility_timeout > s.time_limits.largest_hard()
    assert s.visibility_timeout > s.retry.largest_countdown()
    assert s.max_document_bytes == 50 * 1024 * 1024
    assert s.confidence_gate == pytest.approx(0.90)


def test_environment_names_are_the_fixed_ones(monkeypatch: pytest.MonkeyPatch) -> None:
    env = {
        "LEASE_BROKER_URL": "redis://broker:6379/0",
        "LEASE_RESULT_BACKEND": "redis://broker:6379/1",
        "LEASE_OBJECT_STORE": "s3://leases/incoming",
        "LEASE_S3_ENDPOINT_URL": "http://minio:9000",
        "LEASE_STORE_URL": "postgresql+psycopg2://u:p@db/leases",
        "LEASE_CONFIDENCE_GATE": "0.9",
        "LEASE_DATA_DIR": "/var/lib/lease",
        "LEASE_TIME_LIMITS__OCR__HARD": "2400",
        "LEASE_TIME_LIMITS__OCR__SOFT": "2300",
    }
    for k, v in env.items():
        monkeypatch.setenv(k, v)
    s = load_settings()
    assert s.broker_url == env["LEASE_BROKER_URL"]
    assert s.result_backend == env["LEASE_RESULT_BACKEND"]
    assert s.object_store_url == "s3://leases/incoming"
    assert s.s3_endpoint_url == "http://minio:9000"
    assert s.store_database_url == env["LEASE_STORE_URL"]
    assert s.confidence_gate == pytest.approx(0.9)
    assert str(s.data_dir) == "/var/lib/lease"
    assert s.time_limits.ocr.hard == 2400


def test_embedded_defaults_live_under_the_data_dir(tmp_path: object) -> None:
    s = Settings(data_dir="/srv/lease")  # type: ignore[arg-type]
    assert s.object_store_url == "file:///srv/lease/objects"
    assert s.store_database_url == "sqlite:////srv/lease/lease.db"


@pytest.mark.parametrize(
    ("env", "names"),
    [
        ({"LEASE_VISIBILITY_TIMEOUT": "1000"}, ["LEASE_VISIBILITY_TIMEOUT", "1800"]),
        (
            {"LEASE_VISIBILITY_TIMEOUT": "2000", "LEASE_RETRY__BACKOFF_MAX": "3000"},
            ["LEASE_VISIBILITY_TIMEOUT", "LEASE_RETRY__BACKOFF_MAX"],
        ),
        ({"LEASE_TIME_LIMITS__OCR__SOFT": "5000"}, ["LEASE_TIME_LIMITS__OCR", "soft time limit"]),
        ({"LEASE_CONFIDENCE_GATE": "1.5"}, ["LEASE_CONFIDENCE_GATE"]),
        ({"LEASE_HEARTBEAT_TTL": "10"}, ["LEASE_HEARTBEAT_TTL", "LEASE_HEARTBEAT_INTERVAL"]),
        ({"LEASE_WORKER_STALL_AFTER": "10"}, ["LEASE_WORKER_STALL_AFTER"]),
    ],
)
def test_invalid_combinations_fail_at_start_up_naming_the_value(
    monkeypatch: pytest.MonkeyPatch, env: dict[str, str], names: list[str]
) -> None:
    for k, v in env.items():
        monkeypatch.setenv(k, v)
    with pytest.raises(ConfigurationError) as info:
        load_settings()
    for name in names:
        assert name in str(info.value)


def test_backoff_doubles_to_its_cap_with_bounded_jitter() -> None:
    policy = RetryPolicy()
    assert [policy.countdown(i) for i in range(5)] == [60, 120, 240, 480, 480]
    assert policy.countdown(3, rand=0.999) <= policy.largest_countdown()
