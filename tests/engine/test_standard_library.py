"""The engine a student reads needs nothing but Python: importing it, and running a program
through the language and the trace, loads no module from outside the standard library (the
training lab's numpy replay, engine.lab, is the one documented exception)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

CORE = """
import sys
import engine, engine.nn, engine.optim, engine.losses, engine.datasets, engine.gradcheck
import engine.forward_mode, engine.cost
program = "from micrograd.nn import MLP\\nn = MLP(2, [3, 1])\\ny = n([1.0, -2.0])"
t = engine.trace(engine.parse(program))
outside = sorted({m.split(".")[0] for m in sys.modules} - set(sys.stdlib_module_names) - {"engine"})
print(",".join(m for m in outside if not m.startswith("_")))
"""


def test_the_engine_imports_only_the_standard_library() -> None:
    root = Path(__file__).resolve().parents[2]
    done = subprocess.run(
        [sys.executable, "-c", CORE], cwd=root, capture_output=True, text=True, check=True
    )
    assert done.stdout.strip() == ""


def test_the_lab_is_where_numpy_is_used() -> None:
    root = Path(__file__).resolve().parents[2]
    probe = "import sys, engine.lab.replay; print('numpy' in sys.modules)"
    done = subprocess.run(
        [sys.executable, "-c", probe], cwd=root, capture_output=True, text=True, check=True
    )
    assert done.stdout.strip() == "True"
