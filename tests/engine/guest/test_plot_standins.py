"""The sandbox's stand-ins for matplotlib, scikit-learn and graphviz (engine.guest.modules):
what pyplot records for the calls learners make, that unknown calls run and say they were not
drawn, the caps, sklearn's data sets equal to scikit-learn's own bit for bit, and a draw_dot
that runs on the graphviz stand-in."""

from __future__ import annotations

import json
import math
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from engine.guest.modules import graphviz
from engine.guest.modules.matplotlib import cm, patches
from engine.guest.modules.matplotlib import pyplot as plt


@pytest.fixture(autouse=True)
def fresh_pyplot() -> Iterator[None]:
    plt.reset()
    yield
    plt.reset()


def run(source: str, **names: Any) -> dict[str, Any]:
    """Run a program as the sandbox does (its file name is ``<program>``)."""
    scope = {"plt": plt, **names}
    exec(compile(source, "<program>", "exec"), scope)
    return scope


def axes(series: list[dict[str, Any]] | None = None, **settings: Any) -> dict[str, Any]:
    blank: dict[str, Any] = {
        "row": 0,
        "col": 0,
        "title": None,
        "xlabel": None,
        "ylabel": None,
        "xscale": "linear",
        "yscale": "linear",
        "xlim": None,
        "ylim": None,
        "legend": False,
        "grid": False,
        "series": series or [],
        "lines": [],
    }
    return {**blank, **settings}


def series(kind: str, x: list[Any], y: list[Any], **style: Any) -> dict[str, Any]:
    blank = {"label": None, "color": None, "marker": None, "style": None}
    return {"kind": kind, "x": x, "y": y, **blank, "width": None, "size": None, **style}


# pyplot: the record ------------------------------------------------------------------------


def test_subplots_with_plot_scatter_labels_legend_and_log_scale() -> None:
    run(
        """
class V:  # a gradstep-like node: plotted by its .data
    def __init__(self, data): self.data = data

losses = [V(1.0), V(0.5), V(0.25)]
fig, (ax1, ax2) = plt.subplots(1, 2, figsize=(10, 4))
ax1.plot([v.data for v in losses], 'r--', label='loss')
ax1.plot(range(3), losses, linewidth=2)
ax1.set_yscale('log')
ax1.set_title('Loss'); ax1.set_xlabel('step'); ax1.set_ylabel('loss')
ax1.legend(); ax1.grid(True)
ax2.scatter([0, 1, 2], [1.5, float('nan'), 2], c=[0, 1, 0], s=20, cmap=plt.cm.Spectral,
            edgecolors='k', alpha=0.8)
ax2.axhline(0, color='k', linestyle=':')
ax2.set_xlim(-1, 3)
fig.suptitle('Training')
plt.tight_layout()
plt.show()
"""
    )
    red, first = "#ff0000", "#1f77b4"
    assert plt.record() == [
        {
            "line": 6,
            "title": "Training",
            "rows": 1,
            "cols": 2,
            "axes": [
                axes(
                    [
                        series(
                            "line",
                            [0.0, 1.0, 2.0],
                            [1.0, 0.5, 0.25],
                            label="loss",
                            color=red,
                            style="--",
                        ),
                        series("line", [0.0, 1.0, 2.0], [1.0, 0.5, 0.25], color=first, style="-")
                        | {"width": 2.0},
                    ],
                    title="Loss",
                    xlabel="step",
                    ylabel="loss",
                    yscale="log",
                    legend=True,
                    grid=True,
                ),
                axes(
                    [
                        series("scatter", [0.0, 1.0, 2.0], [1.5, None, 2.0], marker="o")
                        | {"size": 20.0, "colors": [0.0, 1.0, 0.0], "cmap": "Spectral"}
                    ],
                    col=1,
                    xlim=[-1.0, 3.0],
                    lines=[
                        {"axis": "h", "at": 0.0, "label": None, "color": "#000000", "style": ":"}
                    ],
                ),
            ],
            "skipped": [],
        }
    ]
    json.dumps(plt.record(), allow_nan=False)  # plain JSON: no NaN, no objects


