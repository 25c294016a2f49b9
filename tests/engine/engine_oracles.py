"""Shared test helpers: reference derivatives (central differences, PyTorch float64) and random
expression trees that both the engine and PyTorch can evaluate."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from hypothesis import assume, reject
from hypothesis import strategies as st

from engine import GradstepError, Value
from engine.ops import OPS
from engine.value import apply

UNARY = tuple(name for name, op in OPS.items() if op.arity == 1)
BINARY = tuple(name for name, op in OPS.items() if op.arity == 2)

# A tree is ("x", i) for input i, ("c", number) for a constant, or (op name, child, ...).
Tree = tuple[Any, ...]


def close(actual: float, expected: float, rel: float, floor: float) -> bool:
    """|actual − expected| within rel of the larger magnitude, or within an absolute floor."""
    return abs(actual - expected) <= max(rel * max(abs(actual), abs(expected)), floor)


def step(x: float) -> float:
    """The central-difference step at x: small against x, but not lost in rounding."""
    return 1e-6 * max(1.0, abs(x))


def central_difference(
    f: Callable[[list[float]], float], xs: Sequence[float], i: int, h: float | None = None
) -> float:
    """∂f/∂xs[i] by the five-point central stencil, whose error shrinks as h⁴ (not h²)."""
    h = h or step(xs[i])

    def at(offset: float) -> float:
        moved = list(xs)
        moved[i] += offset
        return f(moved)

    return (at(-2 * h) - 8 * at(-h) + 8 * at(h) - at(2 * h)) / (12 * h)


def rounding_error(value: float, h: float) -> float:
    """How far rounding can move a central difference with step h of a function this size."""
    return 4 * 2.0**-52 * abs(value) / h  # the stencil's weights sum to 18/12 per eps·|f|/h


def torch_function(name: str) -> Callable[..., Any]:
    import torch

    return {
        "add": torch.add,
        "sub": torch.sub,
        "mul": torch.mul,
        "div": torch.div,
        "pow": torch.pow,
        "neg": torch.neg,
        "exp": torch.exp,
        "log": torch.log,
        "tanh": torch.tanh,
        "relu": torch.relu,
        "sigmoid": torch.sigmoid,
        "sin": torch.sin,
        "cos": torch.cos,
        "sqrt": torch.sqrt,
    }[name]


def torch_value_and_grads(
    build: Callable[[list[Any]], Any], xs: Sequence[float]
) -> tuple[float, list[float]]:
    """Run ``build`` on float64 0-d tensors; its value and its gradient for every input."""
    import torch

    inputs = [torch.tensor(x, dtype=torch.float64, requires_grad=True) for x in xs]
    out = build(inputs)
    if not out.requires_grad:  # a constant expression: no input reaches the output
        return out.item(), [0.0] * len(xs)
    grads = torch.autograd.grad(out, inputs, allow_unused=True)
    return out.item(), [0.0 if g is None else g.item() for g in grads]


# Random expression trees --------------------------------------------------------------------


def trees(
    n_inputs: int, ops: Sequence[str] = tuple(OPS), max_leaves: int = 12
) -> st.SearchStrategy:
    """Expression trees over inputs x0..x{n−1}, small constants and the given ops."""
    leaves = st.one_of(
        st.tuples(st.just("x"), st.integers(0, n_inputs - 1)),
        st.tuples(st.just("c"), st.sampled_from([-2.0, -0.5, 0.5, 1.0, 2.0, 3.0])),
    )
    unary = [o for o in ops if o in UNARY]
    binary = [o for o in ops if o in BINARY]

    def extend(children: st.SearchStrategy) -> st.SearchStrategy:
        options = []
        if unary:
            options.append(st.tuples(st.sampled_from(unary), children))
        if binary:
            options.append(st.tuples(st.sampled_from(binary), children, children))
        return st.one_of(options)

    return st.recursive(leaves, extend, max_leaves=max_leaves)


inputs = st.lists(
    st.floats(-3.0, 3.0, allow_nan=False, allow_infinity=False), min_size=3, max_size=3
)


def repaired(tree: Tree, xs: Sequence[float]) -> Tree:
    """The same tree with operands nudged into each op's smooth domain, at the point ``xs``.

    log, sqrt, a divisor and a power's base get u·u + 0.5 in place of an operand u that is too
    close to or below 0; a relu operand near its kink gets 0.5 added. The result is a concrete
    tree that the engine, PyTorch and central differences all evaluate the same way.
    """
    fixed, _ = _repair(tree, xs)
    return fixed


def _repair(tree: Tree, xs: Sequence[float]) -> tuple[Tree, float]:
    kind = tree[0]
    if kind == "x":
        return tree, xs[tree[1]]
    if kind == "c":
        return tree, tree[1]
    children = [_repair(child, xs) for child in tree[1:]]
    if kind in ("log", "sqrt") or (kind == "pow" and not _small_int(children[1][0])):
        children[0] = _lifted(*children[0])
    if kind == "div":
        children[1] = _lifted(*children[1], positive_only=False)
    if kind == "relu" and abs(children[0][1]) < 1e-3:
        children[0] = (("add", children[0][0], ("c", 0.5)), children[0][1] + 0.5)
    fixed = (kind, *(c[0] for c in children))
    return fixed, evaluate(fixed, xs).data


def _small_int(tree: Tree) -> bool:
    return tree[0] == "c" and float(tree[1]).is_integer() and tree[1] > 0


def _lifted(tree: Tree, value: float, positive_only: bool = True) -> tuple[Tree, float]:
    if value > 0.1 or (not positive_only and abs(value) > 0.1):
        return tree, value
    return ("add", ("mul", tree, tree), ("c", 0.5)), value * value + 0.5


def evaluate(tree: Tree, xs: Sequence[float | Value]) -> Value:
    """The engine's Value for ``tree`` (inputs looked up in xs, numbers become constants)."""
    kind = tree[0]
    if kind == "x":
        x = xs[tree[1]]
        return x if isinstance(x, Value) else Value(x)
    if kind == "c":
        return Value(tree[1])
    operands = tuple(_operand(child, xs) for child in tree[1:])
    return apply(OPS[kind], operands)


