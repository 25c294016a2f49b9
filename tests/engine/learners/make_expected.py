"""Writes expected.py: runs every learner program in CPython and records what it does.

    python tests/engine/learners/make_expected.py && python tests/engine/learners/check_expected.py

What is written by hand lives here (which nodes to read at which line, what the authors printed,
each mistake's kind, line and sentence); every number and printed line comes from running the
programs (check_expected.run_program), and the true gradients from PyTorch on the same forward.
Refuses to write when an author's quoted result does not come out of the run.
"""

from __future__ import annotations

import pprint
import sys
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from check_expected import differs, match_printed, run_program  # noqa: E402

SEEDS = {"random": 0, "numpy": 0}
VALUE = {"data": "data", "grad": "grad", "parents": "_prev", "op": "_op", "backward": "_backward"}
VALUE_NODE = {"data": "value", "grad": "grad", "parents": "prev", "op": "op", "backward": "_backward"}
NODE = {"data": "value", "grad": "grad", "parents": "parents", "op": None, "backward": "backward_fn"}
TEXT4A = {"data": "data", "grad": "grad", "parents": "_prev", "op": "_op", "backward": None}


def line_of(file: str, text: str, occurrence: int = 1) -> int:
    """The 1-based number of the occurrence-th line of file whose stripped text is text."""
    found = [
        i + 1
        for i, line in enumerate((HERE / file).read_text().split("\n"))
        if line.strip() == text
    ]
    assert len(found) >= occurrence, f"{file}: {text!r} occurs {len(found)} times"
    return found[occurrence - 1]


def cp(file: str, after: str, output: str, nodes: list[str], occurrence: int = 1, hit: int = 1,
       backward: bool = True) -> dict[str, Any]:
    line = line_of(file, after, occurrence)
    return {
        "after_line": line,
        "hit": hit,
        "backward_line": line if backward else None,
        "output": output,
        "nodes": nodes,
    }


def params(expr: str, n: int) -> list[str]:
    return [f"{expr}[{i}]" for i in range(n)]


def tree(plus_first: str, mul_first: str) -> list[str]:
    """text1's draw_graph of d = a*b + c, its children listed in set order (any of four)."""
    mul = ["*-6.0000 (grad=1.0000)"]
    ab = {"a": "input2.0000 (grad=-3.0000)", "b": "input-3.0000 (grad=2.0000)"}
    leaves = [ab[mul_first], ab["b" if mul_first == "a" else "a"]]
    c = "input10.0000 (grad=1.0000)"
    lines = ["└── +4.0000 (grad=1.0000)"]
    if plus_first == "mul":
        lines += ["    ├── " + mul[0], "    │   ├── " + leaves[0], "    │   └── " + leaves[1]]
        lines += ["    └── " + c]
    else:
        lines += ["    ├── " + c, "    └── " + mul[0]]
        lines += ["        ├── " + leaves[0], "        └── " + leaves[1]]
    return lines


