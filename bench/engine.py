"""gradstep's engine beside micrograd 0.1.0 and PyTorch on 0-d tensors, in one run.

    python bench/engine.py [--repeat N]

1. One moons epoch of micrograd's demo.ipynb: MLP(2, [16, 16, 1]) on 100 points, forward,
   hinge loss + 1e-4 L2, backward, SGD update. Each library builds the same model shape from
   its own code (micrograd: its own ``micrograd.nn.MLP``; PyTorch: scalar tensors, one per
   weight, the same ops in the same order).
2. backward() over a chain y = x + 1 + 1 + ... of 10^4, 10^5 and 10^6 ops (building the chain
   is not timed). micrograd sorts its graph recursively: each chain is first run at Python's
   default recursion limit, then again in a fresh subprocess with the limit raised above the
   chain's depth, and the table says which happened.

Times are the best of N runs (wall clock, time.perf_counter), printed with ratios.
"""

from __future__ import annotations

import argparse
import gc
import random
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

# The repository first: this script is itself called engine.py, and its folder is on sys.path.
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine import datasets, losses, nn

CHAINS = (10**4, 10**5, 10**6)


def best_of(repeat: int, run: Callable[[], object]) -> float:
    times = []
    for _ in range(repeat):
        gc.collect()
        start = time.perf_counter()
        run()
        times.append(time.perf_counter() - start)
    return min(times)


# One moons epoch ------------------------------------------------------------------------------


def moons() -> tuple[list[list[float]], list[int]]:
    X, y = datasets.moons(100, noise=0.1, seed=1)
    return X, datasets.signs(y)


def gradstep_epoch() -> Callable[[], object]:
    X, ys = moons()
    model = nn.MLP(2, [16, 16, 1], seed=0)
    params = model.parameters()

    def epoch() -> None:
        scores = [model(x) for x in X]
        loss = losses.hinge(scores, ys) + losses.l2(params, 1e-4)
        model.zero_grad()
        loss.backward()
        for p in params:
            p.data -= 0.01 * p.grad

    return epoch


def micrograd_epoch() -> Callable[[], object]:
    from micrograd.engine import Value
    from micrograd.nn import MLP

    X, ys = moons()
    random.seed(1337)
    model = MLP(2, [16, 16, 1])
    params = model.parameters()

    def epoch() -> None:  # demo.ipynb's loss(), then its update
        inputs = [list(map(Value, x)) for x in X]
        scores = list(map(model, inputs))
        margins = [(1 + -yi * si).relu() for yi, si in zip(ys, scores, strict=True)]
        data_loss = sum(margins) * (1.0 / len(margins))
        reg_loss = 1e-4 * sum(p * p for p in params)
        loss = data_loss + reg_loss
        model.zero_grad()
        loss.backward()
        for p in params:
            p.data -= 0.01 * p.grad

    return epoch


def torch_epoch() -> Callable[[], object]:
    import torch

    X, ys = moons()
    rng = random.Random(0)
    sizes = [2, 16, 16, 1]
    layers = []
    for i in range(3):
        neurons = []
        for _ in range(sizes[i + 1]):
            w = [
                torch.tensor(rng.uniform(-1, 1), dtype=torch.float64, requires_grad=True)
                for _ in range(sizes[i])
            ]
            b = torch.tensor(0.0, dtype=torch.float64, requires_grad=True)
            neurons.append((w, b))
        layers.append(neurons)
    params = [p for layer in layers for w, b in layer for p in (*w, b)]

    def model(x: list[torch.Tensor]) -> torch.Tensor:
        out = x
        for i, layer in enumerate(layers):
            acts = [sum((wi * xi for wi, xi in zip(w, out, strict=True)), b) for w, b in layer]
            out = acts if i == len(layers) - 1 else [torch.relu(a) for a in acts]
        return out[0]

    inputs = [[torch.tensor(v, dtype=torch.float64) for v in x] for x in X]

    def epoch() -> None:
        scores = [model(x) for x in inputs]
        margins = [torch.relu(1 - yi * si) for yi, si in zip(ys, scores, strict=True)]
        loss = sum(margins) * (1.0 / len(margins)) + 1e-4 * sum(p * p for p in params)
        for p in params:
            p.grad = None
        loss.backward()
        with torch.no_grad():
            for p in params:
                p -= 0.01 * p.grad

    return epoch


