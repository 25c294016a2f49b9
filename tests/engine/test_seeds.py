"""The documents gradstep grew from, each pasted whole (its code cells in order,
tests/engine/learners/seeds/seedN.py), run beside CPython 3.11 (reference.json, made by
make_reference.py with numpy, matplotlib, scikit-learn, graphviz, torch and micrograd installed,
`random` and `np.random` seeded with 0): the same printed lines, the same error at the same line,
and the learner's own engine drawn."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from engine import GradstepError, run, trace
from engine.limits import DEFAULT_LIMITS, RUN_FUEL, RunLimits
from engine.runner import run_record

SEEDS = Path(__file__).parent / "learners" / "seeds"
REFERENCE = json.loads((SEEDS / "reference.json").read_text())


def printed(
    name: str, limits: RunLimits = DEFAULT_LIMITS
) -> tuple[list[str], GradstepError | None]:
    record = run_record((SEEDS / f"{name}.py").read_text(), {}, "auto", limits=limits)
    return [text for _, text in record.console], record.error


def expected(name: str) -> list[str]:
    return REFERENCE[name]["stdout"].rstrip("\n").split("\n") if REFERENCE[name]["stdout"] else []


@pytest.mark.parametrize("name", ["seed000", "seed004"])
def test_a_seed_that_stops_in_cpython_stops_at_the_same_line_with_the_same_error(name: str) -> None:
    lines, error = printed(name)
    want = REFERENCE[name]["error"]
    assert lines == expected(name)
    assert error is not None and error.span is not None
    assert error.message.startswith(f"{want['type']}: {want['message']}")
    assert error.span.line == want["line"]


def test_seed003_prints_what_cpython_prints_and_draws_its_node_class() -> None:
    source = (SEEDS / "seed003.py").read_text()
    lines, error = printed("seed003")
    assert error is None
    assert lines == expected("seed003")
    t = trace(run(source))
    assert t.structure.engine == "program" and t.structure.engine_class == "Node"


def test_seed001_prints_what_cpython_prints_but_its_pytorch_cell() -> None:
    lines, error = printed("seed001")
    assert error is None
    want = expected("seed001")
    torch = [line for line in want if line.startswith("PyTorch:")]
    assert len(torch) == 1  # the cell that checks the engine against PyTorch: gradstep has none
    want.remove(torch[0])
    # its text drawing of a graph walks a set: those lines come in any order, in their place
    drawing = [i for i, line in enumerate(want) if line.startswith(" ") and "──" in line]
    assert len(drawing) == 4 and len(lines) == len(want)

    def node(line: str) -> str:  # a line of the drawing without its branches, which the order moves
        return line.lstrip(" │├└─")

    assert sorted(node(lines[i]) for i in drawing) == sorted(node(want[i]) for i in drawing)
    assert [x for i, x in enumerate(lines) if i not in drawing] == [
        x for i, x in enumerate(want) if i not in drawing
    ]
    notes = run((SEEDS / "seed001.py").read_text()).notes
    assert any("gradstep has no torch: skipped" in note for note in notes)


def test_seed001s_training_loop_is_drawn_by_iteration_with_its_own_engine() -> None:
    source = (SEEDS / "seed001.py").read_text()
    loop = source[: source.index('print(f"Epoch')] + "    pass\n"  # up to the loop's print
    first, last = run(loop), run(loop, iteration=99)
    assert first.iteration == 0 and last.iteration == 99 and len(first.losses) == 100
    for program in (first, last):
        t = trace(program)
        assert t.structure.engine == "program"
        # its _prev is a set: the order its backward walks them (by id) differs from run to run,
        # so a run that watches an iteration may differ from the first in the last bits
        assert program.graph.data[program.graph.output] == pytest.approx(
            program.losses[program.iteration], rel=1e-9
        )
        assert not t.numbers.findings  # a correct engine: no finding on any iteration
    assert round(first.losses[0], 4) == 3.5902  # what CPython printed for epoch 0


def test_seed002_runs_as_far_as_the_time_limit_with_everything_before_it_kept() -> None:
    # its decision boundary runs the model 40,000 times (CPython: 21 s): past one run's limit,
    # and past a quarter of it (which stops where the whole does, and takes a quarter of the time)
    lines, error = printed("seed002", RunLimits(fuel=RUN_FUEL // 4))
    assert error is not None and error.kind == "limit"
    assert "limit for one run" in error.message
    want = expected("seed002")
    assert len(lines) > 40  # the chapter's examples and its XOR training, printed
    assert lines == want[: len(lines)]
