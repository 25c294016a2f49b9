"""Connections that send no request: closed after ``HEAD_TIMEOUT_S``.

uvicorn closes a kept-alive connection that stays idle after an answer, but a connection that
never sends a whole request head (an idle socket, or one byte every few seconds) is held for
as long as the client likes: a laptop opening a thousand of them would hold the server's
sockets. ``gradstep serve`` runs uvicorn's h11 protocol with a timer: from the moment a
connection opens, and again after each answer, the next request head must arrive whole within
``HEAD_TIMEOUT_S``, or the connection is closed. A request in progress (a program running, an
event stream) is never timed.

uvicorn's own ``limit_concurrency`` counts open connections, idle ones too, so it is not used:
the requests in progress are counted by ``app.middleware.inflight`` instead, and a class's
event streams by ``app.classroom.stream.StreamCounts``.
"""

from __future__ import annotations

import asyncio

from uvicorn.protocols.http.h11_impl import H11Protocol

HEAD_TIMEOUT_S = 5.0  # a phone on a slow network sends its request head in well under a second


class HeadTimeoutProtocol(H11Protocol):
    """uvicorn's h11 protocol, closing a connection whose request head is overdue."""

    _head_timer: asyncio.TimerHandle | None = None

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self._arm()

    def data_received(self, data: bytes) -> None:
        super().data_received(data)
        if self._in_progress():
            self._disarm()

    def on_response_complete(self) -> None:
        super().on_response_complete()
        if not self.transport.is_closing():
            self._arm()

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm()
        super().connection_lost(exc)

    def _in_progress(self) -> bool:
        return self.cycle is not None and not self.cycle.response_complete

    def _arm(self) -> None:
        self._disarm()
        self._head_timer = self.loop.call_later(HEAD_TIMEOUT_S, self._overdue)

    def _disarm(self) -> None:
        if self._head_timer is not None:
            self._head_timer.cancel()
            self._head_timer = None

    def _overdue(self) -> None:
        self._head_timer = None
        if not self._in_progress() and not self.transport.is_closing():
            self.transport.close()
