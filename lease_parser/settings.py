"""The one settings object.

Built at the edges (CLI, Celery app factory, test fixtures) and passed down; core code
never reads ``os.environ``. Environment names are ``LEASE_<FIELD>``; nested sections use
``__`` (``LEASE_TIME_LIMITS__OCR__HARD=1200``). The names docs/architecture.md fixes
(``LEASE_BROKER_URL``, ``LEASE_RESULT_BACKEND``, ``LEASE_OBJECT_STORE``,
``LEASE_S3_ENDPOINT_URL``, ``LEASE_STORE_URL``, ``LEASE_CONFIDENCE_GATE``,
``LEASE_DATA_DIR``) are deployment contracts: do not rename them.
"""

from __future__ import annotations

import base64
import binascii
from dataclasses import dataclass
from enum import StrEnum
from pathlib import Path
from typing import TYPE_CHECKING, Any, Self
from urllib.parse import urlparse

from pydantic import BaseModel, Field, SecretStr, ValidationError, field_validator, model_validator
from pydantic_settings import BaseSettings, SettingsConfigDict

from lease_parser.errors import ConfigurationError

if TYPE_CHECKING:  # imported where used: `lease-parser status` must not load the parsers
    from lease_parser.parsing.base import ParseLimits
    from lease_parser.parsing.ocr import OcrOptions
    from lease_parser.scoring.confidence import ConfidenceModel

MB = 1024 * 1024
CHECKOUT_DATA_DIR = ".lease_data"


def checkout_root() -> Path | None:
    """The source checkout this package runs from, if any (not a site-packages install)."""
    root = Path(__file__).resolve().parent.parent
    if (root / "pyproject.toml").is_file() and (root / "redis" / "redis.conf").is_file():
        return root
    return None


def checkout_data_dir() -> Path | None:
    """The data directory of the checkout this package runs from (None if installed)."""
    root = checkout_root()
    return root / CHECKOUT_DATA_DIR if root is not None else None


def default_data_dir() -> Path:
    """Where embedded defaults keep their files when LEASE_DATA_DIR is not set."""
    return checkout_data_dir() or Path.home() / ".local" / "share" / "lease_parser"


class TimeLimit(BaseModel):
    """Soft limit raises inside the task (it can clean up); hard limit kills the child."""

    soft: int = Field(gt=0)
    hard: int = Field(gt=0)

    @model_validator(mode="after")
    def _soft_below_hard(self) -> Self:
        if self.soft >= self.hard:
            raise ValueError(f"soft time limit {self.soft}s must be below hard limit {self.hard}s")
        return self


class ExtractionLimit(TimeLimit):
    soft: int = Field(default=240, gt=0)
    hard: int = Field(default=300, gt=0)


class OcrLimit(TimeLimit):
    # The longest: a 90-page scan at ~2.5 s of Tesseract a page, on a busy node.
    soft: int = Field(default=1500, gt=0)
    hard: int = Field(default=1800, gt=0)


class NormalizationLimit(TimeLimit):
    soft: int = Field(default=50, gt=0)
    hard: int = Field(default=60, gt=0)


class TimeLimits(BaseModel):
    """Per-queue limits; each can be overridden alone (LEASE_TIME_LIMITS__OCR__HARD=2400)."""

    extraction: ExtractionLimit = ExtractionLimit()
    ocr: OcrLimit = OcrLimit()
    normalization: NormalizationLimit = NormalizationLimit()

    def for_queue(self, queue: str) -> TimeLimit:
        return {
            "lease_extraction": self.extraction,
            "lease_ocr": self.ocr,
            "lease_normalization": self.normalization,
        }[queue]

    def largest_hard(self) -> int:
        return max(self.extraction.hard, self.ocr.hard, self.normalization.hard)


