"""One data point's loss as a Python program on gradstep's Value, for "Inspect one point".

The program is written as the micrograd lecture writes a network: Neuron, Layer and MLP
classes, the trained weights as numbers handed to MLP (so building it is one call, folded into
one box), the point's coordinates as the values x1 and x2 (inputs: their sliders move the
point), and the loss below. Sums run in ``engine.nn``'s order and the loss is
``engine.losses``' formula, so the program's output is the model's loss for that point,
exactly. Numbers are written with ``repr``, which reads back exactly. The L2 term is left out:
it is the same for every point.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.errors import GradstepError
from engine.lab.train import Setup, data_loss
from engine.limits import MAX_NODES, MAX_SOURCE_CHARS
from engine.runner import run


@dataclass(frozen=True, slots=True)
class PointProgram:
    source: str
    loss: float  # the model's data loss for the point (no L2), as engine.losses computes it
    values: int  # values in the program's graph


CLASSES = """\
class Neuron:
  def __init__(self, numbers, nonlin):
    self.w = [Value(wi) for wi in numbers[:-1]]
    self.b = Value(numbers[-1])
    self.nonlin = nonlin

  def __call__(self, x):
    act = sum((wi*xi for wi, xi in zip(self.w, x)), self.b)
    if self.nonlin == 'relu':
      return act.relu()
    if self.nonlin == 'tanh':
      return act.tanh()
    if self.nonlin == 'sigmoid':
      return act.sigmoid()
    return act

class Layer:
  def __init__(self, neurons, nonlin):
    self.neurons = [Neuron(numbers, nonlin) for numbers in neurons]

  def __call__(self, x):
    return [n(x) for n in self.neurons]

class MLP:
  def __init__(self, weights, nonlins):
    self.layers = [Layer(neurons, nonlin) for neurons, nonlin in zip(weights, nonlins)]

  def __call__(self, x):
    for layer in self.layers:
      x = layer(x)
    return x[0] if len(x) == 1 else x
"""


def point_program(setup: Setup, index: int) -> PointProgram:
    if not 0 <= index < len(setup.points):
        raise GradstepError(
            f"point: there is no point {index} (the dataset has {len(setup.points)})", "value"
        )
    x = setup.points[index]
    label = setup.labels[index]
    layers = setup.model.layers
    weights = ["weights = [  # layer by layer, a neuron per line: its weights, then its bias"]
    for i, layer in enumerate(layers, start=1):
        weights.append(f"  [  # layer {i}")
        for neuron in layer.neurons:
            numbers = ", ".join(repr(p.data) for p in (*neuron.w, neuron.b))
            weights.append(f"    [{numbers}],")
        weights.append("  ],")
    weights.append("]")
    nonlins = [layer.neurons[0].activation for layer in layers]
    width = len(layers[-1].neurons)  # one score, or one per class
    outputs = ["score"] if width == 1 else [f"s[{k}]" for k in range(width)]
    lines = [
        f"# the training lab's model and its {setup.config.loss} loss on point {index} at "
        f"({x[0]:.4g}, {x[1]:.4g}), class {label}",
        CLASSES,
        *weights,
        f"model = MLP(weights, {nonlins!r})",
        "",
        f"x1 = Value({x[0]!r})",
        f"x2 = Value({x[1]!r})",
        f"{'score' if width == 1 else 's'} = model([x1, x2])",
    ]
    scores = [n.data for n in _outputs(setup, index)]
    lines += _loss_lines(setup.config.loss, outputs, scores, label)
    lines.append("loss.backward()")
    source = "\n".join(lines) + "\n"

    def too_big(what: str) -> GradstepError:
        return GradstepError(
            f"this model is too large to inspect: one point's loss here is {what}, and gradstep "
            "draws less: use fewer or smaller hidden layers",
            kind="limit",
        )

    if len(source) > MAX_SOURCE_CHARS:
        raise too_big(f"a program of {len(source):,} characters (at most {MAX_SOURCE_CHARS:,})")
    try:
        values = len(run(source).graph.parents)
    except GradstepError as e:
        if e.kind != "limit":
            raise
        raise too_big(f"a graph of more than {MAX_NODES:,} values") from None
    return PointProgram(source, _point_loss(setup, index), values)


def _loss_lines(loss: str, names: list[str], scores: list[float], label: int) -> list[str]:
    s = names[0]
    if loss == "hinge":  # relu(1 − y·score), y = ±1
        return [
            "# max-margin loss: relu(1 − y·score), y = " + ("+1" if label else "−1"),
            f"loss = relu(1 {'-' if label else '+'} {s})",
        ]
    if loss == "mse":  # (score − y)², y = ±1
        return [
            "# squared error to the target " + ("+1" if label else "−1"),
            f"loss = ({s} {'-' if label else '+'} 1.0)**2",
        ]
    if loss == "bce":  # softplus(z) − y·z, written so that exp never overflows
        z = scores[0]
        softplus = f"{s} + log(1 + exp(-{s}))" if z >= 0.0 else f"log(1 + exp({s}))"
        minus = f" - {s}" if label else ""
        return [
            "# binary cross-entropy: softplus(z) − y·z, y = " + str(label),
            f"loss = {softplus}{minus}",
        ]
    top = max(scores)  # softmax: log Σ exp(zᵢ − m) − (z_y − m), m = max z as a constant
    lines = [f"# softmax cross-entropy of class {label}: log Σ exp(zᵢ − m) − (z_y − m), m = max z"]
    lines += [f"z{i} = {n} - {top!r}" for i, n in enumerate(names, start=1)]
    exps = " + ".join(f"exp(z{i})" for i in range(1, len(names) + 1))
    lines.append(f"loss = log({exps}) - z{label + 1}")
    return lines


def _outputs(setup: Setup, index: int) -> list:  # type: ignore[type-arg]
    out = setup.model(setup.points[index])
    return out if isinstance(out, list) else [out]


def _point_loss(setup: Setup, index: int) -> float:
    out = setup.model(setup.points[index])
    return data_loss(setup.config, [out], [setup.labels[index]]).data
