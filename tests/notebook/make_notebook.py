"""Writes the notebooks the notebook tests run, kept as files so that a person can open them
too (``jupyter lab tests/notebook/neuron.ipynb``): neuron.ipynb and step_first.ipynb (a step set
from Python in the cell after the widget's). Run it after changing the cells."""

from __future__ import annotations

from pathlib import Path

import nbformat

HERE = Path(__file__).resolve().parent

CELLS = [
    'import shutil\n\nprint("dot on PATH:", shutil.which("dot"))',
    "from app.notebook import draw_dot, show\n"
    "from engine import Value\n"
    "\n"
    "# the lecture's neuron: o = tanh(x1·w1 + x2·w2 + b)\n"
    'x1 = Value(2.0, label="x1")\n'
    'x2 = Value(0.0, label="x2")\n'
    'w1 = Value(-3.0, label="w1")\n'
    'w2 = Value(1.0, label="w2")\n'
    'b = Value(6.8813735870195432, label="b")\n'
    "o = (x1 * w1 + x2 * w2 + b).tanh()\n"
    "o.backward()\n"
    'w = show(o, phase="forward", step=0)\n'
    "w",
    "draw_dot(o)",
    'show("a = -4.0\\nb = 2.0\\nc = a + b\\nd = a * b + b**3\\ne = c - d\\ng = e**2", height=360)',
    "print(w.phase, w.step)",
    'w.phase = "backward"\nw.step = 0',
    'FUNCTION = "def neuron(x, w, b):\\n    return (x*w + b).tanh()\\n\\n"\n'
    """FUNCTION += "x = 2.0\\no = neuron(x, -3.0, 1.0)"\n"""
    'show(FUNCTION, folded="all", height=300)',
]


# a step set from Python in the cell after the widget's, before its view has drawn (Run All)
STEP_FIRST_CELLS = [
    CELLS[1]
    .replace("import draw_dot, show", "import show")
    .replace('w = show(o, phase="forward", step=0)', "w = show(o)"),
    "w.step = 3",
    "print(w.phase, w.step)",
]


def notebook(cells: list[str] = CELLS) -> nbformat.NotebookNode:
    nb = nbformat.v4.new_notebook()
    spec = {"name": "python3", "display_name": "Python 3", "language": "python"}
    nb.metadata["kernelspec"] = spec
    nb.cells = [nbformat.v4.new_code_cell(source) for source in cells]
    return nb


if __name__ == "__main__":
    nbformat.write(notebook(), HERE / "neuron.ipynb")
    nbformat.write(notebook(STEP_FIRST_CELLS), HERE / "step_first.ipynb")
