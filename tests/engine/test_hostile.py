"""Hostile and broken programs: each gets the right error kind at the right place, fast, and
nothing but GradstepError ever escapes (no traceback, RecursionError or MemoryError)."""

from __future__ import annotations

import sys
import time

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine import GradstepError, Span, parse, trace
from engine.language import graph_program
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
    ("while loop without end", "while 1: pass", "limit", (1, 10, 14)),
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


class CountingTable(dict[int, int]):
    """A translation table that counts the letters looked up in it."""

    lookups = 0

    def __getitem__(self, key: int) -> int:
        self.lookups += 1
        return super().__getitem__(key)


def test_unknown_names_meet_assigned_ones_in_linear_time(monkeypatch: pytest.MonkeyPatch) -> None:
    """2,400 assigned and 5,000 unknown CJK names (19.6 K characters): every unknown name was
    compared with every assigned one (12 million skeletons, 2 to 5 s a request). Now each name's
    skeleton is taken once and looked up: the work is counted, not timed."""
    from engine.language.check import messages as names

    table = CountingTable(names._HOMOGLYPHS)
    monkeypatch.setattr(names, "_HOMOGLYPHS", table)
    assigned = [chr(0x4E00 + i) for i in range(2_400)]
    unknown = [chr(0x4E00 + 3_000 + i) for i in range(5_000)]
    sums = ["z=" + "+".join(unknown[k : k + 400]) for k in range(0, len(unknown), 400)]
    source = "\n".join([f"{n}=1" for n in assigned] + sums)
    assert 19_000 < len(source) <= MAX_SOURCE_CHARS
    with pytest.raises(GradstepError) as err:
        parse(source)
    assert err.value.kind == "name" and "and 4,990 more" in err.value.message
    assert len(err.value.message) < 1_000  # ten names written out, the rest counted
    assert table.lookups <= 2 * (len(assigned) + len(unknown))  # one skeleton a name


def test_long_chain_within_the_limit_parses() -> None:
    source = "x = 2.0\ny = " + "+".join(["x"] * MAX_OPERATORS)
    assert parse(source).output.data == 2.0 * MAX_OPERATORS


def test_nesting_within_the_limit_parses() -> None:
    depth = MAX_DEPTH
    source = "x = 0.5\ny = " + "(" * (depth - 1) + "tanh(x)" + ")" * (depth - 1)
    assert parse(source).output.op is not None


# Random text and random token soup: the only exception ever raised is GradstepError.
TOKENS = [
    *"abcxy",
    "x1",
    "Value",
    "Value(",
    "label=",
    "'s'",
    *"0 1 2.5 1e3 1e999 9 -".split(),
    *"+ - * / ** // % @ ( ) [ ] { } , . ; : = += -= *= /= ** < == not and".split(),
    *"tanh exp log relu sqrt .tanh() .backward() backward print( import from __class__".split(),
    *"def class return range( in self. .data .grad .label= sum( zip( [0]* is None".split(),
    "\n    ",
    "import random\n",
    "from micrograd.nn import MLP\n",
    "\n",
    " ",
    "\t",
    "#",
    "lambda",
    "if",
    "for",
    "α",
    "\x00",
    "\u202e",
    "\\",
    '"',
    "'''",
]


def _must_only_raise_gradstep_error(source: str) -> None:
    try:
        trace(parse(source))
    except GradstepError as e:
        assert isinstance(e.kind, str) and e.message
        if e.span is not None:
            assert e.span.line >= 1 and 1 <= e.span.column < e.span.end_column


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.text(max_size=80))
def test_random_text_only_raises_gradstep_error(source: str) -> None:
    _must_only_raise_gradstep_error(source)


@settings(max_examples=250, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.sampled_from(TOKENS), max_size=40).map("".join))
def test_random_token_soup_only_raises_gradstep_error(source: str) -> None:
    _must_only_raise_gradstep_error(source)


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.lists(st.sampled_from(TOKENS), max_size=30).map("".join),
    st.dictionaries(st.sampled_from(["a", "b", "x", "zz"]), st.floats(), max_size=3),
)
def test_random_values_only_raise_gradstep_error(source: str, values: dict[str, float]) -> None:
    try:
        trace(parse("a = 1.0\nb = 2.0\n" + source, values))
    except GradstepError:
        pass


def _frames() -> int:
    frame, n = sys._getframe(), 0
    while frame is not None:
        frame, n = frame.f_back, n + 1
    return n


DEEP_CALLS = "def f(n):\n    return Value(1.0) if n == 0 else f(n - 1) * 1.0\ny = f(30)"


def test_a_caller_deep_in_its_stack_still_gets_gradstep_error() -> None:
    """ast.parse recurses with a budget tied to Python's recursion limit: called with little
    stack left, a chain within MAX_OPERATORS overflows it; that is a located limit error,
    never RecursionError."""
    source = "x = 2.0\ny = " + "+".join(["x"] * MAX_OPERATORS)

    def at_depth(n: int) -> None:
        if n > 0:
            at_depth(n - 1)
            return
        with pytest.raises(GradstepError) as err:
            parse(source)
        assert err.value.kind == "limit"
        assert err.value.span is not None

    at_depth(sys.getrecursionlimit() - _frames() - 120)


