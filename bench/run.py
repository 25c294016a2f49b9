"""A learner's code in gradstep's sandbox beside native CPython running the same text, in one
run; and, given a checkout of the last commit that had it, gradstep's old interpreter.

    python bench/run.py [--repeat N] [--before PATH]

PATH: a checkout whose ``engine.parse`` is the interpreter (``git worktree add /tmp/before
638ec0c``); its column (its parse and trace, to compare with the recorded run and its trace) is
timed in a process of its own, and says "refused" for a program it does not run.

Programs: micrograd's README and the lecture's programs (gradstep's Value, from app/lecture.py,
their one copy); micrograd's own engine.py and nn.py with a 4-point MLP (a learner's own engine);
the seeds' training cells as a learner pastes them (tests/engine/learners/seeds, their autograd
code: seed001's Value, MLP and 100 epochs, seed002's Value, MLP and 200 XOR epochs).

Columns: native CPython ``exec`` of the text (gradstep's Value given as ``Value`` where the
program uses it unimported; ``random`` seeded with 0); the sandbox running it as written, nothing
recorded (``plain``); the sandbox running and recording it (``engine.runner.run_record``: the
first answer's run); the trace of the graph drawn. Then, for the training loops, another
iteration asked for after the first answer: a run that watches it, and its trace. Times are the
first call, then the median and spread of N more, interleaved round by round; ratios are of
medians, to native CPython, with the spread of the round-by-round ratios.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import os
import random
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if "--child" not in sys.argv:  # a child times the checkout on its PYTHONPATH
    sys.path.insert(0, str(ROOT))

from timing import Timing, interleaved, ms, ratio  # noqa: E402

from app.lecture import LECTURE_MLP, LECTURE_TRAINING, MICROGRAD_README  # noqa: E402

SEEDS = ROOT / "tests" / "engine" / "learners" / "seeds"
LEARNERS = ROOT / "tests" / "engine" / "learners"


def lines(path: Path, *ranges: tuple[int, int]) -> str:
    text = path.read_text().split("\n")
    return "\n".join(line for a, b in ranges for line in text[a - 1 : b]) + "\n"


MICROGRAD_MLP = (
    # its engine.py and nn.py, as the learners' copy has them (without the README's usage)
    (LEARNERS / "micrograd.py").read_text().rpartition("\nfrom micrograd.engine import Value\n")[0]
    + """
