"""A class's events as Server-Sent Events, and their end at SIGTERM.

Each event is ``id: <n>`` (the class's event number, increasing) and ``data: <json>`` with a
``type``; no ``event:`` name, so a browser's ``EventSource.onmessage`` gets them all. A listener
is sent the class as it is first (``model.opening_events``, all with the id of the class's last
event), then every event after it, a comment every ``KEEPALIVE_S`` to keep proxies from closing
a quiet connection, and ``closed`` when the class ends. A browser that reconnects (sending
``Last-Event-ID``) is sent the class as it then is, whatever it missed. A student's stream
(``?student=``) notes its page as present when it starts, heard from every ``KEEPALIVE_S``
(for ``PRESENT_S``), and one stream fewer when it ends (a page that reconnects opens its new
stream before the old one is known to have ended): the teacher's list of who is following.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import AbstractAsyncContextManager, AsyncExitStack
from typing import Any

from starlette.responses import StreamingResponse

from app.classroom.hub import Hub, Item
from app.classroom.model import Snapshot, closed_event, event_json, opening_events
from app.classroom.protocol import ClassStore, StoreUnavailable
from app.exit_signals import on_exit_signal

KEEPALIVE_S = 15.0  # proxies close idle connections after 60 s (nginx's proxy_read_timeout)
# how soon a browser reconnects: a worker killed under 300 students cost them 2.8 to 3.2 s at
# 2_000, past the 3 s wanted, and 1.8 s at 1_000 (bench/classroom.py, docs/benchmarks.md)
RETRY_MS = 1_000
CLOSED_TYPE = '"type":"closed"'
PRESENT_S = 2 * KEEPALIVE_S + 5  # a stream not heard of for longer has gone (a killed worker)
Beat = Callable[[int, float], Awaitable[None]]  # a stream opened (1), heard from (0), ended (-1)


def sse(event_id: int, data: str) -> str:
    return f"id: {event_id}\ndata: {data}\n\n"


async def class_events(
    store: ClassStore,
    code: str,
    snapshot: Snapshot,
    queue: asyncio.Queue[Item],
    beat: Beat | None = None,
) -> AsyncIterator[str]:
    """The stream of a listener subscribed (``queue``) before ``snapshot`` was read; ``beat``
    notes a student's page present (every ``KEEPALIVE_S``) and gone (its stream ends)."""
    last = snapshot.seq
    clock = asyncio.get_running_loop().time
    beaten = clock()
    yield f"retry: {RETRY_MS}\n\n"
    for event in opening_events(snapshot):
        yield sse(last, event_json(event))
    while True:
        if beat is not None and clock() - beaten >= KEEPALIVE_S:
            beaten = clock()
            await _quietly(beat(0, PRESENT_S))
        wait = KEEPALIVE_S if beat is None else max(0.0, beaten + KEEPALIVE_S - clock())
        try:
            item = await asyncio.wait_for(queue.get(), wait)
        except TimeoutError:
            if await store.get(code) is None:  # expired: nothing was sent when it went
                yield sse(last + 1, event_json(closed_event("expired")))
                return
            yield ": keep-alive\n\n"
            continue
        if item is None:  # the server is stopping, or this listener fell behind
            return
        event_id, data = item
        if event_id <= last:  # already in the snapshot
            continue
        last = event_id
        yield sse(event_id, data)
        if CLOSED_TYPE in data:
            return


async def _quietly(noted: Awaitable[None]) -> None:
    """Who is following is the teacher's view, not the stream's: a broker that fails it does
    not end a student's stream."""
    with contextlib.suppress(StoreUnavailable):
        await noted


async def note_present(beat: Beat) -> None:
    await _quietly(beat(1, PRESENT_S))


async def note_gone(beat: Beat) -> None:
    await _quietly(beat(-1, 0))


class ClassStream(StreamingResponse):
    """An event stream that lets go of its subscription when it ends, however it ends: also
    when the client went before the stream's first byte."""

    media_type = "text/event-stream"

    def __init__(self, events: AsyncIterator[str], held: AsyncExitStack) -> None:
        headers = {"cache-control": "no-store", "x-accel-buffering": "no"}
        super().__init__(events, headers=headers)
        self.held = held

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        try:
            await super().__call__(scope, receive, send)
        finally:
            await self.held.aclose()


def end_streams_on_exit(hub: Hub) -> AbstractAsyncContextManager[None]:
    """A lifespan: on SIGTERM or SIGINT every class stream of this worker ends at once (each
    browser reconnects, to another worker or the restarted server), so open streams never hold
    up the shutdown."""
    return on_exit_signal(hub.shutdown)


class StreamCounts:
    """The event streams open in this worker, by client address and by class: past either cap
    a new one is refused, and the open ones go on (``take`` returns the release to call when
    the stream ends)."""

    def __init__(self, per_address: int, per_class: int) -> None:
        self.per_address = per_address
        self.per_class = per_class
        self.by_address: dict[str, int] = {}
        self.by_class: dict[str, int] = {}

    def take(self, address: str, code: str) -> str | None:
        """None when taken, else why not."""
        if self.by_address.get(address, 0) >= self.per_address:
            return f"your address already holds {self.per_address:,} streams of classes"
        if self.by_class.get(code, 0) >= self.per_class:
            return f"this class already has {self.per_class:,} listeners here"
        self.by_address[address] = self.by_address.get(address, 0) + 1
        self.by_class[code] = self.by_class.get(code, 0) + 1
        return None

    def release(self, address: str, code: str) -> None:
        for counts, key in ((self.by_address, address), (self.by_class, code)):
            left = counts.get(key, 0) - 1
            if left > 0:
                counts[key] = left
            else:
                counts.pop(key, None)
