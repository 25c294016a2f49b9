"""Re-runs every learner program in CPython and asserts what expected.py says about it.

    python tests/engine/learners/check_expected.py          # all programs
    python tests/engine/learners/check_expected.py text2.py # some of them

Not a pytest module (gradstep's own tests load expected.py later): a tool for whoever edits the
programs. For each program it

- runs the file with exec() in a fresh namespace, stdout captured, after seeding random and numpy's
  np.random as expected.py says (the texts' MLPs draw their weights from them);
- stops at each checkpoint, right after the k-th run of a line of the program's top level (a
  backward() call, usually), and reads every named node: its data and its grad as the program's
  own engine left them;
- computes the TRUE gradient of the checkpoint's output with respect to each node independently:
  the forward pass is rebuilt in PyTorch (float64) from the graph the program's objects form
  (each node's parents, and the operation its backward closure belongs to, with the operands that
  closure captured), every rebuilt value is checked against the node's own data, and torch's
  backward gives the gradients;
- compares numbers, printed lines, the author's quoted results, the node counts, and, for each
  mistake, that the wrong and right twins differ only at the mistake and that the nodes whose grad
  is wrong are exactly the ones listed.

matplotlib is replaced by a stub that ignores every call (gradstep ignores it too, and the venv
has none); `micrograd.engine` is made to name the program's own Value (micrograd.py pastes
engine.py, so `from micrograd.engine import Value` means that class).
"""

from __future__ import annotations

import ast
import contextlib
import difflib
import io
import math
import random
import sys
import time
import types
from collections import Counter
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
REL_TOL = 1e-9  # the texts' engines sum a node's gradient in set order: last bits may move
ABS_TOL = 1e-12
DIFFERS_TOL = 1e-6  # a grad "differs" from the true one beyond this (relative, or absolute near 0)


# ----------------------------------------------------------------------------- running programs


class _Ignored:
    """What the matplotlib stub hands back: every attribute, call and index is ignored."""

    def __getattr__(self, name: str) -> _Ignored:
        if name.startswith("__"):
            raise AttributeError(name)
        return self

    def __call__(self, *args: object, **kwargs: object) -> _Ignored:
        return self

    def __getitem__(self, key: object) -> _Ignored:
        return self

    def __iter__(self) -> Iterator[_Ignored]:
        return iter(())


def _stub_modules(ns: dict[str, Any]) -> dict[str, types.ModuleType]:
    ignored = _Ignored()

    def anything(name: str) -> _Ignored:
        if name.startswith("__"):
            raise AttributeError(name)
        return ignored

    mpl = types.ModuleType("matplotlib")
    plt = types.ModuleType("matplotlib.pyplot")
    patches = types.ModuleType("matplotlib.patches")
    plt.__getattr__ = anything  # type: ignore[method-assign]
    patches.__getattr__ = anything  # type: ignore[method-assign]
    mpl.pyplot = plt  # type: ignore[attr-defined]
    mpl.patches = patches  # type: ignore[attr-defined]

    micrograd = types.ModuleType("micrograd")
    engine = types.ModuleType("micrograd.engine")

    def engine_attr(name: str) -> object:
        if name == "Value" and "Value" in ns:
            return ns["Value"]
        raise AttributeError(name)

    engine.__getattr__ = engine_attr  # type: ignore[method-assign]
    micrograd.engine = engine  # type: ignore[attr-defined]
    micrograd.__path__ = []  # type: ignore[attr-defined]
    return {
        "matplotlib": mpl,
        "matplotlib.pyplot": plt,
        "matplotlib.patches": patches,
        "micrograd": micrograd,
        "micrograd.engine": engine,
    }


