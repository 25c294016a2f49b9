"""Export speed, side by side in one run: a step's PNG drawn by resvg from the laid-out SVG (what
/api/graph.png does) vs Graphviz's own PNG output (``dot -Tpng``, layout included, as the
alternative the issue names) at the same pixel density; then whole requests for the PNG, the ZIP
of every step, the backward GIF and the offline HTML file (layout cached), medians.

    python bench/export.py [--repeat N]
"""

from __future__ import annotations

import argparse
import re
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from app.raster import PT_TO_PX, fit_scale, svg_to_png  # noqa: E402
from app.render import structure_digraph  # noqa: E402
from fastapi.testclient import TestClient  # noqa: E402

import engine  # noqa: E402
from app.main import create_app  # noqa: E402
from app.presets import LECTURE_NEURON, MICROGRAD_README  # noqa: E402

PROGRAMS = {"micrograd README": MICROGRAD_README, "lecture neuron": LECTURE_NEURON}


def median_ms(run: Callable[[], object], repeat: int) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        run()
        times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times)


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
            dot = structure_digraph(engine.parse(source).output, "LR").source
            dpi = str(72 * PT_TO_PX * scale)  # the same pixels per point as resvg's picture
            resvg = median_ms(lambda s=svg, k=scale: svg_to_png(s, "light", k), args.repeat)
            graphviz = median_ms(
                lambda d=dot, dpi=dpi: subprocess.run(
                    ["dot", "-Tpng", f"-Gdpi={dpi}"], input=d.encode(), capture_output=True
                ),
                args.repeat,
            )
            q = {"source": source}
            requests = {
                kind: median_ms(lambda k=kind, q=q: client.get(f"/api/graph.{k}", params=q), 3)
                for kind in ("png", "zip", "gif", "html")
            }
            steps = client.post("/api/graph", json=q).json()["trace"]
            count = len(steps["forward"]) + len(steps["backward"])
            rows.append((name, scale, resvg, graphviz, requests, count))
    print(
        "| program | scale | resvg PNG | dot -Tpng | dot ÷ resvg | PNG request | ZIP | GIF | HTML |"
    )
    print("| --- | --- | --- | --- | --- | --- | --- | --- | --- |")
    for name, scale, resvg, graphviz, req, count in rows:
        print(
            f"| {name} | {scale:.2f} | {resvg:.0f} ms | {graphviz:.0f} ms "
            f"| {graphviz / resvg:.2f}× "
            f"| {req['png']:.0f} ms | {req['zip']:.0f} ms ({count} steps) | {req['gif']:.0f} ms "
            f"| {req['html']:.0f} ms |"
        )


if __name__ == "__main__":
    main()