TEXTS: list[dict[str, Any]] = [
    {
        "file": "text0.py",
        "source": "000_5fcc8e58bad187a3.txt",
        "title": "Autograd Engine (Ayush Singh, notebook exported to PDF)",
        "engine_class": "ValueNode",
        "fields": VALUE_NODE,
        "cells": [
            "[285] imports (math, graphviz's Digraph)",
            "[286] class ValueNode: +, radd, -, rsub, *, rmul, /, rtruediv, tanh, **, neg, relu, "
            "backward (topological sort)",
            "[287] trace / draw_dot (graphviz)",
            "[288]-[291] Module, Neuron (ReLU, np.random.uniform weights), Layer (**kwargs), MLP "
            "(with its train method, not called)",
            "[292] a, b, c = a*b, d = a/c, e = a+b+c/d; draw_dot(e)",
            "[293] e.backward(); draw_dot(e)",
            "[294] x = [1,1]; Neuron(2), Layer(2, 2), MLP(2,[4,4,1],); print of their outputs",
            "[295] print of the layer's parameters' grads",
        ],
        "skipped": [
            "[284] !pip install (a shell command)",
            "[296]-[300] make_moons training (sklearn data, 100 samples x a 2-16-16-1 MLP "
            "x 50 epochs: far past the size limit) and its decision-boundary plot",
        ],
        "changes": [
            "the PDF's continuation marks removed, broken lines rejoined, indentation lost at "
            "page breaks restored (the methods of ValueNode and MLP, the body of backward and "
            "trace); the '_' the export put where a line broke at a space is a space again",
            "line 1 `import numpy as np` added: Neuron calls np.random.uniform but the text "
            "imports numpy only in cell [297] (the moons cell), after the cells that use it",
            "cells [292] and [293] are in the text as string literals ('# Commented to export "
            "to PDF'): their code is run, not the literal",
        ],
        "checkpoints": [
            cp("text0.py", "e.backward()", "e", ["a", "b", "c", "d", "e"]),
        ],
        "author_printed": ["[0.0, 0.0, 0.0, 0.0, 0.0, 0.0]"],
        "author_unreproducible": [
            {
                "author": "Value: 0.5504097989358798 [Value: 0.5025686837698333, Value: 0] "
                "Value: 0.5417098819503215",
                "why": "the weights come from np.random.uniform without a seed: another draw "
                "prints other numbers (this run seeds numpy with 0)",
            }
        ],
    },
    {
        "file": "text1.py",
        "source": "001_af9d4198ffa6e303.txt",
        "title": "Build an Autograd Engine (tutorial 15)",
        "engine_class": "Value",
        "fields": VALUE,
        "cells": [
            "imports (math, numpy, matplotlib.pyplot) and class Value (+, *, **, tanh, relu, exp, "
            "backward, radd/rmul/neg/sub/rsub/truediv one-liners)",
            "Test: Manual Computation (f(a, b) = a*b + b^2)",
            "The Key Insight: grad += (b = a + a)",
            "Build a Neural Network on Top (Neuron, Layer, MLP)",
            "Train on a Toy Dataset (3-4-4-1 MLP on 4 points) and its plt lines",
            "Visualize the Computation Graph (draw_graph, a text tree) on d = a*b + c",
            "Why Zero Gradients? (backward twice without zeroing)",
        ],
        "skipped": ["Verify with PyTorch (imports torch; does not use the learner's engine)"],
        "changes": [
            "the training loop runs range(2) instead of range(100) epochs (the size limit)",
        ],
        "checkpoints": [
            cp("text1.py", "e.backward()", "e", ["a", "b", "c", "d", "e"]),
            cp("text1.py", "b.backward()", "b", ["a", "b"]),
            cp("text1.py", "loss.backward()", "loss",
               ["loss", "preds[0]", "preds[3]", *params("model.parameters()", 41)], hit=2),
            cp("text1.py", "d.backward()", "d", ["a", "b", "c", "d"]),
            cp("text1.py", "b.backward()", "b", ["a", "b"], occurrence=2),
            cp("text1.py", "b.backward()", "b", ["a", "b"], occurrence=3),
        ],
        "printed_variants": {
            "first": "└── +4.0000 (grad=1.0000)",
            "any_of": [tree(p, m) for p in ("mul", "c") for m in ("a", "b")],
            "why": "draw_graph lists each node's children in the order of the set _prev",
        },
        "author_claims": [
            (0, "e", "data", 15.0, 'print(f"e = {e}")         # 15.0'),
            (0, "a", "grad", 3.0, 'print(f"de/da = {a.grad}")  # b = 3.0'),
            (0, "b", "grad", 8.0, 'print(f"de/db = {b.grad}")  # a + 2b = 2 + 6 = 8.0'),
            (1, "a", "grad", 2.0, 'print(f"db/da = {a.grad}")  # 2.0, not 1.0'),
            (4, "a", "grad", 2.0, 'print(f"After 1st backward: {a.grad}")  # 2.0'),
            (5, "a", "grad", 4.0, 'print(f"After 2nd backward: {a.grad}")  # 4.0 — accumulated!'),
        ],
        "author_printed": [],
        "notes": [
            "the author shows no output, only comments: author_claims quotes them",
            "the last checkpoint is the text's own demonstration of not zeroing: a.grad is 4.0 "
            "where the true gradient of the second b is 2.0",
        ],
    },
    {
        "file": "text2.py",
        "source": "002_05445b7a0e2c3d6e.txt",
        "title": "Chapter 28: Autograd - Automatic Differentiation (book chapter, web export)",
        "engine_class": "Value",
        "fields": VALUE,
        "cells": [
            "the hidden imports cell (numpy, matplotlib, math; plt.rcParams.update; a print)",
            "28.4 the engine: class Value (+, *, **, relu, exp, log, tanh, backward, "
            "neg/sub/truediv/radd/rmul/rsub/rtruediv, __repr__) and its three prints",
            "28.4 Tests 1-4 (x*y + relu(x^2), sigmoid from exp and /, tanh, "
            "x^3*log(x) + exp(-x) against a numerical derivative)",
            "28.5 Neuron, Layer, MLP and the quick test (random.seed(42), MLP(2, [4, 1]))",
            "28.5 Verifying Gradients Against Finite Differences (random.seed(123), "
            "MLP(2, [4, 1]), 17 parameters, a table of autograd vs numerical grads)",
        ],
        "skipped": [
            "the hidden plotting cells (three ways to differentiate, the graph drawing, "
            "forward vs reverse mode, the code comparison, the timeline)",
            "Training on XOR (200 epochs of a 2-8-1 MLP: over the size limit; it prints "
            "losses, no gradients)",
        ],
        "changes": [],
        "checkpoints": [
            cp("text2.py", "z.backward()", "z", ["x", "y", "z"]),
            cp("text2.py", "f2.backward()", "f2", ["x2", "f2"]),
            cp("text2.py", "f3.backward()", "f3", ["x3", "f3"]),
            cp("text2.py", "f4.backward()", "f4", ["x4", "f4"]),
            cp("text2.py", "loss.backward()", "loss",
               ["pred", "loss", *params("model_check.parameters()", 17)]),
        ],
        "author_printed": "from the text",  # filled below: the author's output lines
        "author_printed_noise": [
            {
                "author": "     0    -0.99673545    -0.99673545     9.07e-11",
                "cpython": "     0    -0.99673545    -0.99673545     2.07e-11",
            },
            {
                "author": "    16    -2.94563362    -2.94563362     4.91e-11",
                "cpython": "    16    -2.94563362    -2.94563362     1.14e-11",
            },
        ],
        "notes": [
            "two relative errors of the gradient table differ from the author's in their "
            "leading digit: they measure rounding noise (1e-11) of finite differences through "
            "math.tanh, whose last bit differs between C libraries; every gradient agrees to "
            "the 8 digits printed",
        ],
    },
    {
        "file": "text3.py",
        "source": "003_0f67d08bcf078b23.txt",
        "title": "AutoGrad Engine (Scalar, Reverse-Mode) (a notebook on GitHub)",
        "engine_class": "Node",
        "fields": NODE,
        "cells": [
            "every code cell, In [2] to In [42], in order: class Node; add, mul as free "
            "functions with closures; post_dfs; backward(out_node); the examples; zero_grad; "
            "operators patched onto Node (Node.__add__ = __add__ ...), neg, sub, pow, exp, log, "
            "sin, lifter, the right-hand versions; the gradient check (ag_g, num_g, gradcheck) "
            "over the lambdas of equations and composites",
        ],
        "skipped": [],
        "changes": [],
        "checkpoints": [
            cp("text3.py", "backward(z)", "z", ["x", "y", "z"], occurrence=1),
            cp("text3.py", "backward(z)", "z", ["x", "y", "z"], occurrence=2),
            cp("text3.py", "backward(z)", "z", ["x", "y", "z"], occurrence=3),
            cp("text3.py", "backward(z)", "z", ["x", "y", "z"], occurrence=4),
            cp("text3.py", "backward(z)", "z", ["x", "y", "z"], occurrence=5),
            cp("text3.py", "backward(z)", "z", ["x", "y", "z"], occurrence=6),
            cp("text3.py", "backward(z)", "z", ["x", "z"], occurrence=7),
            cp("text3.py", "backward(z)", "z", ["x", "z"], occurrence=8),
            cp("text3.py", "backward(z)", "z", ["x", "z"], occurrence=9),
        ],
        "author_printed": "from the text",
        "notes": [
            "the second checkpoint is the text's own demonstration of not zeroing: "
            "x.grad is 20 where the true gradient is 18 ('the answer should be (1 18 18)')",
            "the author's output of In [42] is cut off after '4 * x'",
            "grads are ints where the engine only adds ints (grad = 0, out_node.grad = 1)",
        ],
    },
    {
        "file": "text4a.py",
        "source": "004_b47b6926f0b6bca3.txt",
        "title": "Building a Minimal Autograd Framework from Scratch (Nagi-ovo's blog), "
        "first engine: gradients set by hand",
        "engine_class": "Value",
        "fields": TEXT4A,
        "cells": [
            "Custom Data Structure: class Value with _children/_op (the second version), "
            "with the label and the grad the text adds next",
            "a, b, c, d = a * b + c",
            "from graphviz import Digraph; trace; draw_dot; draw_dot(d)",
            "the labelled a, b, c, e, d, then f and L = d * f; draw_dot(L)",
            "lol() and the gradients set by hand (L.grad, f.grad, d.grad)",
            "Nudging Inputs: a.data += 0.01 * a.grad ...; print(L.data)",
        ],
        "skipped": [
            "the micrograd example at the top (micrograd.py has it)",
            "Understanding Derivatives (plain floats and a numpy plot)",
        ],
        "changes": [
            "the blog shows fragments and elides the rest with '# ...': the class is "
            "assembled (label=, self.label, self.grad = 0 as the text says to add them)",
            "c.grad, e.grad, a.grad, b.grad are set by hand as the text derives them "
            "(the chain rule section), and the nudge also moves c and f and re-runs the "
            "forward pass, which the blog's '# ... re-run forward pass ...' stands for: its "
            "-7.286496 needs all four",
        ],
        "checkpoints": [
            cp("text4a.py", "b.grad = -2.0 * 2.0", "L", ["a", "b", "c", "e", "d", "f", "L"],
               backward=False),
        ],
        "author_printed": ["-7.286496"],
        "author_claims": [
            (0, "f", "grad", 4.0, "f.grad = 4.0 # d.data"),
            (0, "d", "grad", -2.0, "d.grad = -2.0 # f.data"),
        ],
        "notes": [
            "no backward(): every .grad is written by the program itself, line by line",
            "lol() prints 0.9999999999976694 (the blog: '# ~1.0')",
        ],
    },
    {
        "file": "text4b.py",
        "source": "004_b47b6926f0b6bca3.txt",
        "title": "Building a Minimal Autograd Framework from Scratch (Nagi-ovo's blog), "
        "final engine: _backward closures and a topological backward()",
        "engine_class": "Value",
        "fields": VALUE,
        "cells": [
            "Implementing all atomic operations: class Value with __add__, __mul__, __pow__ "
            "(verbatim), the '# ... sub, radd, rmul, truediv ...' filled in, tanh from the "
            "realistic example and Level of Operation, backward from Automation",
            "the realistic example: a neuron o = tanh(x1*w1 + x2*w2 + b), o.backward()",
            "The Accumulation Bug, fixed: b = a + a; b.backward()",
            "Neuron, Layer, MLP (verbatim, with the parameters() the text's gradient descent "
            "calls) and MLP(3, [4, 4, 1])",
            "the loss, a backward, the Gradient Descent cell (tab-indented, as in the blog), "
            "and two iterations with the Zero grad fix",
        ],
        "skipped": ["PyTorch comparison, and the images"],
        "changes": [
            "assembled from fragments: what '# ...' elides (the neuron's inputs, weights and "
            "bias, the topological sort, the one-line operators, parameters(), the data set, "
            "the loop of forward/zero/backward/update with its print) is filled in as the text "
            "describes it",
            "two iterations of the training loop",
        ],
        "checkpoints": [
            cp("text4b.py", "o.backward()", "o",
               ["x1", "x2", "w1", "w2", "b", "x1w1", "x2w2", "x1w1x2w2", "n", "o"]),
            cp("text4b.py", "b.backward()", "b", ["a", "b"]),
            cp("text4b.py", "loss.backward()", "loss",
               ["loss", "ypred[0]", *params("n.parameters()", 41)]),
            cp("text4b.py", "loss.backward()", "loss",
               ["loss", "ypred[0]", *params("n.parameters()", 41)], occurrence=2, hit=2),
        ],
        "author_printed": [],
        "author_claims": [
            (0, "w2", "grad", 0.0, "If x2 is 0, changing w2 has zero effect on the output."),
            (1, "a", "grad", 2.0, "The derivative should be 2, not 1."),
        ],
        "printed_close": [
            {"index": 1, "why": "the loss after an update by gradients summed in set order: "
             "its last digits may move with the order of _prev"},
            {"index": 2, "why": "the same, after two updates"},
        ],
        "notes": ["print(len(n.parameters())) gives 41: 'A small network might have 41 "
                  "parameters'"],
    },
    {
        "file": "micrograd.py",
        "source": "micrograd 0.1.0 (PyPI sdist: micrograd/engine.py, micrograd/nn.py, README.md)",
        "title": "micrograd: engine.py, then nn.py, then the README's example",
        "engine_class": "Value",
        "fields": VALUE,
        "cells": ["micrograd/engine.py verbatim", "micrograd/nn.py verbatim (its import lines "
                  "included)", "the README's example usage"],
        "skipped": [],
        "changes": [],
        "checkpoints": [
            cp("micrograd.py", "g.backward()", "g", ["a", "b", "c", "d", "e", "f", "g"]),
        ],
        "author_printed": ["24.7041", "138.8338", "645.5773"],
        "notes": [
            "`from micrograd.engine import Value` is meant to name the Value defined above it: "
            "check_expected.py makes it so (with micrograd 0.1.0 installed, the package's Value "
            "is the same code and gives the same numbers)",
            "`python micrograd.py` itself cannot work: run as a script, `import micrograd` finds "
            "this very file, not the package; run it through check_expected.py",
        ],
    },
]

