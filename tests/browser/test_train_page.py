"""The training lab in a real Chromium against a live server: train XOR to the end,
Stop mid-way, and "Inspect one point" opening the stepper on that point's loss."""

from __future__ import annotations

import json
import time
import urllib.request

import pytest
from browser_wait import wait_for  # CSP: no wait_for_function (see browser_wait)

pytestmark = pytest.mark.browser

DONE = "['done', 'stopped'].includes(document.querySelector('#phase').dataset.status)"


def open_lab(page, query: str = "") -> None:
    page.goto(f"/train{query}")
    page.wait_for_selector("#preset-list button[aria-pressed=true]")


def painted_share(page) -> float:
    """The share of the boundary canvas not in its background colour (the top-left pixel's)."""
    return page.evaluate(
        """() => {
          const c = document.querySelector('#boundary');
          const data = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
          const background = data.slice(0, 3).join();
          let painted = 0, sampled = 0;
          for (let i = 0; i < data.length; i += 4 * 31) {
            sampled += 1;
            if (data.slice(i, i + 3).join() !== background) painted += 1;
          }
          return painted / sampled;
        }"""
    )


def click_point(page, x: float, y: float) -> None:
    """Click where the data point (x, y) is drawn, from the bounds the server sent."""
    bounds = page.evaluate("() => JSON.parse(document.querySelector('#boundary').dataset.bounds)")
    box = page.locator("#boundary").bounding_box()
    px = (x - bounds["x_min"]) / (bounds["x_max"] - bounds["x_min"]) * box["width"]
    py = (bounds["y_max"] - y) / (bounds["y_max"] - bounds["y_min"]) * box["height"]
    page.mouse.click(box["x"] + px, box["y"] + py)


def test_xor_trains_to_the_end_with_full_accuracy_and_a_boundary(page, shot) -> None:
    open_lab(page, "?preset=xor-tanh")
    assert page.input_value("#hidden") == "8" and page.input_value("#epochs") == "200"
    assert painted_share(page) < 0.05  # a blank canvas with a one-line hint
    shot(page, "train-xor-ready")
    page.click("#train")
    wait_for(page, DONE, timeout=60)
    assert page.locator("#phase").inner_text() == "Finished"
    assert page.locator("#metric-accuracy").inner_text() == "100.0%"
    assert page.locator("#progress").evaluate("p => [p.value, p.max]") == [200, 200]
    assert "200 epochs in" in page.locator("#progress-text").inner_text()
    assert page.locator("#boundary").get_attribute("data-grid-epoch") == "200"
    assert painted_share(page) > 0.9  # regions of two classes, shaded by confidence
    assert page.locator("#class-legend .key").count() == 2
    shot(page, "train-xor-done")


def test_stop_ends_a_run_midway(page, shot, base_url: str) -> None:
    open_lab(page)  # micrograd's moons, one point a step: about 0.35 s an epoch
    page.fill("#batch_size", "1")
    page.fill("#epochs", "24")  # the most MAX_TRAIN_WORK allows at batch 1
    page.click("#train")
    wait_for(page, "Number(document.querySelector('#progress').value) >= 3", timeout=60)
    assert page.locator("#stop").is_enabled()
    page.click("#stop")
    wait_for(page, DONE, timeout=30)
    assert page.locator("#phase").inner_text() == "Stopped"
    epochs = int(page.locator("#progress").evaluate("p => p.value"))
    assert 3 <= epochs < 24
    assert page.locator("#train").is_enabled() and page.locator("#stop").is_disabled()
    wait_until_no_jobs(base_url)  # the worker ends and gives back its slot
    shot(page, "train-moons-stopped")
    # micrograd's 337-parameter model: one point's 982 values open in the stepper, folded
    page.fill("#inspect-point", "0")
    page.click("#inspect-go")
    page.wait_for_selector("#inspect a")
    assert "982 values" in page.locator("#inspect").inner_text()
    with page.context.expect_page() as opened:
        page.click("#inspect-open")  # a new tab, so the run stays on screen
    stepper = opened.value
    stepper.wait_for_load_state("domcontentloaded")  # a new tab is about:blank at first
    wait_for(stepper, "() => Number(document.querySelector('#graph-view').dataset.runs) > 0")
    assert stepper.locator("#error").is_hidden()
    assert stepper.locator("#graph-view g.call.folded").count() > 0
    assert stepper.locator("#position").inner_text().startswith("backward 1/")  # the pass starts
    shot(stepper, "train-inspect-moons-point")


def running_jobs(base_url: str) -> list[dict[str, object]]:
    with urllib.request.urlopen(f"{base_url}/api/train/jobs", timeout=10) as response:
        return json.load(response)


def test_closing_the_tab_cancels_the_job(browser, base_url: str) -> None:
    context = browser.new_context(base_url=base_url)
    page = context.new_page()
    open_lab(page)
    page.fill("#batch_size", "1")
    page.fill("#epochs", "24")  # the most MAX_TRAIN_WORK allows at batch 1
    page.click("#train")
    wait_for(page, "Number(document.querySelector('#progress').value) >= 2", timeout=60)
    assert len(running_jobs(base_url)) == 1
    context.close()  # the tab goes, and with it the event stream
    wait_until_no_jobs(base_url)


def wait_until_no_jobs(base_url: str) -> None:
    """Polls until every worker has ended: a wait for a condition, with a deadline to fail."""
    deadline = time.monotonic() + 30
    while running_jobs(base_url):
        assert time.monotonic() < deadline, "a training job outlived its run"
        time.sleep(0.1)


def test_inspect_one_point_opens_the_stepper_on_its_loss(page, shot) -> None:
    open_lab(page, "?preset=xor-tanh")
    page.click("#train")
    wait_for(page, DONE, timeout=60)
    click_point(page, 1.0, 0.0)
    page.wait_for_selector("#inspect-open")
    assert "Point 2 at (1.000, 0.000), class 1" in page.locator("#inspect").inner_text()
    shown = page.locator("#inspect-loss").inner_text()
    shot(page, "train-xor-inspect")
    with page.context.expect_page() as opened:
        page.click("#inspect-open")
    stepper = opened.value
    output_data = """() => {
      const g = document.querySelector('#graph-view g.node.value.kind-output');
      const text = g && g.querySelector('[id$="-data"]').textContent;
      return text && !text.includes('?') ? text : null;
    }"""
    wait_for(stepper, output_data, timeout=60)
    output = stepper.evaluate(output_data)
    assert output.split()[-1] == shown
    assert "class Neuron" in stepper.input_value("#source")
    shot(stepper, "train-xor-inspect-stepper")
    stepper.close()