def test_state_machine_format_strings_groups_and_show() -> None:
    run(
        """
import math
plt.figure(figsize=(6, 4), dpi=100)
plt.plot([0, 1], [0, 1], 'go', [0, 1], [1, 0], 'C3-.', label='a')
plt.xlabel('x'); plt.title('two lines'); plt.legend(['up', 'down'])
plt.xscale('log'); plt.ylim(bottom=0)
plt.show()
plt.semilogy([1, 10, 100])
plt.bar(['a', 'b'], [3, 4])
plt.close()
plt.subplot(2, 2, 4)
plt.hist([1, 2, 2, 3, 10], bins=3)
"""
    )
    first, second, third = plt.record()
    assert first["line"] == 3 and first["skipped"] == []
    (ax,) = first["axes"]
    assert (ax["title"], ax["xlabel"], ax["xscale"], ax["ylim"]) == (
        "two lines",
        "x",
        "log",
        [0.0, None],
    )
    assert [s["label"] for s in ax["series"]] == ["up", "down"]  # legend(labels) names them
    assert [(s["color"], s["marker"], s["style"]) for s in ax["series"]] == [
        ("#008000", "o", None),  # markers only: no line
        ("#d62728", None, "-."),
    ]
    assert second["line"] == 8  # show() closed the first: the next plot starts a figure
    (ax,) = second["axes"]
    assert ax["yscale"] == "log"
    line, bars = ax["series"]
    assert line["x"] == [0.0, 1.0, 2.0] and line["color"] == "#1f77b4"
    assert bars["kind"] == "bar" and bars["x"] == [0.0, 1.0] and bars["y"] == [3.0, 4.0]
    assert bars["width"] == 0.8 and bars["color"] == "#1f77b4"  # patches have their own cycle
    assert second["skipped"] == ["text positions were drawn as 0, 1, 2, ..."]
    assert (third["rows"], third["cols"]) == (2, 2)
    (ax,) = third["axes"]
    assert (ax["row"], ax["col"]) == (1, 1)
    assert ax["series"][0]["y"] == [4.0, 0.0, 1.0]  # numpy.histogram's counts
    assert ax["series"][0]["x"] == [2.5, 5.5, 8.5]


def test_axes_arrays_index_like_numpy_object_arrays() -> None:
    _, ax = plt.subplots(2, 3, sharex=True)
    assert len(ax) == 2 and ax.shape == (2, 3)
    assert ax[1, 2] is ax[1][2] is ax.flat[5] is ax.ravel()[-1] is list(ax.flatten())[5]
    assert [len(row) for row in ax] == [3, 3]
    assert plt.gca() is ax[1, 2]  # the last made is current, as in matplotlib
    for i, a in enumerate(ax.flat):
        a.set(title=f"t{i}", xlim=(0, 1))
    _, row = plt.subplots(1, 2)
    assert row.shape == (2,) and row[0] is not row[1]
    _, one = plt.subplots()
    assert isinstance(one, plt.Axes)
    first = plt.record()[0]
    assert [(a["row"], a["col"], a["title"]) for a in first["axes"]][-2:] == [
        (1, 1, "t4"),
        (1, 2, "t5"),
    ]
    assert first["axes"][0]["xlim"] == [0.0, 1.0]


def test_per_point_colours_split_and_loops_of_single_points_merge() -> None:
    run(
        """
plt.scatter([0, 1, 2], [0, 1, 2], c=['red', 'blue', 'red'], label='points')
for i in range(50):
    plt.scatter(i, i * i, color='k')
    plt.plot(i, -i, 'bo')
"""
    )
    (ax,) = plt.record()[0]["axes"]
    reds, blues, loop, markers = ax["series"]
    assert markers["kind"] == "line" and markers["style"] is None and markers["y"][-1] == -49.0
    assert (reds["color"], reds["x"], reds["label"]) == ("red", [0.0, 2.0], "points")
    assert (blues["color"], blues["x"], blues["label"]) == ("blue", [1.0], None)
    assert loop["color"] == "#000000" and len(loop["x"]) == 50 and loop["y"][-1] == 2401.0


def test_values_from_arrays_and_non_finite_numbers() -> None:
    np = pytest.importorskip("numpy")  # the real one: the host's tests run beside it
    plt.plot(np.array([1.0, np.inf, 3.0]), np.float64(2.0) * np.arange(3))
    plt.plot(np.array([[1, 2], [3, 4]]))  # a table: one line per column
    ax = plt.record()[0]["axes"][0]
    assert ax["series"][0]["x"] == [1.0, None, 3.0]
    assert ax["series"][0]["y"] == [0.0, 2.0, 4.0]
    assert [s["y"] for s in ax["series"][1:]] == [[1.0, 3.0], [2.0, 4.0]]
    assert all(type(v) is float for v in ax["series"][0]["y"])


# pyplot: what is not drawn -----------------------------------------------------------------