# The authors' printed output, where the texts show it (and the run must print it too)
TEXT2_AUTHOR = """Imports loaded: numpy, matplotlib, math
Value class defined successfully.
Supported operations: +, -, *, /, **, relu, exp, log, tanh
Call .backward() on the output to compute all gradients.
Test 1: f(x, y) = x*y + relu(x^2)
  z = Value(data=10.0000, grad=1.0000)
  dz/dx = 7.0000  (expected: y + 2x = 3 + 4 = 7.0)
  dz/dy = 2.0000  (expected: x = 2.0)
Test 2: f(x) = exp(x) / (1 + exp(x))  [sigmoid]
  f(1.5) = 0.817574  (expected: 0.817574)
  f'(1.5) = 0.149146  (expected: 0.149146)
Test 3: f(x) = tanh(x)
  tanh(0.7) = 0.604368  (expected: 0.604368)
  f'(0.7) = 0.634740  (expected: 0.634740)
Test 4: f(x) = x^3 * log(x) + exp(-x)
  Autograd derivative: 12.1824308835
  Numerical derivative: 12.1824308774
  Absolute error: 6.07e-09
MLP output: Value(data=0.5318, grad=0.0000)
Number of parameters: 17
  Layer 1: 12 params (4 neurons x (2 weights + 1 bias))
  Layer 2: 5 params (1 neuron x (4 weights + 1 bias))
Gradient Verification: Autograd vs Numerical
============================================================
 Param       Autograd      Numerical    Rel Error
------------------------------------------------------------
     1     0.59804127     0.59804127     9.49e-11
     2    -1.99347090    -1.99347090     7.64e-11
     3     0.98239128     0.98239128     1.15e-10
     4    -0.58943477    -0.58943477     2.62e-10
     5     1.96478256     1.96478256     5.85e-11
     6     0.31234982     0.31234982     4.17e-10
     7    -0.18740989    -0.18740989     2.98e-10
     8     0.62469965     0.62469965     6.14e-11
     9     0.48051511     0.48051511     2.21e-10
    10    -0.28830907    -0.28830907     1.64e-10
    11     0.96103022     0.96103022     9.61e-12
    12     0.58124933     0.58124933     1.99e-10
    13    -0.41728555    -0.41728555     4.95e-11
    14    -1.73915351    -1.73915351     1.06e-10
    15    -0.40070882    -0.40070882     1.58e-10
============================================================
Maximum relative error: 4.17e-10
GRADIENT CHECK PASSED"""

