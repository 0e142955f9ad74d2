"""Dead letters: documents that can never succeed as they are, kept for ops triage.

Redis has no dead-letter exchange, and ``reject(requeue=False)`` deletes the message. So a
dead document is recorded explicitly, twice: in Redis (payload, reason, attempts,
traceback, a one-line diagnosis; persisted by AOF with the queues) and as state ``dead``
in the canonical store, which survives even the loss of Redis. Replay is manual only
(``lease-parser dead requeue``; ``requeue_dead_document`` in pipeline/submit.py): an
automatic replay of a poison message is just a slower infinite loop.
"""

from __future__ import annotations

import json
import time
from dataclasses import asdict, dataclass, field, replace
from typing import Any

import redis
from lease_parser.errors import Reason
from lease_parser.redaction import redact
from lease_parser.store import Store

DEAD_INDEX = "lease:dead"
DEAD_PREFIX = "lease:dead:"

DIAGNOSES: dict[str, str] = {
    Reason.CORRUPT: "The file is damaged or not what its type claims; get a good copy, resubmit.",
    Reason.EMPTY: "The file has no content; check the upload.",
    Reason.TOO_LARGE: "Over LEASE_MAX_DOCUMENT_BYTES; split the file or raise the limit.",
    Reason.TOO_MANY_PAGES: "Over LEASE_MAX_PAGES; split the file or raise the limit.",
    Reason.UNSUPPORTED_FORMAT: "Not PDF/DOCX/PNG/JPEG/TIFF; convert it, then resubmit.",
    Reason.RESOURCE_BOMB: "Declares absurd sizes (zip/pixel bomb); treat as hostile.",
    Reason.HASH_MISMATCH: "The object changed after submission; resubmit the current version.",
    Reason.NOT_FOUND: "The object key does not exist; check the key and the bucket.",
    Reason.STORAGE_FORBIDDEN: "Access denied by the object store; fix credentials, requeue.",
    Reason.RETRIES_EXHAUSTED: "A dependency stayed down through every retry; requeue when up.",
    Reason.TIME_LIMIT: "Parsing ran past the hard time limit; inspect the file before requeue.",
    Reason.WORKER_LOST: "The document killed its worker repeatedly (OOM/segfault); inspect it.",
    Reason.MESSAGE_TOO_LARGE: "A stage produced an oversized message; this is a bug.",
    Reason.INTERNAL_ERROR: "An unexpected error (a bug); read the traceback, fix, requeue.",
    Reason.CONFIGURATION: "The worker's settings are invalid (the detail names the variable); "
    "fix them, restart the workers, requeue.",
    Reason.BROKER_FULL: "Redis was at maxmemory; let the queues drain or raise maxmemory, "
    "then requeue.",
}


@dataclass
class DeadLetter:
    doc_hash: str
    doc_key: str
    submission_id: str
    task: str
    reason: str
    attempts: int
    detail: str = ""
    traceback: str = ""
    payload: dict[str, Any] = field(default_factory=dict)
    at: float = field(default_factory=time.time)

    @property
    def diagnosis(self) -> str:
        return DIAGNOSES.get(self.reason, "See the traceback.")

    def to_json(self) -> dict[str, Any]:
        return {**asdict(self), "diagnosis": self.diagnosis}


# Letters change only by compare-and-set on their submission (one Lua script each, so no
# interleaving of a worker's failure with a requeue or with another delivery can drop a
# dead document's only letter: issue 22 lost it in 3 of 6 requeues that failed at once).
# KEYS[1] the letter, KEYS[2] the index; ARGV[1] the submission the letter must still be of.
_WITHDRAW = """
local raw = redis.call('GET', KEYS[1])
if not raw or cjson.decode(raw)['submission_id'] ~= ARGV[1] then return 0 end
if ARGV[2] == '' then
  redis.call('DEL', KEYS[1])
  redis.call('ZREM', KEYS[2], ARGV[3])
else
  redis.call('SET', KEYS[1], ARGV[2])
  redis.call('ZADD', KEYS[2], ARGV[4], ARGV[3])
end
return 1
"""


def _letter_json(letter: DeadLetter) -> str:
    return json.dumps(letter.to_json(), default=str)


def _decode(raw: bytes | str) -> DeadLetter:
    data = json.loads(raw)
    data.pop("diagnosis", None)
    return DeadLetter(**data)


