"""HTTP API speed, side by side in one run, for each layout backend present (dot, wasm):

1. Graphviz alone on a program's DOT (dot: a new ``dot`` process, start-up included, as
   the target was set; wasm: a warm worker), the same from a spare ``dot`` started ahead as
   the server keeps one (app/draw/layout/dot_backend.py), and the whole request over loopback
   to a uvicorn process (HTTP, the run, trace, DOT, layout, SVG texts, JSON) with the layout not
   cached
   (cold: a renamed input makes a new structure each time), and a value-only change (warm: the
   cached layout is reused, and, as the page does, the client names the layout it shows, so
   the answer leaves out the SVG when the server supports it), for every preset and an
   MLP(2, [16, 16, 1]) on one input;
2. the MLP's answer: its size gzipped (what a browser gets) and not (Accept-Encoding: identity),
   and the request's time either way, cold and warm;
3. requests per second from 32 concurrent clients on loopback (value-only changes).

    python bench/api.py [--repeat N] [--seconds S] [--backends dot wasm] [--baseline PATH]

``--baseline PATH``: the same requests to a server run from another checkout (e.g. the commit
before a change), beside this one's: both servers run at once and take turns, round by round.

Times: the first call, then the median and spread (lowest–highest) of N more, alternatives
interleaved round by round (bench/timing.py); ratios are of medians.
"""

from __future__ import annotations

import argparse
import asyncio
import itertools
import sys
import time
from collections.abc import Callable
from pathlib import Path

import httpx

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "tests" / "api"), str(ROOT / "bench")]

from programs import mlp_source  # noqa: E402
from server_process import ServerProcess  # noqa: E402
from timing import Timing, by_round, interleaved, ms, ratio  # noqa: E402
from variants import first_input, renamed  # noqa: E402

import engine  # noqa: E402
from app.draw.dot import choose_rankdir, dot_source  # noqa: E402
from app.draw.layout import Layout, LayoutSettings  # noqa: E402
from app.draw.layout.dot_backend import DotRunner, dot_available  # noqa: E402
from app.draw.layout.wasm_backend import wasm_available  # noqa: E402
from app.presets import MICROGRAD_README, PRESETS  # noqa: E402

MLP = "MLP(2,[16,16,1])"
# the presets a value change can be timed on (the lecture's MLP and demo keep their inputs
# inside calls, so no slider moves them), and the 979-value MLP written out flat
PROGRAMS = {p.id: p.source for p in PRESETS if engine.run(p.source).graph.inputs} | {
    MLP: mlp_source()
}


def latency(
    backend: str, repeat: int, roots: dict[str, Path]
) -> dict[str, dict[str, dict[str, Timing]]]:
    """Per checkout (``roots``: label → folder), per program, its timings. Every checkout's
    server runs at once and they take turns round by round, so a change in the machine's load
    falls on all of them alike."""
    servers: dict[str, ServerProcess] = {}
    layout = Layout(LayoutSettings(backend=backend, timeout=60))
    layout.warm()  # wasm: a worker; dot: a spare process, as a server keeps
    results: dict[str, dict[str, dict[str, Timing]]] = {label: {} for label in roots}
    try:
        for label, root in roots.items():
            servers[label] = ServerProcess(backend, root)
        urls = {label: server.url for label, server in servers.items()}
        with httpx.Client(timeout=120) as client:
            for url in urls.values():
                client.post(f"{url}/api/graph", json={"source": "a = 1.0\nb = a * 2"})
            time.sleep(1.0)  # the servers' fork servers and wasm workers have started
            for name, source in PROGRAMS.items():
                for label, rows in program_rounds(client, urls, layout, source, repeat).items():
                    results[label][name] = rows
    finally:  # a failed round must not leave a server running
        layout.close()
        for server in servers.values():
            server.stop()
    return results


def program_rounds(
    client: httpx.Client, urls: dict[str, str], layout: Layout, source: str, repeat: int
) -> dict[str, dict[str, Timing]]:
    """Each round: a new variant of ``source`` laid out alone, then, from each server in turn,
    asked for cold, then with a new value (warm)."""
    knob = first_input(source)
    variants = [renamed(source, knob, i) for i in range(repeat + 1)]
    dots = []
    for variant in variants:
        structure = engine.trace(engine.run(variant)).structure
        dots.append(dot_source(structure, choose_rankdir(structure)))

    fresh = DotRunner()  # never asked to keep a spare: a new dot process for every graph

    def alone(i: int) -> None:
        if layout.backend == "dot":
            fresh.layout(dots[i], 60)
        else:
            layout.svg(dots[i])

    def spare(i: int) -> None:
        layout.svg(dots[i])

    shown: dict[str, dict[str, str]] = {}  # what each server's last cold answer named: layout

    def cold(url: str) -> Callable[[int], None]:
        def run(i: int) -> None:
            answer = client.post(f"{url}/api/graph", json={"source": variants[i]}).json()
            assert answer["timings"]["layout_cached"] is False
            names = {"layout": answer.get("layout"), "structure": answer.get("digest")}
            shown[url] = {k: v for k, v in names.items() if v is not None}  # as a server has them

        return run

    def warm(url: str) -> Callable[[int], None]:
        def run(i: int) -> None:
            # as the page moves a slider: naming the layout it shows and the structure it holds,
            # when the server has them
            body = {"source": variants[i], "values": {f"{knob}_{i}": 0.25 + i / 100}}
            body |= shown.get(url, {})
            answer = client.post(f"{url}/api/graph", json=body).json()
            assert answer["timings"]["layout_cached"] is True

        return run

    runs: dict[str, Callable[[int], object]] = {"layout alone": alone}
    if layout.backend == "dot":
        runs["layout, spare dot"] = spare
    for label, url in urls.items():
        runs[f"request, cold{label}"] = cold(url)
        runs[f"request, warm{label}"] = warm(url)
    timings = by_round(runs, repeat)
    return {
        label: {
            "layout alone": timings["layout alone"],
            "layout, spare dot": timings.get("layout, spare dot", timings["layout alone"]),
            "request, cold": timings[f"request, cold{label}"],
            "request, warm": timings[f"request, warm{label}"],
        }
        for label in urls
    }


