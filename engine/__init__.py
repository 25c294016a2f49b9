"""gradstep's engine: a scalar reverse-mode autograd library, standard library only.

Everything a student reads (values, ops, the graph, nn, the language, the trace) imports nothing
outside Python's standard library. The one exception is the training lab's replay of recorded
graphs on arrays (``engine.lab.tape``, ``engine.lab.replay``), which needs numpy and is imported
only by the lab."""

from engine.errors import GradstepError, Span
from engine.graph import topological_order
from engine.language import OwnProgram, Program, graph_program, parse
from engine.ops import OPS, Op
from engine.trace import Outline, Trace, trace_value
from engine.tracing import outline, trace
from engine.value import Value, constant, cos, exp, log, relu, sigmoid, sin, sqrt, tanh

__all__ = [
    "OPS",
    "GradstepError",
    "Op",
    "Outline",
    "OwnProgram",
    "Program",
    "Span",
    "Trace",
    "Value",
    "constant",
    "cos",
    "exp",
    "graph_program",
    "log",
    "outline",
    "parse",
    "relu",
    "sigmoid",
    "sin",
    "sqrt",
    "tanh",
    "topological_order",
    "trace",
    "trace_value",
]
