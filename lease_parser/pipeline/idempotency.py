"""The hash-keyed dedup guard: an atomic claim on the content hash, held by one submission.

Delivery on Redis is at-least-once; effects must be exactly-once. The claim is one Lua
script (atomic on the server), never a check-then-set: ``GET`` then ``SET`` from the
client lets two workers both see "free" and both process the lease.

- free → claimed by this submission (``ACQUIRED``)
- held by this submission → a redelivery of the same message, or a later stage of the
  same submission: proceed (``REENTRANT``)
- held by another submission → the same content submitted again: skip (``DUPLICATE``)

A claim lost with Redis cannot double-commit either: the store's state transition out
of ``pending`` is conditional and unique on the hash (store.py).
"""

from __future__ import annotations

from enum import StrEnum

import redis

CLAIM_PREFIX = "lease:claim:"

# KEYS[1] claim key; ARGV[1] submission id; ARGV[2] ttl seconds.
_CLAIM = """
local holder = redis.call('GET', KEYS[1])
if not holder then
  redis.call('SET', KEYS[1], ARGV[1], 'EX', ARGV[2])
  return 1
end
if holder == ARGV[1] then
  redis.call('EXPIRE', KEYS[1], ARGV[2])
  return 2
end
return 0
"""

# Compare-and-delete: only the holder may release (a late worker must not free a claim
# that another submission has since taken).
_RELEASE = """
if redis.call('GET', KEYS[1]) == ARGV[1] then
  return redis.call('DEL', KEYS[1])
end
return 0
"""


class Claim(StrEnum):
    ACQUIRED = "acquired"
    REENTRANT = "reentrant"
    DUPLICATE = "duplicate"


def claim_key(doc_hash: str) -> str:
    return CLAIM_PREFIX + doc_hash


def claim_document(r: redis.Redis, doc_hash: str, submission_id: str, ttl: int) -> Claim:
    result = r.eval(_CLAIM, 1, claim_key(doc_hash), submission_id, ttl)
    return {1: Claim.ACQUIRED, 2: Claim.REENTRANT}.get(int(result), Claim.DUPLICATE)


def release_claim(r: redis.Redis, doc_hash: str, submission_id: str) -> bool:
    return bool(r.eval(_RELEASE, 1, claim_key(doc_hash), submission_id))


def claim_holder(r: redis.Redis, doc_hash: str) -> str | None:
    value = r.get(claim_key(doc_hash))
    return value.decode() if isinstance(value, bytes) else None
