"""HTTP API speed, side by side in one run: Graphviz layout alone for a program's DOT vs the
whole request (HTTP, parse, trace, layout, SVG texts, JSON), cold (layout not cached) and warm
(a value-only change: the cached layout is reused), for each layout backend present; then
requests per second from 32 concurrent clients on loopback.

    python bench/api.py [--repeat N] [--seconds S]
"""

from __future__ import annotations

import argparse
import asyncio
import os
import re
import socket
import statistics
import subprocess
import sys
import time
from pathlib import Path

import httpx

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "tests" / "api")]

from app.render import structure_digraph  # noqa: E402
from programs import mlp_source  # noqa: E402

import engine  # noqa: E402
from app.draw.layout import Layout, LayoutSettings  # noqa: E402
from app.draw.layout.dot_backend import dot_available  # noqa: E402
from app.draw.layout.wasm_backend import wasm_available  # noqa: E402
from app.presets import LECTURE_NEURON, MICROGRAD_README  # noqa: E402

PROGRAMS = {
    "micrograd README": (MICROGRAD_README, "a"),
    "lecture neuron": (LECTURE_NEURON, "x1"),
    "MLP(2,[16,16,1])": (mlp_source(), "x0"),
}


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def median_ms(samples: list[float]) -> float:
    return statistics.median(samples) * 1000


class ServerProcess:
    """uvicorn in a process of its own, so the client does not share its interpreter."""

    def __init__(self, backend: str) -> None:
        self.url = f"http://127.0.0.1:{free_port()}"
        env = {**os.environ, "GRADSTEP_LAYOUT": backend, "PYTHONPATH": str(ROOT)}
        command = [sys.executable, "-m", "uvicorn", "--factory", "app.main:create_app"]
        command += ["--host", "127.0.0.1", "--port", self.url.rsplit(":", 1)[1]]
        self.process = subprocess.Popen([*command, "--log-level", "warning"], env=env, cwd=ROOT)
        deadline = time.monotonic() + 120
        while True:
            try:
                httpx.get(f"{self.url}/healthz", timeout=1)
                break
            except httpx.TransportError:
                if self.process.poll() is not None or time.monotonic() > deadline:
                    code = self.process.returncode
                    raise RuntimeError(f"uvicorn did not start ({code})") from None
                time.sleep(0.05)

    def stop(self) -> None:
        self.process.terminate()
        self.process.wait()


def renamed(source: str, name: str, i: int) -> str:
    """``source`` with input ``name`` renamed: a new structure (cold), the same layout work."""
    return re.sub(rf"\b{name}\b", f"{name}_{i}", source)


def latency_rows(backend: str, repeat: int) -> list[tuple[str, ...]]:
    server = ServerProcess(backend)
    layout = Layout(LayoutSettings(backend=backend, timeout=60))
    layout.warm()
    rows = []
    with httpx.Client(timeout=120) as client:
        client.post(f"{server.url}/api/graph", json={"source": "a = 1.0; b = a * 2"})  # warm up
        for name, (source, knob) in PROGRAMS.items():
            alone, cold, warm = [], [], []
            for i in range(repeat):
                variant = renamed(source, knob, i)
                dot = structure_digraph(engine.parse(variant).output).source
                start = time.perf_counter()
                layout.svg(dot)
                alone.append(time.perf_counter() - start)
                start = time.perf_counter()
                cold_response = client.post(f"{server.url}/api/graph", json={"source": variant})
                cold.append(time.perf_counter() - start)
                assert cold_response.json()["timings"]["layout_cached"] is False
                values = {f"{knob}_{i}": 0.25 + i / 100}
                start = time.perf_counter()
                warm_response = client.post(
                    f"{server.url}/api/graph", json={"source": variant, "values": values}
                )
                warm.append(time.perf_counter() - start)
                assert warm_response.json()["timings"]["layout_cached"] is True
            a, c, w = median_ms(alone), median_ms(cold), median_ms(warm)
            rows.append((name, backend, f"{a:.1f}", f"{c:.1f}", f"{c / a:.2f}x", f"{w:.1f}"))
    layout.close()
    server.stop()
    return rows


async def _throughput(url: str, seconds: float, clients: int = 32) -> tuple[float, int]:
    done = errors = 0
    stop_at = 0.0

    async def one_client(k: int, client: httpx.AsyncClient) -> None:
        nonlocal done, errors
        i = 0
        while time.perf_counter() < stop_at:
            values = {"a": -4.0 + (k * 1000 + i) * 1e-6}
            response = await client.post(url, json={"source": MICROGRAD_README, "values": values})
            done += response.status_code == 200
            errors += response.status_code != 200
            i += 1

    limits = httpx.Limits(max_connections=clients)
    async with httpx.AsyncClient(timeout=120, limits=limits) as client:
        await client.post(url, json={"source": MICROGRAD_README})  # lay out once
        start = time.perf_counter()
        stop_at = start + seconds
        await asyncio.gather(*(one_client(k, client) for k in range(clients)))
        elapsed = time.perf_counter() - start
    return done / elapsed, errors


def throughput(backend: str, seconds: float) -> tuple[float, int]:
    server = ServerProcess(backend)
    try:
        return asyncio.run(_throughput(f"{server.url}/api/graph", seconds))
    finally:
        server.stop()


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--repeat", type=int, default=7)
    parser.add_argument("--seconds", type=float, default=5.0)
    args = parser.parse_args()
    backends = [b for b, ok in (("dot", dot_available()), ("wasm", wasm_available())) if ok]
    header = ("program", "backend", "layout ms", "request cold ms", "cold/layout", "warm ms")
    rows = [header] + [row for b in backends for row in latency_rows(b, args.repeat)]
    widths = [max(len(r[i]) for r in rows) for i in range(len(header))]
    print(f"median of {args.repeat}; warm = a value-only change (layout cached)")
    for row in rows:
        print("  ".join(cell.rjust(w) for cell, w in zip(row, widths, strict=True)))
    print()
    for backend in backends:
        rate, errors = throughput(backend, args.seconds)
        print(
            f"{backend}: {rate:.0f} requests/s, 32 concurrent clients, value-only changes"
            f" of the README program ({errors} errors)"
        )


if __name__ == "__main__":
    main()
