"""The training loop of the training lab, over engine.nn, losses, optim and datasets.

``train(setup)`` is a generator: a ``Boundary`` of the untrained model, one ``EpochReport`` per
epoch, a ``Boundary`` every ``boundary_every`` epochs (and of the last model, finished or
stopped), then one ``Finished`` with the model's weights. ``should_stop`` is asked before
every batch, so a run can be cancelled between batches.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from engine import datasets, losses, nn, optim
from engine.errors import GradstepError
from engine.lab.boundary import Bounds, Grid, bounds_of
from engine.lab.config import SPIRAL_CLASSES, TrainConfig, check, output_size
from engine.value import Value

if TYPE_CHECKING:
    from engine.lab.replay import Replay

LINEAR_END_FACTOR = 0.1  # "linear": 1.0 → 0.1 of the base rate over the run (micrograd's demo)
STEP_GAMMA = 0.5  # "step": halved after every quarter of the run


@dataclass(frozen=True, slots=True)
class Setup:
    """The data and the freshly initialised model a config describes."""

    config: TrainConfig
    points: list[list[float]]
    labels: list[int]  # class indices 0..classes−1, as the datasets give them
    classes: int
    model: nn.MLP
    bounds: Bounds


@dataclass(frozen=True, slots=True)
class EpochReport:
    epoch: int  # 1-based
    epochs: int
    loss: float  # mean over the epoch's batches (data loss + L2), before each batch's update
    accuracy: float  # share of the epoch's points classified right, before each update
    lr: float  # the rate of the epoch's last step


@dataclass(frozen=True, slots=True)
class Boundary:
    epoch: int
    grid: Grid
    parameters: list[float]  # the model the grid was drawn from (a stopped run keeps it)


@dataclass(frozen=True, slots=True)
class Finished:
    epochs_run: int
    stopped: bool  # cancelled by should_stop before the last epoch
    loss: float  # the final model on the whole dataset
    accuracy: float
    parameters: list[float] = field(repr=False)


Event = EpochReport | Boundary | Finished


def prepare(config: TrainConfig) -> Setup:
    check(config)
    points, labels = _dataset(config)
    classes = SPIRAL_CLASSES if config.dataset == "spiral" else 2
    model = nn.MLP(2, [*config.hidden, output_size(config)], config.activation, config.model_seed)
    return Setup(config, points, labels, classes, model, bounds_of(points))


def boundary_every(config: TrainConfig) -> int:
    return config.boundary_every or max(1, round(config.epochs / 25))


def batching(points: int, batch_size: int) -> tuple[int, int]:
    """A batch's points and the optimiser's steps in an epoch: one step for each batch
    (``batch_size`` 0: the whole set)."""
    batch = min(batch_size or points, points)
    return batch, -(-points // batch)


def train(
    setup: Setup, should_stop: Callable[[], bool] = lambda: False, replay: bool = True
) -> Iterator[Event]:
    """The run's events. ``replay``: each step's numbers are replayed from recorded graphs
    (``engine.lab.replay``); False builds every step's graph with the engine, as a script
    would. Both give the same numbers. The decision boundaries are replayed either way."""
    config, model = setup.config, setup.model
    params = model.parameters()
    replayed = _replay(setup)
    n = len(setup.points)
    batch, steps_per_epoch = batching(n, config.batch_size)
    sgd = optim.SGD(params, config.lr, _schedule(config, config.epochs * steps_per_epoch))
    order = list(range(n))
    shuffler = random.Random(config.model_seed)
    every = boundary_every(config)
    epoch = 0
    stopped = False
    yield _boundary(0, setup, replayed)  # untrained
    while epoch < config.epochs and not stopped:
        if batch < n:
            shuffler.shuffle(order)
        loss_sum = 0.0
        right = 0.0
        for start in range(0, n, batch):
            if should_stop():
                stopped = True
                break
            chosen = order[start : start + batch]
            labels = [setup.labels[i] for i in chosen]
            step = replayed.step(chosen) if replay else None
            loss, outputs = step or _engine_step(setup, chosen)
            loss_sum += loss * len(chosen)
            right += batch_accuracy(config, outputs, labels) * len(chosen)
            sgd.step()
        else:
            epoch += 1
            yield EpochReport(epoch, config.epochs, loss_sum / n, right / n, _last_lr(sgd))
            if epoch % every == 0 or epoch == config.epochs:
                yield _boundary(epoch, setup, replayed)
    if stopped:  # the model as it was stopped, with the updates of a part epoch
        yield _boundary(epoch, setup, replayed)
    final_loss, final_accuracy = evaluate(setup, replayed if replay else None)
    yield Finished(epoch, stopped, final_loss, final_accuracy, [p.data for p in params])


def _replay(setup: Setup) -> Replay:
    from engine.lab.replay import Replay  # numpy: the training worker's, not the web app's

    return Replay(setup)


def _engine_step(setup: Setup, chosen: list[int]) -> tuple[float, list[object]]:
    """The loss of the points ``chosen`` (data + L2), with its gradient in every parameter's
    grad, and the model's outputs: the engine's graph of the whole batch."""
    labels = [setup.labels[i] for i in chosen]
    outputs: list[object] = [setup.model(setup.points[i]) for i in chosen]
    loss = batch_loss(setup.config, outputs, labels, setup.model.parameters())
    setup.model.zero_grad()
    loss.backward()
    return loss.data, outputs


def _boundary(epoch: int, setup: Setup, replayed: Replay) -> Boundary:
    grid = replayed.grid(setup.config.loss, setup.bounds, setup.config.grid)
    return Boundary(epoch, grid, [p.data for p in setup.model.parameters()])


def batch_loss(
    config: TrainConfig, outputs: Sequence[object], labels: Sequence[int], params: list[Value]
) -> Value:
    """The data loss of ``outputs`` (a Value per point, or a list of class scores) plus L2."""
    data = data_loss(config, outputs, labels)
    return data + losses.l2(params, config.l2) if config.l2 > 0 else data


def data_loss(config: TrainConfig, outputs: Sequence[object], labels: Sequence[int]) -> Value:
    if config.loss == "softmax":
        return losses.softmax_cross_entropy(outputs, labels)  # type: ignore[arg-type]
    if config.loss == "bce":
        return losses.binary_cross_entropy(outputs, labels)  # type: ignore[arg-type]
    signs = datasets.signs(list(labels))
    if config.loss == "hinge":
        return losses.hinge(outputs, signs)  # type: ignore[arg-type]
    return losses.mse(outputs, [float(s) for s in signs])  # type: ignore[arg-type]


def batch_accuracy(config: TrainConfig, outputs: Sequence[object], labels: Sequence[int]) -> float:
    if config.loss == "softmax":
        return losses.accuracy(outputs, labels)  # type: ignore[arg-type]
    return losses.binary_accuracy(outputs, labels)  # type: ignore[arg-type]


def evaluate(setup: Setup, replayed: Replay | None = None) -> tuple[float, float]:
    """Loss (data + L2) and accuracy of the current model over the whole dataset (its scores
    replayed if ``replayed`` is given: the same numbers)."""
    outputs = replayed.outputs(setup.points) if replayed else None
    if outputs is None:
        outputs = [setup.model(p) for p in setup.points]
    loss = batch_loss(setup.config, outputs, setup.labels, setup.model.parameters())
    return loss.data, batch_accuracy(setup.config, outputs, setup.labels)


def load_parameters(setup: Setup, values: Sequence[float]) -> None:
    params = setup.model.parameters()
    if len(values) != len(params):
        raise GradstepError(
            f"parameters: this model has {len(params)}, not {len(values)}", kind="value"
        )
    for p, x in zip(params, values, strict=True):
        p.data = float(x)


def _dataset(config: TrainConfig) -> datasets.Dataset:
    if config.dataset == "xor":
        return datasets.xor(config.size, config.noise, config.seed)
    if config.dataset == "spiral":
        return datasets.spiral(config.size, SPIRAL_CLASSES, config.noise, config.seed)
    make = datasets.moons if config.dataset == "moons" else datasets.circles
    return make(config.size, noise=config.noise, seed=config.seed)


def _schedule(config: TrainConfig, total_steps: int) -> optim.Schedule:
    if config.schedule == "linear":
        return optim.linear_decay(total_steps, LINEAR_END_FACTOR)
    if config.schedule == "step":
        return optim.step_decay(max(1, total_steps // 4), STEP_GAMMA)
    return optim.constant()


def _last_lr(sgd: optim.SGD) -> float:
    return sgd.base_lr * sgd.schedule(max(sgd.steps - 1, 0))
