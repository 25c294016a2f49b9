"""The acceptance programs, pasted verbatim (app/lecture.py): each builds its graph, whose
grads equal PyTorch's on the same weights, both replayed op by op and rebuilt independently as
the model the program describes; with the calls, labels, updates and notes it should have."""

from __future__ import annotations

import random
from typing import Any

import pytest
from engine_oracles import close, torch_replay

from app.lecture import (
    DEMO,
    LECTURE_MLP,
    LECTURE_NEURON,
    LECTURE_NEURON_EXP,
    LECTURE_NOTEBOOK_NEURON,
    MICROGRAD_NN_MLP,
    MICROGRAD_README,
    MICROGRAD_README_TRACING,
)
from engine import Value, trace
from engine import parse as parse_any
from engine.datasets import moons
from engine.language import OwnProgram, Program, graph_program
from engine.limits import DEFAULT_SEED

torch = pytest.importorskip("torch")
ALL = [
    MICROGRAD_README,
    MICROGRAD_README_TRACING,
    LECTURE_NEURON,
    LECTURE_NEURON_EXP,
    LECTURE_MLP,
    MICROGRAD_NN_MLP,
    DEMO,
]
IDS = ["readme", "tracing", "neuron", "neuron-exp", "lecture-mlp", "nn-mlp", "demo"]


def parse(source: str) -> Program:
    """These programs' graphs are gradstep's values (the notebook's own Value: below)."""
    return graph_program(parse_any(source))


def grads_of(program: Program) -> dict[Value, float]:
    """The engine's own backward pass from the output (parse leaves the grads at zero)."""
    program.output.backward()
    return {v: v.grad for v in program.spans if v.op is None and not v.constant}


def leaves(program: Program) -> list[Value]:
    return [v for v in program.spans if v.op is None and not v.constant]


@pytest.mark.parametrize("source", ALL, ids=IDS)
def test_grads_equal_pytorch_replaying_the_graph(source: str) -> None:
    program = parse(source)
    value, want = torch_replay(program.output)
    assert close(program.output.data, value, 1e-12, 1e-12)
    grads = grads_of(program)
    assert want.keys() <= grads.keys()
    for v, g in want.items():
        assert close(grads[v], g, 1e-9, 1e-12), (program.labels.get(v), grads[v], g)


@pytest.mark.parametrize("source", ALL, ids=IDS)
def test_same_program_same_graph(source: str) -> None:
    one, two = parse(source), parse(source)
    assert [(v.data, v.op) for v in one.spans] == [(v.data, v.op) for v in two.spans]
    assert list(one.spans.values()) == list(two.spans.values())
    assert list(one.labels.values()) == list(two.labels.values())
    assert one.calls == two.calls


@pytest.mark.parametrize("source", ALL, ids=IDS)
def test_the_trace_replays_every_program(source: str) -> None:
    t = trace(parse(source))
    seed = next(s for s in t.structure.steps if s.phase == "backward")
    assert len(t.structure.nodes) > 0 and seed.node == t.structure.output


# 1. the README ------------------------------------------------------------------------------


def test_readme_numbers() -> None:
    program = parse(MICROGRAD_README)
    assert f"{program.output.data:.4f}" == "24.7041"
    grads_of(program)
    assert f"{program.inputs['a'].grad:.4f}" == "138.8338"
    assert f"{program.inputs['b'].grad:.4f}" == "645.5773"
    assert program.calls == () and program.updates == () and program.notes == ()


def test_readme_tracing_snippet_makes_a_neuron_call() -> None:
    program = parse(MICROGRAD_README_TRACING)
    assert [c.name for c in program.calls] == ["Neuron", "Neuron"]  # __init__, then __call__
    assert program.labels[program.output] == "y"  # act.relu(), unnamed, then y = n(x)
    act = program.output.parents[0]
    assert program.labels[act] == "act" and program.call_of[act] == 1


# 2. the lecture's neurons -------------------------------------------------------------------

LECTURE_GRADS = {"x1": -1.5, "x2": 0.5, "w1": 1.0, "w2": 0.0, "b": 0.5}


@pytest.mark.parametrize("source", [LECTURE_NEURON, LECTURE_NEURON_EXP])
def test_lecture_neuron_labels_and_grads(source: str) -> None:
    program = parse(source)
    assert list(program.inputs) == ["x1", "x2", "w1", "w2", "b"]
    assert program.labels[program.output] == "o" and program.output.label == "o"
    assert round(program.output.data, 4) == 0.7071
    grads_of(program)
    assert {k: round(v.grad, 4) for k, v in program.inputs.items()} == LECTURE_GRADS
    named = set(program.labels.values())
    assert {"x1*w1", "x2*w2", "x1*w1 + x2*w2", "n", "o"} <= named