def run_program(entry: dict[str, Any]) -> dict[str, Any]:
    """Runs one program of expected.py; returns printed lines, snapshots, node count, seconds."""
    import numpy as np
    import torch  # noqa: F401  (imported before the stubs go in, and outside the timing)

    path = HERE / entry["file"]
    source = path.read_text()
    code = compile(source, str(path), "exec")
    ns: dict[str, Any] = {"__name__": "__main__", "__file__": str(path)}
    checkpoints = entry["checkpoints"]
    snapshots: dict[int, dict[str, Any]] = {}
    hits: Counter[int] = Counter()
    created = [0]
    engine_name = entry["engine_class"]

    pending: list[int] = []  # checkpoints whose line has just run: read at the next line

    def at_line(frame: types.FrameType, event: str, arg: object) -> Any:
        if event == "line":
            for i in pending:
                snapshots[i] = snapshot(frame.f_globals, checkpoints[i], entry["fields"])
            pending.clear()
            hits[frame.f_lineno] += 1
            for i, cp in enumerate(checkpoints):
                if cp["after_line"] == frame.f_lineno and cp["hit"] == hits[frame.f_lineno]:
                    pending.append(i)
        return at_line

    def on_call(frame: types.FrameType, event: str, arg: object) -> Any:
        if frame.f_code is code:
            return at_line
        if frame.f_code.co_name == "__init__" and frame.f_code.co_filename == str(path):
            engine = ns.get(engine_name)
            if isinstance(engine, type) and isinstance(frame.f_locals.get("self"), engine):
                created[0] += 1
        return None

    seeds = entry.get("seeds", {})
    random.seed(seeds.get("random", 0))
    np.random.seed(seeds.get("numpy", 0))
    saved = {name: sys.modules.get(name) for name in _stub_modules({})}
    sys.modules.update(_stub_modules(ns))
    out = io.StringIO()
    start = time.perf_counter()
    try:
        sys.settrace(on_call)
        with contextlib.redirect_stdout(out):
            exec(code, ns)
    finally:
        sys.settrace(None)
        for name, module in saved.items():
            if module is None:
                sys.modules.pop(name, None)
            else:
                sys.modules[name] = module
    seconds = time.perf_counter() - start
    for i in pending:  # the checkpoint's line was the program's last
        snapshots[i] = snapshot(ns, checkpoints[i], entry["fields"])
    missing = [i for i in range(len(checkpoints)) if i not in snapshots]
    assert not missing, f"{entry['file']}: checkpoints {missing} never reached"
    printed = out.getvalue().split("\n")
    assert printed[-1] == "", f"{entry['file']}: output does not end with a newline"
    return {
        "printed": printed[:-1],
        "snapshots": [snapshots[i] for i in range(len(checkpoints))],
        "created": created[0],
        "seconds": seconds,
    }


def _number(x: object) -> int | float:
    """A node's data or grad as plain Python: ints stay ints, numpy scalars become floats."""
    if isinstance(x, bool):
        return int(x)
    if isinstance(x, int):
        return x
    return float(x)  # type: ignore[arg-type]


def snapshot(ns: dict[str, Any], cp: dict[str, Any], fields: dict[str, str]) -> dict[str, Any]:
    output = eval(cp["output"], ns)
    true = true_gradients(output, fields)
    nodes = {}
    for expr in cp["nodes"]:
        node = eval(expr, ns)
        row: dict[str, Any] = {
            "data": _number(getattr(node, fields["data"])),
            "grad": _number(getattr(node, fields["grad"])),
            "true_grad": true.get(id(node), 0.0),
        }
        label = getattr(node, "label", "")
        if label:
            row["label"] = label
        nodes[expr] = row
    return {"output": cp["output"], "nodes": nodes}


# ------------------------------------------------------------------------ the true gradient


def _captured(fn: Callable[..., object]) -> dict[str, object]:
    code = getattr(fn, "__code__", None)
    cells = getattr(fn, "__closure__", None) or ()
    if code is None:
        return {}
    found = {}
    for name, cell in zip(code.co_freevars, cells, strict=True):
        with contextlib.suppress(ValueError):
            found[name] = cell.cell_contents
    return found


