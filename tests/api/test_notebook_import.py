"""POST /api/notebook: a Jupyter notebook (.ipynb JSON) as one program, its code cells in order,
each begun by ``# %%``; markdown and raw cells left out; notebook commands (``!pip``,
``%matplotlib``) kept in the text, and skipped with a note when the program runs; a notebook in
another language, a file that is no notebook and a malformed body refused (422, the one error
shape), and the request body's limit holding for a notebook as for a program."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import nbformat
import pytest
from fastapi.testclient import TestClient

from app.middleware import MAX_BODY_BYTES
from app.schemas import ErrorResponse, NotebookResponse

NEURON = Path(__file__).resolve().parents[1] / "notebook" / "neuron.ipynb"
ERROR_KEYS = {"message", "kind", "line", "column", "end_column"}

PIP = "!pip install micrograd"
MAGIC = "%matplotlib inline"
CELLS = [  # (cell type, source)
    ("markdown", "# Backpropagation\nThe cell below is `a = Value(99.0)`:\n\na = Value(99.0)"),
    ("code", f"{PIP}\n{MAGIC}\nfrom micrograd.engine import Value"),
    ("code", "a = Value(2.0)\nb = Value(-3.0)\nc = a * b + a"),
    ("raw", "c = Value(100.0)"),
    ("code", "c.backward()\nprint(a.grad, b.grad)\n\n"),
]


def notebook(cells: list[tuple[str, str]] = CELLS, language: str = "python") -> dict[str, Any]:
    """A notebook as Jupyter writes it (nbformat 4), with an output or two."""
    nb = nbformat.v4.new_notebook()
    nb.metadata["kernelspec"] = {"name": "k", "display_name": language, "language": language}
    made = {"code": nbformat.v4.new_code_cell, "markdown": nbformat.v4.new_markdown_cell,
            "raw": nbformat.v4.new_raw_cell}  # fmt: skip
    nb.cells = [made[kind](source) for kind, source in cells]
    for cell in nb.cells:
        if cell.cell_type == "code":
            cell.outputs = [nbformat.v4.new_output("stream", name="stdout", text="out\n")]
    nbformat.validate(nb)
    return json.loads(nbformat.writes(nb))  # type: ignore[no-any-return]


def imported(client: TestClient, nb: object) -> str:
    response = client.post("/api/notebook", json={"notebook": nb})
    assert response.status_code == 200, response.text
    return NotebookResponse.model_validate_json(response.content).source


def refusal(response: Any) -> dict[str, Any]:
    assert response.status_code == 422, response.text
    error = ErrorResponse.model_validate_json(response.content).error
    assert set(response.json()["error"]) == ERROR_KEYS
    return error.model_dump()


def test_code_cells_in_order_each_begun_by_a_cell_marker(client: TestClient) -> None:
    source = imported(client, notebook())
    assert source == (
        f"# %%\n{PIP}\n{MAGIC}\nfrom micrograd.engine import Value\n\n"
        "# %%\na = Value(2.0)\nb = Value(-3.0)\nc = a * b + a\n\n"
        "# %%\nc.backward()\nprint(a.grad, b.grad)\n"
    )
    assert "Backpropagation" not in source and "99.0" not in source  # markdown: left out
    assert "100.0" not in source  # a raw cell too


def test_a_real_notebooks_cells_in_order(client: TestClient) -> None:
    nb = json.loads(NEURON.read_text(encoding="utf-8"))
    source = imported(client, nb)
    cells = ["".join(cell["source"]) for cell in nb["cells"] if cell["cell_type"] == "code"]
    assert len(cells) == 7
    assert source.startswith("# %%\n") and source.endswith("\n")
    assert source[len("# %%\n") : -1].split("\n\n# %%\n") == [c.rstrip("\n") for c in cells]


def test_the_program_runs_with_its_notebook_commands_skipped_with_a_note(
    client: TestClient,
) -> None:
    source = imported(client, notebook())
    response = client.post("/api/graph", json={"source": source})
    assert response.status_code == 200, response.text
    body = response.json()
    notes = body["structure"]["notes"]
    assert "line 2: !pip is a notebook command: skipped" in notes, notes
    assert "line 3: %matplotlib is a notebook command: skipped" in notes, notes
    assert body["console"] == [[13, "-2.0 2.0"]]  # c = a*b + a: ∂c/∂a = b + 1, ∂c/∂b = a
    structure = body["structure"]
    output = structure["nodes"][structure["output"]]
    assert output["name"] == "c" and body["numbers"]["data"][output["id"]] == -4.0


@pytest.mark.parametrize(
    ("metadata", "language"),
    [
        ({"kernelspec": {"name": "ir", "display_name": "R", "language": "R"}}, "R"),  # as written
        ({"language_info": {"name": "julia"}}, "julia"),
    ],
)
def test_a_notebook_in_another_language_is_refused(
    client: TestClient, metadata: dict[str, Any], language: str
) -> None:
    nb = {**notebook([("code", "x <- 1")]), "metadata": metadata}
    error = refusal(client.post("/api/notebook", json={"notebook": nb}))
    assert error["kind"] == "unsupported"
    assert error["message"] == f"this notebook's code is {language}, not Python"


@pytest.mark.parametrize(
    ("nb", "message"),
    [
        ({}, "this file is not a Jupyter notebook (it has no cells)"),
        ({"cells": "x = 1"}, "this file is not a Jupyter notebook (it has no cells)"),
        ({"cells": []}, "this notebook has no code cells"),
        (
            {"cells": [{"cell_type": "markdown", "source": "x = 1"}]},
            "this notebook has no code cells",
        ),
    ],
)
def test_a_file_that_is_no_notebook_is_refused(
    client: TestClient, nb: dict[str, Any], message: str
) -> None:
    error = refusal(client.post("/api/notebook", json={"notebook": nb}))
    assert (error["kind"], error["message"]) == ("syntax", message)


@pytest.mark.parametrize(
    ("body", "kind"),
    [
        (b'{"notebook": {"cells": [', "json"),
        (b'{"notebook": [1, 2]}', "request"),
        (b'{"notebook": "{\\"cells\\": []}"}', "request"),  # the file's text: not its JSON
        (b"{}", "request"),
        (b'{"notebook": {"cells": []}, "outputs": true}', "request"),
        (b"\xff\xfe", "json"),
    ],
)
def test_a_malformed_request_is_refused_in_the_error_shape(
    client: TestClient, body: bytes, kind: str
) -> None:
    headers = {"content-type": "application/json"}
    error = refusal(client.post("/api/notebook", content=body, headers=headers))
    assert error["kind"] == kind and error["message"]


@pytest.mark.parametrize(
    "cell",
    [
        {"cell_type": "code", "source": ["a = 1\n", 2]},  # a line that is not text
        {"cell_type": "code", "source": "a = '\ud800'"},  # a lone surrogate (JSON "\ud800")
    ],
    ids=["number in source", "lone surrogate"],
)
def test_a_cell_that_is_not_text_is_refused_not_a_500(
    client: TestClient, cell: dict[str, Any]
) -> None:
    body = json.dumps({"notebook": {"cells": [cell]}}).encode()  # ensure_ascii: "\ud800" escaped
    headers = {"content-type": "application/json"}
    response = client.post("/api/notebook", content=body, headers=headers)
    assert refusal(response)["kind"] != "internal"


def test_a_notebook_is_held_to_the_request_bodys_limit(client: TestClient) -> None:
    """The page sends a notebook without its outputs: one whose outputs are larger than the
    body limit is refused as it streams in; the same notebook without them is read."""
    nb = notebook()
    image = {"image/png": "iVBORw0KGgo" * (MAX_BODY_BYTES // 10), "text/plain": "<Figure>"}
    nb["cells"][1]["outputs"] = [{"output_type": "display_data", "data": image, "metadata": {}}]
    error = refusal(client.post("/api/notebook", json={"notebook": nb}))
    assert error["kind"] == "limit"
    assert error["message"] == f"the request body is larger than {MAX_BODY_BYTES:,} bytes"
    for cell in nb["cells"]:
        cell.pop("outputs", None)
    assert imported(client, nb) == imported(client, notebook())


def test_openapi_describes_the_notebook_import(client: TestClient) -> None:
    post = client.get("/openapi.json").json()["paths"]["/api/notebook"]["post"]
    content = post["requestBody"]["content"]["application/json"]["schema"]["$ref"]
    assert content.endswith("NotebookRequest")
    answer = post["responses"]["200"]["content"]["application/json"]["schema"]["$ref"]
    assert answer.endswith("NotebookResponse")
    assert post["responses"]["422"]["content"]["application/json"]["schema"]["$ref"].endswith(
        "ErrorResponse"
    )
