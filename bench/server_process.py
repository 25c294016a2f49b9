"""uvicorn serving gradstep in a process of its own, for the bench scripts that time requests
(api.py, train.py, value_only.py): the client does not share the server's interpreter, and a
server can run another checkout's code (``root``) beside this one's."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import httpx

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests" / "api"))

from served import free_port  # noqa: E402


class ServerProcess:
    """uvicorn in a process of its own, so the client does not share its interpreter."""

    def __init__(self, backend: str | None = None, root: Path = ROOT) -> None:
        self.url = f"http://127.0.0.1:{free_port()}"
        env = {**os.environ, "PYTHONPATH": str(root)}
        if backend:
            env["GRADSTEP_LAYOUT"] = backend
        command = [sys.executable, "-m", "uvicorn", "--factory", "app.main:create_app"]
        command += ["--host", "127.0.0.1", "--port", self.url.rsplit(":", 1)[1]]
        self.process = subprocess.Popen([*command, "--log-level", "warning"], env=env, cwd=root)
        wait_until_up(self.url, self.process)

    def stop(self) -> None:
        self.process.terminate()
        self.process.wait()


def wait_until_up(url: str, process: subprocess.Popen[bytes]) -> None:
    """Until the server at ``url`` answers ``/healthz``; it failing to start is an error."""
    deadline = time.monotonic() + 120
    while True:
        try:
            httpx.get(f"{url}/healthz", timeout=1)
            return
        except httpx.TransportError:
            if process.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError(f"{url} did not start ({process.returncode})") from None
            time.sleep(0.05)