class RetryPolicy(BaseModel):
    """Exponential backoff for transient errors: 60, 120, 240, 480 s by default."""

    max_retries: int = Field(default=4, ge=0, le=20)
    backoff_base: int = Field(default=60, ge=1)
    backoff_max: int = Field(default=480, ge=1)
    # Each countdown is the step plus a random 0–``jitter`` share of it (60 s → 60–75 s
    # at 0.25): documents that failed together in an outage do not all retry in the same
    # second. Not "full jitter" (random 0–step): a retry never comes *sooner* than its step.
    jitter: float = Field(default=0.25, ge=0, le=1)

    def countdown(self, attempt: int, rand: float = 0.0) -> float:
        """Seconds to wait before retry number ``attempt`` (0-based); ``rand`` in [0, 1)."""
        step = min(self.backoff_base * 2**attempt, self.backoff_max)
        return float(step) * (1 + self.jitter * rand)

    def largest_countdown(self) -> float:
        return float(self.backoff_max) * (1 + self.jitter)


class Settings(BaseSettings):
    """Everything configurable. Invalid combinations fail here, at start-up."""

    model_config = SettingsConfigDict(
        env_prefix="LEASE_",
        env_nested_delimiter="__",
        extra="ignore",
        validate_default=True,
    )

    # In a checkout (an editable install: `make install`), the checkout's .lease_data, the
    # directory `make run` and `make serve` use, so a bare `lease-parser status` there reads
    # their store; an installed package: ~/.local/share/lease_parser.
    data_dir: Path = Field(default_factory=lambda: default_data_dir())
    broker_url: str = "redis://127.0.0.1:6379/0"
    result_backend: str = "redis://127.0.0.1:6379/1"
    # Empty means "embedded default under data_dir" (file://<data_dir>/objects).
    object_store: str = ""
    s3_endpoint_url: str | None = None
    # Empty means "embedded default under data_dir" (sqlite:///<data_dir>/lease.db).
    store_url: str = ""
    # Chosen from the cross-validated precision curve of `lease-parser eval` (docs/extraction.md).
    confidence_gate: float = Field(default=0.90, gt=0, le=1)
    # A model refitted with `lease-parser calibrate --out FILE`; unset: the one shipped.
    confidence_model: Path | None = None

    max_document_bytes: int = Field(default=50 * MB, gt=0)
    max_pages: int = Field(default=500, gt=0)
    # Uncompressed size a DOCX may declare in total, and per part, before we refuse it as a
    # zip bomb; and how many times a part over 1 MB may inflate (XML is ~10-30x). Parsing
    # XML costs ~20x its size in memory: a 20 MB document.xml (a 500-page lease is ~5 MB)
    # peaks near 500 MB (scripts/measure_parsing.py).
    max_unpacked_bytes: int = Field(default=200 * MB, gt=0)
    max_member_bytes: int = Field(default=20 * MB, gt=0)
    max_compression_ratio: int = Field(default=200, gt=1)
    # Decoded pixels of one image frame (a pixel bomb above) or of a page rendered for OCR
    # (rendered at a lower DPI above). 50 Mpx: a 600 DPI legal-size scan is 43 Mpx; OCR
    # holds ~4 bytes a pixel in the worker plus Tesseract's own.
    max_image_pixels: int = Field(default=50_000_000, gt=0)
    # pdfplumber's table finder (~80-300 ms a page) runs on at most this many ruled pages.
    max_table_pages: int = Field(default=40, ge=0)
    ocr_dpi: int = Field(default=300, ge=72, le=600)
    ocr_page_timeout: int = Field(default=120, gt=0)
    ocr_lang: str = "eng"
    # OMP_THREAD_LIMIT for Tesseract: threaded Tesseract costs ~6x the CPU on a shared node.
    ocr_threads: int = Field(default=1, ge=1)

    time_limits: TimeLimits = TimeLimits()
    retry: RetryPolicy = RetryPolicy()
    # Seconds a delivered-but-unacked message stays invisible before Redis hands it out
    # again. Must exceed every hard time limit (or a running task is delivered twice) and
    # the largest retry countdown (a countdown is an ETA held unacked by the worker).
    visibility_timeout: int = Field(default=3600, gt=0)
    # How often each worker sweeps the broker's `unacked` index for messages whose worker
    # died (SIGKILL of the main process, node loss) and puts them back on their queue.
    # kombu's defaults (10 s x throttle 10) sweep only every 100 s; one cheap ZRANGE every
    # 10 s per worker bounds the recovery after a dead worker to visibility timeout + 10 s.
    unacked_restore_interval: int = Field(default=10, ge=1)
    unacked_restore_throttle: int = Field(default=1, ge=1)
    # Each worker's main process renews a key this often, which expires after the TTL; a
    # worker whose key expired is dead, and the messages it held go back to their queues at
    # once (pipeline/reaper.py) instead of after the visibility timeout. The TTL allows
    # three missed beats (a slow Redis, a GC pause) before anyone calls the worker dead.
    heartbeat_interval: int = Field(default=5, ge=1)
    heartbeat_ttl: int = Field(default=20, ge=3)
    # `healthcheck --worker` fails when the worker's queues hold messages and it has had a
    # free slot and taken none for this long: a consumer that stopped after a Redis
    # reconnect while the worker still answers pings (celery #8030, #10205, #10302).
    worker_stall_after: int = Field(default=300, ge=1)
    # Submissions are refused (BrokerFullError) once Redis uses this share of maxmemory,
    # *before* Redis itself refuses writes: workers need the headroom to drain, because
    # every delivery, hash lock and hand-on writes to Redis too.
    broker_high_water: float = Field(default=0.9, gt=0, le=1)
    # SIGTERM (and SIGQUIT) give running tasks this long to finish before they are
    # cancelled and their messages re-queued for another worker (Celery's soft shutdown).
    # Kubernetes' terminationGracePeriodSeconds must exceed it by ~45 s (k8s/base/workers/).
    soft_shutdown_timeout: float = Field(default=30.0, ge=0)
    # A message delivered more often than this is poison (it keeps killing workers).
    max_deliveries: int = Field(default=3, ge=1)
    # Tests only: tasks (by name, comma-separated) that wait at pipeline/hold.py's point
    # before their body until a test releases them, so a test kills or stops a worker while
    # a task surely runs. Empty (the default) in every deployment.
    test_hold: str = ""
    # How long delivery counts are kept: longer than a message can wait in a backlog
    # between two deliveries (a rejected message goes to the back of its queue). About
    # 150 bytes of Redis per task message.
    delivery_count_ttl: int = Field(default=86_400, gt=0)
    # Dedup hash lock lifetime; longer than a whole document's journey through all queues.
    # (A reviewer's *claim* on a review item is another thing: review_claim_ttl.)
    hash_lock_ttl: int = Field(default=7200, gt=0)
    # Hard cap on a published message: documents travel by key, never by value.
    max_message_bytes: int = Field(default=50 * 1024, gt=0)
    worker_max_tasks_per_child: int = Field(default=500, gt=0)
    # Kilobytes of resident memory after which a prefork child is replaced.
    worker_max_memory_per_child: int = Field(default=1_500_000, gt=0)
    review_claim_ttl: int = Field(default=1800, gt=0)
    # The share of auto-committed leases queued for a second look (the QA sample, 0 to 1),
    # chosen by content hash: the auto-commit's precision measured in production.
    qa_sample_share: float = Field(default=0.05, ge=0, le=1)
    # Fernet key(s) that encrypt document passwords at rest (credentials/HASH.json):
    # `python -c "from cryptography.fernet import Fernet; print(Fernet.generate_key().decode())"`.
    # Comma-separated to rotate: the first encrypts, every one decrypts. Unset on embedded
    # defaults: a key is generated under data_dir (credential.key, mode 0600). Unset with
    # an object store of your own (shared by workers on other machines): storing or
    # reading a credential fails naming LEASE_CREDENTIAL_KEY.
    credential_key: SecretStr | None = None
    # A worker's main process serves its children's metrics here (needs
    # PROMETHEUS_MULTIPROC_DIR, see metrics.py); unset means no worker /metrics.
    worker_metrics_port: int | None = Field(default=None, gt=0, lt=65536)

    # `lease-parser serve`: bearer tokens of the HTTP API and the reviewers' workspace,
    # "name:token:scopes,..." with scopes ingest, review, admin joined by "+" (the older
    # "name:token" still works, as ingest+review, with a warning at start-up); the name is
    # the actor in the audit trail. A SecretStr, so no repr, log line or validation
    # message ever shows a token.
    api_tokens: SecretStr = SecretStr("")
    # Signs the workspace's session cookies. Unset: a random key kept under data_dir
    # (web-session.key, mode 0600); set it (the same on every replica) in production.
    web_session_secret: SecretStr = SecretStr("")
    # Mark the session cookie Secure (browsers then send it over HTTPS only): set it
    # whenever the workspace is reached over TLS.
    web_cookie_secure: bool = False
    # Seconds an API client is told to wait (Retry-After) when the broker is full.
    api_retry_after: int = Field(default=30, ge=1)
    # Wrong tokens (sign-ins, bearer tokens) from one address within the window, after
    # which that address waits out the window (web/throttle.py). 200 guesses in 1.4 s
    # went unanswered before (issue 21); a person who mistypes does not make 20.
    auth_max_failures: int = Field(default=20, ge=1)
    auth_failure_window: int = Field(default=60, ge=1)

    # Webhooks (lease_parser/webhooks.py): `serve` POSTs a document's state to the
    # submission's callback_url (or to webhook_url, for every API submission) once it is
    # final, signed with webhook_secret (X-Lease-Signature: t=<unix>,v1=<hex HMAC-SHA256 of
    # "<t>.<body>">). A failed delivery is retried with backoff (5 s, 10 s, 20 s … up to
    # webhook_backoff_max) up to webhook_max_attempts times, then kept for `lease-parser
    # webhooks replay`.
    webhook_secret: SecretStr = SecretStr("")
    webhook_url: str = ""
    webhook_timeout: float = Field(default=10.0, gt=0)
    webhook_max_attempts: int = Field(default=8, ge=1)
    webhook_backoff_base: float = Field(default=5.0, gt=0)
    webhook_backoff_max: float = Field(default=900.0, gt=0)
    webhook_poll_interval: float = Field(default=2.0, gt=0)

    @field_validator("api_tokens")
    @classmethod
    def _tokens_are_name_token_scopes(cls, value: SecretStr) -> SecretStr:
        parse_api_tokens(value.get_secret_value())
        return value

    @field_validator("webhook_url")
    @classmethod
    def _webhook_url(cls, value: str) -> str:
        parsed = urlparse(value)
        if value and (parsed.scheme not in ("http", "https") or not parsed.hostname):
            raise ValueError("must be an http:// or https:// URL (or empty: no webhook)")
        return value

    @model_validator(mode="after")
    def _webhooks_are_signed(self) -> Self:
        if self.webhook_url and not self.webhook_secret.get_secret_value():
            raise ValueError(
                "LEASE_WEBHOOK_URL needs LEASE_WEBHOOK_SECRET: every webhook is signed, so a "
                'receiver can tell ours from a forgery (python3 -c "import secrets; '
                'print(secrets.token_hex(32))")'
            )
        return self

    @field_validator("broker_url", "result_backend")
    @classmethod
    def _redis_url(cls, value: str) -> str:
        # Claims, dead letters and the capacity check talk to Redis directly: the broker is
        # Redis whatever kombu could otherwise speak.
        parsed = urlparse(value)
        if parsed.scheme not in ("redis", "rediss", "unix") or (
            parsed.scheme != "unix" and not parsed.hostname
        ):
            raise ValueError(
                "must be a Redis URL: redis://[:password@]host:port/db (rediss:// for TLS, "
                "unix:///path/redis.sock)"
            )
        return value

    @field_validator("store_url")
    @classmethod
    def _store_url(cls, value: str) -> str:
        if value and "://" not in value:
            raise ValueError(
                "must be a SQLAlchemy URL: sqlite:////abs/path/lease.db or "
                "postgresql+psycopg2://user:password@host/db (empty: the embedded SQLite)"
            )
        return value

    @field_validator("object_store")
    @classmethod
    def _object_store_url(cls, value: str) -> str:
        if value and urlparse(value).scheme not in ("file", "s3"):
            raise ValueError("must be file:///absolute/dir or s3://bucket[/prefix]")
        return value

    @field_validator("credential_key")
    @classmethod
    def _fernet_keys(cls, value: SecretStr | None) -> SecretStr | None:
        # Checked without importing cryptography: a Fernet key is 32 url-safe base64 bytes.
        for key in credential_keys(value):
            try:
                raw = base64.urlsafe_b64decode(key.encode())
            except (binascii.Error, ValueError):
                raw = b""
            if len(raw) != 32:
                raise ValueError(
                    "each key must be a Fernet key (32 url-safe base64 bytes, 44 characters): "
                    'python -c "from cryptography.fernet import Fernet; '
                    'print(Fernet.generate_key().decode())"'
                )
        return value

    @model_validator(mode="after")
    def _heartbeat_outlives_missed_beats(self) -> Self:
        if self.heartbeat_ttl < 3 * self.heartbeat_interval:
            raise ValueError(
                f"LEASE_HEARTBEAT_TTL={self.heartbeat_ttl} must be at least 3 x "
                f"LEASE_HEARTBEAT_INTERVAL ({3 * self.heartbeat_interval}s), or one slow beat "
                f"makes a live worker look dead and its running tasks are restored."
            )
        if self.worker_stall_after <= 2 * self.heartbeat_interval:
            raise ValueError(
                f"LEASE_WORKER_STALL_AFTER={self.worker_stall_after} must exceed 2 x "
                f"LEASE_HEARTBEAT_INTERVAL ({2 * self.heartbeat_interval}s): the worker "
                f"reports its free slots only that often."
            )
        return self

    @model_validator(mode="after")
    def _visibility_timeout_covers_everything(self) -> Self:
        hard = self.time_limits.largest_hard()
        if self.visibility_timeout <= hard:
            raise ValueError(
                f"LEASE_VISIBILITY_TIMEOUT={self.visibility_timeout} must exceed the largest "
                f"hard time limit ({hard}s), or a task still running is delivered twice. "
                f"Raise LEASE_VISIBILITY_TIMEOUT above {hard} or lower the time limit."
            )
        countdown = self.retry.largest_countdown()
        if self.visibility_timeout <= countdown:
            raise ValueError(
                f"LEASE_VISIBILITY_TIMEOUT={self.visibility_timeout} must exceed the largest "
                f"retry countdown ({countdown:.0f}s incl. jitter): a retry is an ETA message "
                f"held unacked, and an ETA past the visibility timeout runs twice. Raise "
                f"LEASE_VISIBILITY_TIMEOUT or lower LEASE_RETRY__BACKOFF_MAX."
            )
        return self

    @model_validator(mode="after")
    def _confidence_model_loads(self) -> Self:
        if self.confidence_model is not None:
            from lease_parser.scoring.confidence import load_model  # only when one is configured

            try:
                load_model(self.confidence_model)
            except (OSError, ValueError, KeyError, TypeError) as exc:
                raise ValueError(
                    f"LEASE_CONFIDENCE_MODEL={self.confidence_model} cannot be loaded ({exc}); "
                    "write one with `lease-parser calibrate --out FILE`, or unset it to use "
                    "the model the package ships"
                ) from exc
        return self

    def confidence(self) -> ConfidenceModel:
        """The model that turns extraction evidence into probabilities."""
        from lease_parser.scoring.confidence import default_model, load_model

        return (
            default_model() if self.confidence_model is None else load_model(self.confidence_model)
        )

    def parse_limits(self) -> ParseLimits:
        from lease_parser.parsing.base import ParseLimits

        return ParseLimits(
            max_bytes=self.max_document_bytes,
            max_pages=self.max_pages,
            max_unpacked_bytes=self.max_unpacked_bytes,
            max_member_bytes=self.max_member_bytes,
            max_compression_ratio=self.max_compression_ratio,
            max_image_pixels=self.max_image_pixels,
            max_table_pages=self.max_table_pages,
        )

    def ocr_options(self) -> OcrOptions:
        from lease_parser.parsing.ocr import OcrOptions

        return OcrOptions(
            dpi=self.ocr_dpi,
            page_timeout=self.ocr_page_timeout,
            lang=self.ocr_lang,
            threads=self.ocr_threads,
            max_pixels=self.max_image_pixels,
        )

    def api_token_names(self) -> dict[str, str]:
        """``{token: name}`` from ``LEASE_API_TOKENS``."""
        return {token: entry.name for token, entry in self.api_token_table().items()}

    def api_token_table(self) -> dict[str, ApiToken]:
        """``{token: ApiToken}`` (name, scopes) from ``LEASE_API_TOKENS``."""
        return parse_api_tokens(self.api_tokens.get_secret_value())

    @property
    def object_store_url(self) -> str:
        return self.object_store or (self.data_dir / "objects").resolve().as_uri()

    @property
    def store_database_url(self) -> str:
        return self.store_url or f"sqlite:///{(self.data_dir / 'lease.db').resolve()}"

    @property
    def embedded_objects(self) -> bool:
        """True when the object store is the embedded ``file://`` one under ``data_dir``."""
        return not self.object_store