TEXT3_AUTHOR = """1 2 0
1 20 18
1 2 0
1 18 18
10
10
-20
1 -5 -4
-21
1 1 -1
25
2.718281828459045 2.718281828459045
2.302585092994046 0.1
-0.9589242746631385 0.28366218546322625
===== SINGLE OP TESTS =====
Testing: x + 3
x = 2.0
autograd grad = 1
numerical grad = 0.9999999999976694
diff = 2.3305801732931286e-12
grad check pass
----------------------------------------
Testing: 3 + x
Testing: x - 3
x = 5.0
Testing: 3 - x
autograd grad = -1
numerical grad = -0.9999999999976694
Testing: x * 4
x = 3.0
autograd grad = 4
numerical grad = 4.000000000008441
diff = 8.44124770082999e-12
Testing: 4 * x"""

AUTHOR_LINES = {"text2.py": TEXT2_AUTHOR.split("\n"), "text3.py": TEXT3_AUTHOR.split("\n")}

TEXT1_STYLE = "text1.py (Value, _prev, _op, data)"
TEXT0_STYLE = "text0.py (ValueNode, prev, op, value, label)"
TEXT2_STYLE = "text2.py (Value, _prev, _op, data, __repr__ to 4 places)"
TEXT3_STYLE = "text3.py (Node, parents, backward_fn, value; free functions add/mul)"
TEXT4_STYLE = "text4b.py (Value, _prev, _op, data, label)"

