"""How the browser tests and bench/browser.py start a server and Debian's Chromium (Playwright
cannot download its own browsers here), in one place."""

from __future__ import annotations

import os

CHROMIUM = os.environ.get("GRADSTEP_CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
SERVE_ARGS = ("--factory", "--host", "127.0.0.1", "--log-level", "warning", "--port")