def test_lecture_neuron_with_exp_names_e() -> None:
    program = parse(LECTURE_NEURON_EXP)
    assert "e" in program.labels.values()
    assert program.output.op is not None and program.output.op.name == "div"


def test_the_notebooks_own_value_runs_and_its_graphviz_cells_are_skipped_with_notes() -> None:
    program = parse_any(LECTURE_NOTEBOOK_NEURON)
    assert isinstance(program, OwnProgram) and program.output.cls.name == "Value"
    notes = program.notes
    assert any("%matplotlib inline is a notebook command" in n for n in notes)
    assert not any("class Value was skipped" in n for n in notes)
    assert any("def draw_dot was skipped" in n for n in notes)
    assert any("def trace was skipped" in n for n in notes)
    assert list(program.inputs) == ["x1", "x2", "w1", "w2", "b"]
    assert round(program.output.attrs["data"], 4) == 0.7071  # type: ignore[call-overload]


# 3 and 4. an MLP, a training step -----------------------------------------------------------


def identity(x: Any) -> Any:
    return x


def torch_mlp(params: list[Any], x: list[float], sizes: list[int], hidden: Any, last: Any) -> Any:
    """micrograd's MLP in torch: each neuron b + w0·x0 + w1·x1 + ... (in that order), the
    weights then the bias of each neuron in ``params``; one output comes back as a scalar."""
    it = iter(params)
    inputs: list[Any] = [torch.tensor(v, dtype=torch.float64) for v in x]
    for layer, nout in enumerate(sizes[1:]):
        act = last if layer == len(sizes) - 2 else hidden
        out = []
        for _ in range(nout):
            w = [next(it) for _ in inputs]
            s = next(it)
            for wi, xi in zip(w, inputs, strict=True):
                s = s + wi * xi
            out.append(act(s))
        inputs = out
    return inputs[0] if len(inputs) == 1 else inputs


XS = [[2.0, 3.0, -1.0], [3.0, -1.0, 0.5], [0.5, 1.0, 1.0], [1.0, 1.0, -1.0]]
YS = [1.0, -1.0, -1.0, 1.0]
LECTURE = (torch.tanh, torch.tanh)  # the lecture's classes: tanh on every layer
NN = (torch.relu, identity)  # micrograd.nn: ReLU hidden layers, a linear output


@pytest.mark.parametrize(
    ("source", "model"), [(LECTURE_MLP, LECTURE), (MICROGRAD_NN_MLP, NN)], ids=["lecture", "nn"]
)
def test_mlp_loss_and_grads_equal_the_same_model_in_pytorch(source: str, model: Any) -> None:
    program = parse(source)
    params = leaves(program)
    assert len(params) == 41
    rng = random.Random(DEFAULT_SEED)  # the program sets no seed: gradstep's documented one
    if model is NN:  # micrograd.nn draws the weights; every bias is 0
        assert [p.data for p in params[:4]] == [*(rng.uniform(-1, 1) for _ in range(3)), 0.0]
    else:  # the lecture's classes draw the bias too
        assert [p.data for p in params[:4]] == [rng.uniform(-1, 1) for _ in range(4)]
    tensors = [torch.tensor(p.data, dtype=torch.float64, requires_grad=True) for p in params]
    loss: Any = 0.0
    for x, y in zip(XS, YS, strict=True):
        loss = loss + (torch_mlp(tensors, x, [3, 4, 4, 1], *model) - y) ** 2
    loss.backward()
    assert close(program.output.data, loss.item(), 1e-9, 1e-12)
    grads = grads_of(program)
    for p, t in zip(params, tensors, strict=True):
        assert close(grads[p], t.grad.item(), 1e-9, 1e-12)


