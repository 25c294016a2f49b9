"""Layout with the ``dot`` program on PATH, in a subprocess killed at the time limit.

A server keeps a spare ``dot``, started ahead and waiting for its graph: starting the program
(loading its libraries and plugins) is then not part of a request, which saves about a third of
a small graph's layout (python bench/api.py). Each graph still gets a process of its own, the
first graph it reads: one that has drawn a graph before lays the next out differently from
time to time (graphviz 2.43: the MLP preset top to bottom, in 7 runs of 20), and the time limit
kills only the process that overran it.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import resource
import shutil
import signal
import subprocess
import threading
import time

from app.capacity import BACKGROUND_NICENESS, layout_failed
from app.draw.layout.limits import (
    LAYOUT_MEMORY_MB,
    crashed,
    seconds_left,
    too_complex,
    too_large,
)
from engine.errors import GradstepError

# signals of dot's own faults (the same on the same graph), not of something killing it
_CRASHES = frozenset({signal.SIGSEGV, signal.SIGABRT, signal.SIGBUS, signal.SIGFPE, signal.SIGILL})

_PIPE_BYTES = 65536  # what a Linux pipe holds unless made larger


def dot_available() -> bool:
    return shutil.which("dot") is not None


def _start(memory_mb: int) -> subprocess.Popen[bytes]:
    process = subprocess.Popen(
        ["dot", "-Tsvg"], stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE
    )
    limit_memory(process.pid, memory_mb)
    return process


def limit_memory(pid: int, memory_mb: int) -> None:
    """Give ``pid`` (a dot not yet handed its graph) ``memory_mb`` of data. Set from here
    (prlimit), not in the child before exec: a ``preexec_fn`` is unsafe in a threaded server.
    RLIMIT_DATA, not RLIMIT_AS: dot maps 155 to 240 MB of libraries and plugins, which say
    nothing of the graph. Where there is no prlimit (not Linux), dot runs unlimited."""
    if hasattr(resource, "prlimit"):
        limit = memory_mb << 20
        with contextlib.suppress(ProcessLookupError):  # it ended already: communicate() says how
            resource.prlimit(pid, resource.RLIMIT_DATA, (limit, limit))


def _out_of_memory(err: bytes) -> bool:
    """Whether dot's complaint is that memory ran out (graphviz 2.43 says "out of memory" and
    crashes; later ones say so and exit 1)."""
    return b"memory" in err.lower()


class DotRunner:
    """``dot -Tsvg`` runs, each by the spare process if there is one; spares are kept once
    ``keep_spare()`` is called (a server, not the CLI). Each dot may take ``memory_mb`` of
    data."""

    def __init__(self, memory_mb: int = LAYOUT_MEMORY_MB) -> None:
        self.memory_mb = memory_mb
        self._spare: subprocess.Popen[bytes] | None = None
        self._keep = False
        self._lock = threading.Lock()

    def keep_spare(self) -> None:
        with self._lock:
            self._keep = True
        self._refill()

    def _refill(self) -> None:
        with self._lock:
            if not self._keep or self._spare is not None:
                return
            try:
                self._spare = _start(self.memory_mb)
            except OSError:  # the next layout starts its own dot and says what went wrong
                pass

    def _take(self) -> subprocess.Popen[bytes] | None:
        with self._lock:
            spare, self._spare = self._spare, None
        if spare is not None and spare.poll() is not None:  # it ended while idle
            _end(spare)
            return None
        return spare

    def begin(self, source: str, background: bool = False) -> DotJob:
        """``dot -Tsvg`` laying ``source`` out: handed the graph now (a spare's, if there is
        one), its drawing collected by the job's ``result``. A ``background`` one (a big graph:
        seconds of layout) runs at BACKGROUND_NICENESS, below the server's Python; a small one
        (milliseconds) keeps the server's priority, so a busy server still lays out a student's
        new program at once."""
        spare = self._take()
        try:
            process = spare or _start(self.memory_mb)
            if background:
                with contextlib.suppress(ProcessLookupError):  # ended: its job says how
                    os.setpriority(os.PRIO_PROCESS, process.pid, BACKGROUND_NICENESS)
            return DotJob(process, source, self.memory_mb)
        except OSError as error:  # dot vanished from PATH, or no memory or processes left
            raise layout_failed(f"dot could not start: {error.strerror or error}") from None
        finally:  # starting a process takes milliseconds: not while the request waits for it
            if self._keep:
                threading.Thread(target=self._refill, daemon=True).start()

    def layout(self, source: str, timeout: float) -> str:
        """The SVG of ``source`` as drawn by ``dot -Tsvg``."""
        return self.begin(source).result(timeout)

    def close(self) -> None:
        with self._lock:
            self._keep = False
            spare, self._spare = self._spare, None
        if spare is not None:
            _end(spare)


def _end(process: subprocess.Popen[bytes]) -> None:
    if process.poll() is None:
        process.kill()
    process.communicate()  # reaps it and closes its pipes


def _hand_over(process: subprocess.Popen[bytes], data: bytes) -> int:
    """Write as much of ``data`` into ``process``'s empty input pipe as it holds (the pipe made
    large enough first, where Linux allows), without waiting; how many bytes went in."""
    assert process.stdin is not None
    fd = process.stdin.fileno()
    if len(data) > _PIPE_BYTES and hasattr(fcntl, "F_SETPIPE_SZ"):
        with contextlib.suppress(OSError):  # above /proc/sys/fs/pipe-max-size: as it is
            fcntl.fcntl(fd, fcntl.F_SETPIPE_SZ, len(data))
    os.set_blocking(fd, False)
    try:
        return os.write(fd, data)
    except (BlockingIOError, BrokenPipeError):  # dot died: communicate() says how
        return 0
    finally:
        os.set_blocking(fd, True)


class DotJob:
    """A ``dot -Tsvg`` with a graph: dot lays a graph out as soon as it has read it, so the DOT
    goes into its pipe at once (as much as the pipe holds) and the caller is free meanwhile.
    The time limit counts from this handover (``seconds_left``)."""

    def __init__(
        self, process: subprocess.Popen[bytes], source: str, memory_mb: int = LAYOUT_MEMORY_MB
    ) -> None:
        self.process = process
        self.memory_mb = memory_mb
        data = source.encode()
        self.rest = data[_hand_over(process, data) :]
        self.handed = time.monotonic()

    def result(self, timeout: float) -> str:
        process = self.process
        try:
            out, err = process.communicate(
                self.rest or None, timeout=seconds_left(self.handed, timeout)
            )
        except subprocess.TimeoutExpired:
            _end(process)
            raise too_complex(timeout) from None
        except BaseException:
            _end(process)
            raise
        if process.returncode != 0 and _out_of_memory(err):  # past its memory_mb
            raise too_large(self.memory_mb)
        if process.returncode < 0:
            number = -process.returncode
            if number in _CRASHES:  # its own fault on this graph: the same each time
                raise crashed(signal.Signals(number).name)
            # killed (the OOM killer, an operator): another try may go through
            raise layout_failed(f"dot was killed by signal {number}")
        if process.returncode != 0:
            detail = err.decode(errors="replace").strip().splitlines()[:1]
            raise GradstepError(f"Graphviz could not draw this graph: {' '.join(detail)}", "layout")
        return out.decode()