MISTAKES: list[dict[str, Any]] = [
    {
        "name": "overwrite_add", "style": TEXT4_STYLE, "kind": "overwrite",
        "line_text": "other.grad = 1.0 * out.grad",
        "nodes": ["a", "b"], "output": "b", "backward": "b.backward()",
        "teacher": "`other.grad = ...` replaces the gradient `a` already had: in `b = a + a` "
        "both operands are `a`, so this write throws away the first path's 1.0; use `+=` so "
        "every path adds its share.",
    },
    {
        "name": "overwrite_mul", "style": TEXT1_STYLE, "kind": "overwrite",
        "line_text": "self.grad = other.data * out.grad   # d(a*b)/da = b",
        "nodes": ["a", "b", "c", "d"], "output": "d", "backward": "d.backward()",
        "teacher": "`self.grad = ...` in `__mul__` wipes out the 1.0 that `a` already received "
        "from `c + a`; a value used twice must add up its gradients with `+=`.",
    },
    {
        "name": "order_recursive", "style": TEXT3_STYLE, "kind": "order",
        "line_text": "node.backward_fn()",
        "nodes": ["x", "y", "r", "s", "z"], "output": "z", "backward": "backward(z)",
        "teacher": "Walking down from the output runs r's backward as soon as it is reached "
        "(and again along the second path), before s has added its share to r.grad; go "
        "through the nodes in reverse topological order so each passes its gradient on "
        "once, when it is complete.",
    },
    {
        "name": "order_bfs", "style": TEXT2_STYLE, "kind": "order",
        "line_text": "v._backward()",
        "nodes": ["x", "y", "r", "p", "q", "z"], "output": "z", "backward": "z.backward()",
        "teacher": "Breadth-first order runs r._backward() on the first level, before p (two "
        "levels down) has added its 40 to r.grad, so x and y receive 1 instead of 41; reverse "
        "topological order guarantees a node has all of its gradient before passing it on.",
    },
    {
        "name": "local_tanh", "style": TEXT2_STYLE, "kind": "local",
        "line_text": "self.grad += (1 - self.data**2) * out.grad  # d(tanh x)/dx = 1 - tanh^2(x)",
        "nodes": ["x1", "x2", "w1", "w2", "b", "x1w1", "x2w2", "n", "o"], "output": "o",
        "backward": "o.backward()",
        "teacher": "The derivative of tanh is 1 - tanh(x)^2, that is 1 - t**2 with t the "
        "output; `1 - self.data**2` squares the input instead.",
    },
    {
        "name": "local_pow", "style": TEXT0_STYLE, "kind": "local",
        "line_text": "self.grad += other * (self.value ** other) * out.grad",
        "nodes": ["x", "y", "w", "d", "loss"], "output": "loss", "backward": "loss.backward()",
        "teacher": "The power rule is n * x**(n - 1): `self.value ** other` forgets to lower "
        "the exponent by one.",
    },
    {
        "name": "local_exp", "style": TEXT3_STYLE, "kind": "local",
        "line_text": "a.grad += out.grad * a.value",
        "nodes": ["x", "y", "p", "q", "z"], "output": "z", "backward": "backward(z)",
        "teacher": "The derivative of exp(x) is exp(x) itself, `out.value`, not x (`a.value`).",
    },
    {
        "name": "local_div_num", "style": TEXT0_STYLE, "kind": "local",
        "line_text": "self.grad += out.grad * other.value", "occurrence": 2,
        "nodes": ["a", "b", "q", "L"], "output": "L", "backward": "L.backward()",
        "teacher": "For a / b the derivative with respect to a is 1 / b; this line multiplies "
        "by b instead.",
    },
    {
        "name": "local_div_den", "style": TEXT0_STYLE, "kind": "local",
        "line_text": "other.grad += out.grad * (self.value / other.value**2)",
        "nodes": ["a", "b", "q", "L"], "output": "L", "backward": "L.backward()",
        "teacher": "For a / b the derivative with respect to b is -a / b**2: the minus sign "
        "is missing, so b is pushed the wrong way.",
    },
    {
        "name": "local_relu", "style": TEXT1_STYLE, "kind": "local",
        "line_text": "self.grad += (self.data > 0)",
        "nodes": ["x", "w1", "w2", "n1", "n2", "h1", "h2", "y"], "output": "y",
        "backward": "y.backward()",
        "teacher": "ReLU's local derivative (1 for a positive input, else 0) must still be "
        "multiplied by out.grad, as the chain rule says; here the 3.0 coming from above is lost.",
    },
    {
        "name": "local_sub", "style": TEXT0_STYLE, "kind": "local",
        "line_text": "other.grad += out.grad * 1.0", "occurrence": 2,
        "nodes": ["a", "b", "c", "d"], "output": "d", "backward": "d.backward()",
        "teacher": "In a - b the result goes down when b goes up: the second operand's local "
        "derivative is -1, not +1.",
    },
    {
        "name": "seed_missing", "style": TEXT2_STYLE, "kind": "seed",
        "line_text": "def backward(self):",
        "nodes": ["x", "y", "z"], "output": "z", "backward": "z.backward()",
        "teacher": "backward() never sets the output's own gradient to 1.0, so every _backward "
        "multiplies by 0 and all the gradients stay 0.",
    },
    {
        "name": "zero_twice", "style": TEXT3_STYLE, "kind": "zero",
        "line_text": "backward(z)", "occurrence": 2,
        "nodes": ["x", "y", "z"], "output": "z", "backward": "backward(z)", "backward_occurrence": 2,
        "teacher": "The second backward() adds onto the gradients the first one left in x and "
        "y: reset them (zero_grad) before backpropagating a new output.",
    },
    {
        "name": "zero_loop", "style": TEXT1_STYLE, "kind": "zero",
        "line_text": "loss.backward()", "hit": 2,
        "nodes": ["w", "b", "loss"], "output": "loss", "backward": "loss.backward()",
        "backward_hit": 2,
        "teacher": "Gradients accumulate with +=, so without zeroing w.grad and b.grad before "
        "loss.backward() the second step follows the sum of both steps' gradients.",
    },
    {
        "name": "rmul_copy", "style": TEXT4_STYLE, "kind": "local",
        "line_text": "self.grad += self.data * out.grad",
        "nodes": ["a", "b", "c", "d", "L"], "output": "L", "backward": "L.backward()",
        "teacher": "In `other * self` the derivative with respect to self is other.data; the "
        "__rmul__ copied from __mul__ multiplies by self.data.",
    },
    {
        "name": "missing_mul_other", "style": TEXT1_STYLE, "kind": "missing",
        "line_text": "def _backward():", "occurrence": 2,
        "nodes": ["a", "b", "c", "d", "e"], "output": "e", "backward": "e.backward()",
        "teacher": "This _backward only updates self.grad: the second operand never receives "
        "its share, self.data * out.grad, so b misses the 2.0 it gets through c.",
    },
]


