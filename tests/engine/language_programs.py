"""What the language's tests share: a learner's own engine class (Node, written as the
tutorials write theirs), running a program for its output's data, for what it prints or for its
own engine, naming a value by its label, and the error a refused program raises."""

from __future__ import annotations

import pytest

from engine import GradstepError, Value, parse
from engine.language import OwnProgram, Program

NODE = """
class Node:
    def __init__(self, data, _children=()):
        self.data = data
        self.grad = 0
        self._prev = set(_children)
        self._backward = lambda: None
    def __repr__(self):
        return f"Node({self.data})"
    def __add__(self, other):
        other = other if isinstance(other, Node) else Node(other)
        out = Node(self.data + other.data, (self, other))
        def _backward():
            self.grad += out.grad
            other.grad += out.grad
        out._backward = _backward
        return out
    def __radd__(self, other):
        return self + other
    def __mul__(self, other):
        other = other if isinstance(other, Node) else Node(other)
        out = Node(self.data * other.data, (self, other))
        def _backward():
            self.grad += other.data * out.grad
            other.grad += self.data * out.grad
        out._backward = _backward
        return out
    def __rmul__(self, other):
        return self * other
    def __neg__(self):
        return self * -1
    def __sub__(self, other):
        return self + (-other)
    def __lt__(self, other):
        return self.data < other.data
    def backward(self):
        topo, seen = [], set()
        def build(v):
            if v not in seen:
                seen.add(v)
                for child in v._prev:
                    build(child)
                topo.append(v)
        build(self)
        self.grad = 1
        for v in reversed(topo):
            v._backward()
"""


OUTPUT = "\nfrom micrograd.engine import Value\nout = Value(1.0) * 2"  # something to draw


def out(source: str, values: dict[str, float] | None = None) -> float:
    return parse(source, values).output.data


def named(program: Program, label: str) -> Value:
    (v,) = [v for v, name in program.labels.items() if name == label]
    return v


def printed(source: str, values: dict[str, float] | None = None) -> list[str]:
    return [text for _, text in parse(source + OUTPUT, values).console]


def refused(source: str) -> GradstepError:
    with pytest.raises(GradstepError) as err:
        parse(source)
    return err.value


def own(source: str, **kwargs: object) -> OwnProgram:
    program = parse(source, **kwargs)  # type: ignore[arg-type]
    assert isinstance(program, OwnProgram)
    return program
