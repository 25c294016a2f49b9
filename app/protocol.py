"""What the app does with a request at the HTTP level, before any route sees it: HEAD is
answered wherever GET is (the same status and headers, no body), and a URL or headers too large
to be a gradstep request are refused in the error shape (414, 431).

uvicorn's HTTP parser (h11) keeps at most ``MAX_REQUEST_HEAD_BYTES`` of a request head that has
not yet arrived whole (``h11_max_incomplete_event_size``, set by ``gradstep serve``); a longer
head is answered by uvicorn itself with a plain-text 400 and the connection closed, before the app
can say anything (README, "Running it for a lecture hall").
"""

from __future__ import annotations

from typing import Any

from app.errors import ASGIApp, Message, Receive, Scope, Send, send_refusal
from app.schemas import ErrorResponse

# A program of 20,000 characters is about 60 KB in a URL (each of "=+*()\n" is %XX); room for
# values (60,000 characters at most) on top. A longer program is POSTed to /api/graph.
MAX_URL_BYTES = 192 * 1024
MAX_HEADER_BYTES = 48 * 1024  # every header's name and value together; browsers send ~2 KB
MAX_HEADERS = 100
MAX_REQUEST_HEAD_BYTES = 256 * 1024  # more than the two above: they are answered in our shape

# Every operation can be refused for its request head, so the OpenAPI document says so for all.
HEAD_REFUSALS: dict[int | str, dict[str, Any]] = {
    414: {"model": ErrorResponse, "description": f"a URL over {MAX_URL_BYTES:,} bytes"},
    431: {
        "model": ErrorResponse,
        "description": f"over {MAX_HEADERS} headers or {MAX_HEADER_BYTES:,} bytes of them",
    },
}


class _HeadersSent(Exception):
    """Raised into the app once a HEAD's headers are out: a streamed ZIP is not drawn for nobody."""


class HeadLikeGet:
    """HEAD is GET without the body (RFC 9110, 9.3.2): FastAPI's routes answer GET only."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope["method"] != "HEAD":
            await self.app(scope, receive, send)
            return

        async def headers_only(message: Message) -> None:
            if message["type"] == "http.response.start":
                await send(message)
                await send({"type": "http.response.body", "body": b"", "more_body": False})
                raise _HeadersSent

        try:
            await self.app({**scope, "method": "GET"}, receive, headers_only)
        except _HeadersSent:
            pass


class RequestHeadLimits:
    """414 for a URL over ``MAX_URL_BYTES``, 431 for headers over ``MAX_HEADER_BYTES`` or more
    than ``MAX_HEADERS`` of them; the connection is closed after either."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http":
            url = len(scope.get("raw_path") or scope["path"].encode()) + len(scope["query_string"])
            headers = scope["headers"]
            header_bytes = sum(len(name) + len(value) for name, value in headers)
            if url > MAX_URL_BYTES:
                message = (
                    f"the URL has {url:,} bytes, more than the {MAX_URL_BYTES:,} allowed: "
                    "POST a long program to /api/graph, or share it as a short link"
                )
                await send_refusal(send, 414, message, "limit", close=True)
                return
            if header_bytes > MAX_HEADER_BYTES or len(headers) > MAX_HEADERS:
                message = (
                    f"the request has {len(headers):,} headers of {header_bytes:,} bytes; at most "
                    f"{MAX_HEADERS} headers of {MAX_HEADER_BYTES:,} bytes in all are read"
                )
                await send_refusal(send, 431, message, "limit", close=True)
                return
        await self.app(scope, receive, send)
