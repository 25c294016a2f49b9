"""Issue 42, item 9: Present mode shows the program beside the graph, the line that made the
step's value marked and in sight (what Python Tutor does), readable from the back (its text at
least 16 px at 1280 × 720, no line cut), and C hides and shows it; the graph gives it its
width and takes it back."""

from __future__ import annotations

import os
import urllib.parse
from pathlib import Path

import pytest
from browser_wait import frames, wait_for
from stepper_pages import position

from app.lecture import LECTURE_NEURON

pytestmark = pytest.mark.browser

SHOTS = Path(os.environ.get("GRADSTEP_CODE_SHOTS", "/tmp/present-code-shots"))
CODE_JS = """() => {
  const box = document.getElementById('present-code');
  const current = box.querySelector('.current');
  const b = box.getBoundingClientRect(), c = current?.getBoundingClientRect();
  const graph = document.getElementById('graph-view').getBoundingClientRect();
  return {
    hidden: box.hidden,
    line: current ? Number(current.querySelector('.code-no').textContent) : null,
    marked: current?.querySelector('mark')?.textContent ?? null,
    inSight: Boolean(c) && c.top >= b.top - 1 && c.bottom <= b.bottom + 1,
    size: parseFloat(getComputedStyle(box).fontSize),
    cut: [...box.querySelectorAll('.code-line')].filter((l) => l.scrollWidth > l.clientWidth + 1).length,
    beside: graph.left >= b.right - 1,
    graphLeft: graph.left,
  };
}"""


@pytest.mark.parametrize("theme", ["light", "dark"])
@pytest.mark.parametrize("size", [(1280, 720), (1920, 1080)], ids=["720p", "1080p"])
def test_present_mode_shows_the_steps_line_of_the_program(
    browser, base_url: str, size: tuple[int, int], theme: str
) -> None:
    context = browser.new_context(
        viewport={"width": size[0], "height": size[1]}, base_url=base_url, color_scheme=theme
    )
    page = context.new_page()
    try:
        page.goto("/?" + urllib.parse.urlencode({"source": LECTURE_NEURON}))
        wait_for(page, "() => Number(document.querySelector('#graph-view').dataset.runs || 0) > 0")
        assert page.evaluate(CODE_JS)["hidden"]  # beside the editor, the editor shows it
        page.click("#present")
        page.locator("#graph-view").focus()
        page.keyboard.press("Home")
        lines = LECTURE_NEURON.splitlines()
        seen = set()
        for _ in range(12):  # through the forward pass and into the backward one
            page.keyboard.press("PageDown")
            frames(page, 3)
            code = page.evaluate(CODE_JS)
            assert not code["hidden"] and code["beside"], code
            assert code["line"] is not None and code["inSight"], (position(page), code)
            assert code["marked"] and code["marked"] in lines[code["line"] - 1]
            assert code["size"] >= 16 and code["cut"] == 0, code
            seen.add(code["line"])
        assert len(seen) >= 4  # the mark follows the steps from line to line
        SHOTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(SHOTS / f"present-code-{size[0]}-{theme}.png"))
        shown_left = code["graphLeft"]
        page.keyboard.press("c")
        frames(page, 3)
        hidden = page.evaluate(CODE_JS)
        assert hidden["hidden"] and hidden["graphLeft"] < shown_left  # the graph takes it back
        page.keyboard.press("c")
        frames(page, 3)
        assert not page.evaluate(CODE_JS)["hidden"]
    finally:
        context.close()
