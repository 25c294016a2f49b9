"""New structures of a program, for timing a graph whose layout is not cached: the same
program with one input renamed is laid out the same way, but is a new graph to the cache."""

from __future__ import annotations

import re

import engine


def first_input(source: str) -> str:
    return next(iter(engine.run(source).graph.inputs))


def renamed(source: str, name: str, i: int) -> str:
    """``source`` with input ``name`` renamed: a new structure (cold), the same layout work."""
    return re.sub(rf"\b{name}\b", f"{name}_{i}", source)
