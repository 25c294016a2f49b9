"""oEmbed 1.0 (oembed.com): the answer for a gradstep link, and its discovery link on pages."""

from __future__ import annotations

import re
from collections.abc import Iterator
from html import unescape
from urllib.parse import parse_qs, urlencode, urlsplit

import httpx
import pytest
from fastapi.testclient import TestClient
from served import gradstep_serve

from app.main import create_app

LOCAL = "http://localhost"  # the test client's address: local, as `gradstep serve` on 127.0.0.1
PAGE = f"{LOCAL}/?" + urlencode({"source": "a = Value(2.0)\nb = a * a", "step": "1"})
# oEmbed 1.0, 2.3.4: every response; 2.3.4.4: the rich type
REQUIRED = {"type", "version"}
RICH_REQUIRED = {"html", "width", "height"}


@pytest.fixture(scope="module")
def client() -> Iterator[TestClient]:
    """No GRADSTEP_PUBLIC_URL, on a local address: oEmbed answers from the request's address."""
    with TestClient(create_app(), base_url=LOCAL) as test_client:
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
        "ftp://localhost/",
        "http://localhost/train",
        "http://localhost/api/graph.svg?source=a",
    ):
        response = client.get("/oembed", params={"url": url})
        assert response.status_code == 404, url
        assert response.json()["error"]["message"]


def test_other_formats_are_501(client: TestClient) -> None:
    assert client.get("/oembed", params={"url": PAGE, "format": "xml"}).status_code == 501
    assert client.get("/oembed", params={"url": PAGE, "format": "json"}).status_code == 200


def test_every_stepper_page_advertises_its_oembed_answer(client: TestClient) -> None:
    for path in ("/", "/embed"):
        page_url = f"{LOCAL}{path}?source=a%3D1"
        html = client.get(page_url).text
        link = re.search(
            r'<link rel="alternate" type="application/json\+oembed" href="([^"]+)"', html
        )
        assert link, path
        href = unescape(link.group(1))
        assert parse_qs(urlsplit(href).query) == {"url": [page_url], "format": ["json"]}
        answer = client.get(href)
        assert answer.status_code == 200 and answer.json()["type"] == "rich"


PUBLIC = "https://gradstep.example.org/lectures"
EVIL = {"host": "evil.example"}


@pytest.fixture
def public_client(monkeypatch: pytest.MonkeyPatch) -> Iterator[TestClient]:
    monkeypatch.setenv("GRADSTEP_PUBLIC_URL", PUBLIC + "/")
    with TestClient(create_app()) as test_client:
        yield test_client


def test_links_in_answers_start_with_the_public_address_not_the_host_header(
    public_client: TestClient,
) -> None:
    """oEmbed built provider_url and the iframe's src from the Host header a client sent."""
    page = f"{PUBLIC}/?source=a%3D1"
    body = public_client.get("/oembed", params={"url": page}, headers=EVIL).json()
    assert body["provider_url"] == PUBLIC + "/"
    src = unescape(re.search(r'src="([^"]+)"', body["html"])[1])  # type: ignore[index]
    assert src == f"{PUBLIC}/embed?source=a%3D1"
    forged = public_client.get(
        "/oembed", params={"url": "http://evil.example/?source=a"}, headers=EVIL
    )
    assert forged.status_code == 404
    link = public_client.post("/api/links", json={"source": "a = 1.0"}, headers=EVIL).json()
    assert link["url"] == f"{PUBLIC}/s/{link['id']}"
    html = public_client.get("/embed?source=a%3D1", headers=EVIL).text
    href = unescape(re.search(r'type="application/json\+oembed" href="([^"]+)"', html)[1])  # type: ignore[index]
    assert href.startswith(f"{PUBLIC}/oembed?") and "evil" not in href
    assert parse_qs(urlsplit(href).query)["url"] == [f"{PUBLIC}/embed?source=a%3D1"]


def test_a_public_address_that_is_not_one_stops_the_app(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GRADSTEP_PUBLIC_URL", "gradstep.example.org")
    with pytest.raises(ValueError, match=r"GRADSTEP_PUBLIC_URL must be an http\(s\) address"):
        create_app()


@pytest.mark.parametrize(("trusted", "scheme"), [("127.0.0.1", "https"), ("", "http")])
def test_behind_a_trusted_proxy_the_scheme_comes_from_it(trusted: str, scheme: str) -> None:
    """Without GRADSTEP_PUBLIC_URL, the scheme a TLS-terminating proxy received comes from its
    X-Forwarded-Proto when the proxy is named in GRADSTEP_TRUSTED_PROXIES (no proxy is by
    default, so a client cannot name a scheme of its own); the host must be local (a proxy's
    own Host, ``localhost``), as any other is the client's word."""
    env = {"GRADSTEP_LAYOUT": "dot", "GRADSTEP_TRUSTED_PROXIES": trusted}
    with gradstep_serve(env) as (_, url):
        headers = {"x-forwarded-proto": "https", "host": "localhost"}
        page = "https://localhost/?source=a"
        body = httpx.get(f"{url}/oembed", params={"url": page}, headers=headers).json()
        assert body["provider_url"] == f"{scheme}://localhost/"
        headers["host"] = "gradstep.example.org"
        page = "https://gradstep.example.org/?source=a"
        refused = httpx.get(f"{url}/oembed", params={"url": page}, headers=headers)
        assert refused.status_code == 404 and "GRADSTEP_PUBLIC_URL" in refused.text


def test_without_a_public_address_a_host_header_builds_no_link() -> None:
    """Issue 30, item 15c: with no GRADSTEP_PUBLIC_URL, oEmbed built its iframe from the Host
    header, so a client naming evil.example got an iframe of http://evil.example/embed (which
    a cache or an oEmbed consumer keeps, for everyone). Off localhost it now refuses, saying
    what to set; a page no longer advertises an oEmbed answer it would not give."""
    with TestClient(create_app()) as client:
        forged = {"url": "http://evil.example/?source=a%3D1"}
        answer = client.get("/oembed", params=forged, headers=EVIL)
        assert answer.status_code == 404
        error = answer.json()["error"]
        assert "GRADSTEP_PUBLIC_URL" in error["message"] and "localhost" in error["message"]
        assert "evil" not in answer.text
        page = client.get("/embed?source=a%3D1", headers=EVIL)
        assert page.status_code == 200
        assert "json+oembed" not in page.text and "evil" not in page.text
        for local in ("localhost", "127.0.0.1:8000", "[::1]:8000"):  # gradstep serve's own
            url = f"http://{local}/?source=a%3D1"
            body = client.get("/oembed", params={"url": url}, headers={"host": local}).json()
            assert body["provider_url"] == f"http://{local}/", local
