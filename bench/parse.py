"""engine.parse and engine.trace beside the alternatives, in one run.

    python bench/parse.py [--repeat N]

Then a learner's own engine: micrograd's engine.py and nn.py as they are, and a 4-point MLP's
forward and backward, run by gradstep's interpreter (``engine.parse``: their classes, their
closures, their recursive topological sort) and traced (``engine.trace``: their graph, their
backward's steps, the true gradients, the findings), beside CPython running the same text.

For each program: Python's own ``ast.parse`` of the text (the floor: gradstep calls it once),
``engine.parse`` (limits, shape check, running the program), ``engine.parse`` +
``engine.trace`` (every step, the numerical check, op counts), and, for the programs micrograd
can run, micrograd 0.1.0 executing the same text with ``exec`` plus ``backward()`` (trusted text
here; gradstep itself never executes user text; n/a without the ``bench`` extra). The lecture's
MLP cell with a training step and demo.ipynb's model and loss cells (on 4 moons) come from
app/lecture.py, their one copy. Hostile inputs are timed to the error they
raise.

Times: the first call, then the median and spread (lowest–highest) of N more, the columns of a
row interleaved round by round (bench/timing.py); ratios are of medians, to ``engine.parse``.
"""

from __future__ import annotations

import argparse
import ast
import importlib.util
import re
import sys
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(1, str(Path(__file__).resolve().parent.parent / "tests" / "engine"))

from timing import interleaved, measure, ratio

from app.lecture import DEMO, LECTURE_MLP, LECTURE_TRAINING
from app.presets import MICROGRAD_README
from engine import GradstepError, parse, trace
from engine.limits import MAX_NODES

