"""Fixtures for the API tests: layouts and apps for each Graphviz backend present."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

sys.path.insert(0, str(Path(__file__).parent))  # tests/api/traces.py

from backends import BACKENDS

from app.draw.layout import Layout, LayoutSettings
from app.main import create_app
from app.settings import Settings


@pytest.fixture(scope="session", params=BACKENDS)
def layout(request: pytest.FixtureRequest) -> Iterator[Layout]:
    made = Layout(LayoutSettings(backend=request.param))
    yield made
    made.close()


@pytest.fixture(scope="module", params=BACKENDS)
def client(request: pytest.FixtureRequest) -> Iterator[TestClient]:
    with TestClient(create_app(Settings(layout=request.param))) as test_client:
        yield test_client
