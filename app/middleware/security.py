"""Security headers on every response, set in one place.

Pages get a Content-Security-Policy with no inline script, no eval and no inline style: every
script and stylesheet is a file under /static, and the browser code changes styles only through
the CSSOM (``element.style.x = ...``), which CSP allows. Only ``/embed``, the files it loads and
the graph images may be framed by another site (``frame-ancestors *``); everything else refuses
to be framed, by CSP and by X-Frame-Options for browsers that predate ``frame-ancestors``.
"""

from __future__ import annotations

import re

from starlette.datastructures import MutableHeaders
from starlette.types import ASGIApp, Message, Receive, Scope, Send

_PAGE = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "connect-src 'self'; font-src 'self'; object-src 'none'; base-uri 'none'; "
    "form-action 'self'"
)
# A standalone SVG carries its stylesheet inside it (a <style> element) and has no script.
_IMAGE = "default-src 'none'; style-src 'unsafe-inline'; img-src data:"
# FastAPI's /docs and /redoc pages load their viewers from a CDN with an inline bootstrap script.
_API_DOCS = (
    "default-src 'self'; script-src 'self' 'unsafe-inline' https://cdn.jsdelivr.net; "
    "style-src 'self' 'unsafe-inline' https://cdn.jsdelivr.net https://fonts.googleapis.com; "
    "img-src 'self' data: https://fastapi.tiangolo.com https://cdn.redoc.ly; "
    "font-src https://fonts.gstatic.com; worker-src blob:"
)

EMBEDDABLE_PATHS = frozenset({"/embed"})
EMBEDDABLE_PREFIXES = ("/static/",)
IMAGE_PATHS = frozenset({"/api/graph.svg", "/api/graph.png", "/api/graph.gif", "/api/qr.svg"})
API_DOCS_PATHS = frozenset({"/docs", "/redoc", "/docs/oauth2-redirect"})
SHORT_EMBEDS = re.compile(r"/s/[^/]+(?:/embed|\.png|\.svg)")  # redirects to the above


def embeddable(path: str) -> bool:
    """Whether another site may put ``path`` in a frame."""
    return (
        path in EMBEDDABLE_PATHS
        or path in IMAGE_PATHS
        or path.startswith(EMBEDDABLE_PREFIXES)
        or SHORT_EMBEDS.fullmatch(path) is not None
    )


def policy_for(path: str) -> str:
    """The Content-Security-Policy of the response to ``path``."""
    if path in IMAGE_PATHS:
        base = _IMAGE
    elif path in API_DOCS_PATHS:
        base = _API_DOCS
    else:
        base = _PAGE
    # "*" matches network schemes only: a deck opened from disk (reveal.js's index.html) is file:
    ancestors = "* file:" if embeddable(path) else "'none'"
    return f"{base}; frame-ancestors {ancestors}"


def headers_for(path: str) -> dict[str, str]:
    headers = {
        "content-security-policy": policy_for(path),
        "x-content-type-options": "nosniff",
        "referrer-policy": "strict-origin-when-cross-origin",
    }
    if not embeddable(path):
        headers["x-frame-options"] = "DENY"
    return headers


class SecurityHeaders:
    """Pure ASGI middleware (not BaseHTTPMiddleware): streamed responses, such as the training
    lab's events, pass through untouched and still see the client disconnect."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        extra = headers_for(scope["path"])

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = MutableHeaders(scope=message)
                for name, value in extra.items():
                    if name not in headers:
                        headers[name] = value
            await send(message)

        await self.app(scope, receive, send_with_headers)
