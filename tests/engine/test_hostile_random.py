"""Random hostile programs (Hypothesis): random text, random token soup, random values and
random programs made of the language's pieces only ever raise GradstepError, located."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine import GradstepError, parse, trace

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