def credential_keys(value: SecretStr | None) -> list[str]:
    """The comma-separated Fernet keys of ``LEASE_CREDENTIAL_KEY``, first (encrypting) first."""
    if value is None:
        return []
    return [key.strip() for key in value.get_secret_value().split(",") if key.strip()]


# A token is a password a program keeps: long enough that guessing is hopeless.
MIN_TOKEN_LENGTH = 16


class Scope(StrEnum):
    """What a token may do: submit through the API, review in the workspace, or operate
    (dead letters, sessions)."""

    INGEST = "ingest"
    REVIEW = "review"
    ADMIN = "admin"


# What a two-part ``name:token`` entry (the format before scopes) could do: keep it working.
LEGACY_SCOPES = frozenset({Scope.INGEST, Scope.REVIEW})


@dataclass(frozen=True)
class ApiToken:
    """One entry of ``LEASE_API_TOKENS``: who (the audit trail's actor) and what it may do.
    ``legacy`` marks the deprecated two-part form."""

    name: str
    scopes: frozenset[Scope]
    legacy: bool = False

    def allows(self, scope: Scope) -> bool:
        return scope in self.scopes


def _scopes(name: str, text: str) -> frozenset[Scope]:
    names = [part.strip() for part in text.split("+")]
    unknown = [part for part in names if part not in set(Scope)]
    if unknown or not text.strip():
        raise ValueError(
            f"the scopes of {name!r} must be {', '.join(Scope)} joined by + "
            f"(name:token:ingest+review); got {text.strip()!r}. A token cannot contain ':'"
        )
    return frozenset(Scope(part) for part in names)