BINARY = {
    "__add__": "add", "add": "add", "__radd__": "add",
    "__mul__": "mul", "mul": "mul", "__rmul__": "mul",
    "__sub__": "sub", "sub": "sub",
    "__truediv__": "div", "div": "div", "truediv": "div",
}  # fmt: skip
UNARY = {"tanh", "relu", "exp", "log", "sin", "cos", "neg", "__neg__", "sigmoid"}
POWER = {"__pow__", "pow"}
OP_SYMBOLS = {"+": "add", "*": "mul"}  # engines without closures (text4a): commutative ops only


def operation(node: object, fields: dict[str, str]) -> tuple[str, list[object], float | None]:
    """(op, operands in order, exponent) of a node, read from the closure its backward is."""
    parents = list(getattr(node, fields["parents"]) or ())
    if not parents:
        return "leaf", [], None
    fn = getattr(node, fields["backward"], None) if fields.get("backward") else None
    qualname = getattr(fn, "__qualname__", "")
    method = qualname.split(".<locals>.")[0].rsplit(".", 1)[-1] if "<locals>" in qualname else ""
    if not method or method == "__init__":
        symbol = getattr(node, fields["op"], None) if fields.get("op") else None
        op = OP_SYMBOLS.get(symbol)  # type: ignore[arg-type]
        assert op is not None, f"no backward closure and op {symbol!r}: cannot rebuild {node!r}"
        return op, parents * 2 if len(parents) == 1 else parents, None
    cells = _captured(fn)  # type: ignore[arg-type]
    first = cells["self"] if "self" in cells else cells.get("a")
    if method in BINARY:
        second = cells["other"] if "other" in cells else cells.get("b")
        if second is None:  # the closure never names its second operand: take it from parents
            rest = [p for p in parents if p is not first] or [first]
            second = rest[0]
        if first is None:
            rest = [p for p in parents if p is not second] or [second]
            first = rest[0]
        return BINARY[method], [first, second], None
    if method in POWER:
        exponent = cells["other"] if "other" in cells else cells["n"]
        return "pow", [first], float(exponent)  # type: ignore[arg-type]
    if method in UNARY:
        return method.strip("_"), [first if first is not None else parents[0]], None
    raise AssertionError(f"unknown operation {qualname}")


def _graph(output: object, fields: dict[str, str]) -> list[object]:
    """Every node the output depends on, inputs first (iterative post-order)."""
    order: list[object] = []
    seen: set[int] = set()
    stack: list[tuple[object, bool]] = [(output, False)]
    while stack:
        node, expanded = stack.pop()
        if expanded:
            order.append(node)
            continue
        if id(node) in seen:
            continue
        seen.add(id(node))
        stack.append((node, True))
        _, operands, _ = operation(node, fields)
        for parent in list(getattr(node, fields["parents"]) or ()) + operands:
            if id(parent) not in seen:
                stack.append((parent, False))
    return order


def true_gradients(output: object, fields: dict[str, str]) -> dict[int, float]:
    """d output / d node for every node of output's graph, by PyTorch on the same forward."""
    import torch

    tensors: dict[int, Any] = {}
    for node in _graph(output, fields):
        op, operands, exponent = operation(node, fields)
        data = float(getattr(node, fields["data"]))
        if op == "leaf":
            t = torch.tensor(data, dtype=torch.float64, requires_grad=True)
        else:
            xs = [tensors[id(o)] for o in operands]
            t = {
                "add": lambda: xs[0] + xs[1],
                "mul": lambda: xs[0] * xs[1],
                "sub": lambda: xs[0] - xs[1],
                "div": lambda: xs[0] / xs[1],
                "pow": lambda: xs[0] ** exponent,
                "tanh": lambda: torch.tanh(xs[0]),
                "relu": lambda: torch.relu(xs[0]),
                "exp": lambda: torch.exp(xs[0]),
                "log": lambda: torch.log(xs[0]),
                "sin": lambda: torch.sin(xs[0]),
                "cos": lambda: torch.cos(xs[0]),
                "neg": lambda: -xs[0],
                "sigmoid": lambda: torch.sigmoid(xs[0]),
            }[op]()
            t.retain_grad()
            rebuilt = float(t.detach())
            assert math.isclose(rebuilt, data, rel_tol=1e-9, abs_tol=1e-12), (
                f"rebuilt {op} gives {rebuilt}, the node holds {data}: not the same forward"
            )
        tensors[id(node)] = t
    tensors[id(output)].backward()
    return {
        key: (float(t.grad) if t.grad is not None else 0.0) for key, t in tensors.items()
    }


