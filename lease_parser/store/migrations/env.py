"""Alembic's entry point for every command (upgrade, stamp, revision, current …).

``Store`` passes a connection that is already inside the locked migration transaction
(see ``lease_parser.store.migrations``); Alembic then runs every step inside it. From a shell
there is no connection yet, so this opens one the same way.
"""

from __future__ import annotations

from logging.config import fileConfig

from alembic import context
from sqlalchemy import Connection

from lease_parser.store.database import Base, create_store_engine
from lease_parser.store.migrations import migration_transaction


def _url() -> str:
    url = context.get_x_argument(as_dictionary=True).get("url")
    if url:
        return str(url)
    from lease_parser.settings import load_settings

    return load_settings().store_database_url


def _run(connection: Connection) -> None:
    context.configure(connection=connection, target_metadata=Base.metadata, compare_type=True)
    with context.begin_transaction():
        context.run_migrations()


def _main() -> None:
    if context.config.config_file_name:  # the alembic CLI: log what it does
        fileConfig(context.config.config_file_name, disable_existing_loggers=False)
    if context.is_offline_mode():
        context.configure(url=_url(), target_metadata=Base.metadata, literal_binds=True)
        with context.begin_transaction():
            context.run_migrations()
        return
    connection = context.config.attributes.get("connection")
    if connection is not None:
        _run(connection)
        return
    engine = create_store_engine(_url())
    try:
        with migration_transaction(engine) as conn:
            _run(conn)
    finally:
        engine.dispose()


_main()
