"""What runs in a PNG process (app/draw/png.py's pool): its start and its one task. The pool
starts a process by importing this module, so it imports nothing of the app: a process that
imported ``app.draw.png`` (FastAPI, pydantic, the app's modules: 1.2 s) would make the first PNG
after every start wait for it."""

from __future__ import annotations

import os
import threading
import time
from typing import Any

PARENT_CHECK_S = 2.0  # how often a PNG process looks whether the server is still there


def start(niceness: int, server: int) -> None:
    """A lower priority than the requests, and an end of its own when the server is gone (a
    server killed before it could end its pool would leave it running)."""
    os.nice(niceness)

    def watch() -> None:
        while os.getppid() == server:
            time.sleep(PARENT_CHECK_S)
        os._exit(0)

    threading.Thread(target=watch, daemon=True).start()


def render(arguments: dict[str, Any]) -> bytes:
    """``resvg_py.svg_to_bytes(**arguments)``."""
    import resvg_py

    return bytes(resvg_py.svg_to_bytes(**arguments))
