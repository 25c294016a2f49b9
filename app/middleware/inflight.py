"""The requests a worker is working on, bounded: past ``limit`` (the ``limit_concurrency``
setting), a 503 in the error shape at once, with Retry-After.

A request counts from its arrival until its answer starts: an event stream, which starts its
answer at once and then waits, holds no place here (a class's streams are bounded by their
own caps), and neither does an idle connection (closed by ``app.connections``). So however many
streams a room holds, ordinary requests (a page, a step, /healthz) keep their places.
"""

from __future__ import annotations

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from app.errors import send_refusal

RETRY_AFTER_S = 1


class InFlight:
    def __init__(self, app: ASGIApp, limit: int) -> None:
        self.app = app
        self.limit = limit
        self.count = 0

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        if self.count >= self.limit:
            message = (
                f"the server is working on {self.limit:,} requests: try again in {RETRY_AFTER_S} s"
            )
            await send_refusal(send, 503, message, "busy", close=False, retry_after=RETRY_AFTER_S)
            return
        self.count += 1
        counted = True

        async def started(message: Message) -> None:
            nonlocal counted
            if counted and message["type"] == "http.response.start":
                counted = False
                self.count -= 1
            await send(message)

        try:
            await self.app(scope, receive, started)
        finally:
            if counted:
                self.count -= 1
