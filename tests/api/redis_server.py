"""A throwaway Redis server for the live classroom's tests, from Debian's ``redis-server``: on a
free port of 127.0.0.1, its directory a temporary one, removed afterwards; nothing saved to
disk unless a test restarts it with its data kept.

Outside CI the Redis tests skip when ``redis-server`` is missing; in CI (``CI`` set) they fail
instead, as the PostgreSQL tests do (tests/api/postgres.py).
"""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager

import pytest
from served import free_port

START_S = 10


def unavailable(reason: str) -> None:
    if os.environ.get("CI"):
        pytest.fail(f"Redis tests cannot run in CI: {reason}", pytrace=False)
    pytest.skip(reason)


def _answers(port: int) -> bool:
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=0.5) as conn:
            conn.sendall(b"PING\r\n")
            return conn.recv(16).startswith(b"+PONG")
    except OSError:
        return False


def _start(binary: str, options: dict[str, str]) -> subprocess.Popen[bytes]:
    process = subprocess.Popen(
        [binary, *(part for name, value in options.items() for part in (f"--{name}", value))],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    deadline = time.monotonic() + START_S
    while not _answers(int(options["port"])):
        if process.poll() is not None or time.monotonic() > deadline:
            error = process.stderr.read().decode() if process.stderr else ""
            raise RuntimeError(f"redis-server did not start: {error}")
        time.sleep(0.02)
    return process


def _stop(process: subprocess.Popen[bytes]) -> None:
    process.terminate()  # Redis writes its append-only file out as it stops
    process.wait()
    if process.stderr:
        process.stderr.close()


@contextmanager
def redis_server() -> Iterator[str]:
    """The URL of a fresh Redis server, ``redis://127.0.0.1:<port>/0``."""
    with restartable_redis(persist=False) as (url, _restart):
        yield url


@contextmanager
def restartable_redis(persist: bool) -> Iterator[tuple[str, Callable[[Callable[[], None]], None]]]:
    """A fresh Redis server's URL and ``restart(while_down)``: stopped, ``while_down()`` called,
    started again on the same port and folder; with ``persist`` it keeps its data in an
    append-only file (as docs/deploy.md advises), else nothing is saved."""
    binary = shutil.which("redis-server")
    if binary is None:
        unavailable("redis-server is not installed (Debian: apt-get install redis-server)")
        raise AssertionError  # unreachable: unavailable() skips or fails
    root = tempfile.mkdtemp(prefix="gradstep-redis-")
    options = {"port": str(free_port()), "bind": "127.0.0.1", "dir": root, "save": "",
               "appendonly": "yes" if persist else "no"}  # fmt: skip
    held = [_start(binary, options)]

    def restart(while_down: Callable[[], None]) -> None:
        _stop(held[0])
        try:
            while_down()
        finally:
            held[0] = _start(binary, options)

    try:
        yield f"redis://127.0.0.1:{options['port']}/0", restart
    finally:
        _stop(held[0])
        shutil.rmtree(root, ignore_errors=True)
