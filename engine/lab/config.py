"""What a training run is: its config (dataset, model, loss, schedule...), the presets, and
the one check a config passes before anything runs."""

from __future__ import annotations

from dataclasses import dataclass

from engine import nn
from engine.errors import GradstepError

DATASETS = ("xor", "moons", "circles", "spiral")
LOSSES = ("hinge", "mse", "bce", "softmax")
SCHEDULES = ("constant", "linear", "step")
SPIRAL_CLASSES = 3


@dataclass(frozen=True, slots=True)
class TrainConfig:
    dataset: str = "moons"
    size: int = 100
    noise: float = 0.1
    seed: int = 1  # the data's seed
    model_seed: int = 0  # the initial weights' (and the batch order's) seed
    hidden: tuple[int, ...] = (16, 16)
    activation: str = "relu"
    loss: str = "hinge"
    l2: float = 1e-4
    lr: float = 1.0
    schedule: str = "linear"
    batch_size: int = 0  # 0: the whole dataset in every step (full batch)
    epochs: int = 100
    boundary_every: int = 0  # 0: about 25 boundaries over the run
    grid: int = 40


PRESETS: dict[str, tuple[str, TrainConfig]] = {
    "micrograd-moons": (
        "micrograd's demo: moons, MLP(2, [16, 16, 1]), max-margin loss + L2, lr 1.0 − 0.9·k/100",
        TrainConfig(),
    ),
    "xor-tanh": (
        "XOR with a 2-8-1 tanh net, MSE to ±1 targets, lr 0.05 for 200 epochs",
        TrainConfig(
            dataset="xor",
            size=4,
            noise=0.0,
            seed=0,
            model_seed=42,
            hidden=(8,),
            activation="tanh",
            loss="mse",
            l2=0.0,
            lr=0.05,
            schedule="constant",
            epochs=200,
        ),
    ),
    "spiral-softmax": (
        "Three spiral arms, softmax cross-entropy: the multi-class case",
        TrainConfig(
            dataset="spiral",
            size=150,
            noise=0.2,
            seed=0,
            hidden=(16, 16),
            activation="relu",
            loss="softmax",
            l2=1e-4,
            lr=0.5,
            schedule="linear",
            batch_size=30,
            epochs=100,
        ),
    ),
}


def parameter_count(config: TrainConfig) -> int:
    sizes = [2, *config.hidden, output_size(config)]
    return sum((sizes[i] + 1) * sizes[i + 1] for i in range(len(sizes) - 1))


def output_size(config: TrainConfig) -> int:
    if config.loss != "softmax":
        return 1
    return SPIRAL_CLASSES if config.dataset == "spiral" else 2


def check(config: TrainConfig) -> None:
    """Refuses a config the loop cannot run, naming the field."""
    _one_of("dataset", config.dataset, DATASETS)
    _one_of("loss", config.loss, LOSSES)
    _one_of("schedule", config.schedule, SCHEDULES)
    _one_of("activation", config.activation, tuple(nn.ACTIVATIONS))
    if config.dataset == "spiral" and config.loss != "softmax":
        raise GradstepError(
            f"the spiral has {SPIRAL_CLASSES} classes; the {config.loss} loss separates two: "
            "choose softmax cross-entropy",
            kind="value",
        )
    smallest = {"xor": 4, "spiral": SPIRAL_CLASSES}.get(config.dataset, 2)
    _at_least("size", config.size, smallest)
    _at_least("epochs", config.epochs, 1)
    _at_least("grid", config.grid, 2)
    for name in ("batch_size", "boundary_every", "seed", "model_seed"):
        _at_least(name, getattr(config, name), 0)
    if not config.hidden:
        raise GradstepError("hidden: give at least one hidden layer size", kind="value")
    for size in config.hidden:
        _at_least("hidden", size, 1)
    for name in ("noise", "l2"):
        value = getattr(config, name)
        if not value >= 0 or value == float("inf"):
            raise GradstepError(f"{name} must be a finite number >= 0, not {value}", kind="value")
    if not 0 < config.lr < float("inf"):
        raise GradstepError(f"lr must be a positive number, not {config.lr}", kind="value")


def _one_of(name: str, value: str, allowed: tuple[str, ...]) -> None:
    if value not in allowed:
        raise GradstepError(f"{name}: {value!r} is not one of {', '.join(allowed)}", kind="value")


def _at_least(name: str, value: int, minimum: int) -> None:
    if isinstance(value, bool) or not isinstance(value, int) or value < minimum:
        raise GradstepError(f"{name} must be a whole number >= {minimum}, not {value!r}", "value")
