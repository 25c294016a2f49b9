"""Refusals that are the server's state, not the input's (``Unavailable``: a message, a kind and
how long to wait; app/errors.py answers each with 503 and Retry-After), and the gates that make
them.

A lecture hall can send more work than two cores can do. Rather than let it queue without end
(every answer late, memory growing), each expensive stage admits a bounded number of requests:
``slots`` run, ``queue`` more wait their turn, and the next one is told at once to come back.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Callable, Iterator
from concurrent.futures import Future
from contextlib import contextmanager
from typing import TypeVar

T = TypeVar("T")

RETRY_AFTER_BUSY_S = 2  # a layout takes well under a second; its queue drains quickly
RETRY_AFTER_FAILED_S = 1  # a failed backend is replaced by the next request


class Unavailable(Exception):
    """The server cannot do this now, through no fault of the input: busy, or a part of it failed
    or missing. ``retry_after``: the seconds after which trying again may help (None: it will
    not by itself). app/errors.py answers it with 503 in the one error shape."""

    def __init__(self, message: str, kind: str, retry_after: int | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.kind = kind
        self.retry_after = retry_after


def layout_failed(detail: str) -> Unavailable:
    """The layout backend broke (not the graph's fault): the next request starts a fresh one."""
    return Unavailable(
        f"the layout backend failed ({detail}); please try again",
        "layout_failed",
        RETRY_AFTER_FAILED_S,
    )


def default_layout_slots() -> int:
    """Layouts that run at once unless set: the number of cores, at least 2."""
    return max(2, os.cpu_count() or 2)


class Gate:
    """At most ``slots`` holders at once and ``queue`` more waiting; beyond that, ``Unavailable``
    (kind ``busy``, Retry-After ``retry_after``)."""

    def __init__(self, what: str, slots: int, queue: int, retry_after: int) -> None:
        self.what = what
        self.slots = slots
        self.queue = queue
        self.retry_after = retry_after
        self._admitted = threading.BoundedSemaphore(slots + queue)
        self._running = threading.BoundedSemaphore(slots)

    @classmethod
    def for_layout(cls, slots: int, queue: int | None = None) -> Gate:
        """``slots`` layouts run at once and ``queue`` (None: twice as many) wait."""
        return cls("layout", slots, 2 * slots if queue is None else queue, RETRY_AFTER_BUSY_S)

    @contextmanager
    def slot(self) -> Iterator[None]:
        self.enter()
        try:
            yield
        finally:
            self.leave()

    def enter(self) -> None:
        """Take a slot, waiting in the queue if need be; refused at once when the queue is full.
        Every ``enter`` is matched by one ``leave``."""
        if not self._admitted.acquire(blocking=False):
            raise Unavailable(
                f"the server is busy: {self.slots} {self.what}s are running and {self.queue} "
                "waiting; please try again in a moment",
                "busy",
                self.retry_after,
            )
        self._running.acquire()

    def leave(self) -> None:
        self._running.release()
        self._admitted.release()


class SingleFlight:
    """Concurrent calls for the same key share one computation: when a whole class opens the
    same link at once, its graph is laid out once, not once per student."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._pending: dict[str, Future[object]] = {}

    def run(self, key: str, compute: Callable[[], T]) -> T:
        future, leader = self.claim(key)
        if not leader:
            return future.result()  # type: ignore[return-value]  # re-raises the leader's error
        try:
            result = compute()
        except BaseException as error:
            self.settle(key, error=error)
            raise
        self.settle(key, result)
        return result

    def claim(self, key: str) -> tuple[Future[object], bool]:
        """The computation of ``key``: a new one (True: this caller leads it and must
        ``settle`` it) or the one under way (False: its future gives the leader's result)."""
        with self._lock:
            pending = self._pending.get(key)
            if pending is not None:
                return pending, False
            pending = self._pending[key] = Future()
            return pending, True

    def settle(self, key: str, result: object = None, error: BaseException | None = None) -> None:
        """The leader's result (or error) for ``key``, handed to everyone waiting for it."""
        with self._lock:
            pending = self._pending.pop(key)
        if error is not None:
            pending.set_exception(error)
        else:
            pending.set_result(result)
