"""PostgreSQL for the store's integration tests: one database per test session, one schema
per test, both dropped at the end.

The server is this machine's (``127.0.0.1:5432``, trust auth; CI runs one too), or the
admin URL in ``LEASE_TEST_POSTGRES_URL``. An unreachable server fails the tests, never
skips them. conftest.py imports these fixtures.
"""

from __future__ import annotations

import os
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest
from sqlalchemy import create_engine
from sqlalchemy.engine import make_url

ADMIN_URL = os.environ.get(
    "LEASE_TEST_POSTGRES_URL", "postgresql+psycopg2://postgres@127.0.0.1:5432/test"
)
BACKENDS = ("sqlite", "postgresql")


@pytest.fixture(scope="session")
def pg_database() -> Iterator[str]:
    """A uniquely named, empty database for this test session; dropped at the end."""
    name = f"lease_test_{uuid.uuid4().hex[:12]}"
    admin = create_engine(ADMIN_URL, isolation_level="AUTOCOMMIT")
    with admin.connect() as conn:
        conn.exec_driver_sql(f'CREATE DATABASE "{name}"')
    try:
        yield make_url(ADMIN_URL).set(database=name).render_as_string(hide_password=False)
    finally:
        with admin.connect() as conn:
            conn.exec_driver_sql(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        admin.dispose()


@pytest.fixture
def pg_url(pg_database: str) -> Iterator[str]:
    """A store URL whose connections all use a fresh schema (via ``search_path``)."""
    schema = f"t_{uuid.uuid4().hex[:12]}"
    engine = create_engine(pg_database, isolation_level="AUTOCOMMIT")
    with engine.connect() as conn:
        conn.exec_driver_sql(f'CREATE SCHEMA "{schema}"')
    url = make_url(pg_database).update_query_dict({"options": f"-csearch_path={schema}"})
    yield url.render_as_string(hide_password=False)
    with engine.connect() as conn:
        conn.exec_driver_sql(f'DROP SCHEMA "{schema}" CASCADE')
    engine.dispose()


@pytest.fixture(params=BACKENDS)
def store_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """The same test on SQLite (a file under tmp_path) and on PostgreSQL."""
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'store' / 'lease.db'}"
    return str(request.getfixturevalue("pg_url"))
