"""The Jinja2 templates of every page (and of the offline file), with what they all use."""

from __future__ import annotations

import re
from functools import cache
from urllib.parse import urlencode

from fastapi import Request
from fastapi.templating import Jinja2Templates

from app.assets import ASSETS_URL
from app.paths import STATIC_DIR, TEMPLATES_DIR
from app.public import public_base

templates = Jinja2Templates(directory=TEMPLATES_DIR)


def oembed_href(request: Request) -> str:
    """The discovery link of the page being rendered: its oEmbed answer, as an absolute URL."""
    base = public_base(request)
    page = base + request.url.path + (f"?{request.url.query}" if request.url.query else "")
    return f"{base}/oembed?{urlencode({'url': page, 'format': 'json'})}"


_IMPORT = re.compile(r'^(?:import|export)\b[^;]*?from\s+"\./([\w.-]+\.js)"', re.M | re.S)


@cache
def module_imports(script: str) -> tuple[str, ...]:
    """Every module ``script`` imports, directly or not, in static/ (a generated one such as
    config.js included): a page lists them as modulepreload links, so the browser fetches them
    all at once instead of one level of imports after another."""
    found: list[str] = []
    todo = [script]
    while todo:
        path = STATIC_DIR / todo.pop()
        text = path.read_text(encoding="utf-8") if path.is_file() else ""
        for name in _IMPORT.findall(text):
            if name != script and name not in found:
                found.append(name)
                todo.append(name)
    return tuple(sorted(found))


templates.env.globals.update(
    oembed_href=oembed_href, static_url=ASSETS_URL, module_imports=module_imports
)