# Backward over a long chain -------------------------------------------------------------------


def gradstep_chain(n: int, repeat: int) -> float:
    from engine import Value

    x = Value(1.0)
    y = x
    for _ in range(n):
        y = y + 1.0
    return best_of(repeat, y.backward)


def torch_chain(n: int, repeat: int) -> float:
    import torch

    x = torch.tensor(1.0, dtype=torch.float64, requires_grad=True)
    y = x
    for _ in range(n):
        y = y + 1.0
    return best_of(repeat, lambda: y.backward(retain_graph=True))


MICROGRAD_CHAIN = """
import sys, time
from micrograd.engine import Value
n, limit, repeat = int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3])
if limit:
    sys.setrecursionlimit(limit)
x = Value(1.0)
y = x
for _ in range(n):
    y = y + 1.0
best = float("inf")
for _ in range(repeat):
    t = time.perf_counter()
    try:
        y.backward()
    except RecursionError:
        print("RecursionError")
        sys.exit(0)
    best = min(best, time.perf_counter() - t)
print(best)
"""


def micrograd_chain(n: int, repeat: int) -> tuple[float | None, str]:
    """(best time or None, what happened), each attempt in its own interpreter."""
    default = _run_micrograd_chain(n, 0, 1)
    if default != "RecursionError":
        return _as_time(default), "default recursion limit"
    raised = _run_micrograd_chain(n, 2 * n + 1000, repeat)
    note = f"RecursionError at the default limit; limit raised to {2 * n + 1000}"
    if raised in ("RecursionError", "crashed", "timeout"):
        return None, f"{note}: {raised}"
    return _as_time(raised), note


def _run_micrograd_chain(n: int, limit: int, repeat: int) -> str:
    try:
        done = subprocess.run(
            [sys.executable, "-c", MICROGRAD_CHAIN, str(n), str(limit), str(repeat)],
            capture_output=True,
            text=True,
            timeout=600,
        )
    except subprocess.TimeoutExpired:
        return "timeout"
    if done.returncode != 0:
        return "crashed"
    return done.stdout.strip()


def _as_time(text: str) -> float | None:
    try:
        return float(text)
    except ValueError:
        return None


# The table ------------------------------------------------------------------------------------


def _ms(t: float | None) -> str:
    return "—" if t is None else f"{t * 1000:10.1f} ms"


def _ratio(other: float | None, ours: float) -> str:
    return "—" if other is None else f"{other / ours:6.2f}×"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5, help="best of N runs (default 5)")
    args = parser.parse_args()
    try:
        import torch

        torch.set_num_threads(1)
        has_torch = True
    except ImportError:
        has_torch = False

    rows = []
    ours = best_of(args.repeat, gradstep_epoch())
    mg = best_of(args.repeat, micrograd_epoch())
    th = best_of(args.repeat, torch_epoch()) if has_torch else None
    rows.append(("moons epoch (fwd+bwd+update)", ours, mg, th, ""))

    notes = []
    for n in CHAINS:
        repeat = args.repeat if n < 10**6 else max(1, args.repeat // 2)
        ours = gradstep_chain(n, repeat)
        gc.collect()
        th = torch_chain(n, repeat) if has_torch else None
        gc.collect()
        mg, note = micrograd_chain(n, repeat)
        rows.append((f"backward, chain of 10^{len(str(n)) - 1} ops", ours, mg, th, note))

    print(f"best of {args.repeat}; Python {sys.version.split()[0]}; torch on 1 thread")
    print()
    header = ("", "gradstep", "micrograd", "torch 0-d", "micrograd/ours", "torch/ours")
    print(
        f"{header[0]:34} {header[1]:>13} {header[2]:>13} {header[3]:>13} {header[4]:>15} "
        f"{header[5]:>11}"
    )
    for name, ours, mg, th, note in rows:
        print(
            f"{name:34} {_ms(ours):>13} {_ms(mg):>13} {_ms(th):>13} {_ratio(mg, ours):>15} "
            f"{_ratio(th, ours):>11}"
        )
        if note:
            notes.append(f"{name}: micrograd {note}")
    print()
    print("ratios above 1: gradstep is that many times faster")
    for note in notes:
        print(note)


if __name__ == "__main__":
    main()
