"""Refusals that are the server's state, not the input's (``Unavailable``: a message, a kind and
how long to wait; app/errors.py answers each with 503 and Retry-After), and the gates that make
them.

A lecture hall can send more work than two cores can do. Rather than let it queue without end
(every answer late, memory growing), each expensive stage admits a bounded number of requests:
``slots`` run, ``queue`` more wait their turn, and the next one is told at once to come back.
"""

from __future__ import annotations

import gzip
import hashlib
import os
import threading
import time
from collections.abc import Callable, Iterator
from concurrent.futures import Future
from contextlib import contextmanager
from typing import Literal, TypeVar

import brotli

from app.bounded import BoundedCache
from engine.errors import GradstepError

T = TypeVar("T")

RETRY_AFTER_BUSY_S = 2  # a layout takes well under a second; its queue drains quickly
RETRY_AFTER_RUN_S = 2  # most programs run in milliseconds; a queue of long ones drains in seconds
RUN_QUEUE_PER_SLOT = 16  # programs waiting for each running one: a hall of 48 busy clients fits
RUN_WAIT_S = 5.0  # the longest a program waits for a slot: a queue of 10 s runs is told to retry
RETRY_AFTER_FAILED_S = 1  # a failed backend is replaced by the next request
ERROR_KEPT_S = 120.0  # an input's error is given again at once for this long (Answers)
MAX_ERRORS = 4096  # errors kept at most (a key and a message each)
GZIP_LEVEL = 1  # as app.middleware's: most of the saving at a fraction of the time
# Brotli's quality, measured on the lecture MLP (bench/answer_size.py; fastest of 3 runs): its first
# answer (2.5 MB of JSON) is 315 KB at 4 in ~60 ms, 270 KB at 5 in ~100 ms, within 1% of that at 6
# and 7 for 20-50% more time (gzip 1: 467 KB in 27 ms); 5 is the knee, and the first quality under
# issue 44's 300 KB. A value-only answer (225 KB) is 33 KB at 5 in ~6 ms (gzip 1: 61 KB, 2 ms).
# An answer kept (Answers) is compressed once however many clients ask for it.
BROTLI_QUALITY = 5
# Layout and PNG processes run this much below the server's Python (a tenth of its CPU share
# when both want a core): a graph slow to lay out then never takes the core that a preset's
# answer (a few milliseconds of Python) is waiting for.
BACKGROUND_NICENESS = 10


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


def default_slots() -> int:
    """Layouts or programs that run at once unless set: the number of cores, at least 2."""
    return max(2, os.cpu_count() or 2)


class Gate:
    """At most ``slots`` holders at once and ``queue`` more waiting (each for ``wait_s`` at most;
    None: until its turn); beyond that, ``Unavailable`` (kind ``busy``, Retry-After
    ``retry_after``)."""

    def __init__(
        self, what: str, slots: int, queue: int, retry_after: int, wait_s: float | None = None
    ) -> None:
        self.what = what
        self.slots = slots
        self.queue = queue
        self.retry_after = retry_after
        self.wait_s = wait_s
        self._admitted = threading.BoundedSemaphore(slots + queue)
        self._running = threading.BoundedSemaphore(slots)
        self._inside = 0  # running or waiting
        self._count = threading.Lock()

    @classmethod
    def for_layout(cls, slots: int, queue: int | None = None) -> Gate:
        """``slots`` layouts run at once and ``queue`` (None: twice as many) wait."""
        return cls("layout", slots, 2 * slots if queue is None else queue, RETRY_AFTER_BUSY_S)

    @classmethod
    def for_runs(cls, slots: int, queue: int | None = None) -> Gate:
        """``slots`` programs run at once (each on a thread holding Python's lock most of the
        time: more than the cores only slows them all) and ``queue`` (None: RUN_QUEUE_PER_SLOT
        for each) wait, for RUN_WAIT_S at most."""
        waiting = RUN_QUEUE_PER_SLOT * slots if queue is None else queue
        return cls("program", slots, waiting, RETRY_AFTER_RUN_S, RUN_WAIT_S)

    @contextmanager
    def slot(self, wait: bool = False) -> Iterator[None]:
        self.enter(wait)
        try:
            yield
        finally:
            self.leave()

    def enter(self, wait: bool = False) -> None:
        """Take a slot, waiting in the queue if need be; refused at once when the queue is full,
        unless ``wait`` (work admitted already, such as an export's next frame: its stream has
        begun, and a refusal now would break it). Every ``enter`` is matched by one ``leave``."""
        if not self._admitted.acquire(blocking=wait):
            raise self._refusal()
        with self._count:
            self._inside += 1
        if not self._running.acquire(timeout=None if wait else self.wait_s):
            with self._count:
                self._inside -= 1
            self._admitted.release()
            raise self._refusal(waited=True)

    def leave(self) -> None:
        with self._count:
            self._inside -= 1
        self._running.release()
        self._admitted.release()

    def check(self) -> None:
        """Refuses now, as ``enter`` would, when every place is taken: work done only to be
        let in (a PNG's graph drawn) is not done for a request that would be turned away."""
        if self._inside >= self.slots + self.queue:
            raise self._refusal()

    def _refusal(self, waited: bool = False) -> Unavailable:
        queue = f"this one waited {self.wait_s:g} s" if waited else f"{self.queue} waiting"
        return Unavailable(
            f"the server is busy: {self.slots} {self.what}s are running and {queue}; please "
            "try again in a moment",
            "busy",
            self.retry_after,
        )

    @property
    def idle(self) -> bool:
        """Nothing is running or waiting."""
        return self._inside == 0


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