def test_unknown_and_undrawn_calls_run_and_are_noted_once() -> None:
    run(
        """
fig, ax = plt.subplots()
ax.plot([1, 2])
ax.xaxis.set_major_locator(plt.MaxNLocator(integer=True)).set_visible(False)
ax.spines['top'].set_visible(False)
ax.contourf([[1]]); ax.contourf([[2]])
cs = plt.contourf([[1, 2]]); plt.colorbar(cs)
ax.text(0, 0, 'hi'); plt.annotate('a', (0, 1)); ax.fill_between([0], [1])
ax.add_patch(plt.Circle((0, 0), 1)); ax.set_aspect('equal'); ax.tick_params(labelsize=8)
ax2 = ax.twinx(); line, = ax2.plot([1, 2]); ax2.set_ylabel('acc')
fig.canvas.manager.set_window_title('run')
lo, hi = ax.get_xlim()
plt.rcParams['figure.figsize'] = (8, 6); plt.rcParams.update({'font.size': 12})
plt.style.use('ggplot'); plt.ion(); plt.pause(0.1); plt.ioff()
plt.savefig('out.png'); fig.savefig('out.pdf', dpi=300)
handle = patches.Patch(color='red', label='class 0'); plt.legend(handles=[handle])
plt.xticks(rotation=45); plt.some_future_function(1, x=2)
""",
        patches=patches,
    )
    (figure,) = plt.record()
    assert figure["skipped"] == [
        "MaxNLocator was not drawn",  # an argument: called before set_major_locator
        "xaxis was not drawn",
        "spines was not drawn",
        "contourf was not drawn",
        "colorbar was not drawn",
        "text was not drawn",
        "annotate was not drawn",
        "fill_between was not drawn",
        "add_patch was not drawn",
        "set_aspect was not drawn",
        "tick_params was not drawn",
        "twinx was not drawn",
        "canvas was not drawn",
        "savefig: gradstep saves no files",
        "xticks was not drawn",
        "some_future_function was not drawn",
    ]
    assert figure["axes"][0]["legend"] is True
    assert len(figure["axes"][0]["series"]) == 1


def test_private_names_still_raise() -> None:
    """Probes for dunder and private names (copy, pickle, notebooks' _repr_*_) must not see
    an object that answers everything."""
    fig, ax = plt.subplots()
    for owner in (plt, fig, ax, ax.xaxis):
        with pytest.raises(AttributeError):
            owner.__array__  # noqa: B018
        with pytest.raises(AttributeError):
            owner._repr_html_  # noqa: B018


def test_colormaps_match_matplotlib() -> None:
    assert cm.Spectral(0.5) == (0.998077662437524, 0.9992310649750096, 0.7460207612456747, 1.0)
    assert plt.cm.Spectral(3) == (
        0.6449826989619377,
        0.03206459054209919,
        0.2648212226066898,
        1.0,
    )
    assert plt.cm.get_cmap("Spectral_r")(0.0) == cm.Spectral(1.0)
    assert len(cm.viridis([0.1, 0.9])) == 2 and cm.coolwarm(0.5)[3] == 1.0
    assert cm.RdBu(0.0)[:3] == pytest.approx((0.403921, 0.0, 0.121568), abs=1e-5)


# pyplot: caps --------------------------------------------------------------------------------


def test_points_series_and_figures_are_capped() -> None:
    plt.plot(list(range(12_000)))
    (line,) = plt.record()[0]["axes"][0]["series"]
    assert len(line["x"]) == 5_000 and line["x"][0] == 0.0 and line["x"][-1] == 11_999.0
    spacing = {b - a for a, b in zip(line["x"], line["x"][1:], strict=False)}
    assert max(spacing) - min(spacing) <= 1.0  # evenly spaced
    assert plt.record()[0]["skipped"] == ["5000 points shown of 12000"]
    _, (left, right) = plt.subplots(1, 2)
    for k in range(3):
        left.scatter(list(range(5_000)), [k] * 5_000)
    right.plot(list(range(10_000)), color="green")
    right.plot(list(range(3_000)), "g:")
    second = plt.record()[1]
    counts = [len(s["x"]) for ax in second["axes"] for s in ax["series"]]
    assert sum(counts) <= 20_000 and counts[0] == counts[1] == counts[2] == counts[3] > 4_000
    assert second["skipped"] == [
        f"{counts[0]} points shown of 5000",
        f"{counts[3]} points shown of 10000",
        f"{counts[4]} points shown of 3000",
    ]
    plt.figure()
    for step in range(6_001):  # a loop of single points: one series, evenly thinned
        plt.scatter(step, 1.0, color="b")
    (loop,) = plt.record()[2]["axes"][0]["series"]
    assert loop["x"] == [float(v) for v in range(0, 6_001, 2)]
    assert plt.record()[2]["skipped"] == ["3001 points shown of 6001"]
    for _ in range(25):
        plt.figure()
        plt.plot([1, 2])
    figures = plt.record()
    assert len(figures) == 20
    assert figures[-1]["skipped"] == ["8 more figures were not drawn"]  # after the 3 above


def test_reset_forgets_figures_and_settings() -> None:
    plt.plot([1])
    plt.rcParams["font.size"] = 30
    plt.reset()
    assert plt.record() == [] and plt.rcParams["font.size"] == 10.0


# graphviz --------------------------------------------------------------------------------------


