"""Failed sign-ins and wrong bearer tokens, counted per client address in Redis (shared by
every replica), so guessing tokens is slow.

``LEASE_AUTH_MAX_FAILURES`` failures from one address within ``LEASE_AUTH_FAILURE_WINDOW``
seconds block that address until the window ends: the workspace then refuses every
sign-in from it (429), right token or not, and the API answers 429 instead of 401 to
further wrong tokens (a right token still works: an ingestion service behind the same
NAT as a careless client is not locked out, and API tokens are long random strings).
If Redis cannot be reached the throttle lets requests through: it slows guessing, it is
not what keeps a stranger out.
"""

from __future__ import annotations

import logging
from collections.abc import Callable

import redis

log = logging.getLogger(__name__)
PREFIX = "lease:authfail:"


class FailureThrottle:
    def __init__(self, client: Callable[[], redis.Redis], max_failures: int, window: int) -> None:
        self._client = client
        self.max_failures = max_failures
        self.window = window

    def retry_after(self, address: str) -> int | None:
        """Seconds until ``address`` may try again; None when it is not blocked."""
        try:
            r = self._client()
            count = r.get(PREFIX + address)
            if count is None or int(count) < self.max_failures:
                return None
            return max(1, int(r.ttl(PREFIX + address)))
        except redis.RedisError as exc:
            log.warning("sign-in throttle not checked (Redis: %s)", exc)
            return None

    def failed(self, address: str) -> int | None:
        """Count a failure; the seconds to wait when this one reached the limit, else None."""
        key = PREFIX + address
        try:
            with self._client().pipeline(transaction=True) as pipe:
                pipe.incr(key)
                pipe.expire(key, self.window, nx=True)
                count, _ = pipe.execute()
        except redis.RedisError as exc:
            log.warning("failed sign-in not counted (Redis: %s)", exc)
            return None
        return self.window if int(count) >= self.max_failures else None
