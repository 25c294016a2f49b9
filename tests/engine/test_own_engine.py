"""A learner's own engine, traced: the five tutorials' engines and micrograd's draw the graph
their objects form with their own backward's grads (equal to what the authors printed), and
each mistake of the corpus (tests/engine/learners/mistakes) is found on the right node at the
right line (in a training loop, at the right iteration), while its corrected twin, or any
correct engine whatever order CPython's sets list its objects in, has no finding."""

from __future__ import annotations

import importlib.util
import math
from pathlib import Path
from types import ModuleType

import pytest
from traces import rows, steps

from engine import GradstepError, run, trace
from engine.trace import Trace

LEARNERS = Path(__file__).parent / "learners"


def _expected() -> ModuleType:
    spec = importlib.util.spec_from_file_location("expected", LEARNERS / "expected.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


EXPECTED = _expected()
TEXTS = [p for p in EXPECTED.PROGRAMS if not p["file"].startswith("mistakes/")]
MISTAKES = EXPECTED.MISTAKES


def traced(file: str, hit: int = 1) -> Trace:
    """The trace of a program of the corpus; in a training loop, its ``hit``-th iteration (the
    loop opens on its first)."""
    program = run((LEARNERS / file).read_text())
    if program.losses:
        program = run(program.source, iteration=hit - 1)
    return trace(program)


def named(t: Trace) -> dict[str, int]:
    """Node ids by name (the first node of a name: a rebound name's later nodes are c₁, c₂)."""
    out: dict[str, int] = {}
    for n in t.structure.nodes:
        out.setdefault(n.name, n.id)
    return out


def finding_lines(t: Trace) -> list[tuple[str, str, int | None]]:
    names = {n.id: n.name for n in t.structure.nodes}
    return [(names[f.node], f.kind, f.span.line if f.span else None) for f in t.numbers.findings]


@pytest.mark.parametrize("program", TEXTS, ids=lambda p: p["file"])
def test_each_text_draws_its_own_graph_with_its_own_grads(program: dict) -> None:
    t = traced(program["file"])
    assert t.structure.engine == "program"
    grads, true = t.numbers.grad, t.numbers.true_grad
    for i, theirs in enumerate(grads):
        kind = t.structure.nodes[i].kind
        if true[i] is not None and kind != "constant" and not t.numbers.findings:
            assert math.isclose(theirs, true[i], rel_tol=1e-6, abs_tol=1e-9)  # type: ignore[arg-type]
    output = t.structure.nodes[t.structure.output]
    assert grads[output.id] == 1.0


def test_microgrds_readme_from_its_own_backward() -> None:
    program = run((LEARNERS / "micrograd.py").read_text())
    assert program.graph.engine == "program" and program.graph.engine_class == "Value"
    assert [text for _, text in program.console] == ["24.7041", "138.8338", "645.5773"]
    t = trace(program)
    ids = named(t)
    g = t.structure.output
    assert f"{t.numbers.data[g]:.4f}" == "24.7041"
    assert f"{t.numbers.grad[ids['a']]:.4f}" == "138.8338"  # their backward's, in .grad
    assert f"{t.numbers.grad[ids['b']]:.4f}" == "645.5773"
    assert t.numbers.true_grad[ids["a"]] == pytest.approx(t.numbers.grad[ids["a"]], rel=1e-9)
    assert t.numbers.findings == ()
    backward = [s for s in t.structure.steps if s.phase == "backward"]
    assert "_backward()" in backward[1].title  # each call of a node's closure is a step


@pytest.mark.parametrize("mistake", MISTAKES, ids=lambda m: m["name"])
def test_each_mistake_is_found_on_its_nodes_at_its_line(mistake: dict) -> None:
    t = traced(mistake["wrong"], mistake["hit"])
    found = finding_lines(t)
    assert found, mistake["name"]
    _, kind, line = found[0]  # the first wrong write: where the page points
    assert (kind, line) == (mistake["kind"], mistake["line"]), found
    ids = named(t)
    wrong = {n for n, _, _ in found}
    for differs in mistake["differs"]:  # every named node that differs is a finding
        assert differs in wrong or differs not in ids, (differs, found)
    assert {n for n in wrong if n in set(mistake["differs"])} == set(mistake["differs"]) & set(ids)


@pytest.mark.parametrize("mistake", MISTAKES, ids=lambda m: m["name"])
def test_each_corrected_twin_has_no_finding(mistake: dict) -> None:
    t = traced(mistake["right"], mistake["hit"])
    assert t.numbers.findings == (), finding_lines(t)


def test_a_finding_says_what_went_wrong_in_numbers() -> None:
    t = traced("mistakes/overwrite_add_wrong.py")
    (f,) = t.numbers.findings
    text = "".join(p if isinstance(p, str) else f"{f.numbers[p]:.4f}" for p in f.text)
    assert text == (
        "a.grad became 1.0000 here; the true gradient is 2.0000: a is used twice by b, "
        "so its contributions must add up (+=, not =)"
    )
    step = t.structure.steps[f.step]  # type: ignore[index]
    assert step.phase == "backward" and "line 20" in " ".join(
        str(p) for row in step.rows for cell in row for p in cell.parts
    )


def test_each_write_shows_what_a_correct_pass_holds_there() -> None:
    # d = a·b + a: a's first share (from +) is right, the = in __mul__ then loses it
    t = traced("mistakes/overwrite_mul_wrong.py")
    written = [r for s in steps(t, "backward") for r in rows(t, s)]
    assert [r.split(" | ")[0] for r in written] == [
        "d.grad: 0.0000 → 1.0000   (correct: 1.0000)",
        "c.grad: 0.0000 → 1.0000   (correct: 1.0000)",
        "a.grad: 0.0000 → 1.0000   (correct: 1.0000)",  # right so far: 1 of its 4
        "a.grad: 1.0000 → 3.0000   (correct: 4.0000)",
        "b.grad: 0.0000 → 2.0000   (correct: 2.0000)",
    ]


def test_the_gradients_one_mistake_made_wrong_name_it_as_their_cause() -> None:
    # no seed: the output's gradient is the mistake; every other one follows from it
    t = traced("mistakes/seed_missing_wrong.py")
    first, *rest = t.numbers.findings
    assert (first.kind, first.cause, first.node) == ("seed", None, t.structure.output)
    assert rest and all(f.cause == 0 for f in rest)
    # one wrong local derivative: the gradients below it are wrong because of it
    t = traced("mistakes/local_tanh_wrong.py")
    assert [(f.kind, f.cause) for f in t.numbers.findings][:2] == [("local", None), ("upstream", 0)]
    # one line out of order makes two gradients wrong: the second names the first
    t = traced("mistakes/order_bfs_wrong.py")
    assert [(f.kind, f.cause) for f in t.numbers.findings] == [("order", None), ("order", 0)]
    # two different mistakes stand on their own
    source = (
        (LEARNERS / "mistakes/overwrite_mul_wrong.py")
        .read_text()
        .replace("other.grad += self.data * out.grad", "other.grad += out.grad")
    )
    causes = [f.cause for f in trace(run(source)).numbers.findings]
    assert causes == [None, None], causes


def test_the_true_gradient_of_an_unknown_op_comes_from_their_own_forward() -> None:
    # text3's engine keeps no op string: every derivative is found by running it again
    t = traced("mistakes/order_recursive_right.py")
    ids = named(t)
    assert t.numbers.true_grad[ids["x"]] == pytest.approx(8.0, rel=1e-6)  # z = r + r·x, r = x + y
    assert t.numbers.true_grad[ids["y"]] == pytest.approx(3.0, rel=1e-6)


def test_the_engine_switch_runs_gradsteps_value_in_place_of_theirs() -> None:
    source = (LEARNERS / "micrograd.py").read_text()
    program = run(source, engine="gradstep")
    assert program.graph.engine == "gradstep"
    assert any("your class Value was left out" in n for n in program.notes)
    t = trace(program)
    assert t.structure.engine == "gradstep"
    assert f"{t.numbers.grad[named(t)['a']]:.4f}" == "138.8338"


def test_a_class_without_a_gradient_is_told_what_is_missing() -> None:
    source = (
        "class N:\n"
        "    def __init__(self, v, ps=()):\n"
        "        self.data = v\n"
        "        self._prev = ps\n"
        "    def __add__(self, o):\n"
        "        return N(self.data + o.data, (self, o))\n"
        "a = N(1.0)\nb = a + a\n"
    )
    with pytest.raises(GradstepError, match="it has no gradient: an attribute named grad"):
        trace(run(source))


def test_a_node_whose_number_is_named_x_is_nudged_for_its_true_gradient() -> None:
    # its own op strings are unknown to gradstep: the truth comes from runs with x nudged
    source = (
        "class V:\n"
        "    def __init__(self, x, parents=(), op=''):\n"
        "        self.x = x\n"
        "        self.grad = 0.0\n"
        "        self.parents = parents\n"
        "        self.op = op\n"
        "        self._backward = lambda: None\n"
        "    def __mul__(self, other):\n"
        "        out = V(self.x * other.x, (self, other), 'times')\n"
        "        def _backward():\n"
        "            self.grad += other.x * out.grad\n"
        "            other.grad += self.x * out.grad\n"
        "        out._backward = _backward\n"
        "        return out\n"
        "a = V(3.0)\nb = V(4.0)\nc = a * b\nc.grad = 1.0\nc._backward()\n"
    )
    t = trace(run(source))
    ids = named(t)
    assert t.numbers.true_grad[ids["a"]] == pytest.approx(4.0, rel=1e-6)
    assert t.numbers.findings == ()


REPEATED = """
class Value:
    def __init__(self, data, children=()):
        self.data = data
        self.grad = 0.0
        self._prev = set(children)
        self._backward = lambda: None
    def __add__(self, other):
        out = Value(self.data + other.data, (self, other))
        def _backward():
            self.grad += out.grad
            other.grad += out.grad
        out._backward = _backward
        return out
    def __mul__(self, other):
        out = Value(self.data * other.data, (self, other))
        def _backward():
            self.grad += other.data * out.grad
            other.grad += self.data * out.grad
        out._backward = _backward
        return out
    def backward(self):
        topo = []
        def build(v):
            for child in v._prev:
                build(child)
            topo.append(v)
        build(self)
        self.grad = 1.0
        for v in reversed(topo):
            v._backward()
x = Value(2.0)
r = x * x
d = r * x
z = r + d
z.backward()
"""


def test_a_step_run_twice_is_found_where_it_runs_again() -> None:
    # no visited set: r is listed twice, so r's step sends x its share twice (x.grad 28, true 16);
    # _prev is a list: CPython's set of the objects would list them in an order of their
    # addresses, which could run r's step before d's (an order mistake found first)
    source = REPEATED.replace("set(children)", "list(children)")
    t = trace(run(source))
    ids = named(t)
    (f,) = t.numbers.findings
    call = source.splitlines().index("            v._backward()") + 1  # the call that repeats
    assert (f.node, f.kind, f.span.line if f.span else None) == (ids["x"], "repeat", call)
    assert t.numbers.true_grad[ids["x"]] == pytest.approx(16.0)
    text = "".join(p if isinstance(p, str) else f"{f.numbers[p]:.4f}" for p in f.text)
    assert text.startswith("x.grad became 22.0000 here, where it should have stayed 16.0000: ")
    # each write row says what a correct pass holds there: the repeat's leave x at 16
    written = [r.split(" | ")[0] for s in steps(t, "backward") for r in rows(t, s)]
    assert written[-2:] == [
        "x.grad: 16.0000 → 22.0000   (correct: 16.0000)",
        "x.grad: 22.0000 → 28.0000   (correct: 16.0000)",
    ]


def test_two_writes_to_one_parent_are_judged_together_when_its_shares_are_not_told_apart() -> None:
    # no op strings: ∂(x·x)/∂x is found numerically, one number (4) for the two lines' 2 + 2
    visited = REPEATED.replace(
        "        def build(v):\n",
        "        seen = set()\n        def build(v):\n            if v in seen:\n"
        "                return\n            seen.add(v)\n",
    )
    t = trace(run(visited))
    assert t.numbers.findings == (), finding_lines(t)
    r_step = [s for s in steps(t, "backward") if s.title.endswith("r._backward() · line 17")]
    assert [row.split(" | ")[0] for row in rows(t, r_step[0])] == [
        "x.grad: 4.0000 → 10.0000",  # half of r's share: judged with the next
        "x.grad: 10.0000 → 16.0000   (correct: 16.0000)",
    ]


SUBTRACTING = """
class V:
    def __init__(self, data, children=(), op=''):
        self.data = data
        self.grad = 0.0
        self._prev = set(children)
        self._op = op
        self._backward = lambda: None
    def __add__(self, other):
        out = V(self.data + other.data, (self, other), '+')
        def _backward():
            self.grad += out.grad
            other.grad += out.grad
        out._backward = _backward
        return out
    def __sub__(self, other):
        out = V(self.data - other.data, (self, other), '-')
        def _backward():
            self.grad += out.grad
            other.grad += -out.grad
        out._backward = _backward
        return out
"""


@pytest.mark.parametrize("before", range(4))
def test_a_correct_engine_has_no_finding_whatever_order_its_set_of_parents_keeps(
    before: int,
) -> None:
    # CPython lists a set of objects in an order of their addresses: d's _prev may hold y
    # before x. d = x - y is still x - y: its true gradients are 1 and -1, and the twin's
    # L = d + y leaves y exactly 0 (objects made before x move the addresses)
    made = "".join(f"w{i} = V({i}.0)\n" for i in range(before))
    source = SUBTRACTING + made + "x = V(3.0)\ny = V(1.0)\nd = x - y\nL = d + y\n"
    source += "L.grad = 1.0\nL._backward()\nd._backward()\nprint(x.grad, y.grad)\n"
    program = run(source)
    assert [text for _, text in program.console] == ["1.0 0.0"]  # as CPython prints
    t = trace(program)
    assert t.numbers.findings == (), finding_lines(t)
    ids = named(t)
    assert t.numbers.true_grad[ids["y"]] == 0.0 and t.numbers.true_grad[ids["x"]] == 1.0