def test_draw_dot_runs_and_writes_dot() -> None:
    class V:
        def __init__(self, data: float, children: tuple[V, ...] = (), op: str = "") -> None:
            self.data, self.grad, self._prev, self._op = data, 0.0, set(children), op

    a, b = V(2.0), V(-3.0)
    out = V(-6.0, (a, b), "*")

    def draw_dot(root: V) -> Any:  # micrograd's, as learners copy it
        dot = graphviz.Digraph(format="svg", graph_attr={"rankdir": "LR"})
        for n in (a, b, root):
            uid = str(id(n))
            dot.node(name=uid, label=f"{{ data {n.data:.4f} | grad {n.grad:.4f} }}", shape="record")
            if n._op:
                dot.node(name=uid + n._op, label=n._op)
                dot.edge(uid + n._op, uid)
        for child in (a, b):
            dot.edge(str(id(child)), str(id(out)) + out._op)
        return dot

    dot = draw_dot(out)
    assert dot.render("graph", view=True) == "" and dot.view() == ""
    source = str(dot)
    assert source.startswith("digraph {\n\tgraph [rankdir=LR]\n")
    assert f'\t{id(out)} [label="{{ data -6.0000 | grad 0.0000 }}" shape=record]\n' in source
    assert f'\t{id(a)} -> "{id(out)}*"\n' in source
    with graphviz.Graph(name="g").subgraph(name="cluster_0") as sub:
        sub.node("x")
        sub.edges([("x", "y")])
    assert "x -- y" in sub.source


# sklearn.datasets: equal to scikit-learn's own ---------------------------------------------------

CASES: list[dict[str, Any]] = [
    {"fn": fn, "n": n, "kwargs": kwargs, "state": state}
    for fn in ("make_moons", "make_circles")
    for n, kwargs in [
        (100, {}),
        (1, {}),
        (7, {"noise": 0.1}),
        (101, {"noise": 0.2}),
        (40, {"noise": 0.05, "shuffle": False}),
        ([3, 5], {"noise": 0.0}),
    ]
    for state in ("seed:0", "seed:1234", 0, 42, 4_294_967_295, "instance:7")
] + [
    {"fn": "make_circles", "n": 50, "kwargs": {"factor": 0.5, "noise": 0.1}, "state": 3},
    {"fn": "make_blobs", "n": 30, "kwargs": {}, "state": 0},
    {"fn": "make_blobs", "n": 31, "kwargs": {"centers": 4, "cluster_std": 0.5}, "state": "seed:9"},
    {"fn": "make_blobs", "n": [4, 6], "kwargs": {"n_features": 3}, "state": 5},
]
REFERENCE = r"""
import json, sys
import numpy as np
from sklearn import datasets

def call(case):
    state = case["state"]
    n = tuple(case["n"]) if isinstance(case["n"], list) else case["n"]
    if isinstance(state, str) and state.startswith("seed:"):
        np.random.seed(int(state[5:]))
        state = None
    elif isinstance(state, str):
        state = np.random.RandomState(int(state[9:]))
    fn = getattr(datasets, case["fn"])
    # twice: with the global state (None), the second call goes on from the first
    return [[repr(a.tolist()) for a in fn(n, random_state=state, **case["kwargs"])]
            for _ in range(2)]

print(json.dumps([call(case) for case in json.load(sys.stdin)]))
"""


@pytest.fixture(scope="module")
def sklearn_python() -> Path:
    """The tests' own interpreter: scikit-learn is one of the test extras (pyproject.toml)."""
    return Path(sys.executable)


def test_make_moons_circles_blobs_equal_scikit_learn(sklearn_python: Path) -> None:
    np = pytest.importorskip("engine.guest.modules.numpy", reason="the numpy stand-in is not here")
    from engine.guest.modules.sklearn import datasets

    done = subprocess.run(
        [str(sklearn_python), "-c", REFERENCE],
        input=json.dumps(CASES),
        capture_output=True,
        text=True,
        check=True,
        timeout=300,
    )
    expected = json.loads(done.stdout)
    for case, want in zip(CASES, expected, strict=True):
        state: Any = case["state"]
        if isinstance(state, str) and state.startswith("seed:"):
            np.random.seed(int(state[5:]))
            state = None
        elif isinstance(state, str):
            state = np.random.RandomState(int(state[9:]))
        n = tuple(case["n"]) if isinstance(case["n"], list) else case["n"]
        fn = getattr(datasets, case["fn"])
        for call in want:
            got = fn(n, random_state=state, **case["kwargs"])
            assert [repr(a.tolist()) for a in got] == call, case
    X, y = datasets.make_moons(10, noise=0.1, random_state=1)
    assert X.shape == (10, 2) and y.shape == (10,)
    assert all(type(v) is int for v in y.tolist())
    assert all(type(v) is float and math.isfinite(v) for row in X.tolist() for v in row)
