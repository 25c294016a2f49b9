"""The language as a learner's own engine needs it, what a run gives: the rule for which
top-level numbers are inputs, the program's own engine as an OwnProgram, and the watch's
records of the program's objects (instances made, writes, kept calls)."""

from __future__ import annotations

import pytest
from language_programs import NODE, own

from engine import GradstepError, Value, parse
from engine.language import OwnProgram, Program, graph_program

# 7. Which top-level numbers are inputs ----------------------------------------------------------


def test_in_a_program_that_makes_values_numbers_become_inputs_only_when_used_with_one() -> None:
    source = """
from micrograd.engine import Value
x1 = 2.0
n_epochs = 3
lr = 0.05
w1 = Value(-3.0)
n = x1 * w1 + x1 * w1
for _ in range(n_epochs):
    w1.data -= lr * 1.0
"""
    program = graph_program(parse(source))
    assert list(program.inputs) == ["w1", "x1"]  # x1 when it meets w1
    assert program.output.data == -12.0
    x1 = program.inputs["x1"]
    assert program.labels[x1] == "x1" and x1.data == 2.0
    assert len([v for v in program.spans if v is x1]) == 1  # one leaf, used twice
    again = graph_program(parse(source, {"x1": 5.0}))
    assert again.output.data == -30.0


def test_a_program_that_makes_no_values_keeps_every_number_an_input() -> None:
    program = graph_program(parse("a = -4.0\nb = 2.0\nc = a + b"))
    assert list(program.inputs) == ["a", "b"] and program.output.data == -2.0
    assert isinstance(program.inputs["a"], Value)


# 9., 10., 11. The program's own engine: OwnProgram and the watch --------------------------------


SMALL = (
    NODE
    + """
a = Node(2.0)
b = Node(3.0)
c = a * b
c += a
c.backward()
"""
)


def test_own_program_fields() -> None:
    program = own(SMALL)
    assert isinstance(program, OwnProgram) and not isinstance(program, Program)
    assert program.names[program.output] == "c₁"
    assert list(program.inputs) == ["a", "b"]
    assert program.names[program.inputs["a"]] == "a" and program.console == ()
    with pytest.raises(GradstepError) as err:
        graph_program(program)
    assert err.value.kind == "unsupported" and "its own class Node" in err.value.message


def test_the_watch_records_instances_writes_and_kept_calls() -> None:
    program = own(SMALL)
    watch = program.watch
    made = [m.instance for m in watch.made]
    a, b = program.inputs["a"], program.inputs["b"]
    assert made[:2] == [a, b] and len(made) == 4  # a, b, a*b, +a
    assert watch.made[0].record is None and watch.made[2].record is not None  # in __mul__
    grads = [(w.instance, w.before, w.after, w.augmented) for w in watch.writes if w.attr == "grad"]
    assert (a, 0, 2.0, False) not in grads
    assert (b, 0, 2.0, True) in grads  # b.grad += a.data * out.grad, in a _backward
    kept = [c for c in watch.calls if c.attr == "_backward"]
    assert len(kept) == 4 and all(c.end >= c.first for c in kept)
    inside = [w for w in watch.writes if w.call is not None]
    assert inside and all(watch.calls[w.call].first <= watch.writes.index(w) for w in inside)
    init = [w for w in watch.writes if w.instance is a and w.attr == "data"]
    assert init[0].before is None and init[0].after == 2.0 and not init[0].augmented


def test_given_values_and_the_nudge_set_an_objects_data() -> None:
    program = own(SMALL, values={"a": 5.0})
    assert program.output.attrs["data"] == 5.0 * 3.0 + 5.0 and program.given == {"a": 5.0}
    nudged = own(SMALL, nudge=(1, 0.5))
    assert nudged.output.attrs["data"] == 2.0 * 3.5 + 2.0


def test_micrograd_engine_import_names_the_programs_own_value() -> None:
    source = (
        NODE.replace("Node", "Value")
        + "from micrograd.engine import Value\nx = Value(2.0) * 3\nx.backward()"
    )
    program = own(source)
    assert program.output.cls.name == "Value" and program.output.attrs["data"] == 6.0


def test_draw_dot_marks_an_object_as_the_output() -> None:
    source = NODE + "a = Node(1.0)\nb = a + 2\nd = b * 3\ndraw_dot(b)\nprint('x')"
    program = own(source)
    assert program.names[program.output] == "b"