def sizes(backend: str, repeat: int, root: Path = ROOT) -> list[str]:
    """The MLP's answer gzipped and not: bytes, and the request's time, cold and warm."""
    server = ServerProcess(backend, root)
    lines = []
    source = PROGRAMS[MLP]
    knob = first_input(source)
    counter = itertools.count()
    try:
        with httpx.Client(timeout=120) as client:
            url = f"{server.url}/api/graph"
            client.post(url, json={"source": "a = 1.0\nb = a * 2"})
            time.sleep(1.0)

            def ask(encoding: str, cold: bool) -> Callable[[], object]:
                def run() -> None:
                    i = next(counter) + 1 if cold else 0
                    body = {"source": renamed(source, knob, i), "values": {f"{knob}_{i}": 0.5}}
                    answer = client.post(url, json=body, headers={"accept-encoding": encoding})
                    assert answer.json()["timings"]["layout_cached"] is not cold
                    got[encoding] = (len(answer.content), int(answer.headers["content-length"]))

                return run

            got: dict[str, tuple[int, int]] = {}
            client.post(url, json={"source": renamed(source, knob, 0)})  # lays out variant 0
            warm = interleaved({e: ask(e, False) for e in ("identity", "gzip")}, repeat)
            cold = interleaved({e: ask(e, True) for e in ("identity", "gzip")}, max(2, repeat // 3))
    finally:
        server.stop()
    plain, packed = got["identity"][1], got["gzip"][1]
    where = "" if root == ROOT else f", {root}"
    lines.append(
        f"{MLP} answer ({backend}{where}): {plain / 1e6:.2f} MB as JSON, {packed / 1e6:.2f} MB"
        f" as sent to a browser ({plain / packed:.1f}× smaller)"
    )
    for what, t in (("value-only change", warm), ("cold request", cold)):
        lines.append(
            f"  {what}: identity {t['identity']}, gzip {t['gzip']};"
            f" identity ÷ gzip {ratio(t['identity'], t['gzip'])} (loopback: no wire to save)"
        )
    return lines


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
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=7)
    parser.add_argument("--seconds", type=float, default=5.0)
    present = [b for b, ok in (("dot", dot_available()), ("wasm", wasm_available())) if ok]
    parser.add_argument("--backends", nargs="+", default=present, choices=present)
    parser.add_argument("--baseline", type=Path, help="another checkout's server beside this one")
    args = parser.parse_args()
    roots = {"": ROOT} | ({" (before)": args.baseline.resolve()} if args.baseline else {})
    results = {
        (backend, label): rows
        for backend in args.backends
        for label, rows in latency(backend, args.repeat, roots).items()
    }
    print(f"first call, then median (lowest–highest) of {args.repeat}; wall clock")
    print()
    print("layout, spare dot: from a dot started ahead, as the server keeps one (wasm: alone)")
    print()
    head = "| program | backend | layout alone | layout, spare dot | request, cold | cold ÷ layout"
    print(head + " | cold ÷ spare | value-only |")
    print("| --- | --- | --- | --- | --- | --- | --- | --- |")
    for name in PROGRAMS:
        for (backend, label), rows in results.items():
            t = rows[name]
            alone, cold, warm = t["layout alone"], t["request, cold"], t["request, warm"]
            spare = t["layout, spare dot"]
            print(
                f"| {name} | {backend}{label} | {alone} | {spare} | {cold} | {ratio(cold, alone)}"
                f" | {ratio(cold, spare)} | {warm} |"
            )
    if len(args.backends) == 2:
        print()
        print("| program | dot ÷ wasm, layout alone | dot ÷ wasm, request cold |")
        print("| --- | --- | --- |")
        for name in PROGRAMS:
            d, w = results["dot", ""][name], results["wasm", ""][name]
            print(
                f"| {name} | {ratio(d['layout alone'], w['layout alone'])} "
                f"| {ratio(d['request, cold'], w['request, cold'])} |"
            )
    if args.baseline:
        print()
        print("| program | backend | before ÷ now, request cold | before ÷ now, value-only |")
        print("| --- | --- | --- | --- |")
        for name in PROGRAMS:
            for backend in args.backends:
                now, before = results[backend, ""][name], results[backend, " (before)"][name]
                print(
                    f"| {name} | {backend} "
                    f"| {ratio(before['request, cold'], now['request, cold'])} "
                    f"| {ratio(before['request, warm'], now['request, warm'])} |"
                )
    print()
    for root in roots.values():
        for line in sizes(args.backends[-1], args.repeat, root):
            print(line)
    print()
    for backend in args.backends:
        rate, errors = throughput(backend, args.seconds)
        print(
            f"{backend}: {rate:.0f} requests/s, 32 concurrent clients, value-only changes"
            f" of the README program ({errors} errors); {ms(1 / rate)} a request"
        )


if __name__ == "__main__":
    main()
