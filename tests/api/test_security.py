"""Security headers: one middleware, every response; only /embed and what it needs is framable."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from fastapi.testclient import TestClient

from app.main import create_app
from app.middleware.security import headers_for, policy_for
from app.settings import Settings

PRODUCT = "a = Value(2.0)\nb = Value(-3.0)\nc = a * b\n"


@pytest.fixture(scope="module")
def client() -> Iterator[TestClient]:
    """Its public address the test client's, so that oEmbed answers (app/serving.py)."""
    with TestClient(create_app(Settings(public_url="http://testserver"))) as test_client:
        yield test_client


def directives(policy: str) -> dict[str, list[str]]:
    out: dict[str, list[str]] = {}
    for part in policy.split(";"):
        name, *values = part.split()
        assert name not in out, f"{name} given twice"
        out[name] = values
    return out


def test_main_page_may_not_be_framed_and_runs_no_inline_code(client: TestClient) -> None:
    response = client.get("/")
    csp = directives(response.headers["content-security-policy"])
    assert csp["frame-ancestors"] == ["'none'"]
    assert response.headers["x-frame-options"] == "DENY"
    assert csp["script-src"] == ["'self'"]
    assert csp["style-src"] == ["'self'"]
    assert csp["object-src"] == ["'none'"]
    assert "'unsafe-inline'" not in response.headers["content-security-policy"]
    assert "'unsafe-eval'" not in response.headers["content-security-policy"]
    assert response.headers["x-content-type-options"] == "nosniff"
    assert response.headers["referrer-policy"] == "strict-origin-when-cross-origin"


def test_embed_and_its_assets_may_be_framed_by_any_site(client: TestClient) -> None:
    for path in ("/embed", "/static/embed.js", "/static/embed.css", "/static/stepper.js"):
        response = client.get(path)
        assert response.status_code == 200, path
        csp = directives(response.headers["content-security-policy"])
        assert csp["frame-ancestors"] == ["*", "file:"], path  # decks on disk too
        assert "x-frame-options" not in response.headers, path
        assert csp["script-src"] == ["'self'"], path
        assert response.headers["x-content-type-options"] == "nosniff"


def test_other_pages_and_the_api_refuse_frames(client: TestClient) -> None:
    for path in ("/train", "/api/presets", "/healthz", "/oembed?url=http://testserver/"):
        response = client.get(path)
        assert response.status_code == 200, path
        assert directives(response.headers["content-security-policy"])["frame-ancestors"] == [
            "'none'"
        ]
        assert response.headers["x-frame-options"] == "DENY"


def test_refusals_carry_the_headers_too(client: TestClient) -> None:
    missing = client.get("/no/such/page")
    bad = client.get("/api/graph.svg", params={"source": "a = "})
    assert (missing.status_code, bad.status_code) == (404, 422)
    for response in (missing, bad):
        assert response.headers["x-content-type-options"] == "nosniff"
        assert "content-security-policy" in response.headers


def test_standalone_images_keep_their_inline_stylesheet_but_run_nothing(
    client: TestClient,
) -> None:
    response = client.get("/api/graph.svg", params={"source": PRODUCT})
    csp = directives(response.headers["content-security-policy"])
    assert csp["default-src"] == ["'none'"]  # so no script of any kind
    assert "script-src" not in csp
    assert csp["style-src"] == ["'unsafe-inline'"]
    assert csp["frame-ancestors"] == ["*", "file:"]


def test_policy_classes() -> None:
    assert "frame-ancestors * file:" in policy_for("/embed")
    assert "frame-ancestors 'none'" in policy_for("/embed/x")  # only the page itself
    assert "frame-ancestors 'none'" in policy_for("/api/graph")
    assert "x-frame-options" in headers_for("/")
    assert "x-frame-options" not in headers_for("/api/graph.png")
