"""The Jinja2 templates of every page (and of the offline file), with what they all use."""

from __future__ import annotations

from urllib.parse import urlencode

from fastapi import Request
from fastapi.templating import Jinja2Templates

from app.paths import TEMPLATES_DIR
from app.public import public_base

STATIC_URL = "/static"

templates = Jinja2Templates(directory=TEMPLATES_DIR)


def oembed_href(request: Request) -> str:
    """The discovery link of the page being rendered: its oEmbed answer, as an absolute URL."""
    base = public_base(request)
    page = base + request.url.path + (f"?{request.url.query}" if request.url.query else "")
    return f"{base}/oembed?{urlencode({'url': page, 'format': 'json'})}"


templates.env.globals.update(oembed_href=oembed_href, static_url=STATIC_URL)
