"""The Jinja2 templates of every page (and of the offline file), with what they all use."""

from __future__ import annotations

from urllib.parse import urlencode

from fastapi import Request
from fastapi.templating import Jinja2Templates

from app.paths import TEMPLATES_DIR

STATIC_URL = "/static"

templates = Jinja2Templates(directory=TEMPLATES_DIR)


def oembed_href(request: Request) -> str:
    """The discovery link of the page being rendered: its oEmbed answer, as an absolute URL."""
    base = str(request.base_url).rstrip("/")
    return f"{base}/oembed?{urlencode({'url': str(request.url), 'format': 'json'})}"


templates.env.globals.update(oembed_href=oembed_href, static_url=STATIC_URL)