def parse_api_tokens(text: str) -> dict[str, ApiToken]:
    """``"name:token:scopes,..."`` (or the deprecated ``name:token``) → ``{token: ApiToken}``;
    raises ValueError saying what is wrong without ever quoting a token."""
    tokens: dict[str, ApiToken] = {}
    for number, entry in enumerate((p.strip() for p in text.split(",") if p.strip()), 1):
        parts = [part.strip() for part in entry.split(":")]
        if len(parts) not in (2, 3) or not parts[0] or not parts[1]:
            raise ValueError(
                f"entry {number} is not name:token:scopes (comma-separated; scopes "
                f"{'+'.join(Scope)}, e.g. ingest:TOKEN:ingest,alice:TOKEN:review)"
            )
        name, token = parts[0], parts[1]
        if len(token) < MIN_TOKEN_LENGTH:
            raise ValueError(
                f"the token of {name!r} is shorter than {MIN_TOKEN_LENGTH} characters "
                "(make one with: python3 -c 'import secrets; print(secrets.token_urlsafe(24))')"
            )
        if token in tokens or name in {t.name for t in tokens.values()}:
            raise ValueError(f"{name!r}: every name and every token must be different")
        legacy = len(parts) == 2
        scopes = LEGACY_SCOPES if legacy else _scopes(name, parts[2])
        tokens[token] = ApiToken(name, scopes, legacy)
    return tokens


def load_settings(**overrides: Any) -> Settings:
    """Build settings from the environment, turning validation errors into a fix-it message."""
    try:
        return Settings(**overrides)
    except ValidationError as exc:
        lines = []
        for err in exc.errors():
            where = "LEASE_" + "__".join(str(p).upper() for p in err["loc"]) if err["loc"] else ""
            message = err["msg"].removeprefix("Value error, ")
            lines.append(f"  {where}: {message}" if where else f"  {message}")
        raise ConfigurationError("invalid configuration:\n" + "\n".join(lines)) from exc
