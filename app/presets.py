"""The built-in examples: each a program in gradstep's language with a one-line lesson."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict

from app.lecture import DEMO, LECTURE_MLP, LECTURE_NEURON, LECTURE_TRAINING, MICROGRAD_README
from engine.errors import GradstepError


class Preset(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True, frozen=True)

    id: str
    title: str
    lesson: str
    source: str


SIGMOID_FROM_EXP = """\
# sigma(x) = 1 / (1 + e^-x), built from exp, + and /
x = 0.8
e = exp(-x)
s = 1 / (1 + e)
"""

ACCUMULATION = """\
# a is used twice: both uses send gradient back, and they add up
a = 3.0
b = a + a
"""

RELU_NEURON = """\
# one neuron of an MLP: two inputs, two weights, a bias, relu
x1 = 1.0
x2 = -2.0
w1 = 0.5
w2 = -1.5
bias = 0.1
act = x1*w1 + x2*w2 + bias
out = act.relu()
"""

SOFTMAX_CROSS_ENTROPY = """\
# three classes; the right answer is class 2
z1 = 1.0
z2 = 2.0
z3 = 0.5
e1 = exp(z1)
e2 = exp(z2)
e3 = exp(z3)
total = e1 + e2 + e3
p2 = e2 / total
loss = -log(p2)
"""

FORWARD_VS_REVERSE = """\
# three inputs, one output: one backward pass finds all three partials
x = 1.5
y = -0.5
z = 2.0
f = x*y + sin(x) * exp(z) - y**2 / z
"""

X_SQUARED_SIN_X = """\
# seed 002, 28.1: symbolic, numerical and automatic differentiation of x²·sin(x) at x = 2
x = 2.0
f = x**2 * sin(x)
"""

SUM_TIMES_SIN = """\
# seed 002, 28.3: forward mode needs a pass per input, reverse mode one backward pass
x = 2.0
y = 3.0
f = (x + y) * sin(x)
"""

PRESETS: tuple[Preset, ...] = (
    Preset(
        id="micrograd-readme",
        title="micrograd's README",
        lesson="Pasted as it stands: g = 24.7041, dg/da = 138.8338, dg/db = 645.5773.",
        source=MICROGRAD_README,
    ),
    Preset(
        id="lecture-neuron",
        title="The lecture's neuron",
        lesson="o = tanh(n) = 0.7071, so do/dn = 1 − o² = 0.5; each weight gets its input × 0.5.",
        source=LECTURE_NEURON,
    ),
    Preset(
        id="lecture-mlp",
        title="The lecture's MLP",
        lesson="MLP(3, [4, 4, 1]) on four points: fold and open its layers; then one SGD step.",
        source=LECTURE_MLP,
    ),
    Preset(
        id="lecture-training",
        title="The lecture's training loop",
        lesson="20 iterations of SGD: the loss falls from 7.7298 to 0.0215; ] and [ step between "
        "iterations.",
        source=LECTURE_TRAINING,
    ),
    Preset(
        id="sigmoid-from-exp",
        title="Sigmoid from exp",
        lesson="Backprop through exp, + and / gives exactly σ(x)·(1 − σ(x)) for dx.",
        source=SIGMOID_FROM_EXP,
    ),
    Preset(
        id="accumulation",
        title="a + a: gradients add up",
        lesson="A value used twice gets two contributions, so grads accumulate with +=.",
        source=ACCUMULATION,
    ),
    Preset(
        id="relu-neuron",
        title="A two-input neuron with relu",
        lesson="relu passes gradient only where its input is positive: set x2 = 2 and none flows.",
        source=RELU_NEURON,
    ),
    Preset(
        id="softmax-cross-entropy",
        title="Softmax and cross-entropy",
        lesson="The loss's gradient for each logit is its probability minus 1 for the target.",
        source=SOFTMAX_CROSS_ENTROPY,
    ),
    Preset(
        id="micrograd-demo",
        title="micrograd's demo (4 moons)",
        lesson="demo.ipynb's model and svm loss, pasted: open loss() to see the L2 term.",
        source=DEMO,
    ),
    Preset(
        id="forward-vs-reverse",
        title="Forward vs reverse mode",
        lesson="One backward pass gives all three partials; forward mode needs a pass per input.",
        source=FORWARD_VS_REVERSE,
    ),
    Preset(
        id="three-ways",
        title="Three ways: x²·sin(x)",
        lesson="Symbolic 1.972602361114157, central difference (h = 1e-7) 1.972602359234799: "
        "1.88e-09 apart.",
        source=X_SQUARED_SIN_X,
    ),
    Preset(
        id="tangent-passes",
        title="Tangent passes: (x + y)·sin(x)",
        lesson="Forward mode: a pass for ∂f/∂x = −1.1714, another for ∂f/∂y = 0.9093; reverse "
        "mode: one backward pass for both.",
        source=SUM_TIMES_SIN,
    ),
)

_BY_ID = {p.id: p for p in PRESETS}
_BY_SOURCE = {p.source.strip(): p for p in PRESETS}


def preset_of(source: str) -> Preset | None:
    """The preset whose program ``source`` is, if it is one."""
    return _BY_SOURCE.get(source.strip())


def preset_source(source: str | None, preset: str | None) -> str:
    """The program a request names: its ``source``, else the ``preset`` with that id."""
    if source:
        return source
    if preset is None:
        raise GradstepError("no program: give a source, or a preset's id as preset=...", "request")
    if preset not in _BY_ID:
        raise GradstepError(
            f"preset: there is no preset {preset!r}; the presets are {', '.join(_BY_ID)}",
            "request",
        )
    return _BY_ID[preset].source
