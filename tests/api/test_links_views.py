"""Short links through the API, on SQLite in a temporary directory, the views they name:
creating one, the same view naming the same link, presets and the engine switch as part of the
view, the redirects to the long URLs, unknown and malformed ids, a collision lengthening the
id, and the QR code of a link."""

from __future__ import annotations

import json
import re
from datetime import UTC, datetime
from pathlib import Path
from urllib.parse import urlencode
from xml.etree import ElementTree

import pytest
import segno
from fastapi.testclient import TestClient
from link_client import (
    LONG,
    VIEW,
    NoStore,
    create,
    refusal,
    sqlite_client,  # noqa: F401  (the fixture client)
)

from app.links import store as store_module
from app.links.state import full_id
from app.links.store import Record
from app.presets import LECTURE_NEURON, MICROGRAD_README
from app.routes.links import MAX_REDIRECT_CHARS


def test_a_view_is_stored_and_named_by_its_hash(client: TestClient, tmp_path: Path) -> None:
    link_id = create(client, VIEW)
    assert re.fullmatch("[a-z2-7]{8}", link_id)
    assert full_id(LONG).startswith(link_id)  # base32 of the SHA-256 of the stored mapping
    assert (tmp_path / "links.sqlite3").exists()  # GRADSTEP_DATA
    # the short link is short enough for a small QR code; the long one is not
    assert segno.make(f"http://testserver/s/{link_id}", error="m").version <= 4
    assert segno.make(f"http://testserver/?{urlencode(LONG)}", error="m").version > 15


def test_the_same_view_is_the_same_link_stored_once(client: TestClient) -> None:
    first = create(client, {**VIEW, "values": {"b": 2, "a": -4}})
    again = create(client, {**VIEW, "values": {"b": 2, "a": -4}}, status=200)
    # written another way, it is still the same view: values as the URL writes them, the
    # defaults given, the theme and step in another order
    spelled = {**VIEW, "values": "a = -4.0, b=2", "decimals": 4, "rankdir": "auto"}
    assert first == again == create(client, spelled, status=200)
    assert create(client, {**VIEW, "step": 4}) != first
    exported = [record.id for record in client.app.state.links.export()]  # type: ignore[attr-defined]
    assert len(exported) == 2


def test_a_preset_is_stored_as_its_program(client: TestClient) -> None:
    by_preset = create(client, {"preset": "lecture-neuron"})
    assert create(client, {"source": LECTURE_NEURON}, status=200) == by_preset


def test_redirects_go_to_the_long_urls(client: TestClient) -> None:
    link_id = create(client, {**VIEW, "values": {"a": 1}, "decimals": 2, "topo": True, "node": 3})
    page = {  # in the order static/url.js writes them
        "source": MICROGRAD_README,
        "values": '{"a":1.0}',
        "phase": "backward",
        "step": "3",
        "decimals": "2",
        "theme": "dark",
        "topo": "1",
        "node": "3",
    }
    image = {k: v for k, v in page.items() if k not in ("decimals", "topo", "node")}
    expected = {
        f"/s/{link_id}": "/?" + urlencode(page),
        f"/s/{link_id.upper()}": "/?" + urlencode(page),  # as read off a slide
        f"/s/{link_id}/embed": "/embed?" + urlencode(page),
        f"/s/{link_id}.png": "/api/graph.png?" + urlencode(image),
        f"/s/{link_id}.svg": "/api/graph.svg?" + urlencode(image),
    }
    for path, location in expected.items():
        response = client.get(path, follow_redirects=False)
        assert response.status_code == 303, path
        assert response.headers["location"] == location, path
        assert response.headers["cache-control"] == "max-age=86400"
    svg = client.get(f"/s/{link_id}.svg")
    assert svg.status_code == 200 and svg.headers["content-type"] == "image/svg+xml"
    assert 'class="gs-node' in svg.text or "<svg" in svg.text
    assert client.get(f"/s/{link_id}").status_code == 200  # the stepper page


def test_a_link_too_long_to_redirect_to_is_answered_in_place(client: TestClient) -> None:
    """Issue 30, item 12: 19,900 emoji in a comment were a 303 whose Location had 238,852
    characters (clients refuse it; following it got gradstep's own 414). The page is now served
    at the short link with the link's query in it, the picture drawn there, with no Location."""
    source = "x = 1.0\n# " + "\U0001f600" * 19_900 + "\ny = x * 2\n"
    link_id = create(client, {"source": source, "step": 1, "theme": "dark"})
    query = "?" + urlencode({"source": source, "phase": "backward", "step": "1", "theme": "dark"})
    assert len(query) > MAX_REDIRECT_CHARS
    for path, marker in [(f"/s/{link_id}", 'id="source"'), (f"/s/{link_id}/embed", "data-player")]:
        page = client.get(path, follow_redirects=False)
        assert page.status_code == 200 and "location" not in page.headers, path
        assert marker in page.text
        carried = re.search(
            r'<script type="application/json" id="gradstep-link">(.*?)</script>', page.text
        )
        assert carried is not None and json.loads(carried[1]) == query, path
    svg = client.get(f"/s/{link_id}.svg", follow_redirects=False)
    assert svg.status_code == 200 and svg.headers["content-type"] == "image/svg+xml"
    assert "location" not in svg.headers and "<svg" in svg.text
    png = client.get(f"/s/{link_id}.png", follow_redirects=False)
    assert png.status_code == 200 and png.content.startswith(b"\x89PNG")
    # a link of a program as long as the longest preset is still a redirect
    demo = create(client, {"preset": "micrograd-demo", "step": 1})
    assert client.get(f"/s/{demo}", follow_redirects=False).status_code == 303


