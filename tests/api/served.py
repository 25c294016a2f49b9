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


def busy_dot(parent: int) -> int | None:
    """The pid of a ``dot`` that ``parent`` started and that is laying a graph out, or None. A
    spare dot waiting for its graph has used next to no CPU time; one at work has used some."""
    ticks = os.sysconf("SC_CLK_TCK")
    for entry in Path("/proc").iterdir():
        try:
            if not entry.name.isdigit() or (entry / "comm").read_text().strip() != "dot":
                continue
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            if int(fields[1]) == parent and int(fields[11]) + int(fields[12]) >= ticks // 20:
                return int(entry.name)
        except (OSError, ValueError, IndexError):
            continue
    return None


def _parents() -> dict[int, int]:
    """Every process's parent, by pid."""
    parents = {}
    for entry in Path("/proc").iterdir():
        try:
            if entry.name.isdigit():
                fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
                parents[int(entry.name)] = int(fields[1])
        except (OSError, ValueError, IndexError):
            continue
    return parents


def tree_rss(root: int) -> dict[int, int]:
    """The resident memory, in MB, of ``root`` and of each of its descendants, by pid."""
    parents = _parents()
    tree, grown = {root}, True
    while grown:
        more = {pid for pid, parent in parents.items() if parent in tree} - tree
        tree |= more
        grown = bool(more)
    rss = {}
    for pid in tree:
        try:
            status = Path(f"/proc/{pid}/status").read_text()
        except OSError:
            continue
        for line in status.splitlines():
            if line.startswith("VmRSS:"):
                rss[pid] = int(line.split()[1]) // 1024
    return rss
