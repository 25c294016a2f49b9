"""A notebook exported where no widget can run: ``jupyter nbconvert --to html --execute`` (as a
handout, or as GitHub and nbviewer see a notebook saved without its widget state) shows each
widget's graph at its step, from the static SVG and HTML that travel with the widget's output."""

from __future__ import annotations

import re
import subprocess
import sys

import pytest
from notebook_env import NOTEBOOK, kernel_env, require


@pytest.fixture(scope="module")
def exported(tmp_path_factory: pytest.TempPathFactory) -> str:
    require("nbconvert")
    require("anywidget")
    workdir = tmp_path_factory.mktemp("export")
    # fmt: off
    command = [
        sys.executable, "-m", "nbconvert", "--to", "html", "--execute",
        "--ExecutePreprocessor.store_widget_state=False", f"--output-dir={workdir}",
        str(NOTEBOOK),
    ]
    # fmt: on
    env = kernel_env(workdir / "home")
    done = subprocess.run(
        command, env=env, cwd=workdir, capture_output=True, text=True, timeout=300
    )
    assert done.returncode == 0, done.stderr[-3000:]
    return (workdir / NOTEBOOK.with_suffix(".html").name).read_text(encoding="utf-8")


def figures(html: str) -> list[str]:
    return re.findall(r'<figure class="gradstep-static".*?</figure>', html, re.S)


def test_each_widget_shows_its_graph_at_its_step(exported: str) -> None:
    shown = figures(exported)
    assert len(shown) == 3  # the neuron, the program, the program with a function
    neuron = shown[0]
    assert 'data-phase="forward" data-step="0"' in neuron  # show(o, phase="forward", step=0)
    assert "<svg" in neuron and 'id="n0"' in neuron  # the graph itself, inline
    assert "Forward step 1 of 5" in neuron  # the step's explanation, as text
    assert "2.0000" in neuron and "−3.0000" in neuron  # x1 and w1, written in at that step
    program = shown[1]
    assert 'data-step="-1"' in program  # the finished picture: every grad known
    assert "every grad found" in program


def test_the_export_fetches_nothing_for_the_widget(exported: str) -> None:
    assert "unpkg.com" not in exported  # no widget manager from a CDN
    assert "application/vnd.jupyter.widget-view+json" not in exported


def test_the_widgets_output_carries_its_static_views() -> None:
    """What any renderer that cannot run the widget picks from the same output."""
    require("anywidget")
    from app.notebook import show
    from engine import Value

    a = Value(2.0, label="a")
    out = (a * a).tanh()
    out.backward()
    widget = show(out, phase="backward", step=1)
    bundle = widget._repr_mimebundle_()
    assert bundle is not None
    data, _ = bundle
    assert "application/vnd.jupyter.widget-view+json" in data  # the live widget comes first
    slide = data["image/svg+xml"]
    assert slide.startswith("<?xml") and "Backward step 2 of 3" in slide
    assert 'data-phase="backward" data-step="1"' in data["text/html"]
