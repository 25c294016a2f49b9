"""Pass 0 of the language: checks on the raw text and ``ast.parse``, so that hostile input (too
long, too deep, invisible characters) fails fast with a located error before any recursive or
expensive work; and the source text as the later passes see it (a ``Unit``: its lines and the
spans of its syntax-tree nodes, in characters)."""

from __future__ import annotations

import ast
import io
import math
import re
import threading
import tokenize
import unicodedata
from collections.abc import Callable, Mapping
from dataclasses import dataclass

from engine.errors import GradstepError, Span
from engine.limits import MAX_DEPTH, MAX_OPERATORS, MAX_SOURCE_CHARS

_OPENING = frozenset("([{")
_CLOSING = frozenset(")]}")
_NOT_OPERATORS = frozenset("( ) [ ] { } , ; : = += -= *= /= **= //= %= @= &= |= ^= >>= <<=".split())
# Characters that reorder or hide text ("Trojan Source"): refused even inside comments.
_INVISIBLE = frozenset(
    "\u200b\u200c\u200d\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069\ufeff"
)
LINE_BREAK = re.compile(r"\r\n|\r|\n")  # Python's line breaks only, not str.splitlines()'s


@dataclass(frozen=True, eq=False)
class Unit:
    """One source text the interpreter runs: the user's program, or the prelude (micrograd.nn)
    whose spans mean nothing to the user."""

    name: str
    lines: list[str]
    span: Callable[[ast.AST], Span]


def spanner(lines: list[str]) -> Callable[[ast.AST], Span]:
    """Spans of syntax-tree nodes, cached: 1-based, on the node's first line, in characters."""
    ascii_lines = [line.isascii() for line in lines]
    cache: dict[ast.AST, Span] = {}

    def column(line: int, offset: int) -> int:
        """ast gives UTF-8 byte offsets; spans count characters (the same in an ASCII line)."""
        if ascii_lines[line - 1]:
            return offset + 1
        return len(lines[line - 1].encode()[:offset].decode(errors="replace")) + 1

    def span(node: ast.AST) -> Span:
        found = cache.get(node)
        if found is None:
            line = min(node.lineno, len(lines))  # type: ignore[attr-defined]
            start = column(line, node.col_offset)  # type: ignore[attr-defined]
            if node.end_lineno == node.lineno and node.end_col_offset is not None:  # type: ignore[attr-defined]
                end = column(line, node.end_col_offset)  # type: ignore[attr-defined]
            else:  # a span is one line: to the end of the first
                end = len(lines[line - 1]) + 1
            found = cache[node] = Span(line, start, max(end, start + 1))
        return found

    return span


def check_values(values: Mapping[str, float]) -> dict[str, float]:
    if not isinstance(values, Mapping):
        raise GradstepError("values must map input names to numbers", kind="type")
    checked: dict[str, float] = {}
    for name, x in values.items():
        if not isinstance(name, str):
            raise GradstepError(f"an input name must be text, not {name!r}", kind="type")
        if isinstance(x, bool) or not isinstance(x, (int, float)):
            raise GradstepError(f"the value of {name} must be a number, not {x!r}", kind="type")
        try:
            f = float(x)
        except OverflowError:
            raise GradstepError(f"the value of {name} is too large", kind="overflow") from None
        if not math.isfinite(f):
            raise GradstepError(f"the value of {name} must be a finite number, not {f}")
        checked[name] = f
    return checked


def _position(source: str, index: int) -> Span:
    """The span from character ``index`` to the end of its line."""
    line = source.count("\n", 0, index) + 1
    start = source.rfind("\n", 0, index) + 1
    end = source.find("\n", index)
    end = len(source) if end < 0 else end
    return Span(line, index - start + 1, max(end - start, index - start + 1) + 1)


def check_text(source: str) -> None:
    if len(source) > MAX_SOURCE_CHARS:
        raise GradstepError(
            f"the program has {len(source):,} characters; the limit is {MAX_SOURCE_CHARS:,}",
            kind="limit",
            span=_position(source, MAX_SOURCE_CHARS),
        )
    for i, ch in enumerate(source):
        if ch == "\x00" or ch in _INVISIBLE or (ch >= "\ud800" and ch <= "\udfff"):
            name = unicodedata.name(ch, "a control character")
            span = _position(source, i)
            raise GradstepError(
                f"invisible character U+{ord(ch):04X} ({name}) at line {span.line}, "
                f"column {span.column}: delete it",
                kind="syntax",
                span=Span(span.line, span.column, span.column + 1),
            )
    _check_nesting(source)


