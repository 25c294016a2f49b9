"""One data point's loss as a program in gradstep's language, for "Inspect one point".

The point's coordinates and every weight become named inputs (x1, x2, w1_3_2 is layer 1,
neuron 3, weight 2; b1_3 its bias), each hidden unit a named line, in the same order of sums as
``engine.nn`` and the same formulas as ``engine.losses``, so the program's output is the
model's loss for that point. Numbers are written with ``repr``, which reads back exactly.
The L2 term is left out: it is the same for every point and would double the drawing.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.errors import GradstepError
from engine.lab.train import Setup, data_loss

MAX_INSPECT_VALUES = 400  # values in one point's loss graph; past this the stepper is unreadable


@dataclass(frozen=True, slots=True)
class PointProgram:
    source: str
    loss: float  # the model's data loss for the point (no L2), as engine.losses computes it
    values: int  # values in the program's graph


def graph_size(setup: Setup) -> int:
    """Values in one point's loss graph: inputs, weights, products, sums, activations, loss."""
    count = 2
    nin = 2
    for layer in setup.model.layers:
        activated = layer.neurons[0].activation != "linear"
        count += len(layer.neurons) * (3 * nin + 1 + activated)
        nin = len(layer.neurons)
    loss = setup.config.loss
    return count + {"hinge": 3, "mse": 4, "bce": 7}.get(loss, 4 * nin + 1)


def point_program(setup: Setup, index: int) -> PointProgram:
    if not 0 <= index < len(setup.points):
        raise GradstepError(
            f"point: there is no point {index} (the dataset has {len(setup.points)})", "value"
        )
    size = graph_size(setup)
    if size > MAX_INSPECT_VALUES:
        raise GradstepError(
            f"this model's loss graph for one point has {size:,} values; the stepper draws at "
            f"most {MAX_INSPECT_VALUES:,} (MAX_INSPECT_VALUES): use fewer or smaller hidden "
            "layers to inspect a point",
            kind="limit",
        )
    x = setup.points[index]
    label = setup.labels[index]
    lines = [
        f"# {setup.config.loss} loss of point {index} at ({x[0]:.4g}, {x[1]:.4g}), class {label}",
        f"x1 = {x[0]!r}",
        f"x2 = {x[1]!r}",
    ]
    inputs = ["x1", "x2"]
    layers = setup.model.layers
    for i, layer in enumerate(layers, start=1):
        last = i == len(layers)
        width = len(layer.neurons)
        lines.append(f"# layer {i}: {width} neuron{'s' if width > 1 else ''}")
        outputs = []
        for j, neuron in enumerate(layer.neurons, start=1):
            for k, w in enumerate(neuron.w, start=1):
                lines.append(f"w{i}_{j}_{k} = {w.data!r}")
            lines.append(f"b{i}_{j} = {neuron.b.data!r}")
            total = " + ".join(
                [f"b{i}_{j}"] + [f"w{i}_{j}_{k}*{x}" for k, x in enumerate(inputs, 1)]
            )
            name = (f"s{j}" if len(layer.neurons) > 1 else "score") if last else f"h{i}_{j}"
            nonlin = neuron.activation
            lines.append(f"{name} = {total if nonlin == 'linear' else f'{nonlin}({total})'}")
            outputs.append(name)
        inputs = outputs
    scores = [n.data for n in _outputs(setup, index)]
    lines += _loss_lines(setup.config.loss, inputs, scores, label)
    source = "\n".join(lines) + "\n"
    return PointProgram(source, _point_loss(setup, index), size)


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