IMPORT = "from micrograd.engine import Value\n"
CHAIN = IMPORT + "x = Value(0.5)\n" + "x = (x * 1.01 + 0.1).relu()\n" * 250 + "x.backward()\n"
MANY_INPUTS = IMPORT + "".join(f"a{i} = Value(1.0)\n" for i in range(400)) + "s = a0\n"
MANY_INPUTS += "".join(f"s += a{i} * a{i}\n" for i in range(1, 400)) + "s.backward()\n"
MAX_GRAPH = "x = 1.0\n" + "x=x*1-0\n" * (MAX_NODES // 4 - 1)
LEARNERS = Path(__file__).resolve().parent.parent / "tests" / "engine" / "learners"
MICROGRAD_ENGINE_AND_NN = "".join(
    (LEARNERS / "micrograd.py")
    .read_text()
    .partition("\nfrom micrograd.engine import Value\n\na = ")[0]
)
MLP_4_POINTS = """
model = MLP(3, [4, 4, 1])
xs = [[2.0, 3.0, -1.0], [3.0, -1.0, 0.5], [0.5, 1.0, 1.0], [1.0, 1.0, -1.0]]
ys = [1.0, -1.0, -1.0, 1.0]
ypred = [model(x) for x in xs]
loss = sum((yout - ygt)**2 for ygt, yout in zip(ys, ypred))
model.zero_grad()
loss.backward()
"""
HOSTILE = {
    "10,000 nested parentheses": "(" * 10_000 + "1" + ")" * 10_000,
    "a megabyte of 1+": "1+" * 500_000 + "1",
    "9**9**9": "9**9**9",
    # the run limits at their largest (a training loop needs them: micrograd's demo, 100 times)
    "backward() on a new graph, 50,000 times": (
        "x = Value(1.0)\nfor i in range(10**6):\n    y = x * 2.0\n    y.backward()"
    ),
    "1,000,000 loop passes": "t = [sum(range(50000)) for k in range(1000)]",
}


def micrograd_installed() -> bool:
    return importlib.util.find_spec("micrograd") is not None


def micrograd_run(source: str) -> Callable[[], object]:
    from micrograd.engine import Value  # noqa: F401  (the exec'd text imports it too)

    code = compile(source, "<bench>", "exec")  # trusted benchmark text, not user input
    # gradstep ignores print(...), so micrograd's run does not pay for printing either
    return lambda: exec(code, {"print": lambda *args, **kwargs: None})


def cpython_run(source: str) -> Callable[[], object]:
    """The learner's text run by CPython: its engine part first, which ``micrograd.engine`` then
    names (as its nn.py's import expects), then the rest (trusted benchmark text)."""
    import types

    engine_part, _, rest = source.partition("import random\nfrom micrograd.engine import Value")
    first = compile(engine_part, "<engine>", "exec")
    second = compile("import random\nfrom micrograd.engine import Value" + rest, "<nn>", "exec")

    def run() -> None:
        names: dict[str, object] = {}
        exec(first, names)
        package, module = types.ModuleType("micrograd"), types.ModuleType("micrograd.engine")
        module.Value = names["Value"]  # type: ignore[attr-defined]
        saved = {k: sys.modules.get(k) for k in ("micrograd", "micrograd.engine")}
        sys.modules.update({"micrograd": package, "micrograd.engine": module})
        try:
            exec(second, names)
        finally:
            for k, v in saved.items():
                if v is None:
                    sys.modules.pop(k, None)
                else:
                    sys.modules[k] = v

    return run


def expect_error(source: str) -> Callable[[], object]:
    def run() -> None:
        try:
            parse(source)
        except GradstepError:
            return
        raise AssertionError("expected a GradstepError")

    return run


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--repeat", type=int, default=5)
    repeat = parser.parse_args().repeat
    print(f"first call, then median (lowest–highest) of {repeat} more; wall clock")
    print()
    print("| program | ast.parse | engine.parse | parse + trace | micrograd exec + backward |")
    print("| --- | --- | --- | --- | --- |")
    for name, source, runs_in_micrograd in (
        ("micrograd README", MICROGRAD_README, True),
        ("relu chain, 250 lines", CHAIN, True),  # micrograd's recursive sort: < 1,000 deep
        ("400 inputs, 800 ops", MANY_INPUTS, True),
        (f"{MAX_NODES - 3:,} values", MAX_GRAPH, False),
        ("lecture MLP cell, one training step", LECTURE_MLP, False),  # its Value: gradstep's
        ("lecture training loop, 20 iterations", LECTURE_TRAINING, False),
        ("demo.ipynb model + loss, 4 moons", DEMO, False),  # needs numpy and sklearn
    ):
        python = re.sub(r"(?m)^[ \t]*[%!].*$", "", source)  # a notebook's %matplotlib line
        runs: dict[str, Callable[[], object]] = {
            "ast": lambda s=python: ast.parse(s),
            "parse": lambda s=source: parse(s),
            "trace": lambda s=source: trace(parse(s)),
        }
        if runs_in_micrograd and micrograd_installed():
            runs["micrograd"] = micrograd_run(source)
        t = interleaved(runs, repeat)
        cells = [f"{t[k]} ({ratio(t[k], t['parse'])})" for k in ("ast", "parse", "trace")]
        cells.append(
            f"{t['micrograd']} ({ratio(t['micrograd'], t['parse'])})" if "micrograd" in t else "n/a"
        )
        print(f"| {name} | " + " | ".join(cells) + " |")
    print()
    own = MICROGRAD_ENGINE_AND_NN + MLP_4_POINTS
    t = interleaved(
        {
            "cpython": cpython_run(own),
            "parse": lambda: parse(own),
            "trace": lambda: trace(parse(own)),
        },
        repeat,
    )
    print("a learner's own engine: micrograd's engine.py + nn.py, a 4-point MLP(3, [4, 4, 1])")
    print("forward and backward")
    print()
    print(
        "| CPython | engine.parse (gradstep's interpreter) | parse + trace (graph, steps, truth) |"
    )
    print("| --- | --- | --- |")
    print(f"| {t['cpython']} | {t['parse']} ({ratio(t['parse'], t['cpython'])} CPython's) |"
          f" {t['trace']} ({ratio(t['trace'], t['cpython'])}) |")  # fmt: skip
    print()
    print("| hostile input | engine.parse until its error |")
    print("| --- | --- |")
    for name, source in HOSTILE.items():
        print(f"| {name} | {measure(expect_error(source), repeat)} |")


if __name__ == "__main__":
    main()
