"""nn: micrograd's Module/Neuron/Layer/MLP, seeded, and two small trainings that must succeed."""

from __future__ import annotations

import random

import pytest

from engine import GradstepError, Value, datasets, losses, nn, optim


def test_mlp_has_micrograd_shape_and_parameter_count() -> None:
    model = nn.MLP(2, [16, 16, 1])
    assert len(model.layers) == 3
    assert len(model.parameters()) == (2 * 16 + 16) + (16 * 16 + 16) + (16 + 1)
    assert [n.activation for n in model.layers[0].neurons] == ["relu"] * 16
    assert [n.activation for n in model.layers[-1].neurons] == ["linear"]
    assert all(-1.0 <= n.w[0].data <= 1.0 and n.b.data == 0.0 for n in model.layers[0].neurons)


def test_a_one_wide_last_layer_returns_a_value_a_wider_one_a_list() -> None:
    assert isinstance(nn.MLP(2, [3, 1])([1.0, 2.0]), Value)
    out = nn.MLP(2, [3, 4])([1.0, 2.0])
    assert isinstance(out, list) and len(out) == 4


def test_initial_weights_come_from_the_seed_alone() -> None:
    state = random.getstate()
    a = [p.data for p in nn.MLP(3, [4, 2], seed=7).parameters()]
    b = [p.data for p in nn.MLP(3, [4, 2], seed=7).parameters()]
    c = [p.data for p in nn.MLP(3, [4, 2], seed=8).parameters()]
    assert a == b != c
    assert random.getstate() == state  # the global generator is left alone


@pytest.mark.parametrize(
    ("activation", "op"),
    [("relu", "relu"), ("tanh", "tanh"), ("sigmoid", "sigmoid"), ("linear", "add")],
)
def test_activations(activation: str, op: str) -> None:
    neuron = nn.Neuron(2, activation)
    out = neuron([0.5, -1.5])
    assert out.op is not None and out.op.name == op


def test_bad_shapes_and_names_are_refused() -> None:
    with pytest.raises(GradstepError, match="takes 2 inputs, not 3"):
        nn.MLP(2, [4, 1])([1.0, 2.0, 3.0])
    with pytest.raises(GradstepError, match="unknown activation 'gelu'"):
        nn.MLP(2, [4, 1], activation="gelu")
    with pytest.raises(GradstepError, match="at least one layer"):
        nn.MLP(2, [])
    with pytest.raises(GradstepError, match="nout must be at least 1"):
        nn.MLP(2, [0, 1])
    with pytest.raises(TypeError, match="nin must be an int, not float"):
        nn.Neuron(2.0)  # type: ignore[arg-type]


def test_zero_grad_resets_every_parameter() -> None:
    model = nn.MLP(2, [3, 1])
    out = model([1.0, -1.0])
    assert isinstance(out, Value)
    (out * out).backward()
    assert any(p.grad != 0.0 for p in model.parameters())
    model.zero_grad()
    assert all(p.grad == 0.0 for p in model.parameters())


def test_moons_with_hinge_and_l2_reaches_full_training_accuracy() -> None:
    # micrograd's demo.ipynb: 100 moons points, MLP(2, [16, 16, 1]), max-margin loss + 1e-4 L2,
    # SGD with learning rate 1.0 − 0.9·k/100, up to 100 full-batch steps.
    X, y = datasets.moons(100, noise=0.1, seed=1)
    ys = datasets.signs(y)
    model = nn.MLP(2, [16, 16, 1], seed=0)  # every model seed 0..5 gets there in <= 53 steps
    sgd = optim.SGD(model.parameters(), lr=1.0, schedule=optim.linear_decay(100, 0.1))
    accuracy = 0.0
    for _ in range(100):
        scores = [model(x) for x in X]
        accuracy = losses.binary_accuracy(scores, ys)
        if accuracy == 1.0:
            break
        loss = losses.hinge(scores, ys) + losses.l2(model.parameters(), 1e-4)
        model.zero_grad()
        loss.backward()
        sgd.step()
    assert accuracy == 1.0


def test_xor_with_tanh_and_mse_reaches_a_small_loss() -> None:
    X, y = datasets.xor()
    model = nn.MLP(2, [8, 1], activation="tanh", seed=0)
    sgd = optim.SGD(model.parameters(), lr=0.2)
    loss = losses.mse([model(x) for x in X], y)
    for _ in range(500):
        if loss.data < 0.01:
            break
        model.zero_grad()
        loss.backward()
        sgd.step()
        loss = losses.mse([model(x) for x in X], y)
    assert loss.data < 0.01
