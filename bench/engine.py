"""gradstep's engine beside micrograd 0.1.0 and PyTorch on 0-d tensors, in one run.

    python bench/engine.py [--repeat N] [--processes P] [--baseline PATH]

1. One moons epoch of micrograd's demo.ipynb: MLP(2, [16, 16, 1]) on 100 points, forward,
   hinge loss + 1e-4 L2, backward, SGD update. Each library builds the same model shape from
   its own code (micrograd: its own ``micrograd.nn.MLP``; PyTorch: scalar tensors, one per
   weight, the same ops in the same order). Each library runs in fresh processes of its own
   (P of them, taking turns): how much the cyclic garbage collector costs depends on what the
   process holds, and micrograd's graphs are cycles that only the collector frees. CPU time.
2. backward() over a chain y = x + 1 + 1 + ... of 10^4, 10^5 and 10^6 ops (building the chain
   is not timed), in a fresh process each: its CPU time and the growth of the process's peak
   resident memory during it; then, for gradstep, a second backward() under tracemalloc: the
   peak it allocates above what the graph held before (the grads it keeps included).
   micrograd sorts its graph recursively: it runs at Python's default recursion limit if it
   can, else with the limit raised above the chain's depth (said below).

``--baseline PATH``: the same gradstep measurements for another checkout too (e.g. the commit
before a change), beside this one. Times: the first call, then the median and spread of the
repeats (bench/timing.py); ratios are of medians.
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import random
import resource
import subprocess
import sys
import time
import tracemalloc
from collections.abc import Callable
from pathlib import Path

HERE = Path(__file__).resolve().parent
# The checkout to measure (GRADSTEP_ROOT: another one, for --baseline) first: this script is
# itself called engine.py, and its folder comes first on sys.path unless moved to the end.
ROOT = Path(os.environ.get("GRADSTEP_ROOT") or HERE.parent)
sys.path[:] = [str(ROOT), *(p for p in sys.path if Path(p or ".").resolve() != HERE), str(HERE)]

from timing import CPU, child_output, in_processes, measure, ms, ratio  # noqa: E402

CHAINS = (10**4, 10**5, 10**6)


# One moons epoch, each library's own code -------------------------------------------------------


def moons() -> tuple[list[list[float]], list[int]]:
    from engine import datasets

    X, y = datasets.moons(100, noise=0.1, seed=1)
    return X, datasets.signs(y)


def gradstep_epoch() -> Callable[[], object]:
    from engine import losses, nn

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

    torch.set_num_threads(1)
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


EPOCHS = {"gradstep": gradstep_epoch, "micrograd": micrograd_epoch, "torch": torch_epoch}


# Backward over a long chain, one process each ---------------------------------------------------


def chain(n: int, library: str) -> dict[str, object]:
    """Build a chain of ``n`` ops, then time one backward() and the memory it takes."""
    if library == "micrograd":
        from micrograd.engine import Value as MicroValue

        x = MicroValue(1.0)
    else:
        from engine import Value

        x = Value(1.0)
    y = x
    for _ in range(n):
        y = y + 1.0
    note = "default recursion limit"
    if library == "micrograd":
        try:
            y.backward()
        except RecursionError:
            sys.setrecursionlimit(2 * n + 1000)
            note = f"RecursionError at the default limit; limit raised to {2 * n + 1000}"
    gc.collect()
    rss_before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    start = time.process_time()
    y.backward()
    seconds = time.process_time() - start
    rss_after = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    result: dict[str, object] = {
        "seconds": seconds,
        "rss_mb": (rss_after - rss_before) / 1024,
        "note": note,
    }
    if library != "micrograd":  # its recursion under tracemalloc takes many minutes at 10^6
        tracemalloc.start()  # again, to see what the pass allocates, and its peak
        held = tracemalloc.get_traced_memory()[0]
        y.backward()
        result["peak_mb"] = (tracemalloc.get_traced_memory()[1] - held) / 1e6
        tracemalloc.stop()
    return result


def run_chain(n: int, library: str, env: dict[str, str] | None = None) -> dict[str, object]:
    command = [sys.executable, __file__, "--chain", str(n), library]
    try:
        done = subprocess.run(
            command, capture_output=True, text=True, timeout=600, env=env, check=False
        )
    except subprocess.TimeoutExpired:
        return {"seconds": None, "note": "did not finish in 10 minutes"}
    if done.returncode != 0:
        return {"seconds": None, "note": f"crashed ({done.returncode})"}
    result: dict[str, object] = json.loads(done.stdout.strip().splitlines()[-1])
    return result


# The tables -------------------------------------------------------------------------------------


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5, help="repeats in each process")
    parser.add_argument("--processes", type=int, default=3, help="fresh processes per library")
    parser.add_argument("--baseline", type=Path, help="another checkout to measure beside this")
    parser.add_argument("--child", help=argparse.SUPPRESS)
    parser.add_argument("--chain", nargs=2, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.chain:
        print(json.dumps(chain(int(args.chain[0]), args.chain[1])))
        return
    if args.child:
        library = "gradstep" if args.child == "gradstep before" else args.child
        gc.collect()
        child_output(measure(EPOCHS[library](), args.repeat, CPU))
        return

    env: dict[str, dict[str, str]] = {}
    names = ["gradstep", "micrograd", "torch"]
    if args.baseline:
        names.insert(1, "gradstep before")
        env["gradstep before"] = {"GRADSTEP_ROOT": str(args.baseline.resolve())}
    epochs = in_processes(__file__, names, args.processes, args.repeat, env=env)
    print(
        f"One moons epoch, CPU time: first call, then median (lowest–highest) of "
        f"{args.processes} fresh processes × {args.repeat} repeats; Python "
        f"{sys.version.split()[0]}, torch on 1 thread"
    )
    print()
    print("| library | epoch | ÷ gradstep (median, per-round spread) |")
    print("| --- | --- | --- |")
    ours = epochs["gradstep"]
    for name, t in epochs.items():
        print(f"| {name} | {t} | {ratio(t, ours) if name != 'gradstep' else '1'} |")
    print()
    print("backward() over a chain of n ops: CPU time and the memory it takes (fresh process each)")
    print()
    print("| n | library | backward | tracemalloc peak | peak RSS growth | note |")
    print("| --- | --- | --- | --- | --- | --- |")
    libraries: list[tuple[str, dict[str, str] | None]] = [("gradstep", None)]
    if args.baseline:
        libraries.append(("gradstep before", {**os.environ, **env["gradstep before"]}))
    libraries.append(("micrograd", None))
    for n in CHAINS:
        for name, extra in libraries:
            library = "gradstep" if name.startswith("gradstep") else name
            r = run_chain(n, library, extra)
            seconds = r.get("seconds")
            when = ms(seconds) if isinstance(seconds, float) else "—"
            peak = f"{r['peak_mb']:.0f} MB" if "peak_mb" in r else "—"
            rss = f"{r['rss_mb']:.0f} MB" if "rss_mb" in r else "—"
            note = r["note"] if library == "micrograd" or "crash" in str(r["note"]) else ""
            print(f"| 10^{len(str(n)) - 1} | {name} | {when} | {peak} | {rss} | {note} |")


if __name__ == "__main__":
    main()
