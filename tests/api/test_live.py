"""A live uvicorn on 127.0.0.1: the README program end to end, and a graph too slow to lay
out refused under the time limit while a normal request sent meanwhile is answered first."""

from __future__ import annotations

import socket
import threading
import time
from collections.abc import Iterator

import httpx
import pytest
import uvicorn
from backends import BACKENDS
from programs import slow_source

from app.main import create_app
from app.presets import MICROGRAD_README
from app.settings import Settings


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class LiveServer:
    def __init__(self, backend: str) -> None:
        self.app = create_app(Settings(layout=backend, layout_timeout=1.0))
        self.port = free_port()
        config = uvicorn.Config(self.app, host="127.0.0.1", port=self.port, log_level="warning")
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(target=self.server.run, daemon=True)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def __enter__(self) -> LiveServer:
        self.thread.start()
        while not self.server.started:  # startup is not timed: only waited for
            if not self.thread.is_alive():
                raise RuntimeError("uvicorn did not start")
            time.sleep(0.01)
        return self

    def __exit__(self, *_: object) -> None:
        self.server.should_exit = True
        self.thread.join()


@pytest.fixture(scope="module", params=BACKENDS)
def live(request: pytest.FixtureRequest) -> Iterator[LiveServer]:
    with LiveServer(request.param) as server:
        yield server


def test_readme_program_over_a_real_socket(live: LiveServer) -> None:
    response = httpx.post(f"{live.url}/api/graph", json={"source": MICROGRAD_README}, timeout=60)
    assert response.status_code == 200
    body = response.json()
    grads = body["numbers"]["grad"]
    nodes = {n["name"]: grads[n["id"]] for n in body["structure"]["nodes"]}
    assert round(nodes["a"], 4) == 138.8338 and round(nodes["b"], 4) == 645.5773
    for n in body["structure"]["nodes"]:
        assert f'id="n{n["id"]}"' in body["svg"]
    assert httpx.get(f"{live.url}/healthz").json()["backend"] == body["backend"]


def test_slow_graph_is_refused_while_a_normal_one_is_served(live: LiveServer) -> None:
    layout = live.app.state.layout
    slow = slow_source()
    in_layout = threading.Event()
    original = layout.start

    def spying_start(source: str) -> object:
        if len(source) > 100_000:  # the slow graph's DOT
            in_layout.set()
        return original(source)

    layout.start = spying_start
    finished: list[str] = []
    answers: dict[str, httpx.Response] = {}

    def send(name: str, source: str) -> None:
        answers[name] = httpx.post(f"{live.url}/api/graph", json={"source": source}, timeout=120)
        finished.append(name)

    try:
        slow_thread = threading.Thread(target=send, args=("slow", slow))
        slow_thread.start()
        assert in_layout.wait(60), "the slow graph never reached layout"
        send("normal", "x = 2.0\ny = x * x + 1\n")
        slow_thread.join()
    finally:
        del layout.start
    assert finished == ["normal", "slow"]
    assert answers["normal"].status_code == 200
    assert answers["slow"].status_code == 422
    error = answers["slow"].json()["error"]
    assert error["kind"] == "layout" and "too complex to draw" in error["message"]
    # and the server still draws afterwards (a wasm worker that was killed is replaced)
    again = httpx.post(f"{live.url}/api/graph", json={"source": "a = 1.0; b = a * 3"}, timeout=60)
    assert again.status_code == 200
