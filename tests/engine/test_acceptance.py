"""The acceptance programs, pasted verbatim (app/lecture): each builds its graph, whose grads
equal PyTorch's on the same weights, both replayed op by op and rebuilt independently as the
model the program describes; with the calls, names, labels, updates and notes it should have."""

from __future__ import annotations

import random
from typing import Any

import pytest
from engine_oracles import close, torch_replay
from traces import values

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
from engine import Graph, run, trace
from engine.graph import backward
from engine.limits import DEFAULT_SEED
from engine.program import Call
from engine.trace import outline

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


def graph(source: str) -> Graph:
    """These programs' graphs are gradstep's values (the notebook's own Value: below)."""
    g = run(source).graph
    assert g.engine == "gradstep"
    return g


def leaves(g: Graph) -> list[int]:
    """The nodes that take a gradient and have no operands, in the order they were made."""
    return [i for i, ps in enumerate(g.parents) if not ps and not g.constant[i]]


def grads_of(g: Graph) -> dict[int, float]:
    """The engine's own backward pass from the output, on the graph's values rebuilt."""
    rebuilt = values(g)
    backward(rebuilt[g.output])
    return {i: rebuilt[i].grad for i in leaves(g)}


def output(g: Graph) -> float:
    return g.data[g.output]


@pytest.mark.parametrize("source", ALL, ids=IDS)
def test_grads_equal_pytorch_replaying_the_graph(source: str) -> None:
    program = run(source)
    g = program.graph
    rebuilt = values(g)
    value, want = torch_replay(rebuilt[g.output])
    assert close(output(g), value, 1e-12, 1e-12)
    grads = grads_of(g)
    index = {id(v): i for i, v in enumerate(rebuilt)}
    assert {index[id(v)] for v in want} <= grads.keys()
    for v, expected in want.items():
        i = index[id(v)]
        assert close(grads[i], expected, 1e-9, 1e-12), (g.names[i], grads[i], expected)
    t = trace(program)  # the trace's numbers are backward()'s, by its node ids
    ids = {i: node for node, i in enumerate(outline(program).order)}
    assert {i: t.numbers.grad[ids[i]] for i in grads} == grads


@pytest.mark.parametrize("source", ALL, ids=IDS)
def test_same_program_same_graph(source: str) -> None:
    one, two = graph(source), graph(source + "\n")  # run afresh: the runs kept are by the text
    assert one.data == two.data and one.ops == two.ops and one.parents == two.parents
    assert one.spans == two.spans
    assert one.names == two.names and one.labels == two.labels
    assert one.call_list == two.call_list and one.calls == two.calls


@pytest.mark.parametrize("source", ALL, ids=IDS)
def test_the_trace_replays_every_program(source: str) -> None:
    t = trace(run(source))
    seed = next(s for s in t.structure.steps if s.phase == "backward")
    assert len(t.structure.nodes) > 0 and seed.node == t.structure.output


# 1. the README ------------------------------------------------------------------------------


def test_readme_numbers() -> None:
    program = run(MICROGRAD_README)
    g = program.graph
    assert f"{output(g):.4f}" == "24.7041"
    grads = grads_of(g)
    assert f"{grads[g.inputs['a']]:.4f}" == "138.8338"
    assert f"{grads[g.inputs['b']]:.4f}" == "645.5773"
    assert g.call_list == () and g.updates == () and program.notes == ()


def test_readme_tracing_snippet_makes_a_neuron_call() -> None:
    g = graph(MICROGRAD_README_TRACING)
    assert [c.name for c in g.call_list] == ["Neuron", "Neuron"]  # __init__, then __call__
    assert g.names[g.output] == "y"  # act.relu(), unnamed, then y = n(x)
    (act,) = g.parents[g.output]
    assert g.names[act] == "act" and g.calls[act] == 1


# 2. the lecture's neurons -------------------------------------------------------------------

LECTURE_GRADS = {"x1": -1.5, "x2": 0.5, "w1": 1.0, "w2": 0.0, "b": 0.5}


@pytest.mark.parametrize("source", [LECTURE_NEURON, LECTURE_NEURON_EXP])
def test_lecture_neuron_labels_and_grads(source: str) -> None:
    g = graph(source)
    assert list(g.inputs) == ["x1", "x2", "w1", "w2", "b"]
    assert g.names[g.output] == "o" and g.labels[g.output] == "o"
    assert round(output(g), 4) == 0.7071
    grads = grads_of(g)
    assert {k: round(grads[i], 4) for k, i in g.inputs.items()} == LECTURE_GRADS
    assert {"x1*w1", "x2*w2", "x1*w1 + x2*w2", "n", "o"} <= set(g.labels)


def test_lecture_neuron_with_exp_names_e() -> None:
    g = graph(LECTURE_NEURON_EXP)
    assert "e" in g.names
    op = g.ops[g.output]
    assert op is not None and op.op is not None and op.op.name == "div"


