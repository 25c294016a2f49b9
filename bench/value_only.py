"""Where a value-only change (a slider) on the 979-value MLP spends its round trip, and what
is left of it when the server does no work at all. Side by side in one run, taking turns:

1. the request: a gradstep server asked for a new value of one input, naming the layout it
   shows, as the page asks (bench/api.py's "value-only" column);
2. the same answer from memory: gradstep's own app (its middleware: gzip level 1 and the
   rest) with one route added that reads the same request and answers the bytes the server
   gave, made before the run: HTTP, the request's validation, gzip, and the client's gunzip
   and ``json.loads``. No server that sends the whole trace, as docs/graph-contract.md asks,
   can answer faster than this, however fast it makes the trace;
3. numbers only, from memory: an answer carrying only what a new value changes (every float
   of that trace, and its colour buckets, as one flat list), as a client that kept the last
   answer's names and texts could be sent.

Then, in this process, the server's work piece by piece (``app.pipeline.draw`` and
``graph_json``), with beside it the trace written with every text left out (engine.notation's
and engine.trace.titles' writers replaced by ones that write nothing): what no cache of texts
could make the trace faster than. The sum of the least each piece could take tells whether
a target is reachable while every answer carries the whole trace.

    python bench/value_only.py [--repeat N]

Times: the first call, then the median and spread of N more (bench/timing.py); wall clock.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import httpx

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "tests" / "api"), str(ROOT / "bench")]

from api import ServerProcess, wait_until_up  # noqa: E402
from programs import mlp_source  # noqa: E402
from served import free_port  # noqa: E402
from timing import Timing, interleaved, ms, ratio  # noqa: E402
from variants import first_input  # noqa: E402

import engine  # noqa: E402
from app.draw.layout import Layout, LayoutSettings  # noqa: E402
from app.pipeline import draw, graph_json  # noqa: E402
from app.schemas import GraphRequest  # noqa: E402
from engine import notation  # noqa: E402

ANSWERS = ("whole", "numbers")


def serve(port: int, folder: Path) -> None:
    """gradstep's app, plus ``POST /bench/{answer}``: the request read as ``/api/graph``
    reads it, then a stored answer."""
    import uvicorn
    from fastapi import Response

    from app.main import create_app

    stored = {name: (folder / f"{name}.json").read_bytes() for name in ANSWERS}
    app = create_app()

    @app.post("/bench/{answer}")
    def answer(answer: str, body: GraphRequest) -> Response:
        return Response(stored[answer], media_type="application/json")

    uvicorn.run(app, host="127.0.0.1", port=port, log_level="warning")


def numbers_only(answer: bytes) -> bytes:
    """Every float of ``answer``'s trace, and every colour bucket, in order: what a value
    changes (names, texts and ids stay as the kept answer has them)."""
    found: list[float | int] = []

    def walk(x: object, key: str = "") -> None:
        if isinstance(x, dict):
            for k, v in x.items():
                walk(v, k)
        elif isinstance(x, list):
            for v in x:
                walk(v, key)
        elif isinstance(x, float) or (key == "bin" and isinstance(x, int)):
            found.append(x)

    whole = json.loads(answer)
    walk(whole["trace"])
    return json.dumps({"layout": whole["layout"], "numbers": found}).encode()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=15)
    parser.add_argument("--serve", nargs=2, metavar=("PORT", "FOLDER"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.serve:
        serve(int(args.serve[0]), Path(args.serve[1]))
        return
    source = mlp_source()
    knob = first_input(source)
    gradstep = ServerProcess()
    memory: subprocess.Popen[bytes] | None = None
    try:
        with httpx.Client(timeout=120) as client, tempfile.TemporaryDirectory() as folder:
            url = f"{gradstep.url}/api/graph"
            shown = client.post(url, json={"source": source}).json()["layout"]

            def body(i: int) -> dict[str, object]:
                return {"source": source, "values": {knob: 0.25 + i / 100}, "layout": shown}

            whole = client.post(url, json=body(0)).content
            (Path(folder) / "whole.json").write_bytes(whole)
            (Path(folder) / "numbers.json").write_bytes(numbers_only(whole))
            port = free_port()
            command = [sys.executable, __file__, "--serve", str(port), folder]
            memory = subprocess.Popen(command, env={**os.environ, "PYTHONPATH": str(ROOT)})
            wait_until_up(f"http://127.0.0.1:{port}", memory)
            stored = f"http://127.0.0.1:{port}/bench"
            time.sleep(1.0)  # both servers' helpers have started
            counter = iter(range(1, 10**6))
            server_ms: list[float] = []
            sizes: dict[str, tuple[int, int]] = {}

            def request() -> None:
                answer = client.post(url, json=body(next(counter)))
                parsed = answer.json()
                assert parsed["svg"] is None and parsed["timings"]["layout_cached"] is True
                server_ms.append(parsed["timings"]["total_ms"])
                sizes["request"] = (len(answer.content), int(answer.headers["content-length"]))

            def from_memory(name: str) -> None:
                answer = client.post(f"{stored}/{name}", json=body(0))
                answer.raise_for_status()
                answer.json()
                sizes[name] = (len(answer.content), int(answer.headers["content-length"]))

            runs = {
                "the request": request,
                "the same answer from memory": lambda: from_memory("whole"),
                "numbers only, from memory": lambda: from_memory("numbers"),
            }
            timings = interleaved(runs, args.repeat)
    finally:
        gradstep.stop()
        if memory is not None:
            memory.terminate()
            memory.wait()
    report(timings, server_ms, sizes, args.repeat)
    print()
    pieces(source, knob, args.repeat, timings["the same answer from memory"])


def report(
    timings: dict[str, Timing],
    server_ms: list[float],
    sizes: dict[str, tuple[int, int]],
    repeat: int,
) -> None:
    request = timings["the request"]
    print(
        f"MLP(2, [16, 16, 1]), 979 values: a value-only change, first call then median of {repeat}"
    )
    print()
    print("| answer | round trip | ÷ the request | JSON | sent (gzip) |")
    print("| --- | --- | --- | --- | --- |")
    for (label, t), size in zip(timings.items(), ("request", *ANSWERS), strict=True):
        plain, sent = sizes[size]
        share = ratio(t, request) if t is not request else "1"
        print(f"| {label} | {t} | {share} | {plain / 1e6:.2f} MB | {sent / 1e3:.0f} KB |")
    server = sorted(server_ms)[len(server_ms) // 2]
    print()
    print(
        f"the server's own work (parse, trace, drawing's digest; timings.total_ms): {server:.1f}"
        f" ms at the median (first {server_ms[0]:.1f}, {min(server_ms):.1f}–{max(server_ms):.1f})"
    )
    print(
        "the request − the same answer from memory:"
        f" {ms(request.median - timings['the same answer from memory'].median)}"
        " (the server's work and the JSON it writes)"
    )


@contextlib.contextmanager
def texts_left_out() -> Iterator[None]:
    """The trace's writers of texts and titles write nothing while inside."""
    titles = sys.modules["engine.trace.titles"]

    class Empty:
        sum = rule = value = product = change = ()

    def parts(*_: object) -> tuple[()]:
        return ()

    def text(*_: object) -> str:
        return ""

    writers: list[tuple[object, str, Callable[..., object]]] = [
        *((notation, name, parts) for name in ("forward_text", "grad_sum", "constant_note")),
        *((notation, name, parts) for name in ("seed_text", "output_sum")),
        *((notation, name, text) for name in ("formula", "uses_text", "accumulates_note")),
        (notation, "grad_of", text),
        (notation, "contribution_text", lambda *_: Empty),
        (titles, "step_title", text),
        (titles, "update_text", lambda *_: ("", ())),
    ]
    kept = [(module, name, getattr(module, name)) for module, name, _ in writers]
    for module, name, writer in writers:
        setattr(module, name, writer)
    try:
        yield
    finally:
        for module, name, writer in kept:
            setattr(module, name, writer)


