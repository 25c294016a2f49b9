"""Issue 42, item 9: Present mode shows the program's lines under the explanation, the line that
made the step's value marked with the lines either side of it (what Python Tutor does),
readable from the back (its text at least 16 px at 1280 × 720, no line cut), and C hides and
shows them (shown at first on a 1080p projector; on a 720p one, where the graph needs its
height, C shows them); the graph gives them its height and takes it back."""

from __future__ import annotations

import os
import urllib.parse
from pathlib import Path

import pytest
from browser_wait import frames, wait_for
from stepper_pages import TEXT_PX, position

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
    lines: box.querySelectorAll('.code-line').length,
    size: parseFloat(getComputedStyle(box).fontSize),
    cut: [...box.querySelectorAll('.code-line')]
      .filter((l) => l.scrollWidth > l.clientWidth + 1).length,
    beside: graph.top >= b.bottom - 1,
    graphHeight: graph.height,
  };
}"""


@pytest.mark.parametrize("theme", ["light", "dark"])
@pytest.mark.parametrize("size", [(1280, 720), (1920, 1080)], ids=["720p", "1080p"])
def test_present_mode_shows_the_steps_line_of_the_program(
    sized, size: tuple[int, int], theme: str
) -> None:
    page = sized(size[0], size[1], theme)
    page.goto("/?" + urllib.parse.urlencode({"source": LECTURE_NEURON}))
    wait_for(page, "() => Number(document.querySelector('#graph-view').dataset.runs || 0) > 0")
    assert page.evaluate(CODE_JS)["hidden"]  # beside the editor, the editor shows it
    page.click("#present")
    page.locator("#graph-view").focus()
    if size[1] < 1000:  # a 720p projector: the graph keeps its height until C is pressed
        frames(page, 3)
        assert page.evaluate(CODE_JS)["hidden"]
        page.keyboard.press("c")
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
        assert code["size"] >= 16 and code["cut"] == 0 and code["lines"] == 3, code
        seen.add(code["line"])
    assert len(seen) >= 4  # the mark follows the steps from line to line
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"present-code-{size[0]}-{theme}.png"))
    shown_height = code["graphHeight"]
    page.keyboard.press("c")
    frames(page, 3)
    hidden = page.evaluate(CODE_JS)
    assert hidden["hidden"] and hidden["graphHeight"] > shown_height  # the graph takes it back
    page.keyboard.press("c")
    frames(page, 3)
    assert not page.evaluate(CODE_JS)["hidden"]


SIZES_JS = """() => {
  const px = (s) => parseFloat(getComputedStyle(document.querySelector(s)).fontSize);
  const scale = [...document.querySelectorAll('.legend-scale span')]
    .map((e) => parseFloat(getComputedStyle(e).fontSize));
  return { position: px('#position'), legend: px('.legend figcaption'), scale: Math.min(...scale) };
}"""


@pytest.mark.parametrize("theme", ["light", "dark"])
@pytest.mark.parametrize("size", [(1280, 720), (1920, 1080)], ids=["720p", "1080p"])
def test_the_position_and_the_colour_key_are_read_from_the_back_row(
    sized, size: tuple[int, int], theme: str
) -> None:
    """Issue 42, item 8: the position readout (14 px) and the legend (11 px) did not scale in
    Present mode; they are 18 px at least on a 720p projector."""
    page = sized(size[0], size[1], theme)
    page.goto("/?preset=lecture-neuron")
    wait_for(page, "() => Number(document.querySelector('#graph-view').dataset.runs || 0) > 0")
    page.click("#present")
    wait_for(page, "() => document.body.classList.contains('presenting')")
    frames(page, 3)
    sizes = page.evaluate(SIZES_JS)
    assert min(sizes.values()) >= 18, sizes
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"present-sizes-{size[0]}-{theme}.png"))


GRAPH_JS = """() => {
  const graph = document.getElementById('graph-view').getBoundingClientRect();
  return { height: graph.height, top: graph.top,
           asked: !document.getElementById('predict-form').hidden };
}"""


@pytest.mark.parametrize("theme", ["light", "dark"])
def test_a_predict_question_keeps_the_graphs_size_in_present_mode(sized, theme: str) -> None:
    """Issue 42, item 8: a Predict question's form pushed the graph down (21 → 13 px text) and
    made it jump on every press; in Present mode the question takes the explanation's place."""
    page = sized(1280, 720, theme)
    page.goto("/?preset=lecture-neuron")
    wait_for(page, "() => Number(document.querySelector('#graph-view').dataset.runs || 0) > 0")
    page.click("#present")
    page.locator("#graph-view").focus()
    page.keyboard.press("Home")
    frames(page, 3)
    before = page.evaluate(GRAPH_JS)
    page.check("#predict")
    page.locator("#graph-view").focus()
    sizes = []
    for _ in range(12):  # the forward steps, then the backward ones ask
        page.keyboard.press("PageDown")
        frames(page, 3)
        now = page.evaluate(GRAPH_JS)
        if now["asked"]:
            sizes.append(now)
            page.screenshot(path=str(SHOTS / f"present-predict-1280-{theme}.png"))
            break
    assert sizes, "no question was asked"
    assert abs(sizes[0]["height"] - before["height"]) <= 1, (before, sizes)
    assert abs(sizes[0]["top"] - before["top"]) <= 1


@pytest.mark.parametrize("theme", ["light", "dark"])
@pytest.mark.parametrize("size", [(1280, 720), (1920, 1080)], ids=["720p", "1080p"])
def test_a_class_question_keeps_the_neurons_text_from_the_back_row(
    sized, size: tuple[int, int], theme: str
) -> None:
    """Issue 42, item 8: with a class's question open the answers' column took 30% of the
    width and the neuron's text fell from 21 to 13 px; it stays 20 px or more at 720p (the
    explanation as tall as the program's longest step, a narrower column on a projector)."""
    page = sized(size[0], size[1], theme)
    page.goto("/?preset=lecture-neuron")
    wait_for(page, "() => Number(document.querySelector('#graph-view').dataset.runs || 0) > 0")
    page.click("#present")
    wait_for(page, "() => document.body.classList.contains('presenting')")
    frames(page, 3)
    alone = page.evaluate(TEXT_PX)["px"]
    page.click("#present-class")
    wait_for(page, "() => !document.getElementById('class-bar').hidden")
    page.locator("#graph-view").focus()
    for _ in range(12):
        if position(page) == "backward 2/6":  # o = tanh(n): the class is asked n.grad
            break
        page.keyboard.press("PageDown")
    page.keyboard.press("a")
    wait_for(page, "() => !document.getElementById('class-asking').hidden")
    frames(page, 3)
    asking = page.evaluate(TEXT_PX)["px"]
    assert alone >= 20 and asking >= 20, (alone, asking)
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"present-asking-{size[0]}-{theme}.png"))
