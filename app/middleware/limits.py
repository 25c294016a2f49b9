"""The request's size limits, refused in the error shape before any route reads the request: a
URL or headers too large to be a gradstep request (414, 431), and a body over
``MAX_BODY_BYTES`` (422), refused while it streams in, before anything parses it.

uvicorn's HTTP parser (h11) keeps at most ``MAX_REQUEST_HEAD_BYTES`` of a request head that has
not yet arrived whole (``h11_max_incomplete_event_size``, set by ``gradstep serve``); a longer
head is answered by uvicorn itself with a plain-text 400 and the connection closed, before the app
can say anything (docs/api.md, "Request sizes").
"""

from __future__ import annotations

from typing import Any

from starlette.exceptions import HTTPException
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from app.errors import send_refusal
from app.numbers import ascii_digits
from app.schemas import ErrorResponse

# A program of 60,000 characters (a whole notebook chapter) is up to 180 KB in a URL (each of
# "=+*()\n" is %XX); a longer one, or one with its values, is POSTed to /api/graph.
MAX_URL_BYTES = 192 * 1024
MAX_HEADER_BYTES = 48 * 1024  # every header's name and value together; browsers send ~2 KB
MAX_HEADERS = 100
MAX_REQUEST_HEAD_BYTES = 256 * 1024  # more than the two above: they are answered in our shape
MAX_BODY_BYTES = 256 * 1024  # a program is at most 60,000 characters; JSON's escapes add some

# Every operation can be refused for its request head, so the OpenAPI document says so for all.
HEAD_REFUSALS: dict[int | str, dict[str, Any]] = {
    414: {"model": ErrorResponse, "description": f"a URL over {MAX_URL_BYTES:,} bytes"},
    431: {
        "model": ErrorResponse,
        "description": f"over {MAX_HEADERS} headers or {MAX_HEADER_BYTES:,} bytes of them",
    },
}


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


class BodyTooLarge(HTTPException):
    """Raised while the body streams in; FastAPI lets HTTP exceptions through its body reader."""

    kind = "limit"

    def __init__(self, limit: int) -> None:
        super().__init__(422, f"the request body is larger than {limit:,} bytes")


class BodySizeLimit:
    """Refuses a body over ``limit`` bytes: at once by its Content-Length, or as soon as the
    streamed bytes pass the limit, so a huge body is never read whole."""

    def __init__(self, app: ASGIApp, limit: int = MAX_BODY_BYTES) -> None:
        self.app = app
        self.limit = limit

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        declared = dict(scope.get("headers", ())).get(b"content-length")
        if declared is not None and (not ascii_digits(declared) or int(declared) > self.limit):
            await self._refuse(send)
            return
        seen = 0
        started = False

        async def counting_receive() -> Message:
            nonlocal seen
            message = await receive()
            seen += len(message.get("body", b""))
            if seen > self.limit:
                raise BodyTooLarge(self.limit)
            return message

        async def tracking_send(message: Message) -> None:
            nonlocal started
            started = started or message["type"] == "http.response.start"
            await send(message)

        try:
            await self.app(scope, counting_receive, tracking_send)
        except BodyTooLarge:
            if not started:
                await self._refuse(send)

    async def _refuse(self, send: Send) -> None:
        message = f"the request body is larger than {self.limit:,} bytes"
        await send_refusal(send, 422, message, "limit", close=True)