def pieces(source: str, knob: str, repeat: int, from_memory: Timing) -> None:
    """The server's work on a value-only change, piece by piece, in this process."""
    layout = Layout(LayoutSettings(timeout=60))
    try:
        drawn = draw(layout, source, {knob: 0.25})
        program = engine.parse(source, {knob: 0.5})
        outline = engine.outline(program)
        drawing: list[float] = []  # fold, DOT, digest: what draw() spends besides parse and trace

        def redraw() -> None:
            t = draw(layout, source, {knob: 0.75}).timings
            drawing.append((t["total_ms"] - t["parse_ms"] - t["trace_ms"]) / 1000)

        def without_texts() -> None:
            with texts_left_out():
                engine.trace(program, outline)

        runs: dict[str, Callable[[], object]] = {
            "parse (the program run again)": lambda: engine.parse(source, {knob: 0.5}),
            "outline (ids, names)": lambda: engine.outline(program),
            "trace": lambda: engine.trace(program, outline),
            "trace, texts left out": without_texts,
            "fold, DOT, its digest": redraw,
            "JSON": lambda: graph_json(drawn, layout.backend, drawn.layout),
        }
        timings = interleaved(runs, repeat)
    finally:
        layout.close()
    timings["fold, DOT, its digest"] = Timing(drawing[0], drawing[1:])
    print("the server's work on a value-only change, in this process:")
    print()
    print("| piece | time |")
    print("| --- | --- |")
    for name, t in timings.items():
        print(f"| {name} | {t} |")
    least = from_memory.median + sum(t.median for name, t in timings.items() if name != "trace")
    print()
    print(
        f"the least an answer carrying the whole trace can take: the same answer from memory"
        f" ({ms(from_memory.median)}) + parse + outline + the trace with no text at all +"
        f" fold, DOT, digest + JSON = {ms(least)}"
    )


if __name__ == "__main__":
    main()
