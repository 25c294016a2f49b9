"""Issue 42, items 5 to 7: the lecture's training loop taught with a clicker in Present. It opens
at iteration 0's first step; "." or "B" (a clicker's third button) goes to the same step of the
next iteration; the loss plot has axes and marks the iteration shown; the update step's 41
changes are paged by Page Down, a screenful a press, before the walk goes on; a class's QR panel
leaves the loss plot, the iteration and › in sight."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from browser_wait import frames, wait_for
from stepper_pages import position

pytestmark = pytest.mark.browser

SHOTS = Path(os.environ.get("GRADSTEP_LOOP_SHOTS", "/tmp/lecture-loop-shots"))
ITERATION = "() => document.querySelector('[data-iterations=\"position\"]').textContent"
READY = "() => !document.querySelector('#status').textContent.includes('computing')"
PLOT_JS = """() => {
  const svg = document.querySelector('[data-iterations="plot"]');
  const now = svg.querySelector('.loss-now'), mark = svg.querySelector('.loss-mark');
  return { axes: svg.querySelectorAll('.loss-axes').length,
           ticks: [...svg.querySelectorAll('.loss-tick')].map((t) => t.textContent),
           line: Number(now.getAttribute('x1')), mark: Number(mark.getAttribute('cx')) };
}"""
PANEL_JS = """() => {
  const p = document.querySelector('#stage [data-part="explanation"]');
  return { top: p.scrollTop, more: p.classList.contains('more-below'),
           lines: p.querySelectorAll('.line').length };
}"""


def iteration(page) -> str:
    wait_for(page, READY)
    return page.evaluate(ITERATION)


def present_the_loop(page) -> None:
    page.goto("/?preset=lecture-training")
    wait_for(page, "() => Number(document.querySelector('#graph-view').dataset.runs || 0) > 0")
    assert position(page) == "update"  # the page opens on the finished picture...
    page.click("#present")
    wait_for(page, "() => document.body.classList.contains('presenting')")
    page.locator("#graph-view").focus()


@pytest.mark.parametrize("theme", ["light", "dark"])
@pytest.mark.parametrize("size", [(1280, 720), (1920, 1080)], ids=["720p", "1080p"])
def test_a_clicker_walks_the_loop_from_its_first_step_and_skips_to_the_next_iteration(
    sized, size: tuple[int, int], theme: str
) -> None:
    page = sized(size[0], size[1], theme)
    present_the_loop(page)
    first = position(page)
    assert first.startswith("forward") and iteration(page) == "iteration 0"  # ...Present not
    plot = page.evaluate(PLOT_JS)
    assert plot["axes"] == 1 and plot["ticks"][2:] == ["0", "19"], plot
    assert float(plot["ticks"][0]) > float(plot["ticks"][1]) > 0  # the highest loss on top
    assert plot["line"] == plot["mark"]
    page.keyboard.press("PageDown")
    second = position(page)
    assert second != first
    for key, wanted in [(".", "iteration 1"), ("b", "iteration 2")]:
        page.keyboard.press(key)
        wait_for(page, f"() => ({ITERATION})() === '{wanted}'")
        assert position(page) == second  # the same step of the next iteration
    moved = page.evaluate(PLOT_JS)
    assert moved["line"] == moved["mark"] > plot["mark"]
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"loop-present-{size[0]}-{theme}.png"))


def test_the_update_step_is_paged_by_the_clicker_before_the_walk_goes_on(sized) -> None:
    page = sized(1280, 720)
    present_the_loop(page)
    page.keyboard.press("End")  # iteration 0's update (set up by keyboard; a clicker pages)
    wait_for(page, "() => document.querySelector('#position').textContent === 'update'")
    frames(page)
    panel = page.evaluate(PANEL_JS)
    assert panel["lines"] == 41 and panel["more"] and panel["top"] == 0, panel  # every change
    tops = [0]
    while page.evaluate(PANEL_JS)["more"]:
        page.keyboard.press("PageDown")
        frames(page)
        assert position(page) == "update" and iteration(page) == "iteration 0"
        tops.append(page.evaluate(PANEL_JS)["top"])
        assert tops[-1] > tops[-2] and len(tops) < 20
    assert len(tops) >= 3  # a screenful a press: not all at once
    page.screenshot(path=str(SHOTS / "loop-update-paged-1280.png"))
    page.keyboard.press("PageUp")  # back up a screenful first
    frames(page)
    assert position(page) == "update" and page.evaluate(PANEL_JS)["top"] < tops[-1]
    for _ in range(4):  # down again to the last screenful, then on to iteration 1
        page.keyboard.press("PageDown")
        if iteration(page) == "iteration 1":
            break
    wait_for(page, f"() => ({ITERATION})() === 'iteration 1'")
    assert position(page).startswith("forward") and page.evaluate(PANEL_JS)["top"] == 0


def test_a_classs_qr_panel_leaves_the_loss_plot_and_the_iteration_in_sight(sized) -> None:
    page = sized(1280, 720)
    present_the_loop(page)
    page.click("#present-class")
    wait_for(page, "() => document.body.classList.contains('class-qr-on')")
    frames(page, 4)
    covered = page.evaluate("""() => {
      const side = document.getElementById('class-side').getBoundingClientRect();
      const parts = ['[data-iterations="plot"]', '[data-iterations="position"]',
                     '[data-iterations="next"]', '[data-iterations="loss"]'];
      return parts.filter((s) => {
        const r = document.querySelector(s).getBoundingClientRect();
        return r.right > side.left && r.left < side.right
          && r.bottom > side.top && r.top < side.bottom;
      });
    }""")
    assert covered == []
    page.screenshot(path=str(SHOTS / "loop-class-1280.png"))
