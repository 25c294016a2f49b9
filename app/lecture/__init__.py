"""The micrograd lecture's and demo's programs, pasted verbatim, one copy each: the examples
(app.presets) and the language's acceptance tests use these. The cells are in ``micrograd``
(karpathy/micrograd: README and demo.ipynb) and ``notebook`` (the lecture's notebook); a program
made of several cells joins them with a newline, as a student pasting one cell after another
would.
"""

from __future__ import annotations

from app.lecture.micrograd import (
    DEMO_DATASET_CELL,
    DEMO_IMPORTS,
    DEMO_LOSS_CELL,
    DEMO_MICROGRAD_IMPORTS,
    DEMO_MODEL_CELL,
    DEMO_OPTIMIZATION_CELL,
    DEMO_SEEDS,
    MICROGRAD_README,
    MICROGRAD_README_TRACING,
)
from app.lecture.notebook import (
    LECTURE_DATASET_CELL,
    LECTURE_DRAW_DOT_CELL,
    LECTURE_GRAPHVIZ_CELL,
    LECTURE_IMPORTS,
    LECTURE_MLP_CELL,
    LECTURE_NEURON_CELL,
    LECTURE_NEURON_EXP,
    LECTURE_TRAINING_CELL,
    LECTURE_VALUE_CELL,
)

__all__ = [
    "DEMO",
    "DEMO_OPTIMIZATION_CELL",
    "LECTURE_MLP",
    "LECTURE_NEURON",
    "LECTURE_NEURON_CELL",
    "LECTURE_NEURON_EXP",
    "LECTURE_NOTEBOOK_NEURON",
    "LECTURE_TRAINING",
    "LECTURE_TRAINING_STEP",
    "MICROGRAD_NN_MLP",
    "MICROGRAD_README",
    "MICROGRAD_README_TRACING",
]

# Program 3: the lecture's own classes, one forward and backward pass over the four points,
# then one gradient step (the update of lecture cell 17, without its loop over k)
LECTURE_TRAINING_STEP = """\
n = MLP(3, [4, 4, 1])
ypred = [n(x) for x in xs]
loss = sum((yout - ygt)**2 for ygt, yout in zip(ys, ypred))
loss.backward()
for p in n.parameters():
  p.data += -0.1 * p.grad
"""


def _after(dataset_and_step: str, model: str) -> str:
    first, rest = dataset_and_step.split("\n", 1)  # n = MLP(...) comes before the dataset
    return "\n".join([model, first, LECTURE_DATASET_CELL, rest])


# 1. the README
# 2. the lecture's neurons, tanh and then exp, draw_dot(o) lines left in
LECTURE_NEURON = "\n".join([LECTURE_NEURON_CELL, LECTURE_DRAW_DOT_CELL])
# the same pasted after the notebook's first cells: its own Value and graphviz helpers
LECTURE_NOTEBOOK_NEURON = "\n".join(
    [LECTURE_IMPORTS, LECTURE_VALUE_CELL, LECTURE_GRAPHVIZ_CELL, LECTURE_NEURON_CELL]
)
# 3. the lecture's MLP cell (tanh neurons), a training step
LECTURE_MLP = _after(LECTURE_TRAINING_STEP, "import random\n" + LECTURE_MLP_CELL)
# 3b. the lecture's MLP trained by its last cell: 20 iterations, each a graph of its own
LECTURE_TRAINING = "\n".join(
    ["import random", LECTURE_MLP_CELL, "n = MLP(3, [4, 4, 1])", LECTURE_DATASET_CELL,
     LECTURE_TRAINING_CELL]
)  # fmt: skip
# 4. the same with micrograd's nn (ReLU neurons, a linear output, bias 0)
MICROGRAD_NN_MLP = _after(LECTURE_TRAINING_STEP, "from micrograd.nn import MLP")
# 5. demo.ipynb up to its loss cell, on 4 moons instead of 100 (the only change)
DEMO = "\n".join(
    [
        DEMO_IMPORTS,
        DEMO_MICROGRAD_IMPORTS,
        DEMO_SEEDS,
        DEMO_DATASET_CELL.replace("n_samples=100", "n_samples=4"),
        DEMO_MODEL_CELL,
        DEMO_LOSS_CELL,
    ]
)