import random
model = MLP(3, [4, 4, 1])
xs = [[2.0, 3.0, -1.0], [3.0, -1.0, 0.5], [0.5, 1.0, 1.0], [1.0, 1.0, -1.0]]
ys = [1.0, -1.0, -1.0, 1.0]
ypred = [model(x) for x in xs]
loss = sum((yout - ygt)**2 for ygt, yout in zip(ys, ypred))
model.zero_grad()
loss.backward()
"""
)
PROGRAMS = {
    "micrograd's README": MICROGRAD_README,
    "the lecture's MLP, one step": LECTURE_MLP,
    "the lecture's loop, 20 iterations": LECTURE_TRAINING,
    "micrograd's engine.py + nn.py, an MLP on 4 points": MICROGRAD_MLP,
    # seed001: import math, its Value, Neuron, Layer, MLP, data and 100 epochs (no plot)
    "seed001's training, 100 epochs": lines(SEEDS / "seed001.py", (1, 1), (5, 99), (122, 192)),
    # seed002: import math, random, its Value, Neuron, Layer, MLP and 200 XOR epochs
    "seed002's XOR training, 200 epochs": "import random\n"
    + lines(SEEDS / "seed002.py", (3, 3), (212, 317), (381, 482)),
}
LOOPS = {"the lecture's loop, 20 iterations": 13, "seed001's training, 100 epochs": 57}
LIMITS = {"max_nodes": 5000, "max_kept_nodes": 400_000, "max_console_chars": 50_000,
          "max_iterations": 100_000}  # fmt: skip


def native(source: str) -> None:
    from engine.value import Value

    random.seed(0)
    with contextlib.redirect_stdout(io.StringIO()):
        exec(compile(source, "<program>", "exec"), {"__name__": "__main__", "Value": Value})


def plain(source: str) -> None:
    from engine import runner
    from engine.limits import RUN_FUEL, RUN_MEMORY_MB

    request = json.dumps({"source": source, "limits": LIMITS, "plain": True})
    text, _ = runner.sandbox().call(request, RUN_FUEL, RUN_MEMORY_MB * 2**20)
    error = json.loads(text)["error"]
    assert error is None, error


def recorded(source: str) -> None:
    from engine import runner

    runner._records.clear()
    record = runner.run_record(source, {}, "auto")
    assert record.error is None, record.error


def traced(source: str) -> None:
    from engine import run, trace

    trace(run(source))


def iteration(source: str, k: int) -> None:
    """Another iteration after the first answer: the first run's record is kept; this one is
    a run that watches iteration k, then its trace."""
    from engine import run, runner, trace

    runner._records.clear()
    run(source)  # the first answer (not timed apart: subtracted by the caller)
    trace(run(source, iteration=k))


def before(path: str, name: str, repeat: int) -> Timing | None:
    """The old interpreter (``engine.parse`` of a checkout that has it, then its trace), in its
    own process; None where it refuses the program."""
    child = subprocess.run(
        [sys.executable, __file__, "--child", name, "--repeat", str(repeat)],
        env={**os.environ, "PYTHONPATH": path},
        capture_output=True, text=True, check=False, cwd=path,
    )  # fmt: skip
    if child.returncode:
        return None
    found = json.loads(child.stdout)
    return Timing(found["first"], found["repeats"])


def child(name: str, repeat: int) -> None:
    here = str(Path(__file__).resolve().parent)
    sys.path[:] = [p for p in sys.path if str(Path(p or ".").resolve()) != here]  # bench/engine.py
    from engine import parse, trace  # type: ignore[attr-defined]  # the old interpreter's

    def once() -> None:
        with contextlib.redirect_stdout(io.StringIO()):
            trace(parse(PROGRAMS[name]))

    t = interleaved({"": once}, repeat)[""]
    print(json.dumps(t.as_json()))


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--before", help="a checkout of gradstep with its old interpreter")
    parser.add_argument("--child", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        return child(args.child, args.repeat)
    from engine import runner

    runner.sandbox().load()
    print("| program | CPython | sandbox, plain | sandbox, recorded | recorded + trace |"
          + (" old interpreter + trace |" if args.before else ""))  # fmt: skip
    print("| --- | --- | --- | --- | --- |" + (" --- |" if args.before else ""))
    for name, source in PROGRAMS.items():
        t = interleaved(
            {
                "native": lambda s=source: native(s),
                "plain": lambda s=source: plain(s),
                "recorded": lambda s=source: recorded(s),
                "traced": lambda s=source: (recorded(s), traced(s)),
            },
            args.repeat,
        )
        cells = [ms(t["native"].median)] + [
            f"{ms(t[k].median)} ({ratio(t[k], t['native'])})"
            for k in ("plain", "recorded", "traced")
        ]
        if args.before:
            old = before(args.before, name, args.repeat)
            cells.append(
                f"{ms(old.median)} ({old.median / t['native'].median:.1f}×)" if old else "refused"
            )
        print(f"| {name} | " + " | ".join(cells) + " |")
    print()
    print("| training loop | first answer (run + trace) | another iteration after it |")
    print("| --- | --- | --- |")
    from engine import run, runner, trace

    for name, k in LOOPS.items():
        source = PROGRAMS[name]
        t = interleaved(
            {
                "first": lambda s=source: (runner._records.clear(), trace(run(s))),
                "both": lambda s=source, k=k: iteration(s, k),
            },
            args.repeat,
        )
        another = t["both"].median - t["first"].median
        print(f"| {name} | {ms(t['first'].median)} | {ms(another)} (iteration {k}) |")


if __name__ == "__main__":
    main()
