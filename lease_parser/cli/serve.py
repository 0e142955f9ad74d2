"""``lease-parser serve``: the HTTP API and the reviewers' workspace (uvicorn)."""

from __future__ import annotations

import contextlib
import signal
import socket
import sys
from collections.abc import Iterator

import click
from pydantic import SecretStr

from lease_parser.cli._common import ExitCode, broker_settings, fail, settings_from_env
from lease_parser.settings import Settings

LOCAL_REVIEWER = "reviewer"


def _port_free(host: str, port: int) -> bool:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            s.bind((host, port))
        except OSError:
            return False
    return True


@contextlib.contextmanager
def _local_cluster(settings: Settings) -> Iterator[Settings]:
    """Embedded defaults: a redis-server and workers under LEASE_DATA_DIR (stopped on
    exit), and the local reviewer's token when LEASE_API_TOKENS is not set."""
    from lease_parser.local import LocalCluster, local_reviewer_token

    click.echo(f"starting redis-server and workers under {settings.data_dir} ...", err=True)
    with LocalCluster(settings.data_dir, command="lease-parser serve --local") as cluster:
        tokens = settings.api_tokens.get_secret_value()
        if not tokens:
            token = local_reviewer_token(settings.data_dir)
            tokens = f"{LOCAL_REVIEWER}:{token}:ingest+review+admin"  # one local user
            click.echo(f"sign in with the reviewer token: {token}", err=True)
        yield settings.model_copy(
            update={
                "broker_url": cluster.env["LEASE_BROKER_URL"],
                "result_backend": cluster.env["LEASE_RESULT_BACKEND"],
                "api_tokens": SecretStr(tokens),
            }
        )


def _start_webhooks(stack: contextlib.ExitStack, settings: Settings) -> None:
    """Deliver webhooks from this server (lease_parser/webhooks.py), stopped on exit."""
    if not settings.webhook_secret.get_secret_value():
        return  # nothing can subscribe: callback_url is refused without a secret
    from lease_parser.store import Store
    from lease_parser.webhooks import WebhookDispatcher

    dispatcher = WebhookDispatcher(Store(settings.store_database_url), settings).start()
    stack.callback(dispatcher.stop)


@click.command()
@click.option("--host", default="127.0.0.1", show_default=True, help="Interface to bind.")
@click.option("--port", type=int, default=8000, show_default=True)
@click.option(
    "--local",
    is_flag=True,
    help="Embedded defaults (make serve): start a redis-server and workers under "
    "LEASE_DATA_DIR too, and sign reviewers in with the local token `lease-parser run` "
    "printed (when LEASE_API_TOKENS is not set).",
)
def serve(host: str, port: int, local: bool) -> None:
    """Serve the HTTP API (/v1, schema at /v1/openapi.json) and the reviewers' workspace (/).

    Needs LEASE_API_TOKENS=name:token:scopes[,...] (the API's bearer tokens, also the
    reviewers' sign-in; scopes ingest, review, admin joined by +). Reads the same store,
    object store and broker as the workers. Blocks until Ctrl-C or SIGTERM.
    """
    import uvicorn

    from lease_parser.web import create_app

    settings = settings_from_env()
    if not _port_free(host, port):
        fail(f"{host}:{port} is in use: choose another with --port", ExitCode.USAGE)
    with contextlib.ExitStack() as stack:
        if local:
            settings = stack.enter_context(_local_cluster(settings))
        else:
            settings = broker_settings(settings)
        app = create_app(settings)
        _start_webhooks(stack, settings)
        url = f"http://{host}:{port}/"
        click.echo(f"workspace: {url}   API: {url}v1/   schema: {url}v1/openapi.json", err=True)
        # uvicorn shuts down gracefully on a signal, then raises it again once its own
        # handlers are gone. SIGTERM: exit 0 through Python (not the default "die now"),
        # so the local cluster is stopped too. SIGINT (Ctrl-C): KeyboardInterrupt, so exit
        # 130 like every command; set here because a parent may have left it ignored
        # (nohup), and through uvicorn.Server because uvicorn.run swallows the interrupt.
        signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))
        signal.signal(signal.SIGINT, signal.default_int_handler)
        config = uvicorn.Config(app, host=host, port=port, server_header=False, log_level="info")
        uvicorn.Server(config).run()
