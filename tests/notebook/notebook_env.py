"""What the notebook tests (here and tests/browser/test_notebook.py) share: the notebook, and a
kernel environment with no ``dot``.

The kernel imports gradstep from this checkout (PYTHONPATH), and its PATH keeps no directory
that holds a ``dot`` program, so every drawing in it is laid out by the WebAssembly Graphviz.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
NOTEBOOK = Path(__file__).resolve().parent / "neuron.ipynb"
STEP_FIRST = NOTEBOOK.with_name("step_first.ipynb")  # w.step = 3 in the cell after the widget

X1_GRAD = -1.5  # the lecture neuron's ∂o/∂x1 = (1 − tanh²(n))·w1 with tanh(n) = 1/√2
NUMBER_IN_GRAPH = "−1.5000"  # as the app formats it (app/numbers.py: a true minus sign)


def path_without_dot() -> str:
    """PATH with every directory that holds ``dot`` left out (the venv's bin stays first)."""
    dirs = [str(Path(sys.executable).parent), *os.environ.get("PATH", "").split(os.pathsep)]
    kept: list[str] = []
    for d in dirs:
        if d and d not in kept and not (Path(d) / "dot").exists():
            kept.append(d)
    return os.pathsep.join(kept)


def kernel_env(home: Path | None = None) -> dict[str, str]:
    """The environment of a kernel (or a server that starts kernels); with ``home``, Jupyter's
    and IPython's settings and state go there instead of the user's own."""
    env = dict(os.environ)
    if home is not None:
        for name in ("JUPYTER_CONFIG_DIR", "JUPYTER_RUNTIME_DIR", "IPYTHONDIR"):
            env[name] = str(home / name.lower())
    env["PATH"] = path_without_dot()
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT), env.get("PYTHONPATH")]))
    env.pop("GRADSTEP_LAYOUT", None)
    return env


def require(module: str) -> None:
    """Skip outside CI when a notebook package is missing; in CI, fail."""
    try:
        __import__(module)
    except ImportError:
        if os.environ.get("CI"):
            pytest.fail(f"{module} is not installed (pip install -e '.[test]')", pytrace=False)
        pytest.skip(f"{module} is not installed")
