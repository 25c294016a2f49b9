"""Hostile and broken programs, a corpus of them: each gets the right error kind at the right
place (syntax, names, unsupported constructs, arity and type, domain and overflow, limits),
and the message says what was found: nothing but GradstepError ever escapes."""

from __future__ import annotations

import pytest

from engine import GradstepError, Span, parse, trace
from engine.limits import MAX_DEPTH, MAX_OPERATORS, MAX_SOURCE_CHARS

DEEP_PARENS = "(" * 10_000 + "1" + ")" * 10_000
MEGABYTE_OF_PLUS = "1+" * 500_000 + "1"
NESTED_CALLS = "x = 2.0\ny = " + "tanh(" * (MAX_DEPTH + 50) + "x" + ")" * (MAX_DEPTH + 50)
LONG_CHAIN = "x = 2.0\ny = " + "+".join(["x"] * (MAX_OPERATORS + 10))
UNARY_FLOOD = "x = 2.0\ny = " + "-" * (MAX_OPERATORS + 10) + "x"

# (name, source, kind, span as (line, column, end_column) or None for "no span needed")
CORPUS: list[tuple[str, str, str, tuple[int, int, int] | None]] = [
    # syntax
    ("dangling assignment", "a = ", "syntax", (1, 5, 6)),
    ("operator soup", "x = 2.0\ny = x +* 3", "syntax", (2, 8, 9)),
    ("trailing operator", "x = 2.0\ny = x ** 0.5 + 1 +", "syntax", (2, 19, 20)),
    ("unclosed paren", "x = (2.0\n", "syntax", (1, 5, 6)),
    ("unterminated string", "x = '''", "syntax", (1, 5, 6)),
    ("double semicolon", "x = 2.0;;", "syntax", (1, 9, 10)),
    ("unexpected indent", "  x = 2.0", "syntax", (1, 2, 3)),
    ("tab indent", "x = 2.0\n\ty = x", "syntax", (2, 1, 2)),
    ("empty program", "", "syntax", (1, 1, 2)),
    ("only comments", "# nothing here\n\n", "syntax", (1, 1, 2)),
    ("only print", "print('hi')", "syntax", (1, 1, 2)),
    # non-ASCII and invisible characters
    ("NUL byte", "a\x00b = 1.0", "syntax", (1, 2, 3)),
    ("NUL after code", "x = 2.0\ny = x\x00", "syntax", (2, 6, 7)),
    ("right-to-left override", "\u202ex = 2.0", "syntax", (1, 1, 2)),
    ("bidi override in a comment", "x = 2.0 # \u202e evil", "syntax", (1, 11, 12)),
    ("bidi isolate", "x = 2.0\ny = x \u2066* x", "syntax", (2, 7, 8)),
    ("zero-width space in a name", "x\u200b = 2.0", "syntax", (1, 2, 3)),
    ("zero-width joiner", "x = 2.0\ny = x\u200d", "syntax", (2, 6, 7)),
    ("byte order mark", "\ufeffx = 2.0", "syntax", (1, 1, 2)),
    ("lone surrogate", "x = \ud800", "syntax", (1, 5, 6)),
    ("cyrillic look-alike", "\u0430 = 2.0\ny = a * 2", "name", (2, 5, 6)),
    ("greek name never assigned", "α = 2.0\nβ2 = α * β", "name", (2, 10, 11)),
    ("non-breaking space", "x = 2.0\ny =\u00a0x", "syntax", (2, 4, 5)),
    ("emoji", "x = 2.0\ny = x * 🙂", "syntax", (2, 9, 10)),
    ("line separator in a comment", "x = 2.0 # a\u2028b\ny = x +* 2", "syntax", (2, 8, 9)),
    ("old Mac line endings", "x = 2.0\ry = x ** log(-x)", "domain", (2, 10, 17)),
    ("full-width digits", "x = ２.0", "syntax", (1, 5, 6)),
    # names
    ("unknown names", "y = z * w + q", "name", (1, 5, 6)),
    ("used before assigned", "b = a + 1\na = 2.0", "name", (1, 5, 6)),
    ("augmented unassigned", "c += 1", "name", (1, 1, 2)),
    ("unknown function", "y = foo(2.0)", "name", (1, 5, 8)),
    ("abs of a value", "x = 2.0; y = abs(x)", "type", (1, 14, 20)),
    ("calling a value", "x = 2.0; y = (x)(x)", "name", (1, 15, 16)),
    ("assigning Value", "Value = 2.0", "name", (1, 1, 12)),
    # unsupported constructs
    ("dunder import", "__import__('os')", "unsupported", (1, 1, 17)),
    ("class escape", "().__class__", "unsupported", (1, 1, 13)),
    ("subclasses escape", "x = ().__class__.__bases__[0].__subclasses__()", "unsupported", None),
    ("dunder attribute", "x = 2.0; y = x.__class__", "unsupported", (1, 14, 25)),
    ("dunder name", "__builtins__ = 2.0", "unsupported", (1, 1, 13)),
    ("import os", "import os", "unsupported", (1, 1, 10)),
    ("from os import", "from os import path", "unsupported", (1, 1, 20)),
    ("relative import", "from . import x", "unsupported", (1, 1, 16)),
    ("subscript", "x = 2.0; y = x[0]", "unsupported", (1, 14, 18)),
    ("lambda as the output", "y = lambda: 1", "type", (1, 5, 14)),
    ("only a list of numbers", "y = [i for i in range(3)]", "type", (1, 5, 26)),
    ("only a sum of numbers", "y = sum(i for i in range(9))", "type", (1, 5, 29)),
    ("data of a plain number", "x = 2.0; y = x.data.data", "unsupported", (1, 14, 25)),
    ("attribute chain", "x = 2.0; y = x.exp.tanh()", "unsupported", (1, 14, 19)),
    ("string value", "x = 'hello'", "unsupported", (1, 5, 12)),
    ("f-string", "x = 2.0; y = f'{x}'", "unsupported", (1, 14, 20)),
    ("floor division", "x = 2.0; y = x // 2", "unsupported", (1, 14, 20)),
    ("modulo", "x = 2.0; y = x % 2", "unsupported", (1, 14, 19)),
    ("matmul", "x=2.0;y=x@x", "unsupported", (1, 9, 12)),
    ("invert", "x = 2.0; y = ~x", "unsupported", (1, 14, 16)),
    ("not", "x = 2.0; y = not x", "unsupported", (1, 14, 19)),
    ("comparison", "x = 2.0; y = x < 3", "unsupported", (1, 14, 19)),
    ("conditional", "x = 2.0; y = x if x else x", "unsupported", (1, 14, 27)),
    ("if statement", "x=2.0\nif x: y = x", "unsupported", (2, 1, 12)),
    ("loop over a value", "x = 2.0\nfor i in x: pass", "type", (2, 1, 17)),
    ("while loop without end", "while 1: pass", "limit", (1, 1, 14)),
    # issue 30, item 15: Python's "generator already executing" was a bare ValueError
    (
        "a generator that reads itself",
        "g = (sum(g) for i in range(2))\nx = list(g)",
        "unsupported",
        (1, 6, 12),
    ),
    ("definitions only", "def f(x): return x\nclass A: pass", "syntax", (1, 1, 2)),
    ("super", "class A:\n  def f(self): return super().f()\nA().f()", "name", (2, 23, 28)),
    ("unpacking the wrong count", "x, y = 1.0, 2.0, 3.0", "arity", (1, 1, 21)),
    ("chained assignment", "x = y = 2.0", "unsupported", (1, 1, 12)),
    ("annotated assignment", "x: float = 2.0", "unsupported", (1, 1, 15)),
    ("walrus", "x = 2.0\ny = (z := x)", "unsupported", (2, 6, 12)),
    ("keyword argument", "x = 2.0; y = tanh(x=x)", "unsupported", (1, 14, 23)),
    ("Value keyword", "x = Value(2.0, grad=1)", "unsupported", (1, 5, 23)),
    ("data of an op result", "x = 2.0\ny = x * 2\ny.data = 1.0", "unsupported", (3, 1, 13)),
    ("private method", "x = 2.0\nx._backward()", "unsupported", (2, 1, 14)),
    ("backward in expression", "x = 2.0; y = x.backward()", "unsupported", (1, 14, 26)),
    ("starred", "x = 2.0\ny = tanh(*x)", "type", (2, 1, 13)),
    ("yield", "x = 1.0\nyield x", "unsupported", (2, 1, 8)),
    ("del", "x = 2.0; del x", "unsupported", (1, 10, 15)),
    ("eval", "eval('1')", "name", (1, 1, 5)),
    ("exec", "exec('import os')", "name", (1, 1, 5)),
    ("open file", "open('/etc/passwd')", "name", (1, 1, 5)),
    # constructs of Python that gradstep does not run, each refused with what works instead
    ("try", "try:\n  x = 1.0\nexcept ValueError:\n  pass", "unsupported", (1, 1, 5)),
    ("with", "with open('f') as f: pass", "unsupported", (1, 1, 26)),
    ("global computes nothing", "def f():\n  global x\n  x = 1.0", "syntax", (1, 1, 2)),
    ("import torch", "import torch", "unsupported", (1, 1, 13)),
    ("relative import", "from .nn import MLP", "unsupported", (1, 1, 20)),
    ("star import", "from micrograd.nn import *", "unsupported", (1, 1, 27)),
    ("unknown micrograd name", "from micrograd.nn import Linear", "unsupported", (1, 1, 32)),
    ("lecture _prev", "x = Value(2.0)\ny = x._prev", "unsupported", (2, 5, 12)),
    ("lecture _op", "x = Value(2.0)\ny = x._op", "unsupported", (2, 5, 10)),
    ("lecture _backward call", "x = Value(2.0)\nx._backward()", "unsupported", (2, 1, 14)),
    ("dict as the output", "x = {'a': 1.0}", "type", (1, 5, 15)),
    ("set as the output", "x = {1.0}", "type", (1, 5, 10)),
    ("return outside a function", "x = 2.0\nreturn x", "unsupported", (2, 1, 9)),
    ("break outside a loop", "x = 2.0\nbreak", "unsupported", (2, 1, 6)),
    ("decorator", "@f\ndef g(): pass", "unsupported", (2, 1, 14)),
    ("star parameter computes nothing", "def f(*xs): return xs", "syntax", (1, 1, 2)),
    ("double-star argument", "def f(x): return x\nf(**{})", "arity", (2, 1, 8)),
    ("dunder method", "class A:\n  def __class__(self, o): return o", "unsupported", (2, 3, 35)),
    ("dunder main", "if __name__ == '__main__': pass", "unsupported", (1, 4, 12)),
    ("inherit from a builtin", "class A(int): pass", "unsupported", (1, 1, 19)),
    (
        "numpy function not provided",
        "import numpy as np\nx = np.linspace(0, 1)",
        "unsupported",
        (2, 5, 22),
    ),
    (
        "make_blobs",
        "from sklearn.datasets import make_blobs\nX, y = make_blobs()",
        "unsupported",
        (2, 8, 20),
    ),
    ("comparing values", "x = 2.0\ny = x if x > 1 else -x", "unsupported", (2, 10, 15)),
    ("instance not callable", "class A: pass\na = A()\na(1)", "type", (3, 1, 5)),
    (
        "method argument count",
        "class A:\n  def f(self, x): return x\nA().f(1, 2)",
        "arity",
        (3, 1, 12),
    ),
    ("unknown keyword", "def f(x): return x\nf(y=2.0)", "arity", (2, 1, 9)),
    ("index out of range", "xs = [1.0]\ny = xs[3]", "domain", (2, 5, 10)),
    ("list times a value", "x = 2.0\ny = [x] * x", "type", (2, 5, 12)),
    ("string arithmetic", "x = 'a' - 'b'", "type", (1, 5, 14)),
    (
        "plt result used",
        "import matplotlib.pyplot as plt\nx = 2.0\ny = plt.plot(x) * x",
        "type",
        (3, 5, 20),
    ),
    # arity and type
    ("two arguments", "x = 1.0; y = tanh(x, x)", "arity", (1, 14, 24)),
    ("method argument", "x = 1.0\ny = x.tanh(2)", "arity", (2, 5, 14)),
    ("no argument", "y = exp()", "arity", (1, 5, 10)),
    ("Value two numbers", "x = Value(2.0, 3.0)", "arity", (1, 5, 20)),
    ("backward argument", "x = 2.0\nx.backward(1)", "arity", (2, 1, 14)),
    ("Value of a value", "x = Value(2.0)\ny = Value(x)", "type", (2, 5, 13)),
    ("label not a string", "x = Value(2.0, label=3)", "type", (1, 5, 24)),
    ("boolean", "x = True", "type", (1, 5, 9)),
    ("None", "x = None", "type", (1, 5, 9)),
    ("complex", "x = 1j", "type", (1, 5, 7)),
    ("plain number program", "2 + 3", "type", (1, 1, 6)),
    ("Value alone", "x = 2.0; y = Value", "type", (1, 14, 19)),
    # domain and overflow
    ("log of negative", "x = -1.0\ny = log(x)", "domain", (2, 5, 11)),
    ("division by zero", "x = 0.0; y = 1 / x", "domain", (1, 14, 19)),
    ("literal division by zero", "y = 1/0", "domain", (1, 5, 8)),
    ("negative base root", "x = -8.0; y = x ** 0.5", "domain", (1, 15, 23)),
    ("zero to negative", "x = 0.0\ny = x ** -1", "domain", (2, 5, 12)),
    ("sqrt of negative", "x = 2.0\ny = sqrt(x - 3)", "domain", (2, 5, 16)),
    ("gradient undefined", "x = 2.0; y = sqrt(x - 2.0) * x\ny.backward()", "domain", (1, 14, 27)),
    ("power tower", "9**9**9", "overflow", (1, 1, 8)),
    ("power tower with input", "x = 2.0\ny = 9**9**9 * x", "overflow", (2, 5, 12)),
    ("huge float literal", "x = 1e999", "overflow", (1, 5, 10)),
    ("too many digits", "x = 1" + "0" * 5000, "overflow", (1, 5, 5006)),
    ("product overflow", "x = 1e200; y = x * x", "overflow", (1, 16, 21)),
    ("exp overflow", "x = 710.0; y = exp(x)", "overflow", (1, 16, 22)),
    # limits
    ("10,000 nested parentheses", DEEP_PARENS, "limit", (1, 20_001, 20_002)),
    ("a megabyte of 1+", MEGABYTE_OF_PLUS, "limit", (1, 20_001, 1_000_002)),
    ("nested calls", NESTED_CALLS, "limit", (2, 9 + 5 * MAX_DEPTH, 10 + 5 * MAX_DEPTH)),
    ("parens past the depth", "(" * (MAX_DEPTH + 1) + "1" + ")" * (MAX_DEPTH + 1), "limit", None),
    ("long chain", LONG_CHAIN, "limit", None),
    ("unary flood", UNARY_FLOOD, "limit", None),
    ("long source", "x = 1.0\n" + "#" * MAX_SOURCE_CHARS, "limit", (2, 19_993, 20_001)),
]