# ----------------------------------------------------------------------------------- checks


def _close(a: float, b: float, rel: float = REL_TOL, abs_: float = ABS_TOL) -> bool:
    return math.isclose(a, b, rel_tol=rel, abs_tol=abs_)


def differs(row: dict[str, Any]) -> bool:
    return not math.isclose(row["grad"], row["true_grad"], rel_tol=DIFFERS_TOL, abs_tol=1e-9)


def match_printed(expected: list[Any], printed: list[str]) -> str | None:
    """None when printed matches expected; a line may be {"any_of": [[lines], [lines], ...]}."""
    i = 0
    for item in expected:
        if isinstance(item, str):
            if i >= len(printed) or printed[i] != item:
                got = printed[i] if i < len(printed) else "<end of output>"
                return f"printed line {i + 1}: expected {item!r}, got {got!r}"
            i += 1
        else:
            for block in item["any_of"]:
                if printed[i : i + len(block)] == block:
                    i += len(block)
                    break
            else:
                return f"printed lines {i + 1}..: none of the {len(item['any_of'])} variants"
    if i != len(printed):
        return f"printed {len(printed) - i} more lines than expected, from {printed[i]!r}"
    return None


def _same_but_last_bits(got: str, want: str) -> bool:
    """The same words, numbers equal to 1e-9 relative."""
    a, b = got.split(), want.split()
    if len(a) != len(b):
        return False
    for x, y in zip(a, b, strict=True):
        if x != y:
            try:
                if not _close(float(x), float(y)):
                    return False
            except ValueError:
                return False
    return True


def check_program(entry: dict[str, Any], result: dict[str, Any]) -> list[str]:
    name = entry["file"]
    problems: list[str] = []
    printed = list(result["printed"])
    for close in entry.get("printed_close", []):  # full-precision floats summed in set order
        i, want = close["index"], entry["printed"][close["index"]]
        if i < len(printed) and _same_but_last_bits(printed[i], want):
            printed[i] = want
    bad = match_printed(entry["printed"], printed)
    if bad:
        problems.append(f"{name}: {bad}")
    if result["created"] != entry["nodes_created"]:
        problems.append(f"{name}: {result['created']} nodes created, not {entry['nodes_created']}")
    for i, (cp, snap) in enumerate(zip(entry["checkpoints"], result["snapshots"], strict=True)):
        for expr, want in cp["nodes"].items():
            got = snap["nodes"][expr]
            for key in ("data", "grad", "true_grad"):
                if not _close(got[key], want[key]):
                    problems.append(f"{name} checkpoint {i} {expr}.{key}: {got[key]!r} != {want[key]!r}")
                elif key != "true_grad" and isinstance(want[key], int) != isinstance(got[key], int):
                    problems.append(f"{name} checkpoint {i} {expr}.{key}: {got[key]!r} is not {want[key]!r}")
            if got.get("label", "") != want.get("label", ""):
                problems.append(f"{name} checkpoint {i} {expr}: label {got.get('label')!r}")
        wrong = sorted(expr for expr, row in snap["nodes"].items() if differs(row))
        if wrong != sorted(cp["differs"]):
            problems.append(f"{name} checkpoint {i}: grads differ at {wrong}, not {cp['differs']}")
    lines = result["printed"]
    for quote in entry.get("author_printed", []):
        if quote not in lines:
            problems.append(f"{name}: the author's line {quote!r} is not printed")
    for claim in entry.get("author_claims", []):
        row = result["snapshots"][claim["checkpoint"]]["nodes"][claim["node"]]
        if not _close(row[claim["field"]], claim["value"], rel=1e-6, abs_=1e-9):
            problems.append(f"{name}: author says {claim['quote']!r}, got {row[claim['field']]!r}")
    for noise in entry.get("author_printed_noise", []):
        if noise["cpython"] not in lines or noise["author"] in lines:
            problems.append(f"{name}: noise line {noise['cpython']!r} not as recorded")
    if result["seconds"] > 2.0:
        problems.append(f"{name}: took {result['seconds']:.2f} s")
    return problems


