"""SIGTERM and SIGINT, heard before the server's own handler: the work that would hold a
shutdown up (a training stream, a class's event streams) is told to end at once, and uvicorn's
graceful shutdown then finds nothing left to wait for."""

from __future__ import annotations

import asyncio
import signal
import threading
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from types import FrameType
from typing import Any

EXIT_SIGNALS = (signal.SIGTERM, signal.SIGINT)


@asynccontextmanager
async def on_exit_signal(act: Callable[[], None]) -> AsyncIterator[None]:
    """While inside, SIGTERM and SIGINT first call ``act`` on the event loop, then the handler
    installed before. Signals reach only the main thread: under TestClient (no main thread to
    hook) nothing is hooked."""
    loop = asyncio.get_running_loop()
    hooked: dict[int, Any] = {}
    if threading.current_thread() is threading.main_thread():
        for sig in EXIT_SIGNALS:
            previous = signal.getsignal(sig)
            if previous is None:  # installed from C: leave it alone
                continue

            def on_exit(number: int, frame: FrameType | None, previous: Any = previous) -> None:
                loop.call_soon_threadsafe(act)
                if callable(previous):
                    previous(number, frame)

            hooked[sig] = previous
            signal.signal(sig, on_exit)
    try:
        yield
    finally:
        for hooked_sig, previous_handler in hooked.items():
            signal.signal(hooked_sig, previous_handler)