@pytest.mark.parametrize("source", [LECTURE_MLP, MICROGRAD_NN_MLP], ids=["lecture", "nn"])
def test_mlp_calls_nest_as_the_model_does(source: str) -> None:
    program = parse(source)
    calls = program.calls
    children = {c.id: [d for d in calls if d.parent == c.id] for c in calls}
    top = [c for c in calls if c.parent is None]
    assert [c.name for c in top] == ["MLP"] * 5  # MLP(3, [4, 4, 1]), then n(x) four times
    line = source.splitlines()
    for c in top:
        text = line[c.span.line - 1][c.span.column - 1 : c.span.end_column - 1]
        assert text == ("MLP(3, [4, 4, 1])" if c is top[0] else "n(x)")
        layers = children[c.id]
        assert [d.name for d in layers] == ["Layer"] * 3
        assert [len(children[d.id]) for d in layers] == [4, 4, 1]
        assert all(n.name == "Neuron" for d in layers for n in children[d.id])
    assert len(calls) == 1 + 3 + 9 + 4 * (1 + 3 + 9)
    assert [c.id for c in calls] == list(range(len(calls)))
    init = {c.id for c in calls if _ancestor(calls, c) == top[0].id}
    params = leaves(program)
    assert all(program.call_of[p] in init for p in params)
    assert all(calls[program.call_of[p]].name == "Neuron" for p in params)
    assert program.output not in program.call_of  # the loss is made at the top level


def _ancestor(calls: tuple[Any, ...], call: Any) -> int:
    while call.parent is not None:
        call = calls[call.parent]
    return int(call.id)


@pytest.mark.parametrize("source", [LECTURE_MLP, MICROGRAD_NN_MLP], ids=["lecture", "nn"])
def test_mlp_labels_are_the_names_in_the_code(source: str) -> None:
    program = parse(source)
    params = leaves(program)
    assert [program.labels[p] for p in params[:4]] == ["w[0]", "w[1]", "w[2]", "b"]
    assert program.labels[program.output] == "loss"
    assert "act" in program.labels.values()
    assert not program.inputs  # no top-level leaves: the weights are no sliders


@pytest.mark.parametrize("source", [LECTURE_MLP, MICROGRAD_NN_MLP], ids=["lecture", "nn"])
def test_the_gradient_step_is_reported_and_undone(source: str) -> None:
    program = parse(source)
    params = leaves(program)
    grads = grads_of(program)
    assert [u.value for u in program.updates] == params
    for u in program.updates:
        assert u.value.data == u.before  # the graph keeps the forward pass's numbers
        assert u.after == u.before + -0.1 * grads[u.value]
        assert source.splitlines()[u.span.line - 1].strip() == "p.data += -0.1 * p.grad"
    value, _ = torch_replay(program.output)
    assert close(value, program.output.data, 1e-12, 1e-12)


# 5. demo.ipynb -------------------------------------------------------------------------------


def test_demo_loss_equals_pytorch_on_the_same_weights_and_moons() -> None:
    program = parse(DEMO)
    weights = leaves(program)[:337]  # the model's, drawn first; then the 8 inputs of loss()
    rng = random.Random(1337)  # random.seed(1337), as the notebook does
    assert weights[0].data == rng.uniform(-1, 1)
    seed = random.Random(1337).randrange(2**32)  # np.random.seed(1337) seeds make_moons
    X, y = moons(4, 0.1, seed)
    labels = [2 * label - 1 for label in y]  # y*2 - 1
    assert [v.data for v in leaves(program)[337:]] == [x for row in X for x in row]
    params = [torch.tensor(p.data, dtype=torch.float64, requires_grad=True) for p in weights]
    scores = [torch_mlp(params, row, [2, 16, 16, 1], *NN) for row in X]
    losses = [torch.relu(1 + -yi * s) for yi, s in zip(labels, scores, strict=True)]
    data_loss = sum(losses) * (1.0 / len(losses))
    total = data_loss + 1e-4 * sum(p * p for p in params)
    total.backward()
    assert close(program.output.data, total.item(), 1e-9, 1e-12)
    grads = grads_of(program)
    for p, t in zip(weights, params, strict=True):
        assert close(grads[p], t.grad.item(), 1e-9, 1e-12)


def test_demo_calls_labels_and_notes() -> None:
    program = parse(DEMO)
    names = [c.name for c in program.calls]
    assert names[0] == "MLP" and names.count("loss") == 1
    assert names.count("MLP") == 1 + 4  # MLP(2, [16, 16, 1]), then model(x) through map()
    assert names.count("Neuron") == 33 * 5
    loss = next(c for c in program.calls if c.name == "loss")
    inside = [c for c in program.calls if c.parent == loss.id]
    assert [c.name for c in inside] == ["MLP"] * 4
    assert program.labels[program.output] == "total_loss"
    assert program.call_of[program.output] == loss.id
    assert program.updates == ()
    assert program.notes == (  # every skipped line is listed
        "line 4: %matplotlib inline is a notebook command: skipped",
        "line 16: plt.figure(...) was skipped: gradstep shows no plots",
        "line 17: plt.scatter(...) was skipped: gradstep shows no plots",
    )