def _operand(tree: Tree, xs: Sequence[float | Value]) -> Value | float:
    return tree[1] if tree[0] == "c" else evaluate(tree, xs)


def evaluate_torch(tree: Tree, xs: Sequence[Any]) -> Any:
    kind = tree[0]
    if kind == "x":
        return xs[tree[1]]
    if kind == "c":
        import torch

        return torch.tensor(tree[1], dtype=torch.float64)  # a constant: no grad
    return torch_function(kind)(*(evaluate_torch(child, xs) for child in tree[1:]))


def engine_value_and_grads(
    tree: Tree, xs: Sequence[float]
) -> tuple[float, list[float], list[Value]]:
    leaves = [Value(x, label=f"x{i}") for i, x in enumerate(xs)]
    root = evaluate(tree, leaves)
    root.backward()
    return root.data, [leaf.grad for leaf in leaves], leaves


def build(tree: Tree, xs: Sequence[float]) -> Tree:
    """The repaired tree; an example whose tree still leaves the domain or overflows is
    rejected (hypothesis's ``assume``), so a test only ever sees trees that evaluate."""
    try:
        fixed = repaired(tree, xs)
        value = evaluate(fixed, xs).data
    except GradstepError:
        reject()
    assume(abs(value) < 1e6)
    return fixed


def torch_replay(root: Value) -> tuple[float, dict[Value, float]]:
    """The graph under ``root`` rebuilt op by op in PyTorch float64 from its leaves' data: the
    output's value and the gradient of every leaf that takes one (constants do not)."""
    import torch

    from engine.graph import topological_order

    tensors: dict[Value, Any] = {}
    for v in topological_order(root):
        if v.op is None:
            tensors[v] = torch.tensor(v.data, dtype=torch.float64, requires_grad=not v.constant)
        else:
            tensors[v] = torch_function(v.op.name)(*(tensors[p] for p in v.parents))
    leaves = [v for v in tensors if v.op is None and not v.constant]
    out = tensors[root]
    if not leaves:
        return out.item(), {}
    grads = torch.autograd.grad(out, [tensors[v] for v in leaves], allow_unused=True)
    return out.item(), {
        v: 0.0 if g is None else g.item() for v, g in zip(leaves, grads, strict=True)
    }
