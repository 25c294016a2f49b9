"""Programs for the API tests and the benchmark, as source text."""

from __future__ import annotations

import random


def mlp_source(sizes: tuple[int, ...] = (2, 16, 16, 1), seed: int = 0) -> str:
    """An MLP (tanh hidden layers, linear output) on one input, written out scalar by scalar."""
    rnd = random.Random(seed)
    lines = [f"x{i} = {rnd.uniform(-1, 1):.4f}" for i in range(sizes[0])]
    previous = [f"x{i}" for i in range(sizes[0])]
    for layer, width in enumerate(sizes[1:]):
        last = layer == len(sizes) - 2
        current = []
        for j in range(width):
            terms = []
            for i, p in enumerate(previous):
                lines.append(f"w{layer}_{j}_{i} = {rnd.uniform(-1, 1):.4f}")
                terms.append(f"w{layer}_{j}_{i}*{p}")
            lines.append(f"b{layer}_{j} = {rnd.uniform(-1, 1):.4f}")
            act = " + ".join([*terms, f"b{layer}_{j}"])
            lines.append(f"h{layer}_{j} = ({act})" + ("" if last else ".tanh()"))
            current.append(f"h{layer}_{j}")
        previous = current
    return "\n".join(lines) + "\n"


def dense_source(width: int = 16, layers: int = 8) -> str:
    """Slow for Graphviz: every value is reused by many later ones (dense crossing edges)."""
    lines = [f"x{i} = {i / 10 + 0.1}" for i in range(width)]
    previous = [f"x{i}" for i in range(width)]
    for layer in range(layers):
        current = []
        for i in range(width):
            terms = " + ".join(
                f"{p}*{previous[(i * 7 + k * 3) % width]}" for k, p in enumerate(previous[:6])
            )
            lines.append(f"h{layer}_{i} = ({terms}) * 0.01")
            current.append(f"h{layer}_{i}")
        previous = current
    lines.append("out = " + " + ".join(previous))
    return "\n".join(lines) + "\n"


def slow_source() -> str:
    """The slowest graph for Graphviz found that is still drawn (1,969 values, of at most
    2,000): six layers of twelve, each value the sum of products of all twelve before it, so
    edges cross everywhere. 3 to 4.4 s in ``dot`` and in the WebAssembly build on the
    development machine (dense_source(): 1.3 to 1.5), where machines differ by 4× or more: a
    test that needs a graph refused at the time limit sets a limit well under that."""
    return (
        "xs = [Value(i / 10 + 0.1) for i in range(12)]\n"
        "for layer in range(6):\n"
        "    xs = [sum(xs[k] * xs[(i * 7 + k * 3) % 12] for k in range(12)) * 0.01"
        " for i in range(12)]\n"
        "out = sum(xs)\n"
    )
