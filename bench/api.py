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
import socket
import statistics
import subprocess
import sys
import threading
import time
from pathlib import Path

import httpx
import uvicorn

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "tests" / "api")]

from programs import mlp_source  # noqa: E402

import engine  # noqa: E402
from app.layout import LayoutSettings  # noqa: E402
from app.layout.dot_backend import dot_available  # noqa: E402
from app.layout.wasm_backend import wasm_available  # noqa: E402
from app.main import create_app  # noqa: E402
from app.presets import LECTURE_NEURON, MICROGRAD_README  # noqa: E402
from app.render import structure_digraph  # noqa: E402

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


class ThreadServer:
    def __init__(self, backend: str) -> None:
        self.app = create_app(LayoutSettings(backend=backend, timeout=60))
        self.port = free_port()
        config = uvicorn.Config(self.app, host="127.0.0.1", port=self.port, log_level="warning")
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(target=self.server.run, daemon=True)
        self.thread.start()
        while not self.server.started:
            time.sleep(0.01)
        self.app.state.layout.warm()

    def stop(self) -> None:
        self.server.should_exit = True
        self.thread.join()


def latency_rows(backend: str, repeat: int) -> list[tuple[str, ...]]:
    server = ThreadServer(backend)
    layout = server.app.state.layout
    url = f"http://127.0.0.1:{server.port}/api/graph"
    rows = []
    with httpx.Client(timeout=120) as client:
        for name, (source, knob) in PROGRAMS.items():
            dot = structure_digraph(engine.parse(source).output).source
            alone, cold, warm = [], [], []
            for i in range(repeat):
                start = time.perf_counter()
                layout.svg(dot)
                alone.append(time.perf_counter() - start)
                layout.clear()
                start = time.perf_counter()
                cold_response = client.post(url, json={"source": source})
                cold.append(time.perf_counter() - start)
                assert cold_response.json()["timings"]["layout_cached"] is False
                start = time.perf_counter()
                warm_response = client.post(
                    url, json={"source": source, "values": {knob: 0.25 + i / 100}}
                )
                warm.append(time.perf_counter() - start)
                assert warm_response.json()["timings"]["layout_cached"] is True
            a, c, w = median_ms(alone), median_ms(cold), median_ms(warm)
            rows.append((name, backend, f"{a:.1f}", f"{c:.1f}", f"{c / a:.2f}x", f"{w:.1f}"))
    server.stop()
    return rows


async def _throughput(url: str, seconds: float, clients: int = 32) -> tuple[float, int]:
    done = errors = 0
    stop_at = time.perf_counter() + seconds

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
        await asyncio.gather(*(one_client(k, client) for k in range(clients)))
        elapsed = time.perf_counter() - start
    return done / elapsed, errors


def throughput(backend: str, seconds: float) -> tuple[float, int]:
    """A uvicorn process of its own, so the clients do not share its interpreter."""
    port = free_port()
    env = {**os.environ, "GRADSTEP_LAYOUT": backend, "PYTHONPATH": str(ROOT)}
    command = [sys.executable, "-m", "uvicorn", "--factory", "app.main:create_app"]
    command += ["--host", "127.0.0.1", "--port", str(port), "--log-level", "warning"]
    server = subprocess.Popen(command, env=env, cwd=ROOT)
    try:
        for _ in range(600):
            try:
                httpx.get(f"http://127.0.0.1:{port}/healthz", timeout=1)
                break
            except httpx.TransportError:
                time.sleep(0.05)
        return asyncio.run(_throughput(f"http://127.0.0.1:{port}/api/graph", seconds))
    finally:
        server.terminate()
        server.wait()


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
