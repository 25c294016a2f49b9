"""The language: source text in, a Value graph out (``parse``)."""

from engine.language.parse import parse
from engine.language.program import Call, DataChange, Program

__all__ = ["Call", "DataChange", "Program", "parse"]