def test_an_imported_link_with_unknown_parameters_is_drawn_in_place_as_the_page_reads_it(
    client: TestClient,
) -> None:
    """An import checks a state only as strings: the parameters a picture does not know fall
    back to their defaults (as the page's do), never a 500."""
    state = {"source": "a = 1.0\n# " + "x" * MAX_REDIRECT_CHARS, "step": "x", "theme": "sepia"}
    link_id = full_id(state)[:8]
    client.app.state.links.import_([Record(link_id, state, datetime.now(UTC))])  # type: ignore[attr-defined]
    svg = client.get(f"/s/{link_id}.svg", follow_redirects=False)
    assert svg.status_code == 200 and "theme-light" in svg.text


def test_the_engine_switch_is_part_of_the_view(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A program with its own class Value shown with gradstep's (the page's engine=gradstep):
    the link keeps the choice for the page, the embed and the images; auto is the default."""
    monkeypatch.setattr("app.routes.links.MAX_REDIRECT_CHARS", 10**6)  # its URL has 6,300
    own = (Path(__file__).parents[1] / "engine" / "learners" / "micrograd.py").read_text("utf-8")
    mine = create(client, {"source": own})
    ours = create(client, {"source": own, "engine": "gradstep"})
    assert mine != ours and create(client, {"source": own, "engine": "auto"}, status=200) == mine
    for path, query in [(f"/s/{ours}", "/?"), (f"/s/{ours}/embed", "/embed?"),
                        (f"/s/{ours}.svg", "/api/graph.svg?")]:  # fmt: skip
        location = client.get(path, follow_redirects=False).headers["location"]
        assert location == query + urlencode({"source": own, "engine": "gradstep"}), path
    assert "engine=" not in client.get(f"/s/{mine}", follow_redirects=False).headers["location"]


def test_an_unknown_link_is_a_404_page_that_says_so(client: TestClient) -> None:
    response = client.get("/s/aaaaaaaa")
    assert response.status_code == 404
    assert response.headers["content-type"].startswith("text/html")
    assert response.headers["cache-control"] == "no-store"
    assert "There is no short link <code>/s/aaaaaaaa</code>" in response.text
    assert '<a href="/">' in response.text
    assert client.get("/s/aaaaaaaa.png").status_code == 404


@pytest.mark.parametrize(
    "path",
    [
        "/s/abc",  # too short
        "/s/" + "a" * 53,  # longer than a SHA-256
        "/s/abcdefg1",  # 1 is not base32
        "/s/abcd%20efgh",
        "/s/%3Cscript%3E",
        "/s/abcdefgh%C3%A9",
        "/s/abcdefgh.gif",  # no such picture: read as the id "abcdefgh.gif"
    ],
)
def test_what_is_not_an_id_is_a_404_without_asking_the_store(client: TestClient, path: str) -> None:
    client.app.state.links, kept = NoStore(), client.app.state.links  # type: ignore[attr-defined]
    try:
        response = client.get(path)
    finally:
        client.app.state.links = kept  # type: ignore[attr-defined]
    assert response.status_code == 404
    assert "is not a short link" in response.text and "<script>" not in response.text


def test_a_collision_lengthens_the_id(client: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    first = create(client, VIEW)
    colliding = first + "b" * 44  # another view whose hash starts as the first one's does
    real = store_module.full_id
    monkeypatch.setattr(
        store_module, "full_id", lambda s: colliding if s.get("step") == "9" else real(s)
    )
    longer = create(client, {**VIEW, "step": 9})
    assert longer == first + "b"
    assert create(client, {**VIEW, "step": 9}, status=200) == longer  # and stays that one
    assert (
        client.get(f"/s/{first}", follow_redirects=False)
        .headers["location"]
        .endswith("step=3&theme=dark")
    )


def test_the_qr_code_of_a_short_link_is_large_enough_for_a_slide(client: TestClient) -> None:
    link = f"http://testserver/s/{create(client, VIEW)}"
    response = client.get("/api/qr.svg", params={"text": link, "size": 640, "caption": "1"})
    assert response.status_code == 200 and response.headers["content-type"] == "image/svg+xml"
    root = ElementTree.fromstring(response.content)
    width = int(root.get("width", 0))
    assert 560 <= width <= 640 and int(root.get("height", 0)) > width  # the caption below
    texts = [t.text for t in root.iter("{http://www.w3.org/2000/svg}text")]
    assert texts == [link]
    assert refusal(client.get("/api/qr.svg", params={"text": link, "size": 10_000}))