def _check_nesting(source: str) -> None:
    """Bracket depth and operators per statement, from the tokens: this bounds the depth of the
    syntax tree before ``ast.parse`` (which recurses) ever sees the text."""
    depth = operators = 0
    statement_start: tuple[int, int] = (1, 0)
    try:
        for tok in tokenize.generate_tokens(io.StringIO(source).readline):
            if tok.type in (tokenize.NEWLINE, tokenize.ENDMARKER) or tok.string == ";":
                operators = 0
                statement_start = tok.end
                continue
            if tok.type != tokenize.OP:
                continue
            if tok.string in _OPENING:
                depth += 1
                if depth > MAX_DEPTH:
                    line, col = tok.start
                    raise GradstepError(
                        f"brackets nest more than {MAX_DEPTH} deep here",
                        kind="limit",
                        span=Span(line, col + 1, col + 2),
                    )
            elif tok.string in _CLOSING:
                depth = max(depth - 1, 0)
            elif tok.string not in _NOT_OPERATORS:
                operators += 1
                if operators > MAX_OPERATORS:
                    line, col = tok.start
                    first = col + 1 if line != statement_start[0] else statement_start[1] + 1
                    raise GradstepError(
                        f"one statement has more than {MAX_OPERATORS} operators: "
                        "split it into several statements",
                        kind="limit",
                        span=Span(line, first, tok.end[1] + 1),
                    )
    except (tokenize.TokenError, SyntaxError):
        pass  # ast.parse reports the same mistake, with a better message


# CPython 3.11 keeps the AST constructor's recursion depth in interpreter-wide state, so two
# threads parsing at once can corrupt it: "SystemError: AST constructor recursion depth
# mismatch" (python/cpython#106905), seen as a 500 under a load of 64 clients. One at a time.
_AST_LOCK = threading.Lock()


def read_tree(source: str) -> ast.Module:
    try:
        with _AST_LOCK:
            return ast.parse(source, mode="exec")
    except SyntaxError as e:
        raise _syntax_error(e, source) from None
    except (RecursionError, MemoryError):
        raise GradstepError(
            "the program nests too deeply to read", kind="limit", span=_position(source, 0)
        ) from None
    except ValueError:  # an integer literal with more digits than Python converts
        raise _too_many_digits(source) from None


# A notebook's own commands (%matplotlib inline, !pip install ...): a line that starts with one
# can never be Python, so it is blanked, keeping every other line where it was.
_MAGIC = re.compile(r"^[ \t]*[%!].*$", re.MULTILINE)


def read_program(source: str) -> tuple[ast.Module, list[str]]:
    """The syntax tree of a program pasted from a notebook, and a note per command skipped."""
    try:
        return read_tree(source), []
    except GradstepError as first:
        commands = list(_MAGIC.finditer(source))
        if first.kind != "syntax" or not commands:
            raise
        blanked = _MAGIC.sub(lambda m: " " * len(m.group()), source)
        try:
            tree = read_tree(blanked)
        except GradstepError:
            raise first from None
    notes = [
        f"line {source.count(chr(10), 0, m.start()) + 1}: {m.group().strip()} is a notebook "
        "command: skipped"
        for m in commands
    ]
    return tree, notes


def _too_many_digits(source: str) -> GradstepError:
    digits = re.search(r"\d{1000,}", source)
    start = digits.start() if digits else 0
    line = source.count("\n", 0, start) + 1
    column = start - (source.rfind("\n", 0, start) + 1) + 1
    length = len(digits.group()) if digits else 1
    return GradstepError(
        "this number has too many digits", kind="overflow", span=Span(line, column, column + length)
    )


def _syntax_error(e: SyntaxError, source: str) -> GradstepError:
    if "integer string conversion" in str(e.msg):
        return _too_many_digits(source)
    lines = LINE_BREAK.split(source)
    line = min(max(e.lineno or 1, 1), len(lines))
    text = lines[line - 1]
    column = min(max(e.offset or 1, 1), len(text) + 1)
    end = e.end_offset if e.end_lineno == e.lineno and e.end_offset else column + 1
    end = min(max(end, column + 1), len(text) + 2)
    message = e.msg
    kind = "limit" if "too many nested" in message else "syntax"
    return GradstepError(f"{message} (line {line})", kind=kind, span=Span(line, column, end))
