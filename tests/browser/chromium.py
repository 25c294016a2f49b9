"""How the browser tests and bench/browser.py start a server and Debian's Chromium (Playwright
cannot download its own browsers here), and wait for a server to answer, in one place."""

from __future__ import annotations

import os
import subprocess
import time
import urllib.request

CHROMIUM = os.environ.get("GRADSTEP_CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
SERVE_ARGS = ("--factory", "--host", "127.0.0.1", "--log-level", "warning", "--port")


def wait_until_up(process: subprocess.Popen[bytes], url: str, seconds: float) -> bool:
    """Poll ``url`` until it answers 200 (True), or the process ends or ``seconds`` pass."""
    deadline = time.monotonic() + seconds
    while True:
        try:
            with urllib.request.urlopen(url, timeout=1) as response:
                if response.status == 200:
                    return True
        except OSError:
            pass
        if process.poll() is not None or time.monotonic() > deadline:
            return False
        time.sleep(0.1)