def test_the_notebooks_own_value_runs_with_its_graphviz_cells() -> None:
    program = run(LECTURE_NOTEBOOK_NEURON)
    g = program.graph
    assert g.engine == "program" and g.engine_class == "Value"
    assert any("%matplotlib is a notebook command" in n for n in program.notes)
    assert not any("was skipped" in n or "was left out" in n for n in program.notes)
    assert list(g.inputs) == ["x1", "x2", "w1", "w2", "b"]
    assert round(output(g), 4) == 0.7071
    assert g.names[g.output] == "o"  # draw_dot(o), their own, ran and marked it


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
    g = graph(source)
    params = leaves(g)
    assert len(params) == 41
    rng = random.Random(DEFAULT_SEED)  # the program sets no seed: gradstep's documented one
    if model is NN:  # micrograd.nn draws the weights; every bias is 0
        assert [g.data[p] for p in params[:4]] == [*(rng.uniform(-1, 1) for _ in range(3)), 0.0]
    else:  # the lecture's classes draw the bias too
        assert [g.data[p] for p in params[:4]] == [rng.uniform(-1, 1) for _ in range(4)]
    tensors = [torch.tensor(g.data[p], dtype=torch.float64, requires_grad=True) for p in params]
    loss: Any = 0.0
    for x, y in zip(XS, YS, strict=True):
        loss = loss + (torch_mlp(tensors, x, [3, 4, 4, 1], *model) - y) ** 2
    loss.backward()
    assert close(output(g), loss.item(), 1e-9, 1e-12)
    grads = grads_of(g)
    for p, t in zip(params, tensors, strict=True):
        assert close(grads[p], t.grad.item(), 1e-9, 1e-12)


@pytest.mark.parametrize("source", [LECTURE_MLP, MICROGRAD_NN_MLP], ids=["lecture", "nn"])
def test_mlp_calls_nest_as_the_model_does(source: str) -> None:
    g = graph(source)
    calls = g.call_list
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
    params = leaves(g)
    assert all(g.calls[p] in init for p in params)
    assert all(calls[g.calls[p]].name == "Neuron" for p in params)  # type: ignore[index]
    assert g.calls[g.output] is None  # the loss is made at the top level


def _ancestor(calls: tuple[Call, ...], call: Call) -> int:
    while call.parent is not None:
        call = calls[call.parent]
    return call.id


@pytest.mark.parametrize("source", [LECTURE_MLP, MICROGRAD_NN_MLP], ids=["lecture", "nn"])
def test_mlp_names_are_the_names_in_the_code(source: str) -> None:
    g = graph(source)
    params = leaves(g)
    assert [g.names[p] for p in params[:4]] == ["w[0]", "w[1]", "w[2]", "b"]
    assert g.names[g.output] == "loss"
    assert "act" in g.names
    assert not g.inputs  # no top-level leaves: the weights are no sliders


@pytest.mark.parametrize("source", [LECTURE_MLP, MICROGRAD_NN_MLP], ids=["lecture", "nn"])
def test_the_gradient_step_is_reported_and_undone(source: str) -> None:
    g = graph(source)
    params = leaves(g)
    grads = grads_of(g)
    # a weight whose grad is 0 (a ReLU dead for every point) keeps its number: no change to list
    changed = [p for p in params if g.data[p] + -0.1 * grads[p] != g.data[p]]
    assert [u.node for u in g.updates] == changed and len(changed) > len(params) // 2
    for u in g.updates:
        assert source.splitlines()[u.span.line - 1].strip() == "p.data += -0.1 * p.grad"
        assert u.after == g.data[u.node] + -0.1 * grads[u.node]
    assert [u.before for u in g.updates] == [g.data[p] for p in changed]  # the forward's numbers
    value, _ = torch_replay(values(g)[g.output])
    assert close(value, output(g), 1e-12, 1e-12)


# 5. demo.ipynb -------------------------------------------------------------------------------


def test_demo_loss_equals_pytorch_on_the_same_weights_and_moons() -> None:
    g = graph(DEMO)
    weights = leaves(g)[:337]  # the model's, drawn first; then the 8 inputs of loss()
    rng = random.Random(1337)  # random.seed(1337), as the notebook does
    assert g.data[weights[0]] == rng.uniform(-1, 1)
    # np.random.seed(1337), then scikit-learn's make_moons on numpy's draws: the stand-ins
    # the sandbox imports for them (each checked against the real library, tests/engine/guest)
    np = pytest.importorskip("engine.guest.modules.numpy")
    from engine.guest.modules.sklearn import datasets

    np.random.seed(1337)
    moons, classes = datasets.make_moons(n_samples=4, noise=0.1)
    X, y = moons.tolist(), classes.tolist()
    labels = [2 * label - 1 for label in y]  # y*2 - 1
    assert [g.data[i] for i in leaves(g)[337:]] == [x for row in X for x in row]
    params = [torch.tensor(g.data[p], dtype=torch.float64, requires_grad=True) for p in weights]
    scores = [torch_mlp(params, row, [2, 16, 16, 1], *NN) for row in X]
    losses = [torch.relu(1 + -yi * s) for yi, s in zip(labels, scores, strict=True)]
    data_loss = sum(losses) * (1.0 / len(losses))
    total = data_loss + 1e-4 * sum(p * p for p in params)
    total.backward()
    assert close(output(g), total.item(), 1e-9, 1e-12)
    grads = grads_of(g)
    for p, t in zip(weights, params, strict=True):
        assert close(grads[p], t.grad.item(), 1e-9, 1e-12)


def test_demo_calls_names_notes_and_plots() -> None:
    program = run(DEMO)
    g = program.graph
    names = [c.name for c in g.call_list]
    assert names[0] == "MLP" and names.count("loss") == 1
    assert names.count("MLP") == 1 + 4  # MLP(2, [16, 16, 1]), then model(x) through map()
    assert names.count("Neuron") == 33 * 5
    loss = next(c for c in g.call_list if c.name == "loss")
    inside = [c for c in g.call_list if c.parent == loss.id]
    assert [c.name for c in inside] == ["MLP"] * 4
    assert g.names[g.output] == "total_loss"
    assert g.calls[g.output] == loss.id
    assert g.updates == ()
    assert program.notes == ("line 4: %matplotlib is a notebook command: skipped",)
    (figure,) = program.plots  # plt.figure and plt.scatter: recorded, not skipped
    (axes,) = figure["axes"]
    assert len(axes["series"]) == 1
