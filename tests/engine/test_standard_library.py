"""The engine a student reads needs nothing but Python, and what it can check of that: on the
host, importing the engine and running a program through the sandbox, the trace and a learner's
engine's study loads, outside the standard library, wasmtime alone (engine.runner.sandbox runs
the sandbox with it; the training lab's numpy replay, engine.lab, is the one other, documented
exception). What runs inside the sandbox cannot be watched from here: its files (the ones
engine.runner.build puts in the component) are read instead, and every import they write names
the standard library, another of those files, or a stand-in the guest ships (micrograd)."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

from engine.runner.build import guest_files

CORE = """
import sys
import engine, engine.nn, engine.optim, engine.losses, engine.datasets, engine.gradcheck
import engine.forward_mode, engine.cost
program = "from micrograd.nn import MLP\\nn = MLP(2, [3, 1])\\ny = n([1.0, -2.0])"
t = engine.trace(engine.run(program))
own = "class V:\\n    def __init__(s, d, p=()):\\n        s.data, s.grad, s._prev = d, 0.0, p\\n"
own += "    def __mul__(s, o):\\n        return V(s.data * o.data, (s, o))\\n"
own += "a = V(2.0)\\nb = a * a\\nb.grad = 1.0\\na.grad = 2 * a.data\\n"
assert engine.trace(engine.run(own)).structure.engine == "program"
outside = sorted({m.split(".")[0] for m in sys.modules} - set(sys.stdlib_module_names) - {"engine"})
print(",".join(m for m in outside if not m.startswith("_")))
"""


def test_the_host_side_imports_the_standard_library_and_wasmtime_alone() -> None:
    root = Path(__file__).resolve().parents[2]
    done = subprocess.run(
        [sys.executable, "-c", CORE], cwd=root, capture_output=True, text=True, check=True
    )
    assert done.stdout.strip() == "wasmtime"


def _imports(path: Path) -> list[str]:
    names = []
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            names += [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names.append(node.module)
    return names


def test_what_runs_in_the_sandbox_imports_the_standard_library_and_its_own_files() -> None:
    files = guest_files()
    shipped = {inside.removesuffix(".py").removesuffix("/__init__") for inside, _ in files}
    shipped = {name.replace("/", ".") for name in shipped}
    assert {"engine.value", "engine.guest.recorder", "engine.guest.harness"} <= shipped
    stand_ins = {name.split(".")[3] for name in shipped if name.startswith("engine.guest.modules.")}
    assert {"numpy", "matplotlib", "micrograd"} <= stand_ins
    outside = []
    for inside, path in files:
        for name in _imports(path):
            top = name.split(".")[0]
            if top in sys.stdlib_module_names or name in shipped or top in stand_ins:
                continue
            if name == "engine" or any(s.startswith(name + ".") for s in shipped):
                continue  # a package of shipped modules (engine, engine.guest)
            outside.append(f"{inside}: {name}")
    assert outside == []


def test_the_lab_is_where_numpy_is_used() -> None:
    root = Path(__file__).resolve().parents[2]
    probe = "import sys, engine.lab.replay; print('numpy' in sys.modules)"
    done = subprocess.run(
        [sys.executable, "-c", probe], cwd=root, capture_output=True, text=True, check=True
    )
    assert done.stdout.strip() == "True"
