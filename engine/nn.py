"""micrograd's neural-network vocabulary (PyTorch's, in miniature): Module, Neuron, Layer, MLP."""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence

from engine.errors import GradstepError
from engine.value import Value, relu, sigmoid, tanh

ACTIVATIONS: dict[str, Callable[[Value], Value] | None] = {
    "relu": relu,
    "tanh": tanh,
    "sigmoid": sigmoid,
    "linear": None,
}

Inputs = Sequence[Value | float]


class Module:
    """Anything with parameters: zero_grad() resets them all before a fresh backward pass."""

    def parameters(self) -> list[Value]:
        return []

    def zero_grad(self) -> None:
        for p in self.parameters():
            p.grad = 0


class Neuron(Module):
    """activation(w · x + b), with w drawn uniformly from [−1, 1] and b = 0, as in micrograd."""

    def __init__(
        self, nin: int, activation: str = "relu", rng: random.Random | None = None
    ) -> None:
        _check_size("nin", nin)
        rng = rng or random.Random(0)
        self.w = [Value(rng.uniform(-1.0, 1.0)) for _ in range(nin)]
        self.b = Value(0.0)
        self.activation = activation
        self._nonlin = _activation(activation)

    def __call__(self, x: Inputs) -> Value:
        if len(x) != len(self.w):
            raise GradstepError(
                f"this neuron takes {len(self.w)} inputs, not {len(x)}", kind="arity"
            )
        act = sum((wi * xi for wi, xi in zip(self.w, x, strict=True)), self.b)
        return self._nonlin(act) if self._nonlin else act

    def parameters(self) -> list[Value]:
        return [*self.w, self.b]

    def __repr__(self) -> str:
        return f"{self.activation.capitalize()}Neuron({len(self.w)})"


class Layer(Module):
    """``nout`` neurons reading the same inputs; one output comes back as a Value, not a list."""

    def __init__(
        self, nin: int, nout: int, activation: str = "relu", rng: random.Random | None = None
    ) -> None:
        _check_size("nout", nout)
        rng = rng or random.Random(0)
        self.neurons = [Neuron(nin, activation, rng) for _ in range(nout)]

    def __call__(self, x: Inputs) -> Value | list[Value]:
        out = [n(x) for n in self.neurons]
        return out[0] if len(out) == 1 else out

    def parameters(self) -> list[Value]:
        return [p for n in self.neurons for p in n.parameters()]

    def __repr__(self) -> str:
        return f"Layer of [{', '.join(str(n) for n in self.neurons)}]"


class MLP(Module):
    """Layers of the given sizes; every layer but the last applies ``activation``.

    The last layer is linear, as in micrograd, so its outputs are scores (logits). ``seed``
    makes the initial weights reproducible without touching the global ``random`` state.
    """

    def __init__(
        self, nin: int, nouts: Sequence[int], activation: str = "relu", seed: int | None = 0
    ) -> None:
        if not nouts:
            raise GradstepError("an MLP needs at least one layer size", kind="arity")
        _activation(activation)
        rng = random.Random(seed)
        sizes = [nin, *nouts]
        last = len(nouts) - 1
        self.layers = [
            Layer(sizes[i], sizes[i + 1], "linear" if i == last else activation, rng)
            for i in range(len(nouts))
        ]

    def __call__(self, x: Inputs) -> Value | list[Value]:
        out: Value | Inputs = x
        for layer in self.layers:
            out = layer([out] if isinstance(out, Value) else out)  # a 1-wide layer gave a Value
        return out  # type: ignore[return-value]

    def parameters(self) -> list[Value]:
        return [p for layer in self.layers for p in layer.parameters()]

    def __repr__(self) -> str:
        return f"MLP of [{', '.join(str(layer) for layer in self.layers)}]"


def _activation(name: str) -> Callable[[Value], Value] | None:
    if name not in ACTIVATIONS:
        raise GradstepError(
            f"unknown activation {name!r}: choose one of {', '.join(ACTIVATIONS)}",
            kind="name",
        )
    return ACTIVATIONS[name]


def _check_size(what: str, n: int) -> None:
    if isinstance(n, bool) or not isinstance(n, int):
        raise TypeError(f"{what} must be an int, not {type(n).__name__}")
    if n < 1:
        raise GradstepError(f"{what} must be at least 1, not {n}", kind="domain")
