"""A throwaway Redis server for the live classroom's tests, from Debian's ``redis-server``: on a
free port of 127.0.0.1, its directory a temporary one, nothing saved to disk, removed
afterwards.

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
from collections.abc import Iterator
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


@contextmanager
def redis_server() -> Iterator[str]:
    """The URL of a fresh Redis server, ``redis://127.0.0.1:<port>/0``."""
    binary = shutil.which("redis-server")
    if binary is None:
        unavailable("redis-server is not installed (Debian: apt-get install redis-server)")
        raise AssertionError  # unreachable: unavailable() skips or fails
    root = tempfile.mkdtemp(prefix="gradstep-redis-")
    port = free_port()
    options = {"port": str(port), "bind": "127.0.0.1", "dir": root, "save": "", "appendonly": "no"}
    process = subprocess.Popen(
        [binary, *(part for name, value in options.items() for part in (f"--{name}", value))],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    try:
        deadline = time.monotonic() + START_S
        while not _answers(port):
            if process.poll() is not None or time.monotonic() > deadline:
                error = process.stderr.read().decode() if process.stderr else ""
                raise RuntimeError(f"redis-server did not start: {error}")
            time.sleep(0.02)
        yield f"redis://127.0.0.1:{port}/0"
    finally:
        process.terminate()
        process.wait()
        if process.stderr:
            process.stderr.close()
        shutil.rmtree(root, ignore_errors=True)
