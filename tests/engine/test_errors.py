"""A broken program's error: CPython's own, of the kind its exception maps to, at the place in
the learner's text where it happened (gradstep's Value raises its own for a number outside an
op's domain or past the float range); the runner's refusals of text that hides or reorders what
the editor shows; and, whatever the text or the values, nothing but GradstepError escapes, with
a place inside the program."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine import GradstepError, Span, run, trace
from engine.limits import RunLimits

# (name, source, kind, span as (line, column, end column), how the message begins)
CORPUS: list[tuple[str, str, str, tuple[int, int, int], str]] = [
    # CPython's syntax errors
    ("dangling assignment", "a = ", "syntax", (1, 5, 6), "SyntaxError: invalid syntax"),
    ("operator soup", "x = 2.0\ny = x +* 3", "syntax", (2, 8, 9), "SyntaxError: invalid syntax"),
    ("unclosed paren", "x = (2.0\n", "syntax", (1, 5, 6), "SyntaxError: '(' was never closed"),
    ("unexpected indent", "  x = 2.0", "syntax", (1, 2, 3), "IndentationError: unexpected"),
    ("tab indent", "x = 2.0\n\ty = x", "syntax", (2, 1, 2), "IndentationError: unexpected"),
    ("non-breaking space", "x = 2.0\ny =\u00a0x", "syntax", (2, 4, 5), "SyntaxError: invalid non"),
    ("emoji", "x = 2.0\ny = x * 🙂", "syntax", (2, 9, 10), "SyntaxError: invalid character"),
    ("full-width digits", "x = ２.0", "syntax", (1, 5, 6), "SyntaxError: invalid character"),
    # characters that hide or reorder text: refused before the program runs
    ("NUL byte", "a\x00b = 1.0", "syntax", (1, 2, 3), "invisible character U+0000"),
    ("NUL after code", "x = 2.0\ny = x\x00", "syntax", (2, 6, 7), "invisible character U+0000"),
    ("right-to-left override", "\u202ex = 2.0", "syntax", (1, 1, 2), "invisible character U+202E"),
    ("bidi override in a comment", "x = 2.0 # \u202e evil", "syntax", (1, 11, 12), "invisible"),
    ("bidi isolate", "x = 2.0\ny = x \u2066* x", "syntax", (2, 7, 8), "invisible character U+2066"),
    ("zero-width space", "x\u200b = 2.0", "syntax", (1, 2, 3), "invisible character U+200B"),
    ("zero-width joiner", "x = 2.0\ny = x\u200d", "syntax", (2, 6, 7), "invisible character"),
    ("byte order mark", "\ufeffx = 2.0", "syntax", (1, 1, 2), "invisible character U+FEFF"),
    ("lone surrogate", "x = \ud800", "syntax", (1, 5, 6), "invisible character U+D800"),
    # names: a typed example's free names are asked of the values; anything else is CPython's
    ("unknown names", "y = z * w + q", "name", (1, 5, 6), "no value for z, w, q"),
    ("look-alike letter", "\u0430 = 2.0\ny = a * 2", "name", (2, 5, 6), "no value for a"),
    ("used before assigned", "b = a + 1\na = 2.0", "name", (1, 5, 6), "NameError: name 'a'"),
    ("augmented unassigned", "c += 1", "name", (1, 1, 2), "NameError: name 'c' is not defined"),
    ("numpy never imported", "x = np.array([1.0, 2.0])\ny = Value(x[0]) * 2", "name", (1, 5, 7),
     "NameError: name 'np' is not defined (add import numpy as np at the top)"),
    ("a submodule never imported", "import micrograd\nnet = micrograd.nn.MLP(2, [3, 1])", "name",
     (2, 7, 19), "AttributeError: module 'micrograd' has no attribute 'nn'"),
    ("a method without its call", "x = 2.0\nn = x * 3\no = n.tanh\no.label = 'o'\n", "name",
     (4, 1, 8), "AttributeError: 'method' object has no attribute 'label'"),
    ("index out of range", "xs = [1.0]\ny = xs[3]", "name", (2, 5, 10), "IndexError: list index"),
    # types
    ("abs of a value", "x = 2.0; y = abs(x)", "type", (1, 14, 20), "TypeError: bad operand type"),
    ("calling a value", "x = 2.0; y = (x)(x)", "type", (1, 14, 20), "TypeError: 'Value' object"),
    ("string arithmetic", "x = 'a' - 'b'", "type", (1, 5, 14), "TypeError: unsupported operand"),
    ("None times a number", "x = None\ny = x * 2", "type", (2, 5, 10), "TypeError: unsupported"),
    ("a class without the operator", "class A:\n    pass\nx = A() + 1", "type", (3, 5, 12),
     "TypeError: unsupported operand type(s) for +: 'A' and 'int'"),
    ("Value of a value", "x = Value(2.0)\ny = Value(x)", "type", (2, 5, 13),
     "TypeError: a Value holds an int or a float, not Value"),
    # domain and overflow: gradstep's Value on a number it cannot take, and CPython's
    ("log of negative", "x = -1.0\ny = log(x)", "domain", (2, 5, 11), "log(a) is undefined for"),
    ("division by zero", "x = 0.0; y = 1 / x", "domain", (1, 14, 19), "division by zero: a / b"),
    ("literal division by zero", "y = 1/0", "domain", (1, 5, 8), "ZeroDivisionError: division"),
    ("negative base root", "x = -8.0; y = x ** 0.5", "domain", (1, 15, 23), "(-8) ** 0.5 is"),
    ("zero to negative", "x = 0.0\ny = x ** -1", "domain", (2, 5, 12), "0 ** -1 is undefined"),
    ("sqrt of negative", "x = 2.0\ny = sqrt(x - 3)", "domain", (2, 5, 16), "sqrt(a) is undefined"),
    ("old Mac line endings", "x = 2.0\ry = x ** log(-x)", "domain", (2, 10, 17), "log(a) is"),
    ("huge float literal", "x = 1e999", "domain", (1, 5, 10), "a Value must be a finite number"),
    ("unpacking the wrong count", "x, y = 1.0, 2.0, 3.0", "domain", (1, 1, 5),
     "ValueError: too many values to unpack"),
    ("a generator that reads itself", "g = (sum(g) for i in range(2))\nx = list(g)", "domain",
     (1, 6, 12), "ValueError: generator already executing"),
    ("product overflow", "x = 1e200; y = x * x", "overflow", (1, 16, 21), "1e+200 * 1e+200"),
    ("exp overflow", "x = 710.0; y = exp(x)", "overflow", (1, 16, 22), "exp(710) overflows"),
    ("a whole number past the floats", "x = 2.0\ny = x * 10**400", "overflow", (2, 5, 16), "1000"),
    # the program's own raise and assert, where they run
    ("a failed assert", "x = 2\nassert isinstance(x, float), 'only ' + 'floats'", "assert",
     (2, 8, 28), "AssertionError: only floats"),
    ("a raise in a function", "def check(d):\n    if d < 0:\n        raise ValueError(f'negative: "
     "{d}')\n    return d\nx = Value(check(-1.0))\ny = x * x", "domain", (3, 9, 43),
     "ValueError: negative: -1.0"),
]  # fmt: skip


@pytest.mark.parametrize(
    ("source", "kind", "span", "message"),
    [pytest.param(src, kind, span, msg, id=name) for name, src, kind, span, msg in CORPUS],
)
def test_a_broken_program_gets_its_error_at_its_place(
    source: str, kind: str, span: tuple[int, int, int], message: str
) -> None:
    with pytest.raises(GradstepError) as err:
        trace(run(source))
    assert err.value.kind == kind, err.value.message
    assert err.value.span == Span(*span), err.value.message
    assert err.value.message.startswith(message), err.value.message
    assert "Traceback" not in err.value.message and len(err.value.message) <= 400


@pytest.mark.parametrize(
    ("source", "hint"),
    [
        ("a = Value(2.0)\nb = \u0430 * 2\n", "written with U+0430 CYRILLIC SMALL LETTER A: did "
         "you mean a, which looks the same?"),
        ("\u0430 = Value(2.0)\ndef f():\n    return a * 2\nf()\n", "written with ASCII letters "
         "only: did you mean \u0430 (with U+0430 CYRILLIC SMALL LETTER A)"),
        ("a = 2.0\nb = \u0430 * 2\n", "no value for \u0430 (it is written with U+0430"),
    ],
)  # fmt: skip
def test_a_name_that_looks_like_another_says_how_it_differs(source: str, hint: str) -> None:
    with pytest.raises(GradstepError) as err:
        run(source)
    assert err.value.kind == "name" and hint in err.value.message, err.value.message


def test_the_corpus_covers_every_kind() -> None:
    kinds = {kind for _, _, kind, _, _ in CORPUS}
    assert kinds == {"syntax", "name", "type", "domain", "overflow", "assert"}


def test_a_guard_never_reached_costs_nothing() -> None:
    guard = "def check(d):\n    if d < 0:\n        raise ValueError(f'negative: {d}')\n"
    guard += "    return d\n"
    program = run(guard + "x = Value(check(2.0))\ny = x * x")
    assert program.graph.data[program.graph.output] == 4.0


def test_an_error_in_the_learners_own_engine_is_at_its_line_inside_their_class() -> None:
    source = (
        "class V:\n"
        "    def __init__(self, data, children=()):\n"
        "        self.data, self.grad, self._prev = data, 0.0, children\n"
        "    def __mul__(self, other):\n"
        "        return V(self.data * other.data, (self, other))\n"
        "a = V(2.0)\n"
        "b = a * 3\n"
    )
    with pytest.raises(GradstepError) as err:
        run(source)
    assert err.value.kind == "name"
    assert err.value.message == "AttributeError: 'int' object has no attribute 'data'"
    assert err.value.span == Span(5, 30, 40)  # other.data, in __mul__


@pytest.mark.parametrize("bad", [float("nan"), float("inf"), "2", True, None])
def test_bad_values_are_refused(bad: object) -> None:
    with pytest.raises(GradstepError) as err:
        run("a = 2.0\ny = a * a", {"a": bad})  # type: ignore[dict-item]
    assert "a" in err.value.message
    assert err.value.kind in ("type", "domain")


# Random text, random token soup and random values: only GradstepError, located. A runaway
# (9**9**9) stops at a smaller budget of work than a request's: the limit is not what is tried.
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
SMALL_FUEL = 1_000_000_000


def _only_gradstep_errors(source: str, values: dict[str, float] | None = None) -> None:
    try:
        program = run(source, values, limits=RunLimits(fuel=SMALL_FUEL))
        if program.graph.parents:
            trace(program)
    except GradstepError as e:
        assert isinstance(e.kind, str) and e.message
        if e.span is not None:
            lines = source.replace("\r\n", "\n").replace("\r", "\n").split("\n")
            assert 1 <= e.span.line <= len(lines), e.span
            assert 1 <= e.span.column < e.span.end_column, e.span


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.text(max_size=80))
def test_random_text_only_raises_gradstep_error(source: str) -> None:
    _only_gradstep_errors(source)


@settings(max_examples=250, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.sampled_from(TOKENS), max_size=40).map("".join))
def test_random_token_soup_only_raises_gradstep_error(source: str) -> None:
    _only_gradstep_errors(source)


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.lists(st.sampled_from(TOKENS), max_size=30).map("".join),
    st.dictionaries(st.sampled_from(["a", "b", "x", "zz"]), st.floats(), max_size=3),
)
def test_random_values_only_raise_gradstep_error(source: str, values: dict[str, float]) -> None:
    _only_gradstep_errors("a = 1.0\nb = 2.0\n" + source, values)


# Random programs made of pieces a learner writes: they reach deep into the recorder and the
# trace, and still the only exception is GradstepError, located.
HEADER = """\
import random
import numpy as np
from micrograd.nn import MLP
x = Value(2.0)
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
    "for step in range(3):\n    loss = n(x) * n(x)\n    loss.backward()\n"
    "    for p in n.w:\n        p.data -= 0.01 * p.grad",
]


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.sampled_from(PIECES), min_size=1, max_size=12))
def test_random_learners_programs_only_raise_located_gradstep_errors(pieces: list[str]) -> None:
    _only_gradstep_errors(HEADER + "\n".join(pieces))
