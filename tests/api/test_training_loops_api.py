"""A training loop through the API: the answer lists the loss of every iteration and opens on
the first; any iteration is drawn on request with the structure and layout of the others (so the
page's iteration scrubber is answered with numbers alone), and images, downloads and short links
carry it."""

from __future__ import annotations

from fastapi.testclient import TestClient
from link_client import create, sqlite_client  # noqa: F401  (the fixture client)

from app.schemas import GraphResponse


def output_data(body: dict, structure: dict) -> float:
    return float(body["numbers"]["data"][structure["output"]])


def test_the_first_iteration_is_drawn_and_every_loss_is_listed(client: TestClient) -> None:
    """A loop opens on its first iteration (the request's iteration omitted: 0)."""
    response = client.post("/api/graph", json={"preset": "lecture-training"})
    assert response.status_code == 200, response.text
    GraphResponse.model_validate_json(response.content)
    body = response.json()
    training = body["training"]
    assert len(training["losses"]) == 20 and training["iteration"] == 0
    assert output_data(body, body["structure"]) == training["losses"][0]
    printed = [text for _, text in body["console"]]
    assert printed[0] == f"0 {training['losses'][0]!r}"
    assert printed[-1] == f"19 {training['losses'][19]!r}"  # the whole run printed
    last = client.post("/api/graph", json={"preset": "lecture-training", "iteration": 19}).json()
    assert last["training"]["iteration"] == 19
    assert output_data(last, last["structure"]) == training["losses"][19]


def test_another_iteration_is_numbers_alone_for_a_client_that_holds_the_graph(
    client: TestClient,
) -> None:
    last = client.post("/api/graph", json={"preset": "lecture-training", "iteration": 19}).json()
    for k in (0, 1, 2, 7):
        asked = {"preset": "lecture-training", "iteration": k, "structure": last["digest"],
                 "layout": last["layout"]}  # fmt: skip
        other = client.post("/api/graph", json=asked).json()
        assert other["structure"] is None and other["svg"] is None  # the page keeps both
        assert other["training"] == {"losses": last["training"]["losses"], "iteration": k}
        assert output_data(other, last["structure"]) == last["training"]["losses"][k]
        assert other["numbers"]["data"] != last["numbers"]["data"]


def test_an_iteration_that_is_not_there_is_a_422_that_says_how_many_there_are(
    client: TestClient,
) -> None:
    response = client.post("/api/graph", json={"preset": "lecture-training", "iteration": 20})
    assert response.status_code == 422
    assert response.json()["error"]["message"] == (
        "this program has no iteration 20: its loop ran 20 (0 to 19)"
    )
    plain = client.post("/api/graph", json={"preset": "lecture-neuron"}).json()
    assert plain["training"] is None


def test_images_and_downloads_of_an_iteration_are_named_after_it(client: TestClient) -> None:
    response = client.get(
        "/api/graph.svg",
        params={
            "preset": "lecture-training",
            "iteration": 3,
            "phase": "backward",
            "step": 0,
        },
    )
    assert response.status_code == 200, response.text
    disposition = response.headers["content-disposition"]
    assert 'filename="gradstep-lecture-training-iteration-03-backward-01.svg"' in disposition
    other = client.get("/api/graph.svg", params={"preset": "lecture-training", "iteration": 4,
                                                 "phase": "backward", "step": 0})  # fmt: skip
    assert other.text != response.text  # its own numbers


def test_a_short_link_keeps_the_iteration(client: TestClient) -> None:
    link = create(client, {"preset": "lecture-training", "iteration": 5, "phase": "forward",
                           "step": 0})  # fmt: skip
    page = client.get(f"/s/{link}", follow_redirects=False)
    assert "iteration=5&phase=forward&step=0" in page.headers["location"]
    refused = client.post("/api/links", json={"preset": "lecture-training", "iteration": 99})
    assert refused.status_code == 422 and "no iteration 99" in refused.text