def _enclosing_def(source: str, line: int) -> int | None:
    best = None
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.FunctionDef) and node.lineno <= line <= (node.end_lineno or 0):
            if best is None or node.lineno > best:
                best = node.lineno
    return best


def check_mistake(m: dict[str, Any], by_file: dict[str, dict[str, Any]]) -> list[str]:
    problems: list[str] = []
    wrong_path, right_path = HERE / m["wrong"], HERE / m["right"]
    wrong, right = wrong_path.read_text(), right_path.read_text()
    wrong_lines = wrong.split("\n")
    line = m["line"]
    if wrong_lines[line - 1].strip() != m["line_text"]:
        problems.append(f"{m['name']}: line {line} is {wrong_lines[line - 1].strip()!r}")
    changes = [
        op for op in difflib.SequenceMatcher(a=wrong_lines, b=right.split("\n")).get_opcodes()
        if op[0] != "equal"
    ]
    if not changes:
        problems.append(f"{m['name']}: the twins are the same")
        return problems
    # the span of the wrong file's changed lines, 1-based (last = first - 1: only an insertion)
    first, last = changes[0][1] + 1, changes[-1][2]
    if [first, last] != m["changed_lines"]:
        problems.append(f"{m['name']}: changed lines {[first, last]}, not {m['changed_lines']}")
    kind = m["kind"]
    if kind in ("overwrite", "local", "order") and not first <= line <= last:
        problems.append(f"{m['name']}: line {line} is not among the changed lines {first}-{last}")
    if kind in ("seed", "missing") and _enclosing_def(wrong, min(first, last)) != line:
        problems.append(f"{m['name']}: line {line} is not the def around the change")
    if kind == "zero" and ("backward(" not in m["line_text"] or line < last):
        problems.append(f"{m['name']}: line {line} is not a backward() call after the change")
    for role, differs_ in (("wrong", m["differs"]), ("right", [])):
        entry = by_file[m[role]]
        got = entry["checkpoints"][-1]["differs"]
        if sorted(got) != sorted(differs_):
            problems.append(f"{m['name']} {role}: checkpoint differs at {got}, not {differs_}")
    return problems


def main(argv: list[str]) -> int:
    sys.path.insert(0, str(HERE))
    import expected

    chosen = [e for e in expected.PROGRAMS if not argv or e["file"] in argv]
    problems: list[str] = []
    for entry in chosen:
        result = run_program(entry)
        found = check_program(entry, result)
        problems += found
        state = "ok" if not found else f"{len(found)} problems"
        print(f"{entry['file']:40} {state:12} {result['seconds'] * 1000:7.1f} ms")
    by_file = {e["file"]: e for e in expected.PROGRAMS}
    for m in expected.MISTAKES:
        if not argv or m["wrong"] in argv or m["right"] in argv:
            problems += check_mistake(m, by_file)
    for problem in problems:
        print("FAIL", problem)
    print(f"{len(chosen)} programs, {len(expected.MISTAKES)} mistakes: "
          f"{'all as expected' if not problems else f'{len(problems)} problems'}")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
