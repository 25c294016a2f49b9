"""Short links through the API, on SQLite in a temporary directory: creating one,
the same view naming the same link, the redirects, unknown and malformed ids, the limits, the
rate limit, a store that is down, and export / import with the CLI."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import urlencode
from xml.etree import ElementTree

import pytest
import segno
from backends import BACKENDS
from fastapi.testclient import TestClient

from app.cli import main
from app.links import store as store_module
from app.links.ratelimit import TokenBuckets
from app.links.state import full_id
from app.links.store import StoreError, open_store
from app.main import create_app
from app.presets import LECTURE_NEURON, MICROGRAD_README
from app.query import MAX_VALUES, MAX_VALUES_CHARS
from app.settings import Settings
from engine.limits import MAX_SOURCE_CHARS

VIEW = {"source": MICROGRAD_README, "phase": "backward", "step": 3, "theme": "dark"}
LONG = {"source": MICROGRAD_README, "phase": "backward", "step": "3", "theme": "dark"}


def make_client(path: Path, monkeypatch: pytest.MonkeyPatch, per_minute: int) -> TestClient:
    monkeypatch.setenv("GRADSTEP_DATA", str(path))
    monkeypatch.setenv("GRADSTEP_LINKS_PER_MINUTE", str(per_minute))
    return TestClient(create_app(Settings(layout=BACKENDS[0])))


@pytest.fixture
def client(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[TestClient]:
    with make_client(tmp_path, monkeypatch, 1000) as made:
        yield made


def create(client: TestClient, body: dict[str, object], status: int = 201) -> str:
    response = client.post("/api/links", json=body)
    assert response.status_code == status, response.text
    link_id: str = response.json()["id"]
    assert response.json() == {"id": link_id, "url": f"http://testserver/s/{link_id}"}
    assert response.headers["location"] == f"/s/{link_id}"
    return link_id


def refusal(response: object, status: int = 422) -> str:
    assert response.status_code == status, response.text  # type: ignore[attr-defined]
    error = response.json()["error"]  # type: ignore[attr-defined]
    assert set(error) == {"message", "kind", "line", "column", "end_column"}
    return str(error["message"])


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


def test_the_engine_switch_is_part_of_the_view(client: TestClient) -> None:
    """A program with its own class Value shown with gradstep's (the page's engine=gradstep):
    the link keeps the choice for the page, the embed and the images; auto is the default."""
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


class NoStore:
    """A store that fails the test if it is asked anything."""

    def __getattr__(self, name: str) -> object:
        raise AssertionError(f"the store was asked: {name}")


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


def test_limits_are_those_of_the_graph_api(client: TestClient) -> None:
    too_long = refusal(client.post("/api/links", json={"source": "a = 1\n" * MAX_SOURCE_CHARS}))
    assert "source" in too_long
    many = {f"v{i}": 1.0 for i in range(MAX_VALUES + 1)}
    assert "values" in refusal(client.post("/api/links", json={**VIEW, "values": many}))
    wide = "a=" + "1" * MAX_VALUES_CHARS
    assert "values" in refusal(client.post("/api/links", json={**VIEW, "values": wide}))


@pytest.mark.parametrize(
    ("body", "words"),
    [
        ({**VIEW, "colour": "red"}, "colour: Extra inputs are not permitted"),
        ({**VIEW, "step": "3"}, "step"),  # a number is a number
        ({**VIEW, "step": -1}, "step"),
        ({**VIEW, "theme": "sepia"}, "theme"),
        ({**VIEW, "values": {"a": "1"}}, "values"),
        ({"phase": "backward"}, "no program"),
        ({"source": "a = 1 +"}, "syntax"),
        ({"preset": "no-such-preset"}, "no preset"),
        ([VIEW], "dictionary"),
    ],
)
def test_bad_requests_are_422_in_the_error_shape(
    client: TestClient, body: object, words: str
) -> None:
    response = client.post("/api/links", json=body)
    message = refusal(response)
    assert words in message or words == response.json()["error"]["kind"], message


def test_bad_json_is_422(client: TestClient) -> None:
    response = client.post(
        "/api/links", content=b'{"source": ', headers={"content-type": "application/json"}
    )
    assert refusal(response) == "the request body is not valid JSON"


def test_link_creation_is_rate_limited_per_address(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    with make_client(tmp_path, monkeypatch, 2) as client:
        create(client, VIEW)
        create(client, VIEW, status=200)
        refused = client.post("/api/links", json=VIEW)
        assert "2 new links a minute" in refusal(refused, 429)
        assert refused.json()["error"]["kind"] == "rate_limit"
        assert int(refused.headers["retry-after"]) == 30  # one token: 60 s / 2
        opened = client.get(f"/s/{full_id(LONG)[:8]}", follow_redirects=False)
        assert opened.status_code == 303  # opening a link is not limited


def test_token_buckets_refill_per_client_and_forget_the_oldest() -> None:
    now = [0.0]
    buckets = TokenBuckets(6, clock=lambda: now[0], clients=2)
    assert [buckets.take("a") for _ in range(7)] == [0, 0, 0, 0, 0, 0, 10]
    assert buckets.take("b") == 0  # another address has its own bucket
    now[0] = 9.0
    assert buckets.take("a") == 1  # 0.9 of a token after 9 s at 6 a minute
    now[0] = 10.0
    assert buckets.take("a") == 0
    buckets.take("c")  # a third client: the least recently seen ("b") is forgotten
    assert set(buckets._buckets) == {"a", "c"}


def test_a_store_that_is_down_is_a_503_in_the_error_shape(client: TestClient) -> None:
    class Down(NoStore):
        def get(self, link_id: str) -> None:
            raise StoreError("connection refused")

    client.app.state.links, kept = Down(), client.app.state.links  # type: ignore[attr-defined]
    try:
        for response in (client.post("/api/links", json=VIEW), client.get("/s/aaaaaaaa")):
            assert "short links are unavailable (connection refused)" in refusal(response, 503)
            assert response.json()["error"]["kind"] == "store_unavailable"
            assert response.headers["retry-after"] == "5"
    finally:
        client.app.state.links = kept  # type: ignore[attr-defined]


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


def test_export_then_import_into_another_store_keeps_the_ids(
    client: TestClient, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    ids = {create(client, {**VIEW, "step": step}) for step in range(5)}
    source = f"sqlite:///{tmp_path / 'links.sqlite3'}"
    target = f"sqlite:///{tmp_path / 'next-term' / 'links.sqlite3'}"
    dump = tmp_path / "links.jsonl"
    assert main(["links", "export", "-o", str(dump), "--database", source]) == 0
    lines = [json.loads(line) for line in dump.read_text().splitlines()]
    assert {line["id"] for line in lines} == ids and set(lines[0]) == {"id", "created", "state"}
    assert main(["links", "import", str(dump), "--database", target]) == 0
    assert "imported 5 new links into sqlite; 0 were there already" in capsys.readouterr().err
    assert main(["links", "import", str(dump), "--database", target]) == 0  # harmless twice
    assert "imported 0 new links into sqlite; 5 were there already" in capsys.readouterr().err
    with open_store(source) as old, open_store(target) as new:
        assert list(new.export()) == list(old.export())  # ids, states and dates


def test_import_refuses_a_line_whose_id_is_not_its_hash(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    dump = tmp_path / "links.jsonl"
    good = {"id": full_id(LONG)[:8], "state": LONG}
    forged = {"id": "aaaaaaaa", "state": LONG}
    dump.write_text(json.dumps(good) + "\n\n" + json.dumps(forged) + "\n")
    target = f"sqlite:///{tmp_path / 'links.sqlite3'}"
    assert main(["links", "import", str(dump), "--database", target]) == 2
    assert "line 3: aaaaaaaa is not the hash of its state" in capsys.readouterr().err
    with open_store(target) as store:
        assert list(store.export()) == []  # one transaction: nothing half imported


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


def test_a_store_newer_than_this_gradstep_is_refused(tmp_path: Path) -> None:
    import sqlite3

    path = tmp_path / "links.sqlite3"
    open_store(f"sqlite:///{path}").close()
    with sqlite3.connect(path) as db:
        assert db.execute("SELECT version FROM schema_version").fetchall() == [(1,)]
        db.execute("INSERT INTO schema_version VALUES (2)")
    with pytest.raises(StoreError, match="version 2, newer than this gradstep knows"):
        open_store(f"sqlite:///{path}")
