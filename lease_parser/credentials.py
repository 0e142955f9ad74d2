"""Document passwords at rest: Fernet-encrypted in the object store, deleted once final.

``lease-parser unlock`` checks a password against the document first, then stores it
encrypted under ``credentials/HASH.json``; the worker that parses the document decrypts
it, and the document's arrival in a final state deletes it. The plain password is never
written anywhere, printed or logged.

The key comes from ``LEASE_CREDENTIAL_KEY`` (comma-separated keys rotate: the first
encrypts, all decrypt). On embedded defaults (the ``file://`` object store under
``LEASE_DATA_DIR``) one is generated on first use in ``$LEASE_DATA_DIR/credential.key``
with mode 0600, beside the data it protects. With an object store of your own — read by
workers on other machines — there is no safe place to invent a key, so storing or reading
a credential without one fails with ``ConfigurationError`` naming the variable.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING

from lease_parser.errors import ConfigurationError
from lease_parser.objects import ObjectStore, get_json, put_json
from lease_parser.settings import Settings, credential_keys

if TYPE_CHECKING:
    from cryptography.fernet import MultiFernet

CREDENTIAL_PREFIX = "credentials/"
KEY_FILE = "credential.key"
KEY_ENV = "LEASE_CREDENTIAL_KEY"
FORMAT = "fernet-v1"


def credential_key(doc_hash: str) -> str:
    """Where a document's encrypted password lives in the object store."""
    return f"{CREDENTIAL_PREFIX}{doc_hash}.json"


def _embedded_key(data_dir: Path) -> str:
    """The data directory's own key, created once with mode 0600 (never group/world-readable)."""
    from cryptography.fernet import Fernet

    path = data_dir / KEY_FILE
    if not path.exists():
        data_dir.mkdir(parents=True, exist_ok=True)
        try:
            fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        except FileExistsError:
            pass  # another process made it a moment ago: use theirs
        else:
            with os.fdopen(fd, "wb") as fh:
                fh.write(Fernet.generate_key())
    return path.read_text().strip()


def cipher(settings: Settings) -> MultiFernet:
    """The Fernet keys for these settings; see the module docstring for where they come from."""
    from cryptography.fernet import Fernet, MultiFernet

    keys = credential_keys(settings.credential_key)
    if not keys:
        if not settings.embedded_objects:
            raise ConfigurationError(
                f"{KEY_ENV} is not set: passwords are stored encrypted in "
                f"{settings.object_store_url}, which workers on other machines read, so every "
                f"process needs the same key. Set {KEY_ENV} from a secret (a Fernet key)."
            )
        keys = [_embedded_key(settings.data_dir)]
    return MultiFernet([Fernet(key.encode()) for key in keys])


def store_password(objects: ObjectStore, settings: Settings, doc_hash: str, password: str) -> None:
    """Encrypt and store a (checked) password for ``doc_hash``."""
    token = cipher(settings).encrypt(password.encode()).decode()
    put_json(objects, credential_key(doc_hash), {"format": FORMAT, "token": token})


def load_password(objects: ObjectStore, settings: Settings, doc_hash: str) -> str | None:
    """The stored password of ``doc_hash``, or None. A credential the keys cannot decrypt
    (a rotated-out key) is a configuration problem, not a wrong password."""
    from cryptography.fernet import InvalidToken

    key = credential_key(doc_hash)
    if not objects.exists(key):
        return None
    stored = get_json(objects, key)
    token = stored.get("token") if isinstance(stored, dict) else None
    if not isinstance(token, str) or stored.get("format") != FORMAT:
        raise ConfigurationError(
            f"{key} is not an encrypted credential ({FORMAT}): run lease-parser unlock again"
        )
    try:
        return cipher(settings).decrypt(token.encode()).decode()
    except InvalidToken as exc:
        raise ConfigurationError(
            f"{key} cannot be decrypted with {KEY_ENV}: the key it was stored with is not "
            "among the configured keys (add it after the new one to rotate)"
        ) from exc


def forget_password(objects: ObjectStore, doc_hash: str) -> None:
    """Delete a document's stored password (it is final: nobody needs it any more)."""
    objects.delete(credential_key(doc_hash))
