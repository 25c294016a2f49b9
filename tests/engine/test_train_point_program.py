"""engine.lab, one point as a program: the program runs to the model's loss on the point,
micrograd's demo model is inspected as classes that fold, and a model too large to read
says why."""

from __future__ import annotations

from dataclasses import replace

import pytest
from lab_presets import MOONS, XOR

from engine import losses, run, trace
from engine.errors import GradstepError
from engine.lab.config import TrainConfig
from engine.lab.point_program import point_program
from engine.lab.train import prepare, train


@pytest.mark.parametrize(
    ("loss", "dataset", "activation"),
    [
        ("hinge", "moons", "relu"),
        ("mse", "xor", "tanh"),
        ("bce", "circles", "sigmoid"),
        ("softmax", "spiral", "relu"),
        ("softmax", "moons", "linear"),
    ],
)
def test_point_program_runs_to_the_models_loss(loss: str, dataset: str, activation: str) -> None:
    config = TrainConfig(
        dataset=dataset,
        size=12 if dataset != "xor" else 4,
        hidden=(3, 2),
        activation=activation,
        loss=loss,
        lr=0.1,
        epochs=3,
    )
    setup = prepare(config)
    list(train(setup))
    for i in range(len(setup.points)):
        program = point_program(setup, i)
        graph = run(program.source).graph
        out = setup.model(setup.points[i])
        assert graph.data[graph.output] == program.loss
        model_loss = _one_point_loss(config, out, setup.labels[i])
        assert program.loss == model_loss
        assert program.values == len(graph.parents)
        assert set(graph.inputs) == {"x1", "x2"}  # the point; the weights are the model's


def _one_point_loss(config: TrainConfig, out: object, label: int) -> float:
    if config.loss == "softmax":
        return losses.softmax_cross_entropy([out], [label]).data  # type: ignore[list-item]
    if config.loss == "bce":
        return losses.binary_cross_entropy([out], [label]).data  # type: ignore[list-item]
    if config.loss == "hinge":
        return losses.hinge([out], [2 * label - 1]).data  # type: ignore[list-item]
    return losses.mse([out], [2.0 * label - 1]).data  # type: ignore[list-item]


def test_micrograds_demo_model_is_inspected_as_classes_that_fold() -> None:
    program = point_program(prepare(MOONS), 0)  # 337 parameters
    t = trace(run(program.source))
    assert program.values == len(t.structure.nodes) == 982  # the demo's one-point graph, whole
    assert t.numbers.data[t.structure.output] == program.loss
    titles = [c.title for c in t.structure.calls]
    assert titles[:2] == ["model([x1, x2])", "Layer 1"]
    # the constructor is not drawn: each neuron holds the weights and bias it was made with
    assert "MLP" not in titles and titles.count("Layer 3") == 1


@pytest.mark.parametrize(
    "hidden",
    [(64, 64), (40, 40)],  # 4,417 weights: 92,000 characters; 1,801: 38,000, but 5,000+ values
    ids=["too many characters", "too many values"],
)
def test_point_program_of_a_model_too_large_to_read_says_why(hidden: tuple[int, ...]) -> None:
    setup = prepare(replace(MOONS, hidden=hidden))
    with pytest.raises(GradstepError, match="too large to inspect") as caught:
        point_program(setup, 0)
    assert caught.value.kind == "limit"
    assert "fewer or smaller hidden layers" in str(caught.value)
    assert point_program(prepare(replace(MOONS, hidden=(32, 32))), 0).values > 3_000  # fits


def test_point_program_of_a_bad_point_says_which() -> None:
    with pytest.raises(GradstepError, match="no point 4"):
        point_program(prepare(XOR), 4)


@pytest.mark.parametrize("hidden", [(1,), (1, 4), (4, 1)])
def test_a_hidden_layer_one_neuron_wide_is_inspected_too(hidden: tuple[int, ...]) -> None:
    """Issue 30, item 14: such a layer handed the next one a value, not a list, and "Inspect one
    point" answered 422 (zip() needs a list), though the model trains."""
    program = point_program(prepare(replace(MOONS, hidden=hidden)), 0)
    t = trace(run(program.source))
    assert t.numbers.data[t.structure.output] == program.loss