@pytest.mark.parametrize(
    ("source", "kind", "span"),
    [pytest.param(src, kind, span, id=name) for name, src, kind, span in CORPUS],
)
def test_hostile_program_gets_the_right_error(
    source: str, kind: str, span: tuple[int, int, int] | None
) -> None:
    with pytest.raises(GradstepError) as err:
        trace(parse(source))
    assert err.value.kind == kind, err.value.message
    assert err.value.span is not None
    if span is not None:
        assert err.value.span == Span(*span), err.value.message
    assert "Traceback" not in err.value.message


def test_corpus_is_large() -> None:
    assert len(CORPUS) >= 40
    assert {kind for _, _, kind, _ in CORPUS} == {
        "syntax",
        "name",
        "unsupported",
        "arity",
        "type",
        "domain",
        "overflow",
        "limit",
    }


def test_domain_error_shows_the_operand_value() -> None:
    with pytest.raises(GradstepError) as err:
        parse("x = -1.0\ny = log(x)")
    assert "-1" in err.value.message


def test_unsupported_error_says_what_was_found() -> None:
    with pytest.raises(GradstepError) as err:
        parse("x = 2.0; y = x[0]")
    assert "subscript" in err.value.message


def test_look_alike_name_is_explained() -> None:
    with pytest.raises(GradstepError) as err:
        parse("\u0430 = 2.0\ny = a * 2")
    assert "did you mean а (with U+0430 CYRILLIC SMALL LETTER A)" in err.value.message
    with pytest.raises(GradstepError) as different:
        parse("α = 2.0\ny = β * 2")  # different letters, not look-alikes
    assert "did you mean" not in different.value.message
