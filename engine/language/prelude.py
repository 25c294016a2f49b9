"""micrograd.nn for ``from micrograd.nn import MLP``: written in gradstep's language and run like
the user's code, so that every Neuron, Layer and MLP call is an ordinary call the graph can fold,
and every weight is drawn from the program's own ``random``.

It behaves as micrograd's nn: weights uniform in [−1, 1] and bias 0, drawn neuron by neuron in
the order micrograd draws them; each neuron sums b + w0·x0 + w1·x1 + ... in that order; ReLU
on every layer but the last, which is linear; a layer of one neuron returns a value, not a list.
"""

from __future__ import annotations

import ast

from engine.language.source import read_tree

SOURCE = """\
import random
from micrograd.engine import Value


class Module:
    def parameters(self):
        return []

    def zero_grad(self):
        for p in self.parameters():
            p.grad = 0


class Neuron(Module):
    def __init__(self, nin, nonlin=True):
        self.w = [Value(random.uniform(-1, 1)) for _ in range(nin)]
        self.b = Value(0)
        self.nonlin = nonlin  # False: linear, as the output layer is

    def __call__(self, x):
        act = sum((w * x_i for w, x_i in zip(self.w, x)), self.b)  # b + w0*x0 + w1*x1 ...
        if self.nonlin:
            return act.relu()
        return act

    def parameters(self):
        return self.w + [self.b]


class Layer(Module):
    def __init__(self, nin, nout, nonlin=True):
        self.neurons = [Neuron(nin, nonlin) for _ in range(nout)]

    def __call__(self, x):
        outs = [neuron(x) for neuron in self.neurons]
        if len(outs) == 1:
            return outs[0]  # one neuron: its value, so that the next layer can take it
        return outs

    def parameters(self):
        params = []
        for neuron in self.neurons:
            params.extend(neuron.parameters())
        return params


class MLP(Module):
    def __init__(self, nin, nouts):
        sizes = [nin] + list(nouts)
        self.layers = []
        for i in range(len(nouts)):
            hidden = i < len(nouts) - 1
            self.layers.append(Layer(sizes[i], sizes[i + 1], nonlin=hidden))

    def __call__(self, x):
        out = x
        for layer in self.layers:
            out = layer(out)
        return out

    def parameters(self):
        params = []
        for layer in self.layers:
            params.extend(layer.parameters())
        return params
"""

EXPORTS = ("Module", "Neuron", "Layer", "MLP")
_tree: ast.Module | None = None


def tree() -> ast.Module:
    """The prelude's syntax tree, read once per process."""
    global _tree
    if _tree is None:
        _tree = read_tree(SOURCE)
    return _tree
