"""The language: source text in, a Value graph out (``parse``)."""

from engine.language.parse import parse
from engine.language.program import Call, Program, Update

__all__ = ["Call", "Program", "Update", "parse"]