def record_dead_letter(r: redis.Redis, letter: DeadLetter) -> DeadLetter | None:
    """Store the letter and index it by time, atomically; return the letter it replaced.

    A URL's password in the detail or the traceback (a driver's message) is masked: ops
    read letters in terminals and tickets. The replaced letter is what ``settle_dead_letter``
    puts back if this delivery turns out not to be the one that made the document dead.
    """
    key = DEAD_PREFIX + letter.doc_hash
    safe = replace(letter, detail=redact(letter.detail), traceback=redact(letter.traceback))
    with r.pipeline(transaction=True) as pipe:
        pipe.set(key, _letter_json(safe), get=True)
        pipe.zadd(DEAD_INDEX, {letter.doc_hash: letter.at})
        previous, _ = pipe.execute()
    return _decode(previous) if previous is not None else None


def withdraw_dead_letter(
    r: redis.Redis, letter: DeadLetter, previous: DeadLetter | None = None
) -> bool:
    """Replace ``letter`` by ``previous`` (or remove it) — only if the document's letter is
    still ``letter``'s submission's; False (nothing changed) if another has replaced it."""
    put_back = _letter_json(previous) if previous is not None else ""
    at = previous.at if previous is not None else 0
    script = r.register_script(_WITHDRAW)
    keys = [DEAD_PREFIX + letter.doc_hash, DEAD_INDEX]
    return bool(script(keys=keys, args=[letter.submission_id, put_back, letter.doc_hash, at]))


def settle_dead_letter(
    r: redis.Redis, letter: DeadLetter, previous: DeadLetter | None, won: bool, state: str | None
) -> None:
    """After a delivery recorded ``letter`` (replacing ``previous``) and tried to finish the
    document as dead: keep it if it won; if it lost, the document's own letter stands.

    Lost to a ``dead`` outcome: the winner's letter is put back if ours replaced it (and
    ours stays if there was none, so a dead document is never left without one). Lost to
    any other outcome: ours is withdrawn. Every step is a compare-and-set on ours, so a
    letter another delivery wrote meanwhile is never touched.
    """
    if won:
        return
    if state != "dead":
        withdraw_dead_letter(r, letter)
    elif previous is not None:
        withdraw_dead_letter(r, letter, previous)


def list_dead_letters(
    r: redis.Redis, limit: int = 100, reason: str | None = None
) -> list[DeadLetter]:
    """Dead letters, oldest first; only those with ``reason`` when given."""
    letters = []
    for raw in r.zrange(DEAD_INDEX, 0, -1):
        letter = get_dead_letter(r, raw.decode() if isinstance(raw, bytes) else str(raw))
        if letter is not None and reason in (None, letter.reason):
            letters.append(letter)
            if len(letters) >= limit:
                break
    return letters


def get_dead_letter(r: redis.Redis, doc_hash: str) -> DeadLetter | None:
    raw = r.get(DEAD_PREFIX + doc_hash)
    return _decode(raw) if raw is not None else None


def dead_hashes_starting_with(r: redis.Redis, prefix: str, limit: int) -> list[str]:
    """Up to ``limit`` dead-lettered hashes that start with ``prefix``."""
    found: list[str] = []
    for raw in r.zscan_iter(DEAD_INDEX, match=f"{prefix}*"):
        member = raw[0]
        found.append(member.decode() if isinstance(member, bytes) else str(member))
        if len(found) >= limit:
            break
    return found


def remove_dead_letter(r: redis.Redis, doc_hash: str) -> None:
    """Remove whatever letter the document has (``discard``: an operator's decision)."""
    with r.pipeline(transaction=True) as pipe:
        pipe.delete(DEAD_PREFIX + doc_hash)
        pipe.zrem(DEAD_INDEX, doc_hash)
        pipe.execute()


def discard_dead_letter(
    r: redis.Redis, store: Store, doc_hash: str, actor: str, note: str | None = None
) -> DeadLetter | None:
    """Remove a letter from triage for good; the document stays ``dead`` (and requeueable).

    None when there is no letter. The audit event is written first: if removing the letter
    then fails, it is still listed and the operator runs the command again.
    """
    letter = get_dead_letter(r, doc_hash)
    if letter is None:
        return None
    store.note_discarded(doc_hash, actor, note)
    remove_dead_letter(r, doc_hash)
    return letter


def dead_letter_depth(r: redis.Redis) -> int:
    return int(r.zcard(DEAD_INDEX))
