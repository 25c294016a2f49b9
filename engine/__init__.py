"""gradstep's engine: a scalar reverse-mode autograd library, standard library only."""

from engine.errors import GradstepError, Span
from engine.graph import topological_order
from engine.ops import OPS, Op
from engine.value import Value, constant, cos, exp, log, relu, sigmoid, sin, sqrt, tanh

__all__ = [
    "OPS",
    "GradstepError",
    "Op",
    "Span",
    "Value",
    "constant",
    "cos",
    "exp",
    "log",
    "relu",
    "sigmoid",
    "sin",
    "sqrt",
    "tanh",
    "topological_order",
]
