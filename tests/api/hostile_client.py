"""What the hostile requests' tests share: the app they attack (the fixture ``client``,
imported), the canary file a program that ran code would leave, and the checks that a request
was refused in the one error shape and that the server is still healthy."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from fastapi.testclient import TestClient

from app.draw.layout.dot_backend import dot_available
from app.main import create_app
from app.settings import Settings

NEEDS_DOT = pytest.mark.skipif(not dot_available(), reason="no dot on PATH")

CANARY = Path("/tmp/gradstep-hostile-canary")


@pytest.fixture(scope="module", name="client")
def hostile_client() -> Iterator[TestClient]:
    """``client`` in the modules that import this: the app on dot with a 1 s layout timeout,
    its public address the test client's (oEmbed answers then); the module fails if a hostile
    program ran code on the server (the canary file exists)."""
    CANARY.unlink(missing_ok=True)
    settings = Settings(layout="dot", layout_timeout=1.0, public_url="http://testserver")
    with TestClient(create_app(settings)) as made:
        yield made
    assert not CANARY.exists(), "a hostile program ran code on the server"


def assert_healthy(client: TestClient) -> None:
    assert client.get("/healthz").json()["status"] == "ok"


def assert_refused(response: httpx.Response, kinds: set[str] | None = None) -> dict[str, object]:
    """A 4xx in the one error shape, with a message a person can read."""
    assert 400 <= response.status_code < 500, (response.status_code, response.text[:300])
    error = response.json()["error"]
    assert isinstance(error["message"], str) and len(error["message"]) > 10
    assert "Traceback" not in response.text and 'File "' not in response.text
    if kinds is not None:
        assert error["kind"] in kinds, error
    return error  # type: ignore[no-any-return]
