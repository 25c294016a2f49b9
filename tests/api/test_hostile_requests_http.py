"""A hostile corpus against the whole app, the requests themselves: reflected script through
the URL into every page, oEmbed echoing a URL, huge and deeply nested JSON, wrong content
types, oversized bodies and non-UTF-8 bytes. Each gets a clear 4xx in the one error shape, and
``/healthz`` answers after every batch."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from collections.abc import Iterator

import pytest
from fastapi.testclient import TestClient
from hostile_client import (
    NEEDS_DOT,
    assert_healthy,
    assert_refused,
    hostile_client,  # noqa: F401  (the fixture client)
)

pytestmark = NEEDS_DOT


PAYLOADS = [
    '"><script>alert(1)</script>',
    "'><img src=x onerror=alert(2)>",
    "javascript:alert(3)",
    "</title><svg onload=alert(4)>",
    "{{7*7}}{%print(1)%}",
]
PAGES = ["/", "/embed", "/train", "/docs", "/redoc", "/no-such-page"]
QUERY_NAMES = ["source", "values", "step", "phase", "theme", "rankdir", "controls", "autoplay"]


@pytest.mark.parametrize("path", PAGES)
def test_no_reflected_script_through_the_url(client: TestClient, path: str) -> None:
    for payload in PAYLOADS:
        params = dict.fromkeys(QUERY_NAMES, payload) | {payload: payload}
        response = client.get(path, params=params)
        assert response.status_code in (200, 404)
        assert payload not in response.text
        assert response.headers["x-content-type-options"] == "nosniff"
    assert_healthy(client)


def test_oembed_escapes_what_it_echoes(client: TestClient) -> None:
    for payload in PAYLOADS:
        url = f"http://testserver/?source={payload}"
        response = client.get("/oembed", params={"url": url})
        assert response.status_code == 200
        html = response.json()["html"]
        breaks_html = any(ch in payload for ch in "<>\"'")
        assert not (breaks_html and payload in html) and "<script" not in html
        iframe = ET.fromstring(html.replace("&#x27;", "'"))  # one element, quotes escaped
        assert iframe.tag == "iframe" and list(iframe) == []
        assert set(iframe.attrib) == {
            "src",
            "width",
            "height",
            "title",
            "loading",
            "allow",
            "style",
        }
    assert_refused(client.get("/oembed", params={"url": "javascript:alert(1)"}))
    assert_refused(client.get("/oembed", params={"url": "http://evil.example/?source=a"}))
    assert_healthy(client)


JSON = {"content-type": "application/json"}


def test_huge_and_deeply_nested_json(client: TestClient) -> None:
    deep_lists = b'{"source": "a = 1.0", "values": ' + b"[" * 100_000 + b"]" * 100_000 + b"}"
    deep_objects = b'{"source": "a = 1.0", "values": ' + b'{"a":' * 40_000 + b"1" + b"}" * 40_000
    many_keys = {"source": "a = 2.0\nb = a * a", "values": {f"k{i}": i for i in range(20_000)}}
    long_source = {"source": "a = 1.0\n" * 50_000}
    for body in (deep_lists, deep_objects):
        assert_refused(client.post("/api/graph", content=body, headers=JSON), {"json", "limit"})
    assert_refused(client.post("/api/graph", json=many_keys))
    assert_refused(client.post("/api/graph", json=long_source), {"limit", "request"})
    assert_refused(client.post("/api/graph", json=[{"source": "a = 1.0"}] * 1000))
    nested_train = {"preset": "xor-tanh", "hidden": [[[[1]]]]}
    assert_refused(client.post("/api/train", json=nested_train))
    assert_refused(client.post("/api/train", json={"preset": "xor-tanh", "hidden": [10**9]}))
    assert_refused(client.post("/api/train", json={"preset": "x" * 10_000}))
    assert_healthy(client)


def test_wrong_content_types(client: TestClient) -> None:
    source = b'{"source": "a = 2.0"}'
    for content_type in [
        "text/plain",
        "application/x-www-form-urlencoded",
        "multipart/form-data; boundary=x",
        "application/xml",
        "image/png",
        "",
    ]:
        headers = {"content-type": content_type} if content_type else {}
        for path in ("/api/graph", "/api/train", "/api/train/inspect"):
            error = assert_refused(client.post(path, content=source, headers=headers))
            assert "must be a JSON object sent as application/json" in str(error["message"])
    assert_refused(client.post("/api/graph", content=b"", headers=JSON))
    assert client.put("/api/graph", json={"source": "a = 1.0"}).status_code == 405
    assert client.delete("/healthz").status_code == 405
    assert_healthy(client)


def test_oversized_bodies_are_refused_while_streaming(client: TestClient) -> None:
    big = b'{"source": "' + b"a" * 400_000 + b'"}'
    declared = client.post("/api/graph", content=big, headers=JSON)
    assert_refused(declared, {"limit"})

    def chunks() -> Iterator[bytes]:  # no Content-Length: refused once the bytes pass the limit
        yield b'{"source": "'
        for _ in range(10_000):
            yield b"a" * 1024
        yield b'"}'

    assert_refused(client.post("/api/graph", content=chunks(), headers=JSON), {"limit"})
    lying = {**JSON, "content-length": "-1"}
    assert_refused(client.post("/api/graph", content=b"{}", headers=lying), {"limit"})
    assert_healthy(client)


def test_non_utf8_bytes(client: TestClient) -> None:
    for raw in [b"\xff\xfe", b"\xc3\x28", b"\xed\xa0\x80", b"\x00", b"\xf4\x90\x80\x80"]:
        body = b'{"source": "a = 2.0' + raw + b'"}'
        assert_refused(client.post("/api/graph", content=body, headers=JSON))
        whole = client.post("/api/graph", content=raw * 100, headers=JSON)
        assert_refused(whole, {"json"})
    assert_refused(client.get("/api/graph.svg?source=a%20%3D%202.0%FF%FE"))
    assert_refused(client.get("/api/graph.svg?source=a%3D1&values=a%3D%FF"))
    assert client.get("/?source=%FF%FE%00").status_code == 200  # the page: its script reports
    assert_healthy(client)
