"""The training lab's speed: micrograd's demo preset (moons, MLP(2, [16, 16, 1]), hinge + L2),
measured side by side in one run.

- engine loop: ``engine.lab.train`` with the preset's boundary (a 40×40 grid every 4 epochs)
- no boundary: the same loop with one grid at the end, to price the boundary
- micrograd: the micrograd package's own demo loop (same data, same sizes)
- worker: the same run through ``POST /api/train`` (spawned process, SSE), epochs/s by the
  stream's own elapsed field, plus the time from request to first epoch (process start)

    python bench/train.py [--epochs 10] [--repeat 3]
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from dataclasses import replace
from pathlib import Path

sys.path[:0] = [str(Path(__file__).resolve().parent.parent)]  # the package, not bench/engine.py

from engine import datasets  # noqa: E402
from engine.lab.train import PRESETS, EpochReport, prepare, train  # noqa: E402


def engine_loop(epochs: int, boundary: bool) -> float:
    config = replace(PRESETS["micrograd-moons"][1], epochs=epochs)
    if not boundary:
        config = replace(config, boundary_every=epochs)
    setup = prepare(config)
    start = time.perf_counter()
    n = sum(isinstance(e, EpochReport) for e in train(setup))
    return n / (time.perf_counter() - start)


def micrograd_loop(epochs: int) -> float:
    from micrograd.engine import Value
    from micrograd.nn import MLP

    X, y = datasets.moons(100, noise=0.1, seed=1)
    ys = datasets.signs(y)
    random.seed(0)
    model = MLP(2, [16, 16, 1])
    start = time.perf_counter()
    for k in range(epochs):
        inputs = [list(map(Value, x)) for x in X]
        scores = list(map(model, inputs))
        losses = [(1 + -yi * s).relu() for yi, s in zip(ys, scores, strict=True)]
        data_loss = sum(losses) * (1.0 / len(losses))
        loss = data_loss + 1e-4 * sum(p * p for p in model.parameters())
        model.zero_grad()
        loss.backward()
        for p in model.parameters():
            p.data -= (1.0 - 0.9 * k / 100) * p.grad
    return epochs / (time.perf_counter() - start)


def worker(epochs: int) -> tuple[float, float]:
    from fastapi.testclient import TestClient

    from app.main import create_app

    with TestClient(create_app()) as client:
        start = time.perf_counter()
        first = None
        last = None
        body = {"preset": "micrograd-moons", "epochs": epochs}
        with client.stream("POST", "/api/train", json=body) as response:
            for line in response.iter_lines():
                if line.startswith("data: ") and '"eta"' in line:
                    last = json.loads(line[6:])
                    first = first or time.perf_counter() - start - last["elapsed"]
    assert last is not None and first is not None
    return last["epoch"] / last["elapsed"], first


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--epochs", type=int, default=10)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    rows: dict[str, list[float]] = {"engine loop": [], "no boundary": [], "micrograd": []}
    rows["worker (SSE)"] = []
    startup = []
    for _ in range(args.repeat):
        rows["engine loop"].append(engine_loop(args.epochs, boundary=True))
        rows["no boundary"].append(engine_loop(args.epochs, boundary=False))
        rows["micrograd"].append(micrograd_loop(args.epochs))
        rate, first = worker(args.epochs)
        rows["worker (SSE)"].append(rate)
        startup.append(first)
    base = max(rows["engine loop"])
    print(f"micrograd's demo preset, {args.epochs} epochs, best of {args.repeat}")
    print(f"{'':16} {'epochs/s':>9} {'vs engine loop':>15}")
    for name, rates in rows.items():
        best = max(rates)
        print(f"{name:16} {best:9.2f} {best / base:14.2f}x")
    print(f"request to first epoch through the worker: {min(startup):.2f} s (process start)")


if __name__ == "__main__":
    main()
