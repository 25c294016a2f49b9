"""HEAD answered wherever GET is: the same status and headers, no body (RFC 9110, 9.3.2)."""

from __future__ import annotations

from starlette.types import ASGIApp, Message, Receive, Scope, Send


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
