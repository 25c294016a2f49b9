"""docs/notation.md's worked examples as the page shows them: every backward step's explanation,
cell by cell, is the engine's rows rendered by the Python renderer (tests/engine/test_notation.py
holds the golden texts of those rows), so the browser writes no maths of its own; and the false
``∂b/∂a = a`` of ``b = a*a`` never appears."""

from __future__ import annotations

from urllib.parse import urlencode

import pytest
from browser_wait import wait_for
from traces import steps

from app.lecture import LECTURE_NEURON_CELL
from app.numbers import row_cells
from engine import Trace, run, trace

pytestmark = pytest.mark.browser

EXAMPLES = {
    "used-twice": "a = 3.0\nb = a*a\n",
    "lecture-neuron": LECTURE_NEURON_CELL,
    "two-users": "a = -4.0\nb = 2.0\nc = a + b\nd = c * c\ne = d + a\n",
    "constant": "x = 2.0\ny = 2 * x\n",
    "power": "a = 2.0\nb = a ** 3\n",
    "quotient": "a = 1.0\nb = -2.0\nc = a / b\n",
    "relu-at-zero": "a = 0.0\nb = a.relu()\n",
}


def expected_rows(t: Trace, step) -> list[list[str]]:  # type: ignore[no-untyped-def]
    """What the page writes for a step, from the engine's rows (explain.js's rows)."""
    return [row_cells(row, t) for row in step.rows]


ROWS = """() => [...document.querySelectorAll('#explanation .line')]
  .map((line) => [...line.children].map((cell) => cell.textContent))"""


@pytest.mark.parametrize("name", EXAMPLES)
def test_every_backward_step_shows_the_engines_parts(page, name) -> None:
    source = EXAMPLES[name]
    t = trace(run(source))
    page.goto("/?" + urlencode({"source": source, "phase": "backward", "step": 0}))
    wait_for(page, "() => Number(document.querySelector('#graph-view').dataset.runs) > 0")
    backward = steps(t, "backward")
    for j, step in enumerate(backward):
        if j:
            page.locator("#graph-view").focus()
            page.keyboard.press("PageDown")
        assert page.locator("#position").inner_text() == f"backward {j + 1}/{len(backward)}"
        assert page.locator("#explanation .step-title").inner_text() == step.title
        assert page.evaluate(ROWS) == expected_rows(t, step), f"step {j + 1}"


def test_a_value_used_twice_reads_as_two_true_partials(page) -> None:
    source = EXAMPLES["used-twice"]
    page.goto("/?" + urlencode({"source": source, "phase": "backward", "step": 1}))
    wait_for(page, "() => Number(document.querySelector('#graph-view').dataset.runs) > 0")
    text = page.locator("#explanation").inner_text()
    assert "∂b/∂a⁽¹⁾ = ∂(a·a)/∂a⁽¹⁾ = a⁽²⁾" in text
    assert "∂b/∂a⁽²⁾ = ∂(a·a)/∂a⁽²⁾ = a⁽¹⁾" in text
    assert "accumulates (a is used twice by b)" in text
    assert "∂b/∂a = a" not in text
