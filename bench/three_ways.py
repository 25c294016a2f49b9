"""What the three ways cost (POST /api/three-ways, engine.ways): for the seed's two presets, the
lecture's neuron and MLP (41 parameters) and a 200-layer tanh chain, the time of each part of
the answer (the program's run and outline, the graph rebuilt, the symbolic derivatives, the
central differences and their sweeps, the tangent passes and their steps, the counts), the
answer's bytes, and the counts themselves: the elementary operations of each way, the cheap
gradient ratio, and the symbolic derivatives' size written out against the graph's.

    python bench/three_ways.py [--repeat N]

Times on this machine, the median of N with the first call apart (bench/timing.py).
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "bench")]

from timing import measure  # noqa: E402

import engine  # noqa: E402
from app.presets import preset_source  # noqa: E402
from app.routes.three_ways import response  # noqa: E402
from engine.ways import Ways, of_replayed  # noqa: E402
from engine.ways.costs import counted  # noqa: E402
from engine.ways.numerical import differences  # noqa: E402
from engine.ways.replay import Replayed, rebuild  # noqa: E402
from engine.ways.symbolic import differentiate  # noqa: E402
from engine.ways.tangents import forward_mode  # noqa: E402

PROGRAMS = {
    "x²·sin(x) (preset three-ways)": preset_source(None, "three-ways"),
    "(x + y)·sin(x) (preset tangent-passes)": preset_source(None, "tangent-passes"),
    "the lecture's neuron (preset lecture-neuron)": preset_source(None, "lecture-neuron"),
    "the lecture's MLP (preset lecture-mlp)": preset_source(None, "lecture-mlp"),
    "a chain of 200 tanh": "x = 0.5\nfor i in range(200):\n    x = tanh(x)",
}


def parts(source: str) -> dict[str, Callable[[], object]]:
    """Each part of the answer, on a graph rebuilt once (each part rebuilds nothing)."""
    program = engine.run(source)
    shape = engine.outline(program)
    r = rebuild(program, shape)
    assert isinstance(r, Replayed)
    r.root.backward()
    exact = tuple(float(r.values[k].grad) for k in r.inputs)
    return {
        "run and outline": lambda: engine.outline(engine.run(source)),
        "rebuild": lambda: rebuild(program, shape),
        "symbolic": lambda: differentiate(r),
        "numerical": lambda: differences(r, exact),
        "forward mode": lambda: forward_mode(r),
        "costs": lambda: counted(r, None),
        "the answer's JSON": lambda: response(of_replayed(r)).model_dump_json(),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    print("| program | " + " | ".join(parts(PROGRAMS["a chain of 200 tanh"])) + " |")
    print("| --- |" + " ---: |" * 7)
    answers: dict[str, tuple[Ways, int]] = {}
    for title, source in PROGRAMS.items():
        timed = {name: measure(part, args.repeat) for name, part in parts(source).items()}
        print(
            f"| {title} | " + " | ".join(f"{t.median * 1e3:,.1f} ms" for t in timed.values()) + " |"
        )
        program = engine.run(source)
        r = rebuild(program, engine.outline(program))
        assert isinstance(r, Replayed)
        w = of_replayed(r)
        answers[title] = (w, len(response(w).model_dump_json().encode()))
    print("\n| program | values | inputs | F | B | B/F | forward mode | reverse mode | numerical "
          "(2n·F) | symbolic written | shared | answer |")  # fmt: skip
    print("| --- |" + " ---: |" * 11)
    for title, (w, size) in answers.items():
        c, s = w.costs, w.symbolic
        shared = sum(d.shared for d in s.derivatives)
        print(f"| {title} | {len(w.nodes)} | {c.inputs} | {c.forward} | {c.backward} | "
              f"{c.ratio:.2f} | {c.forward_mode:,} | {c.reverse_mode:,} | {c.numerical:,} | "
              f"{s.written:,} | {shared:,} | {size / 1e3:,.1f} KB |")  # fmt: skip


if __name__ == "__main__":
    main()
