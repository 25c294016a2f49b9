"""gradstep's engine: a scalar reverse-mode autograd library, and the path from a program's
text to its trace.

The library (values, ops, the graph, nn, losses, optim, datasets, forward mode, gradcheck) and
the trace import nothing outside Python's standard library. Programs run in CPython inside a
WebAssembly sandbox (``engine.runner``, which needs wasmtime; what runs inside is
``engine.guest``). The training lab's replay of recorded graphs on arrays (``engine.lab.tape``,
``engine.lab.replay``) needs numpy and is imported only by the lab."""

from engine.errors import GradstepError, Span
from engine.graph import topological_order
from engine.ops import OPS, Op
from engine.program import Graph, Program
from engine.runner import run
from engine.trace import Outline, Trace, outline, trace, trace_value
from engine.value import Value, constant, cos, exp, log, relu, sigmoid, sin, sqrt, tanh

__all__ = [
    "OPS",
    "GradstepError",
    "Graph",
    "Op",
    "Outline",
    "Program",
    "Span",
    "Trace",
    "Value",
    "constant",
    "cos",
    "exp",
    "log",
    "outline",
    "relu",
    "run",
    "sigmoid",
    "sin",
    "sqrt",
    "tanh",
    "topological_order",
    "trace",
    "trace_value",
]
