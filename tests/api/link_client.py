"""What the tests of short links through the API share: a view and its long URL, an app whose
links go to SQLite in a temporary directory (the fixture ``client``, imported), creating a link,
reading a refusal, and a store that must not be asked."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from backends import BACKENDS
from fastapi.testclient import TestClient

from app.main import create_app
from app.presets import MICROGRAD_README
from app.settings import Settings

VIEW = {"source": MICROGRAD_README, "phase": "backward", "step": 3, "theme": "dark"}
LONG = {"source": MICROGRAD_README, "phase": "backward", "step": "3", "theme": "dark"}


def make_client(path: Path, monkeypatch: pytest.MonkeyPatch, per_minute: int) -> TestClient:
    monkeypatch.setenv("GRADSTEP_DATA", str(path))
    monkeypatch.setenv("GRADSTEP_LINKS_PER_MINUTE", str(per_minute))
    return TestClient(create_app(Settings(layout=BACKENDS[0])))


@pytest.fixture(name="client")
def sqlite_client(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[TestClient]:
    """``client`` in the modules that import this: the app with its links in SQLite in the
    test's temporary directory, and a rate limit no test reaches."""
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


class NoStore:
    """A store that fails the test if it is asked anything."""

    def __getattr__(self, name: str) -> object:
        raise AssertionError(f"the store was asked: {name}")
