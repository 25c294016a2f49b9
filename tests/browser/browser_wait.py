"""Waiting on the page without ``page.wait_for_function``: that evaluates its expression as a
string inside the page, which the app's Content-Security-Policy (no 'unsafe-eval') refuses.
``page.evaluate`` goes through the DevTools protocol instead, which CSP does not govern."""

from __future__ import annotations

import time
from typing import Any


def wait_for(page: Any, function: str, arg: Any = None, timeout: float = 30.0) -> Any:
    """Poll the JS ``function`` (called with ``arg``) until it returns something truthy."""
    deadline = time.monotonic() + timeout
    while True:
        result = page.evaluate(function, arg)
        if result:
            return result
        if time.monotonic() > deadline:
            raise TimeoutError(f"waited {timeout} s for: {function}")
        time.sleep(0.02)


def frames(page: Any, count: int = 2) -> None:
    """Wait for ``count`` frames to be rendered: what a step changed has been laid out, and a
    ResizeObserver it set off (the graph refitted to a taller or shorter explanation) has run."""
    page.evaluate(
        "n => new Promise((done) => {"
        " const tick = (k) => (k ? requestAnimationFrame(() => tick(k - 1)) : done(true));"
        " tick(n); })",
        count,
    )
