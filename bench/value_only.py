"""A value-only change (a slider) on the 979-value MLP: the round trip as the page makes it, side
by side with another checkout's server in one run, and where this server's time goes.

1. the request: a server asked for a new value of one input, naming the layout it shows and
   the structure it holds (docs/api.md): this server answers the numbers alone; a server of
   an older checkout (``--baseline``) answers what it answers, asked the way it was asked;
2. the server's work piece by piece, in this process: the program run again (in the sandbox), its
   outline, the structure's key (the structure itself is kept), the drawing's fold, DOT and
   digest (the layout is cached), the numbers, and the answer's JSON.

    python bench/value_only.py [--repeat N] [--baseline PATH]

Times: the first call, then the median and spread of N more, taking turns round by round
(bench/timing.py); wall clock on this machine.
"""

from __future__ import annotations

import argparse
import gzip
import sys
from collections.abc import Callable
from pathlib import Path

import httpx

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "tests" / "api"), str(ROOT / "bench")]

from programs import mlp_source  # noqa: E402
from server_process import ServerProcess  # noqa: E402
from timing import interleaved, ms, ratio  # noqa: E402
from variants import first_input  # noqa: E402

import engine  # noqa: E402
from app.draw.fold import parse_fold  # noqa: E402
from app.draw.layout import Layout, LayoutSettings  # noqa: E402
from app.pipeline import Pipeline, _drawing, draw, graph_json  # noqa: E402
from engine.trace import build, key, numbers  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=15)
    parser.add_argument("--baseline", type=Path, help="another checkout's server beside this one")
    args = parser.parse_args()
    source = mlp_source()
    knob = first_input(source)
    roots = {"this checkout": ROOT} | ({"before": args.baseline.resolve()} if args.baseline else {})
    servers = {label: ServerProcess("dot", root) for label, root in roots.items()}
    try:
        with httpx.Client(timeout=120) as client:
            runs = {label: slider(client, s.url, source, knob) for label, s in servers.items()}
            timings = interleaved(runs, args.repeat)
            sizes = {label: size(client, s.url, source, knob) for label, s in servers.items()}
    finally:
        for server in servers.values():
            server.stop()
    print(f"MLP(2, [16, 16, 1]), 979 values: a value-only change, first call then median of"
          f" {args.repeat} (spread)")  # fmt: skip
    print()
    print("| server | round trip | answer (gzipped / raw) |")
    print("| --- | --- | --- |")
    for label, t in timings.items():
        gz, raw = sizes[label]
        print(f"| {label} | {t} | {gz / 1e3:,.0f} KB / {raw / 1e3:,.0f} KB |")
    if args.baseline:
        faster = ratio(timings["before"], timings["this checkout"])
        print(f"\nthis checkout is {faster} faster than before at the median")
    print()
    pieces(source, knob, args.repeat)


def slider(client: httpx.Client, url: str, source: str, knob: str) -> Callable[[], None]:
    """A request per call, as the page sends one when a slider moves."""
    first = client.post(f"{url}/api/graph", json={"source": source}).json()
    held = names_held(first)
    moves = iter(range(10**6))

    def run() -> None:
        body = {"source": source, "values": {knob: 0.25 + next(moves) / 1000}, **held}
        answer = client.post(f"{url}/api/graph", json=body).json()
        assert answer["timings"]["layout_cached"] is True and answer["svg"] is None

    return run


def names_held(answer: dict[str, object]) -> dict[str, object]:
    """What the page sends back when a slider moves: the layout it shows and, when the server
    answers with one, the structure it holds."""
    held = {"layout": answer["layout"]}
    return held | ({"structure": answer["digest"]} if "digest" in answer else {})


def size(client: httpx.Client, url: str, source: str, knob: str) -> tuple[int, int]:
    """The value-only answer's bytes, gzipped (as the server sends it) and not."""
    first = client.post(f"{url}/api/graph", json={"source": source}).json()
    held = names_held(first)
    body = {"source": source, "values": {knob: 0.5}, **held}
    raw = client.post(f"{url}/api/graph", json=body, headers={"accept-encoding": "identity"})
    return len(gzip.compress(raw.content, 1)), len(raw.content)


def pieces(source: str, knob: str, repeat: int) -> None:
    """This server's work on a value-only change, piece by piece, in this process."""
    layout = Layout(LayoutSettings(timeout=60))
    pipeline = Pipeline()
    try:
        drawn = draw(pipeline, layout, source, {knob: 0.25})
        program = engine.run(source, {knob: 0.5})
        outline = engine.outline(program)
        built = build(program, outline)
        clock = iter(range(10**6))

        def new_value() -> dict[str, float]:
            return {knob: next(clock) / 1e4}

        runs: dict[str, Callable[[], object]] = {
            "run (the program run again, in the sandbox)": lambda: engine.run(source, new_value()),
            "outline (ids, names)": lambda: engine.outline(program),
            "the structure's key": lambda: key(program, outline),
            "fold, DOT": lambda: _drawing(outline, "auto", None, parse_fold(None)),
            "numbers": lambda: numbers(program, outline, built),
            "JSON (numbers only)": lambda: graph_json(
                drawn, layout.backend, drawn.layout, drawn.described.digest
            ),
            "the whole draw(), in process": lambda: draw(pipeline, layout, source, new_value()),
        }
        timings = interleaved(runs, repeat)
    finally:
        layout.close()
    print("this server's work on a value-only change, in this process:")
    print()
    print("| piece | time |")
    print("| --- | --- |")
    for name, t in timings.items():
        print(f"| {name} | {t} |")
    whole = timings.pop("the whole draw(), in process")
    print(f"\nthe pieces add up to {ms(sum(t.median for t in timings.values()))}"
          f" of draw()'s {ms(whole.median)} at the median")  # fmt: skip


if __name__ == "__main__":
    main()
