"""Security headers on every answer of every route (app/middleware/security.py sets them): a CSP
with no inline script and no eval on every page, nosniff, a Referrer-Policy, and framing only
where the embed issue allows it (/embed, its static files, the graph images)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient
from starlette.routing import Mount

from app.draw.layout.dot_backend import dot_available
from app.main import create_app
from app.settings import Settings

pytestmark = pytest.mark.skipif(not dot_available(), reason="no dot on PATH")

GRAPH = {"source": "a = 2.0\nb = a * a"}
FRAMEABLE = {"/embed", "/api/graph.svg", "/api/graph.png", "/api/graph.gif", "/api/qr.svg"}
API_DOCS = {"/docs", "/redoc", "/docs/oauth2-redirect"}
QUERIES = {  # what each GET route needs to answer 200
    "/api/graph.svg": GRAPH,
    "/api/graph.png": GRAPH,
    "/api/graph.gif": GRAPH,
    "/api/graph.zip": GRAPH,
    "/api/graph.html": GRAPH,
    "/api/qr.svg": {"text": "http://127.0.0.1/"},
    "/oembed": {"url": "http://testserver/?source=a%3D1"},
    "/api/train/parameters": {"hidden": "16, 16"},
}


@pytest.fixture(scope="module")
def client() -> Iterator[TestClient]:
    """Its public address the test client's, so that oEmbed answers (app/serving.py)."""
    with TestClient(create_app(Settings(layout="dot", public_url="http://testserver"))) as made:
        yield made


def get_routes(client: TestClient) -> list[str]:
    """Every GET route without path parameters: new pages are checked without a test edit."""
    return sorted(
        r.path
        for r in flat_routes(client.app.routes)  # type: ignore[attr-defined]
        if not isinstance(r, Mount)
        and "GET" in (getattr(r, "methods", None) or set())
        and "{" not in r.path
    )


def flat_routes(routes: list[Any]) -> Iterator[Any]:
    """Routes, with included routers opened (FastAPI keeps each as one entry)."""
    for route in routes:
        inner = getattr(route, "original_router", None)
        yield from flat_routes(inner.routes) if inner is not None else (route,)


def directives(policy: str) -> dict[str, list[str]]:
    parsed = {}
    for part in policy.split(";"):
        name, *values = part.split()
        parsed[name] = values
    return parsed


def check_headers(path: str, headers: object) -> None:
    h = headers  # httpx.Headers
    assert h["x-content-type-options"] == "nosniff", path  # type: ignore[index]
    assert h["referrer-policy"] in ("strict-origin-when-cross-origin", "no-referrer"), path  # type: ignore[index]
    csp = directives(h["content-security-policy"])  # type: ignore[index]
    if path not in API_DOCS:  # FastAPI's docs pages bootstrap inline: not gradstep's pages
        for source in csp.get("script-src", csp.get("default-src", [])):
            assert source not in ("'unsafe-inline'", "'unsafe-eval'", "*", "data:"), path
        assert "'none'" in csp.get("object-src", csp["default-src"]), path
    if path in FRAMEABLE or path.startswith("/static/"):
        assert csp["frame-ancestors"] == ["*", "file:"], path  # file: for decks opened from disk
        assert "x-frame-options" not in h, path  # type: ignore[operator]
    else:
        assert csp["frame-ancestors"] == ["'none'"], path
        assert h["x-frame-options"] == "DENY", path  # type: ignore[index]


def test_every_get_route_sends_the_security_headers(client: TestClient) -> None:
    paths = get_routes(client)
    assert {"/", "/embed", "/train", "/healthz", "/api/graph.svg"} <= set(paths)
    for path in paths:
        response = client.get(path, params=QUERIES.get(path, {}))
        assert response.status_code == 200, (path, response.text[:200])
        check_headers(path, response.headers)


def test_head_is_answered_wherever_get_is(client: TestClient) -> None:
    """HEAD was a 405 on /healthz, / and every API GET route: now the same status and headers as
    GET (Content-Length included), and no body; refusals too."""
    paths = [*get_routes(client), "/static/app.css", "/s/abcdefgh", "/no-such-page"]
    for path in paths:
        for params in (QUERIES.get(path, {}), {"source": "1 +", "step": "-1"}):
            got, head = client.get(path, params=params), client.head(path, params=params)
            assert head.status_code == got.status_code, (path, head.status_code, got.text[:200])
            assert head.content == b"", path
            for name in ("content-type", "content-length", "content-security-policy"):
                assert head.headers.get(name) == got.headers.get(name), (path, name)
    assert client.head("/api/graph").status_code == 405  # no GET there either


def test_refusals_static_files_and_streams_carry_them_too(client: TestClient) -> None:
    answers = {
        "/api/graph": client.post("/api/graph", json={"source": "import socket"}),  # 422
        "/no-such-page": client.get("/no-such-page"),  # 404
        "/api/graph.svg": client.get("/api/graph.svg", params={"source": "1 +"}),  # 422
        "/static/app.js": client.get("/static/app.js"),
        "/static/embed.css": client.get("/static/embed.css"),
        "/api/train": client.post("/api/train", content=b"x" * 300_000),  # oversized
    }
    for path, response in answers.items():
        check_headers(path, response.headers)
    with client.stream("POST", "/api/train", json={"preset": "xor-tanh", "epochs": 5}) as stream:
        assert stream.headers["content-type"].startswith("text/event-stream")
        check_headers("/api/train", stream.headers)
        assert "event: done" in "".join(stream.iter_text())


def test_pages_hold_no_inline_script_or_style(client: TestClient) -> None:
    """The CSP would block them: every page's scripts and styles are files under /static."""
    for path in ("/", "/embed", "/train", "/c/k7m2p9x4qa"):  # a class's page: whether or not
        response = client.get(path)  # the class exists, the page asks the API
        check_headers(path, response.headers)
        html = response.text
        assert "<script>" not in html and "<style" not in html and " style=" not in html, path
        assert " onclick=" not in html and " onload=" not in html, path
