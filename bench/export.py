"""Export speed, side by side in one run: a step's PNG drawn by resvg from the laid-out SVG (what
/api/graph.png does) vs Graphviz's own PNG output (``dot -Tpng``, layout included, as the
alternative the issue names) at the same pixel density; then whole requests for the PNG, the ZIP
of every step, the backward GIF and the offline HTML file (layout cached). Times: the first
call, then the median and spread (lowest–highest) of N more (bench/timing.py).

    python bench/export.py [--repeat N]
"""

from __future__ import annotations

import argparse
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "bench")]

from fastapi.testclient import TestClient  # noqa: E402
from timing import interleaved, measure, ratio  # noqa: E402

import engine  # noqa: E402
from app.draw.dot import dot_source  # noqa: E402
from app.draw.png import PT_TO_PX, fit_scale, svg_to_png  # noqa: E402
from app.main import create_app  # noqa: E402
from app.presets import LECTURE_NEURON, MICROGRAD_README  # noqa: E402

PROGRAMS = {"micrograd README": MICROGRAD_README, "lecture neuron": LECTURE_NEURON}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    rows = []
    with TestClient(create_app()) as client:
        for name, source in PROGRAMS.items():
            svg = client.post("/api/graph", json={"source": source}).json()["svg"]
            svg = re.sub(r"<style>.*?</style>", "", svg, flags=re.S)
            scale = fit_scale(svg, 8192)
            dot = dot_source(engine.trace(engine.run(source)), "LR")
            dpi = str(72 * PT_TO_PX * scale)  # the same pixels per point as resvg's picture
            pictures = interleaved(
                {
                    "resvg": lambda s=svg, k=scale: svg_to_png(s, "light", k),
                    "dot": lambda d=dot, dpi=dpi: subprocess.run(
                        ["dot", "-Tpng", f"-Gdpi={dpi}"], input=d.encode(), capture_output=True
                    ),
                },
                args.repeat,
            )
            q = {"source": source}
            requests = {
                kind: measure(lambda k=kind, q=q: client.get(f"/api/graph.{k}", params=q), 3)
                for kind in ("png", "zip", "gif", "html")
            }
            steps = client.post("/api/graph", json=q).json()["trace"]
            count = len(steps["forward"]) + len(steps["backward"])
            rows.append((name, scale, pictures, requests, count))
    print(f"first call, then median (lowest–highest) of {args.repeat} (requests: of 3)")
    print()
    print(
        "| program | scale | resvg PNG | dot -Tpng | dot ÷ resvg | PNG request | ZIP | GIF | HTML |"
    )
    print("| --- | --- | --- | --- | --- | --- | --- | --- | --- |")
    for name, scale, pictures, req, count in rows:
        resvg, graphviz = pictures["resvg"], pictures["dot"]
        print(
            f"| {name} | {scale:.2f} | {resvg} | {graphviz} | {ratio(graphviz, resvg)} "
            f"| {req['png']} | {req['zip']} ({count} steps) | {req['gif']} | {req['html']} |"
        )


if __name__ == "__main__":
    main()
