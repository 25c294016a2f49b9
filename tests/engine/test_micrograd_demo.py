"""micrograd's demo notebook (learners/micrograd_demo.py: its cells in order, as pasted) beside
CPython. In the sandbox ``micrograd.engine.Value`` is gradstep's Value and ``micrograd.nn`` is
micrograd's own file; the oracles run the same text in CPython with micrograd and scikit-learn
installed, and with gradstep's Value in micrograd's place.

Two things differ from a notebook of today, neither of them the sandbox's: scikit-learn 1.9
draws from ``random`` when it is imported (after the demo's ``random.seed(1337)``), so the
oracle imports it first, as the notebook's older scikit-learn did not draw; and micrograd adds a
value's gradient contributions in the order of a set of its values (set by memory addresses),
gradstep in the order the values were made, so sums can differ in their last bits."""

from __future__ import annotations

import math
import subprocess
import sys
from pathlib import Path

import pytest

from engine import GradstepError, run, trace
from engine.limits import RUN_FUEL, RunLimits
from engine.program import Program

Small = tuple[list[str], Program]

DEMO = (Path(__file__).parent / "learners" / "micrograd_demo.py").read_text()
# what a teacher changes to fit a lesson: 4 moons (a graph gradstep keeps), 10 steps
SMALL = DEMO.replace("n_samples=100", "n_samples=4").replace("range(100)", "range(10)")
ROOT = Path(__file__).resolve().parents[2]

ORACLE = """
import sys, types
import sklearn.datasets  # its import draws from random: before the program seeds it
from engine.guest.modules.matplotlib import pyplot  # the figures are not compared
sys.modules.update({"matplotlib": types.ModuleType("matplotlib"), "matplotlib.pyplot": pyplot})
if sys.argv[1] == "gradstep":  # gradstep's Value as micrograd.engine's, micrograd's own nn.py
    import engine.value, micrograd.engine
    micrograd.engine.Value = engine.value.Value
    import micrograd.nn
    micrograd.nn.Value = engine.value.Value
exec(compile(sys.stdin.read(), "<program>", "exec"), {"__name__": "__main__"})
"""


def cpython(source: str, engine: str) -> list[str]:
    done = subprocess.run(
        [sys.executable, "-c", ORACLE, engine],
        input=source, capture_output=True, text=True, cwd=ROOT, timeout=600, check=True,
    )  # fmt: skip
    return done.stdout.splitlines()


@pytest.fixture(scope="module")
def small() -> Small:
    program = run(SMALL)
    return [text for _, text in program.console], program


def test_the_sandbox_prints_what_cpython_prints_with_gradsteps_value(small: Small) -> None:
    assert small[0] == cpython(SMALL, "gradstep")


def test_micrograds_own_numbers_agree_but_in_their_last_bits(small: Small) -> None:
    theirs = cpython(SMALL, "micrograd")
    assert len(theirs) == len(small[0]) == 13
    assert theirs[:3] == small[0][:3]  # the model, its size, the first loss: before any sum
    for mine, their in zip(small[0][3:], theirs[3:], strict=True):
        a, b = (float(line.split()[3].rstrip(",")) for line in (mine, their))
        assert math.isclose(a, b, rel_tol=1e-12), (mine, their)
        assert mine.split(",")[1] == their.split(",")[1]  # the accuracy


def test_the_demo_is_drawn_by_iteration_with_its_plots(small: Small) -> None:
    program = small[1]
    assert program.watched is not None
    assert len(program.losses) == 10 and program.watched == (program.watched[0], 0)
    t = trace(program)
    assert any(s.title.startswith("Backward") for s in t.structure.steps)
    figures = program.plots
    assert len(figures) == 2 and figures[0]["axes"][0]["series"][0]["kind"] == "scatter"
    assert figures[1]["skipped"] == ["contourf was not drawn"]


def test_pasted_whole_it_stops_at_the_time_limit_with_what_it_printed() -> None:
    """At half the limit: the same stop inside the training loop, in half the time."""
    with pytest.raises(GradstepError) as err:
        run(DEMO, limits=RunLimits(fuel=RUN_FUEL // 2))
    assert err.value.kind == "limit" and "ran out of time" in err.value.message
    assert err.value.span is not None and DEMO.split("\n")[err.value.span.line - 1].startswith(" ")
    printed = [text for _, text in err.value.console or ()]
    before = DEMO.replace("range(100)", "range(0)").split("# visualize decision boundary")[0]
    assert printed[:3] == cpython(before, "micrograd")
    assert printed[3:] and all(line.startswith("step ") for line in printed[3:])
