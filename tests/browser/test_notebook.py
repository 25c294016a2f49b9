"""The notebook widget in a real JupyterLab: a server on a free port (no token, a temporary root,
no browser, no ``dot`` on its kernel's PATH), driven by Chromium. Run All draws the lecture
neuron; the widget takes the keyboard when clicked, steps backward until x1's grad is known
(−1.5), keeps those keys from Jupyter's command mode, gives them back on Esc, and its step is
the one Python reads."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest
from browser_wait import wait_for
from conftest import SCREENSHOTS
from jupyter_servers import jupyter_server, open_and_run_all
from notebook_env import NOTEBOOK, NUMBER_IN_GRAPH, kernel_env

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def lab(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    with jupyter_server("jupyterlab", tmp_path_factory.mktemp("lab"), [NOTEBOOK]) as url:
        yield url


_WIDGET = """(i) => {
  const w = document.querySelectorAll(".gradstep-nb")[i];
  const player = w?.querySelector("[data-player]");
  if (!player || player.dataset.state !== "ready") return null;
  const text = player.querySelector('[data-part="explanation"]');
  const cells = [...document.querySelectorAll(".jp-Notebook .jp-Cell")];
  return {
    position: player.querySelector('[data-part="position"]').textContent,
    x1grad: player.querySelector("#n0-grad")?.textContent,
    explanation: text.textContent,
    clipped: text.scrollHeight > text.clientHeight + 1,
    focused: w.contains(document.activeElement),
    activeCell: cells.findIndex((c) => c.classList.contains("jp-mod-active")),
  };
}"""


def test_the_widget_steps_the_neuron_in_jupyterlab(browser, lab: str) -> None:
    context, page, errors = open_and_run_all(browser, ("jupyterlab", lab), NOTEBOOK, 1)
    try:
        cells = page.locator(".jp-Notebook .jp-Cell")
        # the last cell set w.phase/w.step from Python: the widget followed (seed step)
        wait_for(page, f"() => ({_WIDGET})(0)?.position === 'backward 1/6'", timeout=40)
        assert "dot on PATH: None" in cells.nth(0).inner_text()
        svg_img = cells.nth(2).locator(".jp-RenderedSVG img, .jp-RenderedImage img")
        svg_img.wait_for(timeout=30_000)
        assert svg_img.evaluate("(img) => img.naturalWidth") > 100  # draw_dot, as SVG
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        svg_img.screenshot(path=str(SCREENSHOTS / "notebook-draw-dot.png"))
        wait_for(page, f"() => ({_WIDGET})(1)?.position === 'backward 7/7'")  # the program

        # click the graph: the widget has the keys; ↓ steps it and Jupyter never sees it (a
        # listener on the document, where Jupyter's shortcuts listen, records what gets there)
        page.evaluate(
            "() => { window.leaked = [];"
            " document.addEventListener('keydown', (e) => window.leaked.push(e.key)); }"
        )
        widget = page.locator(".gradstep-nb").first
        widget.locator('[data-part="graph"]').click(position={"x": 20, "y": 20})
        start = page.evaluate(_WIDGET, 0)
        assert start["focused"] and start["x1grad"] == "?"
        for _ in range(12):
            page.keyboard.press("ArrowDown")
            now = page.evaluate(_WIDGET, 0)
            if now["x1grad"] == NUMBER_IN_GRAPH:
                break
        assert now["x1grad"] == NUMBER_IN_GRAPH, now
        assert "x1" in now["explanation"] and NUMBER_IN_GRAPH in now["explanation"], now
        assert not now["clipped"], now  # the whole chain rule is on screen
        assert now["activeCell"] == start["activeCell"] == 1  # command mode never moved
        page.keyboard.press("0")  # the widget's "fit"; 0, 0 in command mode restarts the kernel
        page.keyboard.press("0")
        assert page.evaluate("() => window.leaked") == []
        assert page.locator(".jp-Dialog").count() == 0
        widget.scroll_into_view_if_needed()
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(SCREENSHOTS / "notebook-neuron.png"))
        stepped_to = now["position"]

        # Esc gives the keys back: ↓ is Jupyter's again (next cell), the widget stays
        page.keyboard.press("Escape")
        assert not page.evaluate(_WIDGET, 0)["focused"]
        assert page.evaluate("() => window.leaked") == []  # Esc was the widget's too
        page.keyboard.press("ArrowDown")
        after = page.evaluate(_WIDGET, 0)
        assert after["position"] == stepped_to
        assert after["activeCell"] == 2, after

        # the step taken in the browser is the one Python reads
        step = int(stepped_to.split()[1].split("/")[0]) - 1
        cells.nth(4).locator(".jp-InputArea-editor").click()
        page.keyboard.press("Shift+Enter")
        wait_for(
            page,
            "(want) => document.querySelectorAll('.jp-Notebook .jp-Cell')[4]"
            ".querySelector('.jp-OutputArea-output')?.textContent.trim() === want",
            f"backward {step}",
        )

        # a click on a folded call's box opens it: the kernel lays the trace out again
        third = page.locator(".gradstep-nb").nth(2)
        wait_for(page, f"() => ({_WIDGET})(2)")
        third.locator("g.call#c0").click()
        wait_for(
            page,
            "() => { const w = document.querySelectorAll('.gradstep-nb')[2];"
            " return !w.querySelector('#c0') && w.querySelector('svg #n3'); }",
        )
    except BaseException:
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(SCREENSHOTS / "notebook-failure.png"))  # for the person
        raise
    finally:
        context.close()
    assert errors == [], errors


def test_jupyterlab_is_not_given_a_dot() -> None:
    """The kernel environment the server gets really has no dot (the test above relies on it)."""
    path = kernel_env()["PATH"]
    assert all(not (Path(d) / "dot").exists() for d in path.split(os.pathsep))
