"""``gradstep serve`` in a process of its own, for the tests that signal it (SIGTERM, SIGKILL)."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path

import httpx

ROOT = Path(__file__).resolve().parents[2]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@contextmanager
def gradstep_serve(env: Mapping[str, str]) -> Iterator[tuple[subprocess.Popen[bytes], str]]:
    """The server's process and URL, once it answers /healthz; killed afterwards if alive."""
    port = free_port()
    process = subprocess.Popen(
        [sys.executable, "-m", "app.cli", "serve", "--port", str(port)],
        cwd=ROOT,
        env={**os.environ, **env},
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    url = f"http://127.0.0.1:{port}"
    try:
        while True:  # startup is waited for, not timed; a dead server fails at once
            assert process.poll() is None, process.stderr.read().decode()  # type: ignore[union-attr]
            try:
                if httpx.get(f"{url}/healthz", timeout=1).status_code == 200:
                    break
            except httpx.TransportError:
                time.sleep(0.05)
        yield process, url
    finally:
        if process.poll() is None:
            process.kill()
        process.wait()
        process.stderr.close()  # type: ignore[union-attr]
