"""The notebook run headless by nbclient on a real ipykernel with no ``dot`` on PATH: ``show``
gives a widget whose synced state holds the neuron's trace, and ``draw_dot`` an SVG with every
value's data and grad."""

from __future__ import annotations

import re

import pytest
from notebook_env import NOTEBOOK, NUMBER_IN_GRAPH, X1_GRAD, kernel_env, require


@pytest.fixture(scope="module")
def executed(tmp_path_factory: pytest.TempPathFactory):
    require("nbclient")
    require("anywidget")
    import nbformat
    from nbclient import NotebookClient

    nb = nbformat.read(NOTEBOOK, as_version=4)
    workdir = tmp_path_factory.mktemp("kernel")
    client = NotebookClient(
        nb,
        timeout=120,
        kernel_name="python3",
        resources={"metadata": {"path": str(workdir)}},
        store_widget_state=True,
    )
    client.execute(env=kernel_env(workdir / "home"), cwd=str(workdir))
    return nb


def _outputs(nb, index: int) -> list[dict]:
    return nb.cells[index]["outputs"]


def _stepper_states(nb) -> list[dict]:
    """The synced state of every gradstep widget, as the kernel sent it over its comms."""
    widgets = nb.metadata["widgets"]["application/vnd.jupyter.widget-state+json"]["state"]
    return [m["state"] for m in widgets.values() if "_player_html" in m["state"]]


def test_the_kernel_has_no_dot(executed) -> None:
    text = "".join(o.get("text", "") for o in _outputs(executed, 0))
    assert text.strip() == "dot on PATH: None"


def nodes(state: dict) -> list[dict]:
    """A synced widget's nodes, each with its data and grad from the trace's numbers."""
    trace = state["trace"]
    numbers = trace["numbers"]
    return [
        {**n, "data": numbers["data"][n["id"]], "grad": numbers["grad"][n["id"]]}
        for n in trace["structure"]["nodes"]
    ]


def test_show_syncs_the_traced_neuron(executed) -> None:
    shown = _outputs(executed, 1)
    views = [o for o in shown if "application/vnd.jupyter.widget-view+json" in o.get("data", {})]
    assert len(views) == 1, shown
    states = _stepper_states(executed)
    assert len(states) == 3  # the neuron, the program and the program with a function
    neuron = next(s for s in states if any(n["name"] == "x1" for n in nodes(s)))
    grads = {n["name"]: n["grad"] for n in nodes(neuron)}
    assert grads["x1"] == pytest.approx(X1_GRAD, abs=1e-4)
    assert grads["w1"] == pytest.approx(1.0, abs=1e-4)
    assert grads["x2"] == pytest.approx(0.5, abs=1e-4)
    assert grads["w2"] == pytest.approx(0.0, abs=1e-4)
    output = next(n for n in nodes(neuron) if n["kind"] == "output")
    assert output["data"] == pytest.approx(0.7071, abs=1e-4)
    assert 'id="n0"' in neuron["svg"] and neuron["svg"].lstrip().startswith("<svg")
    # the last cell moved it from Python: the synced state says so
    assert (neuron["phase"], neuron["step"]) == ("backward", 0)
    assert neuron["_esm"] and "export default" in neuron["_esm"]


def test_show_takes_a_program_text(executed) -> None:
    states = _stepper_states(executed)
    program = next(s for s in states if s["source"].startswith("a = -4.0"))
    grads = {n["name"]: n["grad"] for n in nodes(program) if n["kind"] == "input"}
    # micrograd's README: c = a + b, d = a*b + b**3, e = c - d, g = e**2
    e = (-4.0 + 2.0) - (-8.0 + 8.0)
    assert grads["a"] == pytest.approx(2 * e * (1 - 2.0), abs=1e-9)
    assert grads["b"] == pytest.approx(2 * e * (1 - (-4.0 + 3 * 2.0**2)), abs=1e-9)
    assert program["height"] == 360


def test_draw_dot_is_an_svg_with_data_and_grad_on_every_node(executed) -> None:
    (out,) = _outputs(executed, 2)
    svg = out["data"]["image/svg+xml"]
    assert "<svg" in svg
    assert NUMBER_IN_GRAPH in svg  # x1's grad
    for node in range(10):  # the neuron's ten values, each with its data and its grad
        data = re.search(rf'id="n{node}-data"[^>]*>([^<]+)<', svg)
        grad = re.search(rf'id="n{node}-grad"[^>]*>([^<]+)<', svg)
        assert data and data[1] not in ("?", ""), node
        assert grad and grad[1] not in ("?", ""), node
    assert re.search(r'id="n0-grad"[^>]*>−1\.5000<', svg)  # x1 is the first value made
