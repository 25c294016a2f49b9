"""A worker's own listeners, by class: each event stream holds a bounded queue, and ``deliver``
puts an event (its id and JSON) in every queue of its class. Both stores deliver through it: the
memory store as it changes a class, the Redis store as its subscription hears one.

A listener that falls ``QUEUE_EVENTS`` behind (a phone on a bad connection) is let go, not
waited for: its stream ends, and its browser reconnects and is sent the class as it is now.
``shutdown`` ends every stream at once, so that SIGTERM is not held up by open streams.

An ``answers`` count goes to a class's listeners at most every ``COUNT_EVERY_S``: each answer
counted makes one, and a lecture hall answering at once made answers × listeners events (300
answers in 2 s to 300 listeners: 90,000, which kept a worker busy writing them for seconds and
cut off listeners 256 counts behind). A count that comes sooner is held, a later count takes its
place, and it goes out when the interval is up, or before any other event of the class, so that
events keep their order and the last count always arrives. Its id is kept: a listener skips the
ids it was not sent, and is sent the class as it is on reconnecting anyway.
"""

from __future__ import annotations

import asyncio
import contextlib

QUEUE_EVENTS = 256
COUNT_EVERY_S = 0.2  # a phone's count moves five times a second at most: fast enough to watch
COUNT_TYPE = '{"type":"answers"'  # how a count's JSON starts (model.count_event, event_json)
Item = tuple[int, str] | None  # (event id, JSON); None: the stream ends


class Hub:
    def __init__(self) -> None:
        self._listeners: dict[str, set[asyncio.Queue[Item]]] = {}
        self._held: dict[str, tuple[int, str]] = {}  # a class's count waiting for its turn
        self._counted: dict[str, float] = {}  # when a class's last count went out (loop time)
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
        self._held.pop(code, None)
        self._counted.pop(code, None)
        return True

    def listening(self, code: str) -> bool:
        return code in self._listeners

    def codes(self) -> list[str]:
        return list(self._listeners)

    def deliver(self, code: str, event_id: int, data: str) -> None:
        if code not in self._listeners:
            return
        if data.startswith(COUNT_TYPE):
            self._count(code, event_id, data)
            return
        self._release(code)  # a count held goes first: the events keep their order
        self._put(code, event_id, data)

    def _count(self, code: str, event_id: int, data: str) -> None:
        loop = asyncio.get_running_loop()
        if code in self._held:  # its turn is already booked: this count goes in its place
            self._held[code] = (event_id, data)
            return
        wait = self._counted.get(code, -COUNT_EVERY_S) + COUNT_EVERY_S - loop.time()
        if wait <= 0:
            self._counted[code] = loop.time()
            self._put(code, event_id, data)
            return
        self._held[code] = (event_id, data)
        loop.call_later(wait, self._release, code)

    def _release(self, code: str) -> None:
        held = self._held.pop(code, None)
        if held is not None and code in self._listeners:
            self._counted[code] = asyncio.get_running_loop().time()
            self._put(code, *held)

    def _put(self, code: str, event_id: int, data: str) -> None:
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