def record(spec: dict[str, Any], result: dict[str, Any]) -> list[dict[str, Any]]:
    checkpoints = []
    for cp_spec, snap in zip(spec["checkpoints"], result["snapshots"], strict=True):
        nodes = snap["nodes"]
        checkpoints.append({
            **{k: cp_spec[k] for k in ("after_line", "hit", "backward_line", "output")},
            "nodes": nodes,
            "differs": [expr for expr, row in nodes.items() if differs(row)],
        })
    return checkpoints


def printed_with_variants(spec: dict[str, Any], printed: list[str]) -> list[Any]:
    variants = spec.get("printed_variants")
    if not variants:
        return printed
    i = printed.index(variants["first"])
    size = len(variants["any_of"][0])
    assert printed[i : i + size] in variants["any_of"], printed[i : i + size]
    return [*printed[:i], {"any_of": variants["any_of"]}, *printed[i + size :]]


def build() -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    programs: list[dict[str, Any]] = []
    for spec in TEXTS:
        entry = {k: v for k, v in spec.items() if k not in ("printed_variants", "author_claims")}
        entry["seeds"] = SEEDS
        if entry["author_printed"] == "from the text":
            entry["author_printed"] = AUTHOR_LINES[spec["file"]]
        result = run_program(entry)
        entry["checkpoints"] = record(spec, result)
        entry["printed"] = printed_with_variants(spec, result["printed"])
        entry["nodes_created"] = result["created"]
        entry["author_claims"] = [
            {"checkpoint": c, "node": n, "field": f, "value": v, "quote": q}
            for c, n, f, v, q in spec.get("author_claims", [])
        ]
        for line in entry["author_printed"]:
            assert line in result["printed"], f"{spec['file']}: author's {line!r} not printed"
        for claim in entry["author_claims"]:
            got = entry["checkpoints"][claim["checkpoint"]]["nodes"][claim["node"]][claim["field"]]
            assert abs(got - claim["value"]) < 1e-9, (spec["file"], claim, got)
        assert match_printed(entry["printed"], result["printed"]) is None
        for close in entry.get("printed_close", []):
            assert any(c.isdigit() for c in entry["printed"][close["index"]]), close
        report(spec["file"], result)
        programs.append(entry)

    mistakes: list[dict[str, Any]] = []
    for m in MISTAKES:
        name = m["name"]
        wrong_file, right_file = f"mistakes/{name}_wrong.py", f"mistakes/{name}_right.py"
        line = line_of(wrong_file, m["line_text"], m.get("occurrence", 1))
        for role, file in (("wrong", wrong_file), ("right", right_file)):
            check = cp(file, m["backward"], m["output"], m["nodes"],
                       occurrence=m.get("backward_occurrence", 1), hit=m.get("backward_hit", 1))
            entry = {
                "file": file,
                "mistake": name,
                "role": role,
                "style": m["style"],
                "engine_class": "Node" if m["style"] == TEXT3_STYLE else (
                    "ValueNode" if m["style"] == TEXT0_STYLE else "Value"),
                "fields": NODE if m["style"] == TEXT3_STYLE else (
                    VALUE_NODE if m["style"] == TEXT0_STYLE else VALUE),
                "seeds": SEEDS,
                "checkpoints": [check],
            }
            result = run_program(entry)
            entry["checkpoints"] = record(entry, result)
            entry["printed"] = result["printed"]
            entry["nodes_created"] = result["created"]
            report(file, result)
            programs.append(entry)
        wrong_entry, right_entry = programs[-2], programs[-1]
        import difflib

        ops = [
            op for op in difflib.SequenceMatcher(
                a=(HERE / wrong_file).read_text().split("\n"),
                b=(HERE / right_file).read_text().split("\n"),
            ).get_opcodes() if op[0] != "equal"
        ]
        first, last = ops[0][1] + 1, ops[-1][2]
        assert last - first < 16, (name, ops)  # one statement, or one function's body
        mistakes.append({
            "name": name,
            "kind": m["kind"],
            "style": m["style"],
            "wrong": wrong_file,
            "right": right_file,
            "line": line,
            "line_text": m["line_text"],
            "hit": m.get("hit", 1),
            "changed_lines": [first, last],
            "output": m["output"],
            "differs": wrong_entry["checkpoints"][-1]["differs"],
            "teacher": m["teacher"],
        })
        assert wrong_entry["checkpoints"][-1]["differs"], f"{name}: no node differs"
        assert not right_entry["checkpoints"][-1]["differs"], f"{name}: the right twin differs"
    return programs, mistakes


