"""engine.lab, the replay: scores and whole training runs replayed on arrays (the tape's vector
ops) give the Value graph's numbers, to the last bit where numpy's kernels allow; a run that
overflows raises the engine's error; and the classes and confidence read off the scores."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest
from lab_presets import MOONS, XOR

from engine import OPS, nn
from engine.errors import GradstepError
from engine.lab.config import PRESETS, TrainConfig
from engine.lab.replay import Replay, classify, decision_grid
from engine.lab.tape import VECTOR_OPS
from engine.lab.train import EpochReport, Finished, prepare, train

# numpy's tanh and exp (sigmoid's) and the C library's can differ in the last bit: numpy has
# its own kernels for them (AVX-512 ones, where the CPU has it: sigmoid differed there)
LAST_BIT = ("tanh", "sigmoid")


@pytest.mark.parametrize("activation", ["relu", "tanh", "sigmoid", "linear"])
def test_replayed_scores_are_the_value_graphs(activation: str) -> None:
    for loss, classes in (("hinge", 1), ("softmax", 3)):
        config = TrainConfig(dataset="spiral" if classes == 3 else "moons", loss=loss, size=9)
        setup = prepare(replace(config, hidden=(5, 4), activation=activation))
        replayed = Replay(setup).outputs(setup.points)
        assert replayed is not None
        for x, out in zip(setup.points, replayed, strict=True):
            graph = setup.model(x)
            expected = [graph.data] if classes == 1 else [v.data for v in graph]  # type: ignore[union-attr]
            got = [out.data] if classes == 1 else [v.data for v in out]
            if activation in LAST_BIT:
                assert got == pytest.approx(expected, rel=1e-14, abs=1e-15)
            else:
                assert got == expected
    grid = decision_grid(Replay(setup).tape, "softmax", setup.bounds, 7)
    assert len(grid.classes) == 49 and set(grid.classes) <= {0, 1, 2}
    assert all(0.0 <= c <= 1.0 for c in grid.confidence)


@pytest.mark.parametrize("name", sorted(VECTOR_OPS))
def test_each_vector_op_is_the_op_tables_arithmetic_on_arrays(name: str) -> None:
    op, vector = OPS[name], VECTOR_OPS[name]
    rng = np.random.default_rng(0)
    operands = [
        rng.standard_normal(200) * 10.0 ** rng.integers(-3, 3, 200) for _ in range(op.arity)
    ]
    operands[0][:3] = [0.0, -0.0, 800.0]  # relu's kink; sigmoid far from 0
    out, local = vector(*operands)
    for i, xs in enumerate(zip(*operands, strict=True)):
        expected_out, expected_local = op.eval(*xs)
        got = [out[i], *(np.broadcast_to(d, out.shape)[i] for d in local)]
        if name in LAST_BIT:
            assert got == pytest.approx([expected_out, *expected_local], rel=1e-15, abs=1e-15)
        else:
            assert got == [expected_out, *expected_local]
    assert {a for a in nn.ACTIVATIONS if a != "linear"} <= set(VECTOR_OPS)


SMALL_MOONS = replace(MOONS, size=30, hidden=(8, 8), epochs=6, grid=5)


@pytest.mark.parametrize(
    "config",
    [
        SMALL_MOONS,  # micrograd's demo, smaller: the loss's graph replayed too
        replace(SMALL_MOONS, loss="mse", lr=0.05, batch_size=8),  # mini-batches
        replace(SMALL_MOONS, dataset="circles", loss="bce", activation="sigmoid"),
        replace(PRESETS["spiral-softmax"][1], size=30, batch_size=7, epochs=4, grid=5),
        replace(XOR, epochs=30),  # tanh
        replace(SMALL_MOONS, activation="linear", l2=0.0),
    ],
    ids=["hinge-relu", "mse-batches", "bce-sigmoid", "softmax-spiral", "xor-tanh", "linear-no-l2"],
)
def test_replayed_training_gives_the_engines_numbers_epoch_by_epoch(config: TrainConfig) -> None:
    engine = list(train(prepare(config), replay=False))
    replayed = list(train(prepare(config)))
    assert [type(e) for e in replayed] == [type(e) for e in engine]
    for ours, theirs in zip(replayed, engine, strict=True):
        if isinstance(ours, EpochReport):
            assert isinstance(theirs, EpochReport)
            assert (ours.epoch, ours.accuracy, ours.lr) == (
                theirs.epoch,
                theirs.accuracy,
                theirs.lr,
            )
            assert ours.loss == pytest.approx(theirs.loss, rel=0, abs=1e-9)
            if config.activation not in LAST_BIT:  # the same numbers to the last bit
                assert ours.loss == theirs.loss
        if isinstance(ours, Finished):
            assert isinstance(theirs, Finished)
            assert ours.parameters == pytest.approx(theirs.parameters, rel=0, abs=1e-9)


def test_a_replayed_run_that_overflows_raises_the_engines_error() -> None:
    config = replace(XOR, activation="relu", lr=1e6, epochs=50)
    errors = []
    for replay in (False, True):
        with pytest.raises(GradstepError) as caught:
            list(train(prepare(config), replay=replay))
        errors.append((caught.value.kind, caught.value.message))
    assert errors[0] == errors[1] and errors[0][0] == "overflow"


def test_classify_binary_and_multiclass() -> None:
    def one(scores: list[float], loss: str) -> tuple[int, float]:
        classes, sure = classify(np.array([[s] for s in scores]), loss)
        return int(classes[0]), float(sure[0])

    assert one([2.5], "hinge") == (1, 1.0)
    assert one([-0.25], "mse") == (0, 0.25)
    assert one([0.0], "bce") == (0, 0.0)
    _, sure = one([1.0, 1.0, 1.0], "softmax")
    assert sure == pytest.approx(0.0, abs=1e-12)
    assert one([0.0, 50.0, 0.0], "softmax")[0] == 1
