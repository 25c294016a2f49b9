"""Every learner program in tests/engine/learners (the texts, micrograd.py, every mistake's
twins) runs in gradstep as CPython ran it: the same printed lines (learners/expected.py, with its
any_of and printed_close rules, and the last bits of a float free to differ where the sandbox's C
library rounds tanh or exp the other way); and, for a program with its own engine class, the
drawn graph is that class's objects, every one of them where the run makes one graph."""

from __future__ import annotations

import re
import sys
from pathlib import Path
from typing import Any

import pytest

from engine import Program, run
from engine.runner import run_record

LEARNERS = Path(__file__).parent / "learners"
sys.path.insert(0, str(LEARNERS))
import expected  # noqa: E402  (the data file lives beside the programs)
from check_expected import _same_but_last_bits, match_printed  # noqa: E402

PROGRAMS: list[dict[str, Any]] = expected.PROGRAMS
NUMBER = re.compile(r"-?\d+(\.\d*)?(e[-+]?\d+)?$")
NOISE = 1e-9  # a number this small printed beside its full-precision operands: rounding's own


def ran(entry: dict[str, Any]) -> Program:
    return run((LEARNERS / entry["file"]).read_text())


def _same_but_noise(got: str, want: str) -> bool:
    """The same words; numbers the same, or both rounding noise (the difference between a
    gradient and its finite-difference estimate: the sandbox's tanh rounds another way)."""
    a, b = got.split(), want.split()
    if len(a) != len(b):
        return False
    for x, y in zip(a, b, strict=True):
        if x == y:
            continue
        if not (NUMBER.match(x) and NUMBER.match(y)):
            return False
        if not (abs(float(x)) < NOISE and abs(float(y)) < NOISE):
            return False
    return True


def as_cpython(entry: dict[str, Any], printed: list[str]) -> list[str]:
    """``printed``, each line that differs from CPython's only where expected.py or the
    sandbox's C library lets it (printed_close, last bits, noise) taken as CPython's."""
    out = list(printed)
    lines = [item for item in entry["printed"] if isinstance(item, str)]
    if len(lines) != len(entry["printed"]):  # an any_of block shifts the lines: close ones only
        lines = []
    for close in entry.get("printed_close", []):  # floats summed in set order: 1e-9
        i, want = close["index"], entry["printed"][close["index"]]
        if i < len(out) and _same_but_last_bits(out[i], want):
            out[i] = want
    for i, want in enumerate(lines[: len(out)]):
        if out[i] != want and (_same_but_last_bits(out[i], want) or _same_but_noise(out[i], want)):
            out[i] = want
    return out


@pytest.mark.parametrize("entry", PROGRAMS, ids=[e["file"] for e in PROGRAMS])
def test_prints_what_cpython_printed(entry: dict[str, Any]) -> None:
    printed = as_cpython(entry, [text for _, text in ran(entry).console])
    assert match_printed(entry["printed"], printed) is None, printed


@pytest.mark.parametrize("entry", PROGRAMS, ids=[e["file"] for e in PROGRAMS])
def test_its_own_engine_draws_the_graph(entry: dict[str, Any]) -> None:
    program = ran(entry)
    g = program.graph
    assert (g.engine, g.engine_class) == ("program", entry["engine_class"])
    assert g.parents and len(g.made) == len(g.parents)  # every node one of their objects
    assert len(set(g.made)) == len(g.made)
    record = run_record((LEARNERS / entry["file"]).read_text(), {}, "auto")  # the run's, kept
    if entry["file"] == "micrograd.py" or ("mistake" in entry and len(record.passes) == 1):
        # the run makes one graph: every object CPython made is in it (nodes_created counts
        # the whole run's; a text's graph, or a loop's iteration, holds some of them)
        assert len(g.parents) == entry["nodes_created"]


def test_micrograd_prints_its_numbers_from_its_own_backward() -> None:
    program = run((LEARNERS / "micrograd.py").read_text())
    g = program.graph
    assert g.engine == "program" and g.engine_class == "Value"
    assert [text for _, text in program.console] == ["24.7041", "138.8338", "645.5773"]
    assert [line for line, _ in program.console] == [171, 173, 174]
    assert g.names[g.output] == "g₁"  # g += 10.0 / f made a new g
    kept = [k for k in g.kept if k.attr == "_backward"]
    assert kept and all(k.end >= k.first for k in kept)  # its own closures ran, every one
    assert sorted(k.owner for k in kept) == list(range(len(g.parents)))  # once a node


def test_text0_draws_numpys_weights() -> None:
    """np.random.uniform, seeded 0 as numpy seeds it: the weights CPython's numpy drew."""
    program = run((LEARNERS / "text0.py").read_text())
    first = program.console[0][1]
    assert first.startswith("Value: 0.7335324927427762 [Value: 0.22886419080491538")
