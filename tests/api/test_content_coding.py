"""Which coding an answer kept in ``Answers`` is sent in: brotli to a client that takes it (a
browser over HTTPS), gzip to one that takes gzip alone (over plain http), the JSON itself to one
that takes neither; the same JSON each way, and the lecture MLP's answers within issue 44's bytes
in brotli."""

from __future__ import annotations

import gzip
import json
from collections.abc import Iterator

import brotli
import httpx
import pytest
from fastapi.testclient import TestClient
from programs import mlp_source

from app.capacity import Answers
from app.main import create_app
from app.presets import MICROGRAD_README
from app.responses import chosen_coding
from app.settings import Settings

CHROMIUM_HTTPS = "gzip, deflate, br, zstd"  # what Chromium sends over HTTPS; over http, no br
SVG = {"source": MICROGRAD_README, "step": "1"}


@pytest.fixture(scope="module")
def client() -> Iterator[TestClient]:
    # the MLP's layout within a minute: on a loaded machine it can pass the default 5 s, and the
    # codings, not the layout's time, are what these tests are about
    with TestClient(create_app(Settings(layout_timeout=60))) as test_client:
        yield test_client


def sent(
    client: TestClient,
    accept: str | None,
    method: str = "POST",
    url: str = "/api/graph",
    **request: object,
) -> tuple[httpx.Response, bytes]:
    """The request with ``accept`` as its Accept-Encoding (None: no such header at all): the
    response and its bytes as sent, not decoded."""
    built = client.build_request(method, url, **request)  # type: ignore[arg-type]
    del built.headers["accept-encoding"]
    if accept is not None:
        built.headers["accept-encoding"] = accept
    response = client.send(built, stream=True)
    try:
        return response, b"".join(response.iter_raw())
    finally:
        response.close()


def graph(body: bytes) -> dict[str, object]:
    """An answer's JSON without its timings (the one part that differs from run to run)."""
    parsed: dict[str, object] = json.loads(body)
    parsed.pop("timings")
    return parsed


@pytest.mark.parametrize(
    ("accept", "coding"),
    [
        (CHROMIUM_HTTPS, "br"),
        ("gzip, deflate", "gzip"),  # Chromium over plain http
        ("br;q=0, gzip", "gzip"),
        ("gzip;q=1.0, br;q=0.5", "gzip"),  # the client's weights before the server's liking
        ("br;q=0.5, gzip;q=0.5", "br"),  # a tie: the smaller
        ("BR ; Q=0.8", "br"),
        ("x-gzip", "gzip"),
        ("*", "br"),
        ("*;q=0, gzip", "gzip"),
        ("gzip;q=0, *", "br"),
        ("gzip;q=0", None),
        ("br;q=0.0", None),
        ("br;q=2, gzip;q=abc", None),  # not weights: refused, not guessed
        ("identity", None),
        ("deflate, zstd", None),
        ("", None),
        (None, None),
    ],
)
def test_the_coding_is_the_clients_choice(accept: str | None, coding: str | None) -> None:
    assert chosen_coding(accept) == coding


def test_a_browser_over_https_gets_brotli_with_the_same_json_as_gzip(client: TestClient) -> None:
    body = {"json": {"source": mlp_source()}}
    br, packed = sent(client, CHROMIUM_HTTPS, **body)
    gz, zipped = sent(client, "gzip, deflate", **body)
    assert br.status_code == gz.status_code == 200, (packed[:300], zipped[:300])
    assert br.headers["content-encoding"] == "br" and gz.headers["content-encoding"] == "gzip"
    for response in (br, gz):
        assert response.headers["vary"] == "Accept-Encoding"
    assert int(br.headers["content-length"]) == len(packed) < len(zipped)
    assert graph(brotli.decompress(packed)) == graph(gzip.decompress(zipped))


def test_br_weighed_zero_gets_gzip(client: TestClient) -> None:
    response, body = sent(client, "br;q=0, gzip", json={"source": MICROGRAD_README})
    assert response.headers["content-encoding"] == "gzip"
    assert graph(gzip.decompress(body))["structure"]


def test_no_accept_encoding_gets_the_json_itself(client: TestClient) -> None:
    response, body = sent(client, None, json={"source": MICROGRAD_README})
    assert "content-encoding" not in response.headers
    assert response.headers["vary"] == "Accept-Encoding"  # said once (the gzip middleware's)
    assert graph(body)["structure"]


@pytest.mark.parametrize("accept", [CHROMIUM_HTTPS, "gzip", None])
def test_head_has_the_headers_of_get(client: TestClient, accept: str | None) -> None:
    got, body = sent(client, accept, "GET", "/api/graph.svg", params=SVG)
    head, empty = sent(client, accept, "HEAD", "/api/graph.svg", params=SVG)
    assert got.status_code == head.status_code == 200 and empty == b""
    assert dict(head.headers) == dict(got.headers)
    coding = chosen_coding(accept)
    assert got.headers.get("content-encoding") == coding and len(body) > 1000


def test_the_lecture_mlps_answers_fit_issue_44s_bytes_in_brotli(client: TestClient) -> None:
    """The first answer at most 300 KB on the wire, a value-only one (a slider moved: the page
    names the layout it shows and the structure it holds, as bench/value_only.py asks) 60 KB."""
    source = mlp_source()
    first, packed = sent(client, CHROMIUM_HTTPS, json={"source": source})
    assert first.status_code == 200, packed[:300]
    answer = json.loads(brotli.decompress(packed))
    held = {"layout": answer["layout"], "structure": answer["digest"]}
    moved = {"source": source, "values": {"x0": 0.25}, **held}
    value_only, small = sent(client, CHROMIUM_HTTPS, json=moved)
    assert value_only.status_code == 200, small[:300]
    assert first.headers["content-encoding"] == value_only.headers["content-encoding"] == "br"
    assert json.loads(brotli.decompress(small))["svg"] is None  # the numbers alone
    assert len(packed) <= 300_000 and len(small) <= 60_000, (len(packed), len(small))


def test_brotli_and_gzip_clients_share_one_computation_and_each_is_kept() -> None:
    answers = Answers(max_bytes=1 << 20, busy=lambda: None)
    runs: list[int] = []

    def compute() -> bytes:
        runs.append(1)
        return b'{"values": [' + b"0.125, " * 2000 + b"1]}"

    br, gz = answers.get("k", compute, "br"), answers.get("k", compute, "gzip")
    assert runs == [1]  # gzip's made from brotli's, not by running the request again
    assert brotli.decompress(br) == gzip.decompress(gz) == compute()
    assert answers.size == len(br) + len(gz)  # both kept, each counted by its bytes
    assert answers.get("k", lambda: b"not run", "br") is br
