"""The server's link store: opened at start-up when it can be, and again later when it could
not, so that a broken store (a malformed SQLite file, an unwritable data folder, a PostgreSQL
server that is down) costs the short links alone. The app starts and serves every graph and page;
each link request answers 503 until the store opens; ``/healthz`` says the links are degraded.
A SQLite file deleted or replaced while serving is opened anew before the next request, so no
link is answered 201 into a file that is gone."""

from __future__ import annotations

import math
import threading
import time
from collections.abc import Callable
from contextlib import AbstractContextManager
from datetime import datetime

from app.links.state import State
from app.links.store import LinkStore, Record, StoreError, open_store

RETRY_OPEN_S = 5.0  # a store that would not open is tried again at most this often


class ReopeningStore(LinkStore):
    kind = "link store"

    def __init__(self, url: str, clock: Callable[[], float] = time.monotonic) -> None:
        self.url = url
        self._clock = clock
        self._lock = threading.Lock()
        self._store: LinkStore | None = None
        self._failure = ""  # why it would not open, the last time it was tried
        self._tried = -math.inf
        self.healthy()  # now: migrated before the first request, when it opens

    def _open(self) -> LinkStore:
        with self._lock:
            if self._store is not None and self._store.moved():  # deleted or replaced: its
                self._store.close()  # writes would be lost, so open the store at its path anew
                self._store, self._tried = None, -math.inf
            if self._store is None and self._clock() - self._tried >= RETRY_OPEN_S:
                self._tried = self._clock()
                try:
                    self._store = open_store(self.url)
                    self.kind = self._store.kind
                except StoreError as error:
                    self._failure = str(error)
            if self._store is None:  # a new error each time: none keeps a traceback alive
                raise StoreError(self._failure)
            return self._store

    def healthy(self) -> bool:
        """Whether the store is open (trying to open it, when it may be tried again)."""
        try:
            self._open()
        except StoreError:
            return False
        return True

    def get(self, link_id: str) -> State | None:
        return self._open().get(link_id)

    def visit(self, link_id: str) -> State | None:
        return self._open().visit(link_id)

    def put(self, link_id: str, state: State, created: datetime | None = None) -> bool:
        return self._open().put(link_id, state, created)

    def trim(self, max_bytes: int, keep: str) -> int:
        return self._open().trim(max_bytes, keep)

    def rows_after(self, after: str, limit: int) -> list[Record]:
        return self._open().rows_after(after, limit)

    def batch(self) -> AbstractContextManager[None]:
        return self._open().batch()

    def close(self) -> None:
        with self._lock:
            if self._store is not None:
                self._store.close()