Coding = Literal["br", "gzip"]
CODECS: dict[Coding, tuple[Callable[[bytes], bytes], Callable[[bytes], bytes]]] = {
    "br": (lambda body: brotli.compress(body, quality=BROTLI_QUALITY), brotli.decompress),
    "gzip": (lambda body: gzip.compress(body, GZIP_LEVEL), gzip.decompress),
}  # each coding's (compress, decompress)


class Answers:
    """Answers kept by the request that asked for them, so that the same request again (a class
    opening one link, an example with nothing to move, the same step's picture) is answered
    without running anything; the least recently used are dropped past ``max_bytes``. An
    input's error is kept too, for ``ERROR_KEPT_S``, and given at once the next time without
    running the program again. A layout's error depends on the machine's load (a timeout under
    load says little of the graph): while ``busy()`` gives a refusal, a request whose layout
    failed before gets that refusal at once, and never takes the layout its first try took
    from cheaper graphs; when the server is free, it is tried again. Concurrent requests for
    one key share one computation. A refusal of the server's (``Unavailable``) is not kept. A run
    out of time is: its limit is fuel, the same on any machine at any load.

    A text answer is kept in each coding asked for (brotli, gzip), each an entry of its own
    counted by its bytes: a hall of browsers that take brotli costs one compression and keeps
    brotli alone. A coding not kept yet is made from another one kept, decompressed, rather than
    by running the request again."""

    def __init__(self, max_bytes: int, busy: Callable[[], Exception | None]) -> None:
        self.max_bytes = max_bytes
        self.busy = busy
        self._kept: BoundedCache[bytes] = BoundedCache(len, max_bytes)
        self._errors: BoundedCache[tuple[float, GradstepError]] = BoundedCache(
            lambda _: 0,
            None,
            MAX_ERRORS,  # a count bound: a key and a short message each
        )
        self._flight = SingleFlight()

    @staticmethod
    def key(*parts: str) -> str:
        return hashlib.blake2b("\0".join(parts).encode(), digest_size=16).hexdigest()

    def get(self, key: str, compute: Callable[[], bytes], coding: Coding | None = "gzip") -> bytes:
        """The answer kept for ``key`` in ``coding``, else ``compute()``'s so coded (kept if it
        fits), compressed once (a 979-value MLP's answer is 2.5 MB of JSON); None: kept as
        computed (a PNG is compressed already)."""
        kept_as = key if coding is None else f"{key} {coding}"
        kept = self._kept.get(kept_as)
        if kept is not None:
            return kept
        error = self._errors.get(key)
        if error is not None:
            when, failed = error
            if failed.kind == "layout":
                refusal = self.busy()
                if refusal is not None:
                    raise refusal
            elif time.monotonic() - when < ERROR_KEPT_S:
                raise GradstepError(failed.message, failed.kind, failed.span, failed.console)
        return self._flight.run(kept_as, lambda: self._made(kept_as, key, compute, coding))

    @property
    def size(self) -> int:
        """The bytes of the answers kept."""
        return self._kept.bytes

    def _decoded(self, key: str, compute: Callable[[], bytes]) -> bytes:
        """The body of ``key``'s answer: another coding's kept, decompressed (a few
        milliseconds), else computed."""
        for coding, (_, decompress) in CODECS.items():
            kept = self._kept.get(f"{key} {coding}")
            if kept is not None:
                return decompress(kept)
        return self._computed(key, compute)

    def _computed(self, key: str, compute: Callable[[], bytes]) -> bytes:
        try:
            answer = compute()
        except GradstepError as error:
            # kept as a bare copy: the error raised holds its traceback, and the traceback's
            # frames the whole program, its outline and its structure
            bare = GradstepError(error.message, error.kind, error.span, error.console)
            self._errors.replace(key, (time.monotonic(), bare))
            raise
        self._errors.drop(key)
        return answer

    def _made(
        self, kept_as: str, key: str, compute: Callable[[], bytes], coding: Coding | None
    ) -> bytes:
        """``key``'s answer in ``coding``, kept as ``kept_as`` if it fits."""
        if coding is None:
            answer = self._computed(key, compute)
        else:  # a gzip and a brotli client asking at once share one computation of the body
            body = self._flight.run(f"{key} decoded", lambda: self._decoded(key, compute))
            answer = CODECS[coding][0](body)
        if len(answer) <= self.max_bytes // 8:  # none crowds out all the others
            self._kept.put(kept_as, answer)
        return answer
