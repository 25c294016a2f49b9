"""``/oembed`` (oEmbed 1.0): a pasted gradstep link becomes a live graph (an iframe of
``/embed``) in tools that read oEmbed. Every page advertises its oEmbed answer with a discovery
``<link>`` (``oembed_href`` in app/serving.py)."""

from __future__ import annotations

from html import escape
from typing import Annotated, Literal
from urllib.parse import parse_qs, urlsplit

from fastapi import APIRouter, Query, Request
from pydantic import BaseModel
from starlette.exceptions import HTTPException

from app.serving import trusted_base

router = APIRouter(tags=["embed"])

DEFAULT_WIDTH = 800
DEFAULT_HEIGHT = 500
MIN_WIDTH, MIN_HEIGHT = 320, 240  # the embed stays usable down to this; smaller is allowed
EMBEDDABLE_PAGES = frozenset({"/", "/embed"})  # pages whose URL holds a graph's state
MAX_TITLE_CHARS = 60
NO_PUBLIC_URL = (
    "this server does not know its public address, so it cannot tell its own pages from "
    "others': set GRADSTEP_PUBLIC_URL to the address people open it at (such as "
    "https://gradstep.example.org); without it, oEmbed answers on localhost only, as the Host "
    "header a request carries could name any site"
)


class OEmbed(BaseModel):
    """An oEmbed 1.0 "rich" response (oembed.com, section 2.3)."""

    type: Literal["rich"] = "rich"
    version: Literal["1.0"] = "1.0"
    title: str
    provider_name: Literal["gradstep"] = "gradstep"
    provider_url: str
    cache_age: int = 86_400
    html: str
    width: int
    height: int


class OEmbedError(HTTPException):
    def __init__(self, status: int, message: str, kind: str) -> None:
        super().__init__(status, message)
        self.kind = kind


def _size(maxwidth: int | None, maxheight: int | None) -> tuple[int, int]:
    """The default 16:10 frame, shrunk (never past the consumer's maximum) to fit."""
    factor = min(
        1.0,
        maxwidth / DEFAULT_WIDTH if maxwidth else 1.0,
        maxheight / DEFAULT_HEIGHT if maxheight else 1.0,
    )
    width = min(round(DEFAULT_WIDTH * factor), maxwidth or DEFAULT_WIDTH)
    height = min(round(DEFAULT_HEIGHT * factor), maxheight or DEFAULT_HEIGHT)
    return width, height


def _title(query: str) -> str:
    source = parse_qs(query).get("source", [""])[0]
    lines = [ln.strip() for ln in source.splitlines() if ln.strip() and not ln.startswith("from")]
    first = lines[0] if lines else "a computation graph"
    if len(first) > MAX_TITLE_CHARS:
        first = first[: MAX_TITLE_CHARS - 1] + "…"
    return f"gradstep: {first}"


@router.get(
    "/oembed",
    response_model=OEmbed,
    responses={
        404: {"description": "not a gradstep URL, or GRADSTEP_PUBLIC_URL unset (off localhost)"},
        501: {"description": "not JSON"},
    },
)
def oembed(
    request: Request,
    url: Annotated[str, Query(max_length=60_000, description="a gradstep page URL")],
    maxwidth: Annotated[int | None, Query(gt=0)] = None,
    maxheight: Annotated[int | None, Query(gt=0)] = None,
    format: Annotated[
        Literal["json", "xml"], Query(description="json (xml is not implemented: 501)")
    ] = "json",
) -> OEmbed:
    """The embed code for a gradstep link: an iframe of ``/embed`` with the link's state."""
    if format != "json":
        raise OEmbedError(501, f"format {format!r} is not implemented; use json", "request")
    parts = urlsplit(url)
    base = trusted_base(request)  # GRADSTEP_PUBLIC_URL, not a Host header a client made up
    if base is None:
        raise OEmbedError(404, NO_PUBLIC_URL, "http")
    here = urlsplit(base)
    if parts.scheme not in ("http", "https") or parts.netloc != here.netloc:
        raise OEmbedError(404, "this URL is not a page of this gradstep server", "http")
    page = parts.path.removeprefix(here.path) or "/"
    if page not in EMBEDDABLE_PAGES:
        raise OEmbedError(404, f"{parts.path} has no embeddable graph (only / and /embed)", "http")
    width, height = _size(maxwidth, maxheight)
    src = f"{base}/embed?{parts.query}" if parts.query else f"{base}/embed"
    title = _title(parts.query)
    html = (
        f'<iframe src="{escape(src)}" width="{width}" height="{height}" '
        f'title="{escape(title)}" loading="lazy" allow="fullscreen" '
        'style="border:0"></iframe>'
    )
    return OEmbed(title=title, provider_url=base + "/", html=html, width=width, height=height)
