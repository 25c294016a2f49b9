"""Present mode's own commands (Start a class, QR, Exit) on a projector and on a phone: each
one whole, none over another, none over a node of the lecture's MLP, at every step, with the
Scan to follow panel open and with a class started (issue 42, "Smaller")."""

from __future__ import annotations

from pathlib import Path

import pytest
from browser_wait import frames, wait_for
from stepper_pages import wait_drawn

pytestmark = pytest.mark.browser

SHOTS = Path("/tmp/shots42")
SIZES = [(1280, 720), (1920, 1080), (390, 844)]

# the buttons shown, their boxes, and the visible part of every node's box (the graph's view
# clips what is outside it); a box is [left, top, right, bottom] in CSS pixels
BOXES_JS = """() => {
  const box = (r) => [r.left, r.top, r.right, r.bottom];
  const view = document.getElementById('graph-view').getBoundingClientRect();
  const buttons = {};
  for (const b of document.querySelectorAll('.present-exit')) {
    const r = b.getBoundingClientRect();
    if (r.width > 0 && getComputedStyle(b).visibility !== 'hidden') buttons[b.id] = box(r);
  }
  const nodes = [];
  for (const g of document.querySelectorAll('#graph-view g.node')) {
    const r = g.getBoundingClientRect();
    const seen = [Math.max(r.left, view.left), Math.max(r.top, view.top),
                  Math.min(r.right, view.right), Math.min(r.bottom, view.bottom)];
    if (seen[0] < seen[2] && seen[1] < seen[3]) nodes.push([g.id, seen]);
  }
  const side = document.getElementById('class-side');
  const panel = side.hidden ? null : box(side.getBoundingClientRect());
  return { buttons, nodes, panel, width: innerWidth, height: innerHeight };
}"""


def overlap(a: list[float], b: list[float]) -> bool:
    return a[0] < b[2] - 0.5 and b[0] < a[2] - 0.5 and a[1] < b[3] - 0.5 and b[1] < a[3] - 0.5


def clashes(page, expect: set[str]) -> list[str]:
    m = page.evaluate(BOXES_JS)
    buttons = m["buttons"]
    assert set(buttons) == expect, buttons
    found = []
    names = sorted(buttons)
    for i, a in enumerate(names):
        box = buttons[a]
        if box[0] < 0 or box[1] < 0 or box[2] > m["width"] or box[3] > m["height"]:
            found.append(f"{a} is not wholly on the screen: {box}")
        for b in names[i + 1 :]:
            if overlap(box, buttons[b]):
                found.append(f"{a} {box} overlaps {b} {buttons[b]}")
        found += [f"{a} covers node {n}" for n, seen in m["nodes"] if overlap(box, seen)]
        if m["panel"] and overlap(box, m["panel"]):
            found.append(f"{a} is under the class's panel")
    return found


def present_mlp(page) -> None:
    page.goto("/?preset=lecture-mlp")
    wait_drawn(page, 0)
    page.locator("#graph-view").focus()
    page.keyboard.press("p")
    wait_for(page, "() => document.body.classList.contains('presenting')")
    frames(page, 4)


@pytest.mark.parametrize("theme", ["light", "dark"])
@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_present_modes_buttons_cover_nothing(sized, size, theme) -> None:
    width, height = size
    page = sized(width, height, theme)
    present_mlp(page)
    three = {"present-class", "present-qr", "present-exit"}
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"present-buttons-{width}x{height}-{theme}.png"))
    assert clashes(page, three) == []
    # the view follows the step across the graph: nothing is covered at any of them
    page.keyboard.press("Home")
    for at in range(12):
        frames(page, 2)
        assert clashes(page, three) == [], at
        page.keyboard.press("PageDown")
    # Q opens the Scan to follow panel: the graph refits beside it, the buttons stay clear
    page.keyboard.press("q")
    wait_for(page, "() => !document.getElementById('scan-panel').hidden")
    frames(page, 4)
    assert clashes(page, three) == []
    page.keyboard.press("q")


@pytest.mark.parametrize("theme", ["light", "dark"])
@pytest.mark.parametrize("size", SIZES[:2], ids=lambda s: f"{s[0]}x{s[1]}")
def test_with_a_class_started_the_buttons_stay_in_sight(sized, size, theme) -> None:
    width, height = size
    page = sized(width, height, theme)
    present_mlp(page)
    page.click("#present-class")
    wait_for(page, "() => document.body.classList.contains('class-qr-on')")
    frames(page, 4)
    page.screenshot(path=str(SHOTS / f"present-buttons-class-{width}x{height}-{theme}.png"))
    assert clashes(page, {"present-qr", "present-exit"}) == []
