"""Answers over 1 KB are gzipped for a client that accepts it; the streams (training events,
the ZIP and GIF exports) and the pictures pass through as they are, still a chunk at a time."""

from __future__ import annotations

import gzip
import io
import json
import zipfile
from collections.abc import Iterator

import pytest
from fastapi.testclient import TestClient
from programs import mlp_source

from app.main import create_app
from app.presets import MICROGRAD_README

GZIP = {"accept-encoding": "gzip"}
IDENTITY = {"accept-encoding": "identity"}
PRODUCT = "a = Value(2.0)\nb = Value(-3.0)\nc = a * b + b\nc.backward()\n"


@pytest.fixture(scope="module")
def client() -> Iterator[TestClient]:
    with TestClient(create_app()) as test_client:
        yield test_client


def raw(client: TestClient, method: str, url: str, headers: dict[str, str], **kw: object):
    """The response as sent, bytes not decoded (httpx would gunzip them on the way)."""
    with client.stream(method, url, headers=headers, **kw) as response:  # type: ignore[arg-type]
        return response, b"".join(response.iter_raw())


def test_a_big_graph_is_gzipped_and_unzips_to_the_same_json(client: TestClient) -> None:
    body = {"source": mlp_source()}
    zipped, packed = raw(client, "POST", "/api/graph", GZIP, json=body)
    plain, unpacked = raw(client, "POST", "/api/graph", IDENTITY, json=body)
    assert zipped.headers["content-encoding"] == "gzip"
    assert "accept-encoding" in zipped.headers["vary"].lower()
    assert int(zipped.headers["content-length"]) == len(packed) < len(unpacked) / 4
    assert "content-encoding" not in plain.headers
    first, second = json.loads(gzip.decompress(packed)), json.loads(unpacked)
    first.pop("timings"), second.pop("timings")
    assert first == second


def test_small_answers_and_pages_as_they_should_be(client: TestClient) -> None:
    small, _ = raw(client, "GET", "/healthz", GZIP)
    assert "content-encoding" not in small.headers  # under 1 KB: not worth it
    page, _ = raw(client, "GET", "/", GZIP)
    assert page.headers["content-encoding"] == "gzip"
    svg, _ = raw(client, "GET", "/api/graph.svg", GZIP, params={"source": MICROGRAD_README})
    assert svg.headers["content-encoding"] == "gzip"  # SVG is text
    assert svg.headers["content-security-policy"]  # the security headers are still set


@pytest.mark.parametrize(
    ("path", "media_type"),
    [("/api/graph.zip", "application/zip"), ("/api/graph.gif", "image/gif")],
)
def test_streamed_exports_are_not_gzipped(client: TestClient, path: str, media_type: str) -> None:
    response, body = raw(client, "GET", path, GZIP, params={"source": PRODUCT})
    assert response.status_code == 200 and response.headers["content-type"] == media_type
    assert "content-encoding" not in response.headers
    if media_type == "application/zip":
        assert zipfile.ZipFile(io.BytesIO(body)).testzip() is None
    else:
        assert body.startswith(b"GIF8")


def test_png_is_not_gzipped(client: TestClient) -> None:
    response, body = raw(client, "GET", "/api/graph.png", GZIP, params={"source": PRODUCT})
    assert "content-encoding" not in response.headers and body.startswith(b"\x89PNG")


def test_training_events_stream_uncompressed_one_at_a_time(client: TestClient) -> None:
    run = {"preset": "micrograd-moons", "epochs": 24, "batch_size": 1}  # ~8 s if left alone
    with client.stream("POST", "/api/train", json=run, headers=GZIP) as response:
        assert response.headers["content-type"].startswith("text/event-stream")
        assert "content-encoding" not in response.headers
        job = client.app.state.training.get(response.headers["x-training-job"])  # type: ignore[attr-defined]
        lines = response.iter_lines()
        for line in lines:
            if line.startswith("event: epoch"):
                break
        assert not job.ended.is_set()  # the first epoch arrived while the run goes on
    assert job.ended.wait(30)


def test_the_client_reads_a_gzipped_graph_transparently(client: TestClient) -> None:
    response = client.post("/api/graph", json={"source": MICROGRAD_README}, headers=GZIP)
    assert response.headers["content-encoding"] == "gzip"
    assert response.json()["structure"]["nodes"]


def test_the_svg_has_no_title_comment_or_font_per_node(client: TestClient) -> None:
    svg = client.post("/api/graph", json={"source": MICROGRAD_README}).json()["svg"]
    assert "<title>" not in svg and "<!--" not in svg
    assert svg.count("font-family=") == 1  # on the root, inherited by every text
    assert svg.startswith('<svg class="gradstep-graph" font-family="')
    assert svg.count('<text id="n') > 30 and svg.count('font-size="14.00"') == svg.count("<text")


@pytest.mark.parametrize(
    ("accept", "coded"),
    [
        ("gzip", True),
        ("gzip;q=0", False),  # refused: Starlette looked for the text and sent it anyway
        ("br;q=1, gzip;q=0.0", False),
        ("*;q=0.5", True),
        ("*, gzip;q=0", False),
        ("identity", False),
    ],
)
def test_a_page_is_gzipped_only_for_a_client_that_takes_gzip(
    client: TestClient, accept: str, coded: bool
) -> None:
    page, body = raw(client, "GET", "/", {"accept-encoding": accept})
    assert page.status_code == 200
    assert page.headers.get("content-encoding") == ("gzip" if coded else None)
    assert (gzip.decompress(body) if coded else body).startswith(b"<!doctype html>")
