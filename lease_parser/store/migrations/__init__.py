"""The canonical store's schema history (Alembic), applied at start-up by ``Store``.

Every process that opens the store (a worker child, a CLI call) brings the schema to head
itself, so a deploy never depends on a separate migration step running first. That is
safe when many processes start at once because the whole upgrade runs in one transaction
that first takes a lock: ``BEGIN IMMEDIATE`` on SQLite (the database write lock),
``pg_advisory_xact_lock`` on PostgreSQL. DDL is transactional on both, so a crash
mid-upgrade leaves the previous schema, never half of the next one.

From a shell: ``alembic -c lease_parser/store/migrations/alembic.ini upgrade head`` (the URL comes
from ``LEASE_STORE_URL``, or ``-x url=...``). New revision: ``alembic -c ... revision
--autogenerate -m "what changed"``, then read and edit what it wrote.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING

from sqlalchemy import Connection, Engine, inspect, text

if TYPE_CHECKING:  # Alembic is imported only when a schema is actually upgraded
    from alembic.config import Config

MIGRATIONS_DIR = Path(__file__).resolve().parent
# The walking skeleton's schema (made by create_all, before there were migrations).
INITIAL_REVISION = "0001"
# The newest revision. Every process opening the store compares the database's version
# with it in one query, so the common case (already there) never imports Alembic (a
# quarter of a second of every CLI call). A new revision must update it: a unit test
# fails until it equals Alembic's own head.
HEAD_REVISION = "webhooks"
# Any constant shared by every lease_parser process: "lease" in ASCII.
_PG_LOCK_KEY = 0x6C65617365


def alembic_config(connection: Connection | None = None) -> Config:
    """A config that needs no alembic.ini: the scripts beside this file, our connection."""
    from alembic.config import Config

    cfg = Config()
    cfg.set_main_option("script_location", str(MIGRATIONS_DIR))
    cfg.attributes["connection"] = connection
    return cfg


def head_revisions() -> set[str]:
    from alembic.script import ScriptDirectory

    return set(ScriptDirectory.from_config(alembic_config()).get_heads())


def current_revisions(connection: Connection) -> set[str]:
    from alembic.runtime.migration import MigrationContext

    return set(MigrationContext.configure(connection).get_current_heads())


@contextmanager
def migration_transaction(engine: Engine) -> Iterator[Connection]:
    """One transaction holding the migration lock; it commits when the block ends."""
    with engine.begin() as conn:
        if conn.dialect.name == "sqlite":
            # pysqlite would run DDL outside any transaction; an explicit BEGIN IMMEDIATE
            # makes the upgrade atomic and takes the write lock (busy_timeout waits for it).
            conn.exec_driver_sql("BEGIN IMMEDIATE")
        elif conn.dialect.name == "postgresql":
            conn.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": _PG_LOCK_KEY})
        yield conn


def _is_unversioned_skeleton(conn: Connection) -> bool:
    tables = set(inspect(conn).get_table_names())
    return "documents" in tables and "alembic_version" not in tables


def _at_head(conn: Connection) -> bool:
    """One query, no Alembic: is the database at ``HEAD_REVISION``?"""
    if not inspect(conn).has_table("alembic_version"):
        return False
    versions = set(conn.execute(text("SELECT version_num FROM alembic_version")).scalars())
    return versions == {HEAD_REVISION}


def upgrade_to_head(engine: Engine) -> None:
    """Upgrade to the newest revision; cheap (one read, no lock, no Alembic) when there."""
    with engine.connect() as conn:
        if _at_head(conn):
            return
        if current_revisions(conn) == head_revisions():
            return
    from alembic import command

    with migration_transaction(engine) as conn:
        cfg = alembic_config(conn)
        if _is_unversioned_skeleton(conn):
            # A store made before migrations existed holds exactly revision 0001's schema.
            command.stamp(cfg, INITIAL_REVISION)
        command.upgrade(cfg, "head")


__all__ = [
    "HEAD_REVISION",
    "INITIAL_REVISION",
    "MIGRATIONS_DIR",
    "alembic_config",
    "current_revisions",
    "head_revisions",
    "migration_transaction",
    "upgrade_to_head",
]
