"""How fast one client may create links, and guess them: a token bucket per client address,
in memory.

Each bucket holds up to ``per_minute`` tokens and refills at ``per_minute`` a minute; a new link
takes one from its bucket, and asking for a link that does not exist takes one from another
(``/s/`` answers 429 while that one is empty, whether the link asked for exists or not, so
guessing learns nothing). The buckets belong to one process: with ``--workers N`` or several
servers a client may go N times as fast. A bounded number of clients is remembered (the least
recently seen is forgotten first), so a flood of addresses cannot grow memory without end.
"""

from __future__ import annotations

import math
import threading
import time
from collections import OrderedDict
from collections.abc import Callable

DEFAULT_PER_MINUTE = 30  # a teacher preparing slides shares a view every few seconds at most
# Links a client may ask for that do not exist: a class mistyping a link from a slide, behind
# one address, misses a few times a minute. A guesser got 400 answers a second: one guess in 11
# million finds one of 100,000 links (8 characters: 2**40 ids), in 8 hours; at 1 a second, 4 months.
DEFAULT_MISSES_PER_MINUTE = 60
MAX_CLIENTS = 10_000


class TokenBuckets:
    def __init__(
        self,
        per_minute: int,
        clock: Callable[[], float] = time.monotonic,
        clients: int = MAX_CLIENTS,
    ) -> None:
        self.per_minute = per_minute
        self._clock = clock
        self._clients = clients
        self._buckets: OrderedDict[str, tuple[float, float]] = OrderedDict()  # tokens, when
        self._lock = threading.Lock()

    def take(self, client: str) -> int:
        """0 when ``client`` may go on (a token is taken), else the whole seconds to wait."""
        return self._wait(client, take=True)

    def wait(self, client: str) -> int:
        """0 when ``client`` has a token (none is taken), else the whole seconds to wait."""
        return self._wait(client, take=False)

    def _wait(self, client: str, take: bool) -> int:
        rate = self.per_minute / 60
        with self._lock:
            now = self._clock()
            tokens, then = self._buckets.pop(client, (self.per_minute, now))
            tokens = min(self.per_minute, tokens + (now - then) * rate)
            wait = 0 if tokens >= 1 else math.ceil((1 - tokens) / rate)
            self._buckets[client] = (tokens - 1 if take and wait == 0 else tokens, now)
            if len(self._buckets) > self._clients:
                self._buckets.popitem(last=False)
            return wait
