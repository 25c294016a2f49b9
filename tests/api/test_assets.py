"""The pages ask for static/ under a digest of its files, answered with a year's caching, so a
repeat visit loads no file again; plain /static/ stays for addresses made elsewhere."""

from __future__ import annotations

import re
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from app import serving as assets
from app.main import create_app
from app.serving import ASSETS_URL, IMMUTABLE


@pytest.fixture(scope="module")
def client() -> Iterator[TestClient]:
    with TestClient(create_app()) as made:
        yield made


@pytest.mark.parametrize("page", ["/", "/embed", "/train", "/c/k7m2p9x4qa"])
def test_every_file_a_page_names_is_at_the_digest_and_kept_for_good(
    client: TestClient, page: str
) -> None:
    html = client.get(page).text
    named = re.findall(r'(?:href|src)="(/static/[^"]+)"', html)
    assert named, f"{page} names no static file"
    for url in named:
        assert url.startswith(ASSETS_URL + "/"), url
        answer = client.get(url)
        assert answer.status_code == 200, url
        assert answer.headers["cache-control"] == IMMUTABLE, url


def test_config_at_the_digest_is_the_same_module_kept_for_good(client: TestClient) -> None:
    kept, plain = client.get(f"{ASSETS_URL}/config.js"), client.get("/static/config.js")
    assert kept.text == plain.text
    assert kept.headers["cache-control"] == IMMUTABLE
    assert plain.headers["cache-control"] == "no-cache"


def test_plain_static_addresses_still_answer_and_are_asked_again(client: TestClient) -> None:
    answer = client.get("/static/format.js")
    assert answer.status_code == 200
    assert "immutable" not in answer.headers.get("cache-control", "")
    assert client.get(f"{ASSETS_URL}/no-such-file.js").status_code == 404


def test_the_digest_changes_with_any_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    copy = tmp_path / "static"
    shutil.copytree(assets.STATIC_DIR, copy)
    monkeypatch.setattr(assets, "STATIC_DIR", copy)
    before = assets._version()
    assert assets._version() == before  # the same files, the same address
    (copy / "format.js").write_text((copy / "format.js").read_text() + "\n// changed\n")
    assert assets._version() != before
