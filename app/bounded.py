"""One least-recently-used cache, bounded in entries and in bytes, for every cache the server
keeps (answers, layouts, structures): an entry can be a megabyte, so a count alone bounds
nothing."""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable
from typing import Generic, TypeVar

V = TypeVar("V")


class BoundedCache(Generic[V]):
    """Values by key; past ``entries`` or ``max_bytes`` (each value's ``size``; None: no bound
    of that kind), the least recently used are dropped first. Thread-safe."""

    def __init__(
        self, size: Callable[[V], int], max_bytes: int | None, entries: int | None = None
    ) -> None:
        self.size = size
        self.max_bytes = max_bytes
        self.entries = entries
        self.bytes = 0
        self._kept: OrderedDict[Hashable, V] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key: Hashable) -> V | None:
        """The value kept for ``key`` (now the most recently used), or None."""
        with self._lock:
            value = self._kept.get(key)
            if value is not None:
                self._kept.move_to_end(key)
            return value

    def put(self, key: Hashable, value: V) -> V:
        """Keep ``value`` (the one kept already, if any, stays) and drop what no longer fits."""
        with self._lock:
            if key not in self._kept:
                self._kept[key] = value
                self.bytes += self.size(value)
            while self._kept and (
                (self.max_bytes is not None and self.bytes > self.max_bytes)
                or (self.entries is not None and len(self._kept) > self.entries)
            ):
                self.bytes -= self.size(self._kept.popitem(last=False)[1])
            return self._kept.get(key, value)

    def replace(self, key: Hashable, value: V) -> None:
        """Keep ``value`` for ``key`` in place of the one kept, if any."""
        self.drop(key)
        self.put(key, value)

    def drop(self, key: Hashable) -> None:
        with self._lock:
            dropped = self._kept.pop(key, None)
            if dropped is not None:
                self.bytes -= self.size(dropped)

    def clear(self) -> None:
        with self._lock:
            self._kept.clear()
            self.bytes = 0
