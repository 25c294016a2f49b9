"""Every learner program in tests/engine/learners (the texts, micrograd.py, every mistake's
twins) runs in gradstep as CPython ran it: the same printed lines (learners/expected.py, with its
any_of and printed_close rules), and, for a program with its own engine class, an OwnProgram
whose output is one of that class's objects and whose watch saw every one of them made."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import pytest

from engine import parse
from engine.language import OwnProgram

LEARNERS = Path(__file__).parent / "learners"
sys.path.insert(0, str(LEARNERS))
import expected  # noqa: E402  (the data file lives beside the programs)
from check_expected import _same_but_last_bits, match_printed  # noqa: E402

PROGRAMS: list[dict[str, Any]] = expected.PROGRAMS


def run(entry: dict[str, Any]) -> Any:
    return parse((LEARNERS / entry["file"]).read_text())


@pytest.mark.parametrize("entry", PROGRAMS, ids=[e["file"] for e in PROGRAMS])
def test_prints_what_cpython_printed(entry: dict[str, Any]) -> None:
    program = run(entry)
    printed = [text for _, text in program.console]
    for close in entry.get("printed_close", []):  # floats summed in set order: 1e-9
        i, want = close["index"], entry["printed"][close["index"]]
        if i < len(printed) and _same_but_last_bits(printed[i], want):
            printed[i] = want
    assert match_printed(entry["printed"], printed) is None, printed


@pytest.mark.parametrize("entry", PROGRAMS, ids=[e["file"] for e in PROGRAMS])
def test_its_own_engine_runs_and_is_watched(entry: dict[str, Any]) -> None:
    program = run(entry)
    cls = entry["engine_class"]
    assert isinstance(program, OwnProgram)
    assert program.output.cls.name == cls
    made = [m for m in program.watch.made if m.instance.cls.name == cls]
    assert len(made) == entry["nodes_created"]


def test_micrograd_prints_its_numbers_from_its_own_backward() -> None:
    program = parse((LEARNERS / "micrograd.py").read_text())
    assert isinstance(program, OwnProgram)
    assert [text for _, text in program.console] == ["24.7041", "138.8338", "645.5773"]
    assert [line for line, _ in program.console] == [171, 173, 174]
    assert program.names[program.output] == "g₁"  # g += 10.0 / f made a new g
    kept = [c for c in program.watch.calls if c.attr == "_backward"]
    assert kept and all(c.end >= c.first for c in kept)  # its own closures ran, every one


def test_text0_draws_numpys_weights() -> None:
    """np.random.uniform, seeded 0 as numpy seeds it: the weights CPython's numpy drew."""
    program = parse((LEARNERS / "text0.py").read_text())
    first = program.console[0][1]
    assert first.startswith("Value: 0.7335324927427762 [Value: 0.22886419080491538")
