"""oEmbed 1.0 (oembed.com): the answer for a gradstep link, and its discovery link on pages."""

from __future__ import annotations

import re
from collections.abc import Iterator
from html import unescape
from urllib.parse import parse_qs, urlencode, urlsplit

import pytest
from fastapi.testclient import TestClient

from app.main import create_app

PAGE = "http://testserver/?" + urlencode({"source": "a = Value(2.0)\nb = a * a", "step": "1"})
# oEmbed 1.0, 2.3.4: every response; 2.3.4.4: the rich type
REQUIRED = {"type", "version"}
RICH_REQUIRED = {"html", "width", "height"}


@pytest.fixture(scope="module")
def client() -> Iterator[TestClient]:
    with TestClient(create_app()) as test_client:
        yield test_client


def test_answer_has_the_required_fields_of_a_rich_response(client: TestClient) -> None:
    response = client.get("/oembed", params={"url": PAGE})
    assert response.status_code == 200
    assert response.headers["content-type"] == "application/json"
    body = response.json()
    assert REQUIRED | RICH_REQUIRED <= body.keys()
    assert body["type"] == "rich" and body["version"] == "1.0"
    assert body["provider_name"] == "gradstep"
    assert isinstance(body["width"], int) and isinstance(body["height"], int)
    iframe = re.fullmatch(
        r'<iframe src="([^"]+)" width="(\d+)" height="(\d+)"[^>]*></iframe>', body["html"]
    )
    assert iframe, body["html"]
    src = urlsplit(unescape(iframe.group(1)))
    assert src.path == "/embed"
    assert parse_qs(src.query) == parse_qs(urlsplit(PAGE).query)  # the page's state, kept
    assert (int(iframe.group(2)), int(iframe.group(3))) == (body["width"], body["height"])
    assert body["title"] == "gradstep: a = Value(2.0)"


@pytest.mark.parametrize(
    ("maxwidth", "maxheight", "size"),
    [
        (None, None, (800, 500)),
        (400, None, (400, 250)),
        (None, 300, (480, 300)),
        (2000, 2000, (800, 500)),
        (200, 1000, (200, 125)),
    ],
)
def test_size_never_exceeds_the_consumers_maximum(
    client: TestClient, maxwidth, maxheight, size
) -> None:
    params = {"url": PAGE, "maxwidth": maxwidth, "maxheight": maxheight}
    body = client.get("/oembed", params={k: v for k, v in params.items() if v}).json()
    assert (body["width"], body["height"]) == size


def test_foreign_and_unembeddable_urls_are_404(client: TestClient) -> None:
    for url in (
        "http://example.com/?source=a",
        "ftp://testserver/",
        "http://testserver/train",
        "http://testserver/api/graph.svg?source=a",
    ):
        response = client.get("/oembed", params={"url": url})
        assert response.status_code == 404, url
        assert response.json()["error"]["message"]


def test_other_formats_are_501(client: TestClient) -> None:
    assert client.get("/oembed", params={"url": PAGE, "format": "xml"}).status_code == 501
    assert client.get("/oembed", params={"url": PAGE, "format": "json"}).status_code == 200


def test_every_stepper_page_advertises_its_oembed_answer(client: TestClient) -> None:
    for path in ("/", "/embed"):
        page_url = f"http://testserver{path}?source=a%3D1"
        html = client.get(page_url).text
        link = re.search(
            r'<link rel="alternate" type="application/json\+oembed" href="([^"]+)"', html
        )
        assert link, path
        href = unescape(link.group(1))
        assert parse_qs(urlsplit(href).query) == {"url": [page_url], "format": ["json"]}
        answer = client.get(href)
        assert answer.status_code == 200 and answer.json()["type"] == "rich"
