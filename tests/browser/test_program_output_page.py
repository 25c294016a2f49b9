"""What a program shows besides its graph, in a real Chromium: a Jupyter notebook opened with
Open… (its code cells in order, its notebook commands skipped with a note), what it printed and
what it plotted with matplotlib drawn under the editor, and a program that fails showing
CPython's error with what it printed before it."""

from __future__ import annotations

import json

import pytest
from browser_wait import wait_for
from stepper_pages import open_page, paste, runs, wait_drawn

pytestmark = pytest.mark.browser

TRAINING = """import matplotlib.pyplot as plt
w = Value(0.0)
losses = []
for k in range(12):
    loss = (w * 3.0 - 1.5) ** 2
    w.grad = 0.0
    loss.backward()
    w.data -= 0.02 * w.grad
    losses.append(loss.data)
    print(f"epoch {k} loss {loss.data:.4f}")
plt.plot(losses, label="loss")
plt.title("Training loss")
plt.xlabel("epoch")
plt.ylabel("loss")
plt.legend()
plt.show()
"""
PLOT_JS = """() => {
  const fig = document.querySelector('#plots figure.plot-figure');
  const path = fig.querySelector('.plot-line path');
  const texts = [...fig.querySelectorAll('svg text')].map((t) => t.textContent);
  return { figures: document.querySelectorAll('#plots figure').length,
           points: (path.getAttribute('d').match(/[ML]/g) || []).length,
           texts, caption: fig.querySelector('figcaption').textContent,
           width: fig.getBoundingClientRect().width };
}"""


@pytest.mark.parametrize(
    ("size", "theme"),
    [((1280, 720), "light"), ((1920, 1080), "dark"), ((390, 844), "light"), ((390, 844), "dark")],
)
def test_what_a_loop_printed_and_plotted_is_under_the_editor(
    page, shot, size: tuple[int, int], theme: str
) -> None:
    page.set_viewport_size({"width": size[0], "height": size[1]})
    page.emulate_media(color_scheme=theme)
    paste(page, TRAINING)
    printed = page.locator("#console li")
    assert printed.count() == 12
    assert printed.nth(0).inner_text().replace("\n", "") == "line 10 │ epoch 0 loss 2.2500"
    panel = page.locator("#plots-panel")
    panel.scroll_into_view_if_needed()
    assert panel.is_visible()
    plot = page.evaluate(PLOT_JS)
    assert plot["figures"] == 1 and plot["points"] == 12  # one vertex per epoch
    assert {"Training loss", "epoch", "loss"} <= set(plot["texts"])
    assert plot["caption"] == "line 11"  # the figure pyplot made for plt.plot
    assert plot["width"] <= size[0]  # inside the page, on a phone too
    shot(page, f"plotted-{size[0]}-{theme}")


def test_a_notebook_opened_runs_its_code_cells_in_order(page, tmp_path) -> None:
    notebook = {
        "metadata": {"kernelspec": {"name": "python3", "language": "python"}},
        "nbformat": 4,
        "nbformat_minor": 5,
        "cells": [
            {"cell_type": "markdown", "metadata": {}, "source": ["# A neuron"]},
            {"cell_type": "code", "metadata": {}, "execution_count": 1, "outputs": [],
             "source": ["%matplotlib inline\n", "x = Value(2.0, label='x')\n"]},
            {"cell_type": "code", "metadata": {}, "execution_count": 2, "outputs": [],
             "source": ["y = (x * x).tanh(); y.label = 'y'\n", "y.backward()\n", "print(x.grad)"]},
        ],
    }  # fmt: skip
    path = tmp_path / "neuron.ipynb"
    path.write_text(json.dumps(notebook))
    open_page(page)
    before = runs(page)
    page.locator("#open-file").set_input_files(str(path))
    wait_drawn(page, before)
    text = page.locator("#source").input_value()
    assert text.startswith("# %%\n%matplotlib inline\nx = Value(2.0, label='x')\n\n# %%\ny = ")
    assert "notebook command" in page.locator("#notes").inner_text()
    assert page.locator("#console li").count() == 1
    labels = page.evaluate(
        "() => [...document.querySelectorAll('#graph-view g.node.value [id$=\"-label\"]')]"
        ".map((t) => t.textContent.trim())"
    )
    assert "x" in labels and "y" in labels


def test_a_failing_program_shows_cpythons_error_and_what_it_printed_first(page) -> None:
    open_page(page)
    errors = int(page.locator("#error").get_attribute("data-runs") or 0)
    page.fill("#source", "print('before')\nxs = [1, 2]\nprint(xs[5])\n")
    page.click("#run")
    wait_for(page, "(n) => Number(document.getElementById('error').dataset.runs ?? 0) > n", errors)
    said = page.locator("#error").inner_text()
    assert "IndexError: list index out of range" in said and "3" in said
    assert page.locator("#console li").count() == 1
    assert "before" in page.locator("#console").inner_text()
