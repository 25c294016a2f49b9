"""The expression language: source text in, a Value graph out (``parse``)."""

from engine.language.parse import Program, parse

__all__ = ["Program", "parse"]
