"""A lecture hall against a live server: ``gradstep serve --workers N`` on 127.0.0.1, driven by
64 concurrent clients for a fixed time with a mix of requests (the preset graphs with random
input values, SVG and PNG exports, the pages, new programs, bad input and graphs too slow to
lay out). Prints requests per second, p50/p95/p99 latency per kind of request, answers by
status, errors by kind, and the server's resident memory (all its processes) over time.

    python bench/load.py [--workers 1 2] [--clients 64] [--seconds 60] [--backend dot]
                         [--baseline DIR]

With ``--baseline``, another checkout's server takes the same load after this one's, in the same
run, for each number of workers.

Targets: no 5xx but the deliberate 503 refusals, no connection errors, p99 of a preset graph
under 1 s while slow graphs are being refused, memory flat after warm-up.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import statistics
import subprocess
import sys
import time
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from pathlib import Path

import httpx

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "tests" / "api")]

from programs import dense_source  # noqa: E402
from served import free_port  # noqa: E402

import engine  # noqa: E402
from app.presets import PRESETS  # noqa: E402

# (kind, weight): the share of each kind of request in the mix
MIX = [
    ("preset graph", 50),
    ("preset svg", 10),
    ("preset png", 4),
    ("page", 12),
    ("new program", 8),
    ("bad input", 12),
    ("slow graph", 4),
]
PAGES = ["/", "/embed", "/train", "/static/page.js", "/static/graph.css", "/api/presets"]
BAD = [
    {"source": "a = 2.0\nb = a *"},
    {"source": "__import__('os').system('id')"},
    {"source": "a = " + "(" * 200 + "1" + ")" * 200},
    {"source": "a = 2.0", "values": {"a": "x"}},
    {"source": "x" * 25_000},
]
INPUTS = {p.id: list(engine.run(p.source).graph.inputs) for p in PRESETS}


def random_values(preset_id: str, rnd: random.Random) -> dict[str, float]:
    return {name: round(rnd.uniform(-3, 3), 3) for name in INPUTS[preset_id]}


def new_program(rnd: random.Random) -> str:
    """A small program of a new shape each time: the layout cache keeps turning over."""
    ops = ["+", "*", "-"]
    names = ["a", "b"]
    lines = ["a = 1.5", "b = -0.5"]
    for i in range(rnd.randint(3, 12)):
        left, right = rnd.choice(names), rnd.choice(names)
        fn = rnd.choice(["", ".tanh()", ".relu()", ".exp()"])
        lines.append(f"v{i} = ({left} {rnd.choice(ops)} {right}){fn}")
        names.append(f"v{i}")
    return "\n".join(lines) + "\n"


SLOW = [dense_source(16, 8), dense_source(14, 8), dense_source(16, 7)]


@dataclass
class Tally:
    latencies: dict[str, list[float]] = field(default_factory=lambda: defaultdict(list))
    statuses: dict[str, Counter[int]] = field(default_factory=lambda: defaultdict(Counter))
    errors: Counter[str] = field(default_factory=Counter)
    refusals: Counter[tuple[str, str]] = field(default_factory=Counter)  # (kind, stage) of 503s
    count: int = 0


async def one_request(client: httpx.AsyncClient, rnd: random.Random, tally: Tally) -> None:
    kind = rnd.choices([k for k, _ in MIX], [w for _, w in MIX])[0]
    preset = rnd.choice(PRESETS)
    values = random_values(preset.id, rnd)
    pairs = ",".join(f"{k}={v}" for k, v in values.items())
    if kind == "preset graph":
        call = client.post("/api/graph", json={"source": preset.source, "values": values})
    elif kind == "preset svg":
        params = {"source": preset.source, "values": pairs, "step": rnd.randint(0, 3)}
        call = client.get("/api/graph.svg", params=params)
    elif kind == "preset png":
        call = client.get("/api/graph.png", params={"source": preset.source, "values": pairs})
    elif kind == "page":
        call = client.get(rnd.choice(PAGES))
    elif kind == "new program":
        call = client.post("/api/graph", json={"source": new_program(rnd)})
    elif kind == "bad input":
        call = client.post("/api/graph", json=rnd.choice(BAD))
    else:
        call = client.post("/api/graph", json={"source": rnd.choice(SLOW)})
    start = time.perf_counter()
    try:
        response = await call
    except httpx.TimeoutException:
        tally.errors["client timeout (60 s)"] += 1
        return
    except httpx.TransportError as error:
        tally.errors[f"connection: {type(error).__name__}"] += 1
        return
    tally.latencies[kind].append(time.perf_counter() - start)
    tally.statuses[kind][response.status_code] += 1
    tally.count += 1
    if response.status_code >= 500:
        refusal = response.status_code == 503 and "retry-after" in response.headers
        label = "503 busy (Retry-After)" if refusal else f"{response.status_code} server error"
        tally.errors[label] += 1
        if refusal:
            tally.refusals[kind, refused_by(response)] += 1


def refused_by(response: httpx.Response) -> str:
    """The stage a 503 names: "2 layouts are running…" gives "layout"."""
    message = str(response.json().get("error", {}).get("message", ""))
    words = message.split(": ", 1)[-1].split()
    return words[1].rstrip("s") if len(words) > 1 and words[0].isdigit() else message[:40]


async def client_loop(url: str, seed: int, stop_at: float, tally: Tally) -> None:
    rnd = random.Random(seed)
    async with httpx.AsyncClient(base_url=url, timeout=60) as client:
        while time.monotonic() < stop_at:
            await one_request(client, rnd, tally)


def rss_mb(root_pid: int) -> tuple[float, float]:
    """Resident memory of the server's Python processes (uvicorn and its workers) and of
    everything else under it (dot, wasm and training workers), in MB."""
    children: dict[int, list[int]] = defaultdict(list)
    rss: dict[int, tuple[str, int]] = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            status = (entry / "status").read_text()
            cmdline = (entry / "cmdline").read_bytes()
        except OSError:
            continue
        fields = dict(line.split(":", 1) for line in status.splitlines() if ":" in line)
        pid = int(entry.name)
        children[int(fields["PPid"])].append(pid)
        server = b"app.cli" in cmdline or (b"multiprocessing" in cmdline and b"spawn" in cmdline)
        kind = "server" if server and b"gradstep-train" not in cmdline else "other"
        rss[pid] = (kind, int(fields.get("VmRSS", "0 kB").split()[0]))
    totals = {"server": 0, "other": 0}
    todo = [root_pid]
    while todo:
        pid = todo.pop()
        kind, kb = rss.get(pid, ("other", 0))
        totals[kind] += kb
        todo.extend(children.get(pid, ()))
    return totals["server"] / 1024, totals["other"] / 1024


def cpu_seconds(root_pid: int) -> float:
    """CPU time used so far by a process and its descendants that are still running or
    were reaped (cutime)."""
    ticks = os.sysconf("SC_CLK_TCK")
    fields = Path(f"/proc/{root_pid}/stat").read_text().rsplit(")", 1)[1].split()
    own = sum(int(f) for f in fields[11:15])  # utime stime cutime cstime
    return own / ticks


async def sample_memory(
    pid: int, stop_at: float, samples: list[tuple[float, float, float]]
) -> None:
    start = time.monotonic()
    while time.monotonic() < stop_at:
        samples.append((time.monotonic() - start, *rss_mb(pid)))
        await asyncio.sleep(1.0)


def start_server(workers: int, backend: str, root: Path) -> tuple[subprocess.Popen[bytes], str]:
    port = free_port()
    env = {**os.environ, "GRADSTEP_LAYOUT": backend, "PYTHONPATH": str(root)}
    command = [sys.executable, "-m", "app.cli", "serve", "--port", str(port)]
    command += ["--workers", str(workers)]
    with open(os.environ.get("GRADSTEP_LOAD_LOG", os.devnull), "wb") as log:  # its messages
        server = subprocess.Popen(command, cwd=root, env=env, stdout=subprocess.DEVNULL, stderr=log)
    url = f"http://127.0.0.1:{port}"
    while True:
        if server.poll() is not None:
            raise RuntimeError("the server did not start")
        try:
            if httpx.get(f"{url}/healthz", timeout=1).status_code == 200:
                return server, url
        except httpx.TransportError:
            time.sleep(0.1)


def percentile(samples: list[float], q: float) -> float:
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] * 1000


async def run(workers: int, clients: int, seconds: float, backend: str, root: Path) -> None:
    server, url = start_server(workers, backend, root)
    try:
        # warm-up: every preset once, so the first minute measures a running server
        async with httpx.AsyncClient(base_url=url, timeout=60) as warm:
            for preset in PRESETS:
                await warm.post("/api/graph", json={"source": preset.source})
        tally = Tally()
        memory: list[tuple[float, float, float]] = []
        stop_at = time.monotonic() + seconds
        began = time.perf_counter()
        client_cpu = time.process_time()
        server_cpu = cpu_seconds(server.pid)
        await asyncio.gather(
            sample_memory(server.pid, stop_at, memory),
            *(client_loop(url, seed, stop_at, tally) for seed in range(clients)),
        )
        elapsed = time.perf_counter() - began
        server_cpu = cpu_seconds(server.pid) - server_cpu  # workers: counted once they end
        client_cpu = time.process_time() - client_cpu
    finally:
        server.terminate()
        server.wait(30)
    name = "this checkout" if root == ROOT else str(root)
    report(f"{workers} worker(s), {name}", clients, elapsed, tally, memory)
    if workers == 1:
        print(f"CPU: server and its layouts {server_cpu / elapsed:.2f} cores, ", end="")
    else:
        print("CPU: ", end="")
    print(f"this load generator {client_cpu / elapsed:.2f} cores (of {os.cpu_count()})")


def report(
    title: str, clients: int, elapsed: float, tally: Tally, memory: list[tuple[float, float, float]]
) -> None:
    print(f"\n## {title}, {clients} clients, {elapsed:.0f} s")
    print(f"{tally.count / elapsed:.0f} requests/s answered ({tally.count} in all)\n")
    print(f"{'request':<14}{'n':>7}{'p50 ms':>9}{'p95 ms':>9}{'p99 ms':>9}  statuses")
    for kind, _ in MIX:
        samples = tally.latencies.get(kind, [])
        if not samples:
            continue
        statuses = ", ".join(f"{s}×{n}" for s, n in sorted(tally.statuses[kind].items()))
        p50, p95, p99 = (percentile(samples, q) for q in (0.5, 0.95, 0.99))
        print(f"{kind:<14}{len(samples):>7}{p50:>9.0f}{p95:>9.0f}{p99:>9.0f}  {statuses}")
    print("\nerrors by kind:", dict(tally.errors) or "none")
    for (kind, stage), count in sorted(tally.refusals.items()):
        print(f"  refused: {kind:<14} by {stage}: {count}")
    if memory:
        warm = [mb for t, mb, _ in memory if t >= min(10.0, elapsed / 3)]
        quarter = max(1, len(warm) // 4)
        first = statistics.mean(warm[:quarter])
        last = statistics.mean(warm[-quarter:])
        print(
            f"server RSS, Python processes: peak {max(m[1] for m in memory):.0f} MB; after "
            f"warm-up {first:.0f} MB in the first quarter, {last:.0f} MB in the last; "
            f"layout processes: peak {max(m[2] for m in memory):.0f} MB"
        )
        every = max(1, len(memory) // 10)  # about ten points over the run, in MB
        series = ", ".join(f"{t:.0f} s {mb:.0f}" for t, mb, _ in memory[::every])
        print(f"server RSS over the run: {series}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--workers", type=int, nargs="+", default=[1, 2])
    parser.add_argument("--clients", type=int, default=64)
    parser.add_argument("--seconds", type=float, default=60.0)
    parser.add_argument("--backend", choices=("dot", "wasm"), default="dot")
    parser.add_argument("--baseline", type=Path, help="another checkout, loaded after this one")
    args = parser.parse_args()
    print(f"gradstep load: {os.cpu_count()} cores, layout backend {args.backend}")
    roots = [ROOT] + ([args.baseline.resolve()] if args.baseline else [])
    for workers in args.workers:
        for root in roots:
            asyncio.run(run(workers, args.clients, args.seconds, args.backend, root))


if __name__ == "__main__":
    main()
