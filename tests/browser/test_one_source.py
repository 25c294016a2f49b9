"""One source of truth, checked where the copies used to drift: the browser's number formatter
against the golden table the server's is checked against, and what the page shows at every step
against the server's own picture of that step (engine/steps.py through /api/graph.svg)."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from pathlib import Path
from types import SimpleNamespace
from urllib.parse import urlencode

import httpx
import pytest
from browser_wait import wait_for

from app.numbers import render
from app.presets import MICROGRAD_README

pytestmark = pytest.mark.browser

GOLDEN = json.loads((Path(__file__).parents[1] / "format_golden.json").read_text("utf-8"))
SVG = "{http://www.w3.org/2000/svg}"
STATE_CLASSES = ("data-known", "data-pending", "grad-pending", "grad-partial", "grad-final",
                 "grad-none", "current")  # fmt: skip


def test_the_browser_formats_every_number_as_the_golden_table(page) -> None:
    page.goto("/")
    wait_for(page, "() => document.querySelector('#graph-view svg')")
    got = page.evaluate(
        """async (cases) => {
          const f = await import('/static/format.js');
          return cases.map(([x, d, w]) => f.formatNumber(x, d, w));
        }""",
        GOLDEN["cases"],
    )
    assert got == [text for _, _, _, text in GOLDEN["cases"]]


def test_the_browser_decides_every_relation_as_the_golden_table(page) -> None:
    """``=`` or ``≈`` between a sum or product shown with its numbers and its result."""
    page.goto("/")
    wait_for(page, "() => document.querySelector('#graph-view svg')")
    got = page.evaluate(
        """async (cases) => {
          const p = await import('/static/parts.js');
          return cases.map(([op, of, kinds, to, d]) => p.relationText(
            { op, of: of.map((_, i) => i), to: of.length, exact: "exact", inexact: "inexact" },
            kinds + "n", [...of, to], d));
        }""",
        GOLDEN["relations"],
    )
    assert got == [sign for *_, sign in GOLDEN["relations"]]


# lines as the structure writes them: text, and slots (ints) whose kinds and numbers follow
LINES = [
    (["(1 − ", 0, "²)"], "f", [1e-6]),
    (["= ", 0, "² + ", 1, " × ", 2, " = ", 3], "ffnn", [-2.0, 0.5, 1e-6, -1234567.891]),
    (["x.grad: ", 0, " → ", 1, ", = ", 2], "nfw", [0.0, -0.00001234, 1.0]),
]


def test_the_browser_writes_lines_as_the_server_does(page) -> None:
    page.goto("/")
    wait_for(page, "() => document.querySelector('#graph-view svg')")
    got = page.evaluate(
        """async (cases) => {
          const p = await import('/static/parts.js');
          return cases.map(([line, kinds, values]) =>
            p.partsText(line, { structure: { slots: kinds }, numbers: { slots: values } }, 4));
        }""",
        LINES,
    )
    trace = [
        SimpleNamespace(structure=SimpleNamespace(slots=k), numbers=SimpleNamespace(slots=v))
        for _, k, v in LINES
    ]
    assert got == [render(tuple(line), t) for (line, _, _), t in zip(LINES, trace, strict=True)]  # type: ignore[arg-type]
    assert got[0] == "(1 − (1.000e−6)²)"


PAGE_STATE_JS = """() => [...document.querySelectorAll('#graph-view g.node.value')].map((g) => [
  g.id,
  [...g.classList].filter((c) => c.startsWith('gbin') || STATE.includes(c)).sort().join(' '),
  g.querySelector('[id$="-data"]')?.textContent ?? null,
  g.querySelector('[id$="-grad"]')?.textContent ?? null,
])""".replace("STATE", json.dumps(list(STATE_CLASSES)))


def server_state(base_url: str, phase: str, step: int) -> list[list[str | None]]:
    query = urlencode({"source": MICROGRAD_README, "phase": phase, "step": step})
    root = ET.fromstring(httpx.get(f"{base_url}/api/graph.svg?{query}", timeout=30).text)
    rows = []
    for g in root.iter(f"{SVG}g"):
        classes = g.get("class", "").split()
        if "value" not in classes:
            continue
        texts = {t.get("id", "").rsplit("-", 1)[-1]: t.text for t in g.iter(f"{SVG}text")}
        state = [c for c in classes if c.startswith("gbin") or c in STATE_CLASSES]
        rows.append([g.get("id"), " ".join(sorted(state)), texts.get("data"), texts.get("grad")])
    return rows


def test_every_step_shows_what_the_server_draws_for_it(page, base_url) -> None:
    """The page replays steps in the browser, the server draws them for images: both read the
    trace's step fields, and at every step of micrograd's README they agree element by element."""
    page.goto("/?" + urlencode({"source": MICROGRAD_README, "phase": "forward", "step": 0}))
    wait_for(page, "() => document.querySelector('#graph-view svg')")
    steps = [("forward", i) for i in range(25)] + [("backward", j) for j in range(26)]
    for phase, step in steps:
        shown = page.evaluate(PAGE_STATE_JS)
        assert shown == server_state(base_url, phase, step), (phase, step)
        page.keyboard.press("PageDown")
