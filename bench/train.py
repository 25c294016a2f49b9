"""The training lab's speed on micrograd's demo preset (moons, 100 points, MLP(2, [16, 16, 1]),
hinge + L2, 100 epochs), side by side in one run.

1. One epoch (forward, loss, backward, update; no decision boundary), CPU time, each way in
   fresh processes of its own (taking turns): the lab's replay (engine.lab.replay: the model's
   graph recorded once and replayed with numpy, the loss's on floats); a pure-Python replay of
   the whole batch's graph recorded once (engine.lab.tape.FloatTape: the alternative to numpy);
   the scalar engine building every step's graph (train(replay=False)); the micrograd
   package's own demo loop. Numbers are checked equal to the scalar engine's as they run.
2. The whole run of 100 epochs with its 26 decision boundaries: in this process (first run,
   then repeats), and through the lab as a user waits for it: POST /api/train to a uvicorn
   process, from the request to the ``done`` event (first epoch's arrival too).

    python bench/train.py [--repeat N] [--processes P] [--epochs E]

Times: the first call, then the median and spread (lowest–highest) of the repeats
(bench/timing.py); ratios are of medians.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

import httpx

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "bench")]

from server_process import ServerProcess  # noqa: E402
from timing import CPU, Timing, child_output, in_processes, interleaved, ratio  # noqa: E402

from engine import datasets  # noqa: E402
from engine.lab.config import PRESETS  # noqa: E402
from engine.lab.tape import FloatTape  # noqa: E402
from engine.lab.train import EpochReport, batch_loss, prepare, train  # noqa: E402

DEMO = PRESETS["micrograd-moons"][1]
WAYS = ("lab replay (numpy)", "pure-Python tape", "scalar engine", "micrograd")


def epochs_of(way: str) -> Callable[[], object]:
    """A function that runs one more epoch of the demo, ``way``'s way."""
    if way == "micrograd":
        return micrograd_epochs()
    if way == "pure-Python tape":
        return float_tape_epochs()
    steps = train(prepare(replace(DEMO, boundary_every=10**6)), replay=way != "scalar engine")
    next(steps)  # the untrained model's boundary

    def epoch() -> None:
        while not isinstance(next(steps), EpochReport):
            pass

    return epoch


def float_tape_epochs() -> Callable[[], object]:
    """The whole batch's graph (model and loss) recorded once with the engine, then replayed
    on floats through the op table: the flat tape, op by op, with no numpy."""
    setup = prepare(DEMO)
    params = setup.model.parameters()
    outputs = [setup.model(x) for x in setup.points]
    tape = FloatTape(batch_loss(DEMO, outputs, setup.labels, params), params)
    k = 0

    def epoch() -> None:
        nonlocal k
        _, grads = tape.run([p.data for p in params])
        lr = DEMO.lr * (1.0 - 0.9 * k / DEMO.epochs)
        for p, g in zip(params, grads, strict=True):
            p.data -= lr * g
        k += 1

    return epoch


def micrograd_epochs() -> Callable[[], object]:
    from micrograd.engine import Value
    from micrograd.nn import MLP

    X, y = datasets.moons(100, noise=0.1, seed=1)
    ys = datasets.signs(y)
    random.seed(0)
    model = MLP(2, [16, 16, 1])
    k = 0

    def epoch() -> None:  # demo.ipynb's loop
        nonlocal k
        inputs = [list(map(Value, x)) for x in X]
        scores = list(map(model, inputs))
        margins = [(1 + -yi * s).relu() for yi, s in zip(ys, scores, strict=True)]
        data_loss = sum(margins) * (1.0 / len(margins))
        loss = data_loss + 1e-4 * sum(p * p for p in model.parameters())
        model.zero_grad()
        loss.backward()
        for p in model.parameters():
            p.data -= (1.0 - 0.9 * k / 100) * p.grad
        k += 1

    return epoch


def same_numbers(epochs: int) -> bool:
    """The lab's replay and the pure-Python tape give the scalar engine's losses, every epoch."""
    config = replace(DEMO, epochs=epochs, grid=4)
    engine = [e.loss for e in train(prepare(config), replay=False) if isinstance(e, EpochReport)]
    replayed = [e.loss for e in train(prepare(config)) if isinstance(e, EpochReport)]
    setup = prepare(config)
    params = setup.model.parameters()
    outputs = [setup.model(x) for x in setup.points]
    tape = FloatTape(batch_loss(config, outputs, setup.labels, params), params)
    taped = []
    for k in range(epochs):
        loss, grads = tape.run([p.data for p in params])
        taped.append(loss * len(setup.points) / len(setup.points))  # as an EpochReport says it
        lr = config.lr * (1.0 - 0.9 * k / epochs)
        for p, g in zip(params, grads, strict=True):
            p.data -= lr * g
    return engine == replayed == taped


def whole_run() -> None:
    list(train(prepare(DEMO)))


def through_the_lab(repeat: int) -> tuple[Timing, Timing, Timing]:
    """POST /api/train to a uvicorn process: request to done, request to the first epoch, and
    the worker's own elapsed time (the stream's ``elapsed``)."""
    server = ServerProcess()
    done, first, worker = Timing(0.0), Timing(0.0), Timing(0.0)
    try:
        time.sleep(2.0)  # the fork server the app starts at launch is ready
        for r in range(repeat + 1):
            start = time.perf_counter()
            first_epoch = None
            last: dict[str, float] = {}
            with httpx.stream(
                "POST", f"{server.url}/api/train", json={"preset": "micrograd-moons"}, timeout=600
            ) as response:
                for line in response.iter_lines():
                    if line.startswith("event: epoch") and first_epoch is None:
                        first_epoch = time.perf_counter() - start
                    if line.startswith("data: ") and '"stopped"' in line:
                        last = json.loads(line[6:])
            total = time.perf_counter() - start
            assert last and last["accuracy"] == 1.0 and first_epoch is not None
            for timing, value in ((done, total), (first, first_epoch), (worker, last["elapsed"])):
                if r == 0:
                    timing.first = value
                else:
                    timing.repeats.append(value)
    finally:
        server.stop()
    return done, first, worker


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--processes", type=int, default=3)
    parser.add_argument("--child", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        child_output(interleaved({"": epochs_of(args.child)}, args.repeat, CPU)[""])
        return

    assert same_numbers(5), "a replay's losses differ from the scalar engine's"
    per_epoch = in_processes(__file__, WAYS, args.processes, args.repeat)
    print(
        f"micrograd's demo preset. One epoch, CPU time: first epoch, then median "
        f"(lowest–highest) of {args.processes} fresh processes × {args.repeat} epochs"
    )
    print()
    print("| way | one epoch | ÷ lab replay |")
    print("| --- | --- | --- |")
    ours = per_epoch[WAYS[0]]
    for way, t in per_epoch.items():
        print(f"| {way} | {t} | {'1' if way == WAYS[0] else ratio(t, ours)} |")
    print()
    run = interleaved({"": whole_run}, max(2, args.repeat // 2), CPU)[""]
    print(f"100 epochs and 26 boundaries, in this process (CPU): {run}")
    done, first, worker = through_the_lab(max(2, args.repeat // 2))
    print(f"through the lab (POST /api/train, wall clock), request to done: {done}")
    print(f"  request to the first epoch: {first}; the worker's own elapsed: {worker}")
    scalar = per_epoch["scalar engine"].median * DEMO.epochs
    print(
        f"  the scalar engine's 100 epochs alone (median epoch × 100): {scalar:.1f} s, "
        f"{scalar / done.median:.0f}× the lab's request to done"
    )


if __name__ == "__main__":
    main()
