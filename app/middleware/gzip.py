"""Starlette's gzip, given to the clients that take it: Starlette looks for the text ``gzip`` in
Accept-Encoding, so a client that refuses it (``gzip;q=0``) was sent it all the same, and one
that takes any coding (``*``) was sent none."""

from __future__ import annotations

from fastapi.middleware.gzip import GZipMiddleware
from starlette.datastructures import Headers
from starlette.middleware.gzip import GZipResponder, IdentityResponder
from starlette.types import ASGIApp, Receive, Scope, Send

from app.responses import coding_weights


class WeighedGZip(GZipMiddleware):
    """Gzip where the client's Accept-Encoding weighs it above 0 (app/responses.py reads the
    weights for the answers the routes compress themselves, the same way)."""

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        _, gzip = coding_weights(Headers(scope=scope).get("accept-encoding", ""))
        responder: ASGIApp
        if gzip > 0:
            responder = GZipResponder(
                self.app,
                self.minimum_size,
                compresslevel=self.compresslevel,
                thread_minimum_size=self.thread_minimum_size,
                exclude_content_types=self.exclude_content_types,
            )
        else:
            responder = IdentityResponder(
                self.app, self.minimum_size, exclude_content_types=self.exclude_content_types
            )
        await responder(scope, receive, send)
