"""A worker's own listeners, by class: each event stream holds a bounded queue, and ``deliver``
puts an event (its id and JSON) in every queue of its class. Both stores deliver through it: the
memory store as it changes a class, the Redis store as its subscription hears one.

A listener that falls ``QUEUE_EVENTS`` behind (a phone on a bad connection) is let go, not
waited for: its stream ends, and its browser reconnects and is sent the class as it is now.
``shutdown`` ends every stream at once, so that SIGTERM is not held up by open streams.
"""

from __future__ import annotations

import asyncio
import contextlib

QUEUE_EVENTS = 256
Item = tuple[int, str] | None  # (event id, JSON); None: the stream ends


class Hub:
    def __init__(self) -> None:
        self._listeners: dict[str, set[asyncio.Queue[Item]]] = {}
        self.stopping = False

    def add(self, code: str) -> tuple[asyncio.Queue[Item], bool]:
        """A new listener's queue, and whether it is its class's first here."""
        queue: asyncio.Queue[Item] = asyncio.Queue(QUEUE_EVENTS)
        if self.stopping:
            queue.put_nowait(None)
        queues = self._listeners.setdefault(code, set())
        queues.add(queue)
        return queue, len(queues) == 1

    def remove(self, code: str, queue: asyncio.Queue[Item]) -> bool:
        """Forget a listener; whether it was its class's last here."""
        queues = self._listeners.get(code)
        if queues is None:
            return False
        queues.discard(queue)
        if queues:
            return False
        del self._listeners[code]
        return True

    def listening(self, code: str) -> bool:
        return code in self._listeners

    def codes(self) -> list[str]:
        return list(self._listeners)

    def deliver(self, code: str, event_id: int, data: str) -> None:
        for queue in self._listeners.get(code, ()):
            try:
                queue.put_nowait((event_id, data))
            except asyncio.QueueFull:
                _end(queue)

    def count(self) -> int:
        return sum(len(queues) for queues in self._listeners.values())

    def end_all(self) -> None:
        """End every stream of this worker: its browsers reconnect, and are sent the class."""
        for queues in self._listeners.values():
            for queue in queues:
                _end(queue)

    def shutdown(self) -> None:
        """End every stream of this worker (SIGTERM), and any that starts after."""
        self.stopping = True
        self.end_all()


def _end(queue: asyncio.Queue[Item]) -> None:
    """Make ``None`` the next thing the listener reads, whatever it had not read yet."""
    while not queue.empty():
        with contextlib.suppress(asyncio.QueueEmpty):
            queue.get_nowait()
    queue.put_nowait(None)
