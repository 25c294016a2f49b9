"""Layout settings from the environment, backend choice, the LRU bound and the time limit."""

from __future__ import annotations

import os
import select
import subprocess
import sys
import time
from pathlib import Path

import pytest
from backends import BACKENDS
from programs import mlp_source

import engine
from app.capacity import BACKGROUND_NICENESS
from app.draw.dot import choose_rankdir, dot_source
from app.draw.fold import fold_view, folded_calls
from app.draw.layout import Layout, LayoutSettings, choose_backend
from app.draw.layout.dot_backend import DotRunner
from app.presets import PRESETS
from app.settings import Settings
from engine import GradstepError


def test_environment_forces_backend_timeout_and_cache(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GRADSTEP_LAYOUT", BACKENDS[-1])
    monkeypatch.setenv("GRADSTEP_LAYOUT_TIMEOUT", "2.5")
    monkeypatch.setenv("GRADSTEP_LAYOUT_CACHE", "3")
    settings = Settings().layout_settings()
    assert settings == LayoutSettings(BACKENDS[-1], 2.5, 3)
    assert Layout(settings).backend == BACKENDS[-1]


def test_defaults_prefer_dot_when_on_path(monkeypatch: pytest.MonkeyPatch) -> None:
    """dot measures text with the real fonts; the faster wasm build guesses (choose_backend)."""
    for name in ("GRADSTEP_LAYOUT", "GRADSTEP_LAYOUT_TIMEOUT", "GRADSTEP_LAYOUT_CACHE"):
        monkeypatch.delenv(name, raising=False)
    assert Settings().layout_settings() == LayoutSettings(None, 5.0, 256)
    assert choose_backend() == ("dot" if "dot" in BACKENDS else "wasm")
    for backend in BACKENDS:
        assert choose_backend(backend) == backend  # GRADSTEP_LAYOUT still picks either


LAY_OUT_TWICE = """
import sys
from app.draw.layout import Layout, LayoutSettings
layout = Layout(LayoutSettings(sys.argv[1], 60.0))
sys.stdout.write(layout.svg(sys.stdin.read()))
layout.close()
"""


@pytest.mark.parametrize("backend", BACKENDS)
def test_the_same_dot_lays_out_the_same_in_fresh_processes(backend: str) -> None:
    dot = dot_source(engine.trace(engine.run(mlp_source((2, 4, 4, 1)))).structure)
    svgs = [
        subprocess.run(
            [sys.executable, "-c", LAY_OUT_TWICE, backend],
            input=dot,
            capture_output=True,
            text=True,
            check=True,
            timeout=120,
            cwd=Path(__file__).resolve().parents[2],
        ).stdout
        for _ in range(2)
    ]
    assert svgs[0] == svgs[1] and svgs[0].count('class="node') > 100


@pytest.mark.parametrize(
    ("name", "value"),
    [
        ("GRADSTEP_LAYOUT", "neato"),
        ("GRADSTEP_LAYOUT_TIMEOUT", "0"),
        ("GRADSTEP_LAYOUT_TIMEOUT", "x"),
        ("GRADSTEP_LAYOUT_CACHE", "-1"),
    ],
)
def test_bad_settings_are_named(monkeypatch: pytest.MonkeyPatch, name: str, value: str) -> None:
    monkeypatch.setenv(name, value)
    with pytest.raises(ValueError, match=name):
        Settings().layout_settings()


@pytest.mark.parametrize("backend", BACKENDS)
def test_cache_is_a_bounded_lru(backend: str) -> None:
    layout = Layout(LayoutSettings(backend, 30.0, 2))
    try:
        dots = [f"digraph {{ n{i} [id=n{i}] }}" for i in range(3)]
        layout.template(dots[0])
        layout.template(dots[1])
        assert layout.template(dots[0]).cached  # dots[0] is now the most recent
        layout.template(dots[2])  # evicts dots[1], the least recently used
        assert layout.cached(dots[0]) is not None
        assert layout.cached(dots[1]) is None
    finally:
        layout.close()


@pytest.mark.parametrize("backend", BACKENDS)
def test_graphviz_syntax_errors_are_layout_errors(backend: str) -> None:
    layout = Layout(LayoutSettings(backend, 30.0))
    layout.warm()  # dot: drawn by the spare
    try:
        with pytest.raises(GradstepError) as error:
            layout.svg("digraph { a -> }")
        assert error.value.kind == "layout"
        assert layout.template("digraph { b }").cached is False  # still usable afterwards
    finally:
        layout.close()


needs_dot = pytest.mark.skipif("dot" not in BACKENDS, reason="no dot on PATH")


def preset_dots() -> list[str]:
    """Each preset's DOT that can be drawn, and the lecture's MLP top to bottom unfolded: the
    graph a dot that had drawn a graph before laid out differently in 7 runs of 20."""
    dots = []
    for preset in PRESETS:
        trace = engine.trace(engine.run(preset.source)).structure
        fold = fold_view(trace, folded_calls(trace, "auto"))
        dots.append(dot_source(trace, choose_rankdir(trace, None, fold), fold))
    mlp = engine.trace(
        engine.run(next(p.source for p in PRESETS if p.id == "lecture-mlp"))
    ).structure
    return [*dots, dot_source(mlp, "TB", fold_view(mlp, frozenset()))]


@needs_dot
def test_a_spare_dot_draws_what_a_new_dot_draws() -> None:
    fresh, runner = DotRunner(), DotRunner()
    try:
        for dot in preset_dots():
            runner.keep_spare()  # a spare now, whether or not the last one's refill has run
            spare = runner._spare
            assert spare is not None
            assert runner.layout(dot, 60) == fresh.layout(dot, 60)
            assert spare.returncode == 0  # this graph was the spare's
    finally:
        runner.close()


@needs_dot
def test_a_big_graphs_dot_runs_below_the_servers_priority_and_a_small_ones_at_it() -> None:
    """A big graph, seconds to lay out, shares a core with the requests' Python at a tenth of
    its weight; a small one (a student's new program) is laid out at once, even on a busy
    server (issue 41, item 13: a niced small layout waited behind the server's Python, and a
    lecture hall's new programs were refused by a full layout queue)."""
    layout = Layout(LayoutSettings(backend="dot"))
    small = "digraph { a -> b }\n"
    big = "digraph {\n" + "".join(f"n{i} -> n{i + 1}\n" for i in range(800)) + "}\n"
    ours = os.getpriority(os.PRIO_PROCESS, 0)
    for source, niceness in [(small, ours), (big, BACKGROUND_NICENESS)]:
        job = layout.start(source)
        try:
            assert os.getpriority(os.PRIO_PROCESS, job.process.pid) == niceness  # type: ignore[attr-defined]
        finally:
            job.result(60)


@needs_dot
def test_dot_lays_a_graph_out_while_the_steps_are_written() -> None:
    """The 979-value MLP's DOT, more than a pipe holds, goes into the spare's enlarged pipe at
    once, so dot lays it out while the caller writes the trace: its SVG is waiting before the
    caller asks for it, and it is the SVG drawn without waiting."""
    mlp = engine.trace(engine.run(mlp_source())).structure
    dot = dot_source(mlp, choose_rankdir(mlp))
    assert len(dot.encode()) > 65536
    runner = DotRunner()
    try:
        runner.keep_spare()
        spare = runner._spare
        assert spare is not None and spare.stdout is not None
        job = runner.begin(dot)  # handed over: the caller goes on with the steps
        assert select.select([spare.stdout], [], [], 30)[0]  # drawn, nobody waiting for it
        assert job.result(60) == DotRunner().layout(dot, 60)
    finally:
        runner.close()


def test_the_time_limit_counts_from_the_handover_not_from_when_the_result_is_asked() -> None:
    """A layout not done within the limit is refused, however long the steps took beside it
    (a "dot" here that answers after 3.75 s, a limit of 2 s, steps of 2.5 s: refused at 3 s,
    the steps' end and COLLECT_S, where counting after the steps waited until 4.5 s and took
    it); one done meanwhile is read."""
    from app.draw.layout.dot_backend import DotJob

    def fake_dot(delay: float) -> subprocess.Popen[bytes]:
        return subprocess.Popen(
            ["sh", "-c", f"sleep {delay}; cat"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
        )

    late = DotJob(fake_dot(3.75), "digraph { late }")
    time.sleep(2.5)
    with pytest.raises(GradstepError, match="did not finish within 2 s"):
        late.result(2.0)
    done = DotJob(fake_dot(0), "digraph { done }")
    time.sleep(0.5)
    assert done.result(0.2) == "digraph { done }"


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_layout_collected_later_is_the_same_drawing(backend: str) -> None:
    layout = Layout(LayoutSettings(backend, 60.0))
    try:
        for dot in preset_dots():
            job = layout.start(dot)
            engine.trace(engine.run(PRESETS[0].source))  # work beside it, as a request does
            assert job.result(60) == layout.svg(dot)
    finally:
        layout.close()


@needs_dot
def test_a_spare_dot_that_ended_while_idle_is_not_used() -> None:
    runner = DotRunner()
    try:
        runner.keep_spare()
        spare = runner._spare
        assert spare is not None
        spare.kill()
        spare.wait()
        assert 'id="n0"' in runner.layout("digraph { n0 [id=n0] }", 60)
    finally:
        runner.close()


@needs_dot
def test_closing_ends_the_spare_dot_and_starts_no_more() -> None:
    layout = Layout(LayoutSettings("dot", 60.0))
    layout.warm()
    runner = layout._dot
    assert runner is not None and runner._spare is not None
    spare = runner._spare
    layout.close()
    assert spare.returncode is not None  # ended and reaped
    assert 'id="n0"' in layout.svg("digraph { n0 [id=n0] }")  # drawn by a dot of its own
    time.sleep(0.1)  # time for a refill thread, were one started
    assert runner._spare is None


@needs_dot
def test_an_open_mlps_neurons_are_drawn_in_the_programs_order() -> None:
    """Left to right, each layer's neurons stand top to bottom as the program makes them (Neuron
    1 first), each holding its own weights: Graphviz's crossing minimisation is kept short."""
    from app.lecture.notebook import LECTURE_MLP_CELL

    source = "\n".join(["import random", LECTURE_MLP_CELL, "x = [2.0, 3.0, -1.0]",
                        "n = MLP(3, [4, 4, 1])", "y = n(x)", "y.backward()"])  # fmt: skip
    graph = engine.outline(engine.run(source))
    fold = fold_view(graph, folded_calls(graph, "none"))
    plain = subprocess.run(["dot", "-Tplain"], input=dot_source(graph, "LR", fold),
                           capture_output=True, text=True, check=True).stdout  # fmt: skip
    heights = {f[1]: float(f[3]) for f in map(str.split, plain.splitlines()) if f[0] == "node"}
    calls = {c.id: c for c in graph.calls}
    height_of: dict[int, list[float]] = {}
    for n in graph.nodes:
        if n.call is not None and calls[n.call].title.startswith("Neuron"):
            height_of.setdefault(n.call, []).append(heights[f"n{n.id}"])
    for layer in ("Layer 1", "Layer 2"):
        neurons = [c for c in calls.values() if c.parent is not None
                   and calls[c.parent].title == layer]  # fmt: skip
        mean = [sum(height_of[c.id]) / len(height_of[c.id]) for c in neurons]
        assert [c.title for c in neurons] == ["Neuron 1", "Neuron 2", "Neuron 3", "Neuron 4"]
        assert mean == sorted(mean, reverse=True), layer  # Graphviz's y grows upwards