def report(file: str, result: dict[str, Any]) -> None:
    print(f"{file:40} {result['created']:5d} nodes {result['seconds'] * 1000:7.1f} ms")
    assert result["created"] < 2000, f"{file}: {result['created']} nodes"
    assert result["seconds"] < 1.0, f"{file}: {result['seconds']:.2f} s"


HEADER = '''"""What each learner program in this folder does when CPython runs it (data only).

Written by make_expected.py from real runs, checked by check_expected.py; gradstep's own tests
load it. Nothing here is imported but the standard library.

PROGRAMS: one entry per file (the five texts' programs, micrograd.py, each mistake's two twins):
  file, engine_class, fields (the attribute names of the learner's engine: data, grad, parents,
  op, backward), seeds (random.seed and np.random.seed before the run: the program's own seeding
  comes after), printed (every line the program prints; {"any_of": [...]} where set order
  decides), nodes_created (instances of engine_class made during the run) and checkpoints:
    after_line, hit: right after the hit-th run of that top-level line (1-based) of the file;
    backward_line: the backward() call it follows (None where the grads were set by hand);
    output: the variable whose gradient the true gradients are of;
    nodes: expression -> data and grad as the program's own engine left them, true_grad
      (d output / d node, by PyTorch on the same forward; 0.0 off the output's graph), label;
    differs: the nodes whose own grad is not the true one (relative 1e-6).
  Texts also have: source, title, cells (used), skipped, changes (from the text, and why),
  author_printed (the author's output lines, each printed by the run), author_claims (values the
  author states in comments or prose), author_printed_noise / author_unreproducible (author's
  lines the run cannot give, and why), printed_close (printed lines, by 0-based index, whose
  full-precision floats come from gradients summed in set order: compare them to 1e-9), notes.
  Mistake twins also have: mistake, role ("wrong" or "right"), style (the text it imitates).

MISTAKES: name, kind (overwrite, order, local, seed, zero, missing), wrong, right (files), line
  (1-based, in the wrong file: the wrong .grad write; for seed and missing the def whose body
  lacks the statement; for zero the backward() call whose hit-th run adds onto old grads),
  line_text, hit, changed_lines (the span of the wrong file's lines that differ from the right twin:
  [first, last], last = first - 1 where the right twin only inserts lines), output, differs, teacher.
"""

'''


def main() -> None:
    programs, mistakes = build()
    text = HEADER
    text += "PROGRAMS = " + pprint.pformat(programs, width=100, sort_dicts=False) + "\n\n"
    text += "MISTAKES = " + pprint.pformat(mistakes, width=100, sort_dicts=False) + "\n"
    (HERE / "expected.py").write_text(text)
    print(f"wrote expected.py: {len(programs)} programs, {len(mistakes)} mistakes")


if __name__ == "__main__":
    main()