def test_a_caller_deep_in_its_stack_still_runs_deep_calls() -> None:
    """Calls nested deep run on threads of their own: called with little stack left, the
    program's calls still run, and Python's recursion limit is never raised."""
    limit = sys.getrecursionlimit()
    found: list[float] = []

    def at_depth(n: int) -> None:
        if n > 0:
            at_depth(n - 1)
            return
        found.append(graph_program(parse(DEEP_CALLS)).output.data)

    at_depth(limit - _frames() - 150)
    assert found == [1.0] and sys.getrecursionlimit() == limit


# Random programs made of the language's pieces: they reach deep into the interpreter, and
# still the only exception is GradstepError, located, and never the last-resort "cannot run".
HEADER = """\
import random
import numpy as np
from micrograd.nn import MLP
x = 2.0
xs = [1.0, 2.0, x]
def f(a, b=1.0):
    return a * b + a
class N:
    def __init__(self, n):
        self.w = [Value(1.0) for _ in range(n)]
    def __call__(self, v):
        return sum(w * v for w in self.w)
n = N(3)
net = MLP(2, [3, 1])
arr = np.array([[1.0, 2.0], [3.0, 4.0]])
"""
PIECES = [
    *"y = x * 3|s = sum(xs)|s = sum(xs, x)|z = f(x)|z = f(x, b=s)|o = n(x)|o.backward()".split("|"),
    *"draw_dot(o)|random.seed(1)|w = Value(random.uniform(-1, 1))|k = len(xs)|m = max(xs)".split(
        "|"
    ),
    *"t = xs[1:]|t = xs[-1]|q = x if k > 1 else s|out = net([x, s])|net.zero_grad()".split("|"),
    *"ps = net.parameters()|u = -x|v = x ** 2|v = 2 ** x|r = x / s|col = arr[:, 0]".split("|"),
    *"bb = arr * 2 - 1|xs.append(x)|xs[0] = s|p0 = xs.pop()|g = (v for v in xs)|h = list(g)".split(
        "|"
    ),
    *"bo = k > 1 and k < 5 or k == 3|x.label = 'xx'|x.grad = 0.0|dd = x.data|x = int(2.7)".split(
        "|"
    ),
    *"x = x.exp().log()|x = exp(x) + tanh(x)|y = y // 2|y = 7 % 3|x = (0.5).tanh()".split("|"),
    "for p in n.w:\n    p.data += -0.1 * p.grad",
    "for i, v in enumerate(xs):\n    s = s + v\n    if i > 1:\n        break",
    "if x.data > 1:\n    y = x.tanh()\nelse:\n    y = x.relu()",
]


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.sampled_from(PIECES), min_size=1, max_size=12))
def test_random_language_programs_only_raise_located_gradstep_errors(pieces: list[str]) -> None:
    try:
        trace(parse(HEADER + "\n".join(pieces)))
    except GradstepError as e:
        assert "cannot run this statement" not in e.message, e.message
        assert e.span is not None or "values given" in e.message, e.message
        assert e.span is None or 1 <= e.span.column < e.span.end_column


# The surfaces a learner's own engine needs (while, recursion, dicts, sets, strings, closures,
# objects of the program, print): each bomb is a located limit error, fast, never a hang or a
# RecursionError.
BOMBS = {
    "while True": ("while True:\n    pass", 2),
    "recursion bomb": ("def f(n):\n    return f(n + 1)\nf(0)", 2),
    "mutual recursion": ("def f(n):\n    return g(n)\ndef g(n):\n    return f(n)\nf(0)", 4),
    "dict bomb": ("d = {}\nfor i in range(10**9):\n    d[i] = i", 3),
    "dict comprehension bomb": ("d = {i: i for i in range(10**9)}", 1),
    "set bomb": ("s = set()\nfor i in range(10**9):\n    s.add(str(i))", 3),
    "set comprehension bomb": ("s = {i for i in range(10**9)}", 1),
    "string doubling": ("s = 'x'\nwhile True:\n    s = s + s", 3),
    "string repeat": ("s = 'ab' * 10**9", 1),
    "format width": ("s = f'{1:>999999999}'", 1),
    "percent width": ("s = '%999999999d' % 1", 1),
    "ljust": ("s = 'a'.ljust(10**9)", 1),
    "join bomb": ("s = ','.join(['x' * 1000] * 100000)", 1),
    "closure cycle": ("def f():\n    g = lambda: g()\n    return g()\nf()", 2),
    "instance bomb": ("class A:\n    pass\nxs = []\nwhile True:\n    xs.append(A())", 5),
    "instance recursion": ("class A:\n    def __init__(self):\n        self.a = A()\nA()", 3),
    "repr recursion": ("class A:\n  def __repr__(self):\n    return repr(self)\nprint(A())", 3),
    "operator ping-pong": ("class A:\n  def __add__(self, o):\n    return o + self\nA() + A()", 3),
    "print flood": ("while True:\n    print('x' * 1000)", 2),
    "nested tuple key": ("t = ()\nfor i in range(20000):\n    t = (t,)\ns = {t}", 4),
    "list holding itself printed": ("a = [1]\na.append(a)\nprint(a)", 3),
}


@pytest.mark.parametrize(("source", "line"), BOMBS.values(), ids=BOMBS.keys())
def test_bombs_on_the_new_surfaces_are_located_limit_errors(source: str, line: int) -> None:
    start = time.perf_counter()
    with pytest.raises(GradstepError) as err:
        parse(source)
    assert time.perf_counter() - start < 2.0  # milliseconds here; the bound leaves room for CI
    assert err.value.kind == "limit", err.value.message
    assert err.value.span is not None and err.value.span.line == line
