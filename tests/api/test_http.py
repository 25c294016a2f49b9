"""HTTP behaviour that a route alone does not decide: one bound on the step of every route that
takes one, a gradient near the float limit drawn at every step, and, against a real ``gradstep
serve`` (uvicorn's own HTTP parser), URLs and headers too large answered 414 and 431 in the error
shape, HEAD without a body, and a keep-alive connection that outlives every refusal."""

from __future__ import annotations

import contextlib
import socket
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from served import gradstep_serve

from app.cli import main
from app.draw.layout.dot_backend import dot_available
from app.main import create_app
from app.middleware import MAX_HEADERS, MAX_REQUEST_HEAD_BYTES, MAX_URL_BYTES
from app.settings import Settings

pytestmark = pytest.mark.skipif(not dot_available(), reason="no dot on PATH")

SOURCE = "a = 2.0\nb = a * a + a"  # 2 forward steps, 3 backward
HUGE_GRADS = ["x = 1.0\ny = x * 1e308", "x = 1.0\ny = x * 1.7e308", "x = 1e-300\ny = x * 1e308"]


@pytest.fixture(scope="module")
def client() -> Iterator[TestClient]:
    with TestClient(create_app(Settings(layout="dot"))) as made:
        yield made


@pytest.mark.parametrize("route", ["/api/graph.svg", "/api/graph.png", "/api/graph.html"])
@pytest.mark.parametrize(("phase", "step"), [("backward", 3), ("backward", 99_999), ("forward", 2)])
def test_every_route_that_takes_a_step_refuses_one_the_program_lacks(
    client: TestClient, route: str, phase: str, step: int
) -> None:
    """/api/graph.html?step=99999 was a 200 while svg and png said 422."""
    params = {"source": SOURCE, "phase": phase, "step": step}
    error = client.get(route, params=params).json()["error"]
    assert error["kind"] == "request" and f"{phase} step {step} does not exist" in error["message"]
    last = {"forward": 1, "backward": 2}[phase]
    assert client.get(route, params={**params, "step": last}).status_code == 200


def test_the_command_line_refuses_a_step_the_program_lacks(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "x.svg"
    assert main(["render", SOURCE, "-o", str(out), "--step", "3"]) == 2
    assert "backward step 3 does not exist" in capsys.readouterr().err
    assert not out.exists()


@pytest.mark.parametrize("source", HUGE_GRADS)
def test_a_gradient_near_the_float_limit_is_drawn_at_every_step(
    client: TestClient, source: str
) -> None:
    """A grad above ~6e307 overflowed the colour bucket: a 500 (engine/trace/numbers.grad_bin)."""
    graph = client.post("/api/graph", json={"source": source})
    assert graph.status_code == 200, graph.text  # ∂y/∂x = 1e308 is a float: nothing to refuse
    steps = graph.json()["structure"]["steps"]
    for phase in ("forward", "backward"):
        for step in range(sum(s["phase"] == phase for s in steps)):
            params = {"source": source, "phase": phase, "step": step}
            assert client.get("/api/graph.svg", params=params).status_code == 200, (phase, step)


# ── against a real server ────────────────────────────────────────────────────────────────────


@pytest.fixture(scope="module")
def server() -> Iterator[tuple[subprocess.Popen[bytes], str]]:
    with gradstep_serve({"GRADSTEP_LAYOUT": "dot"}) as served:
        yield served


class Connection:
    """One HTTP/1.1 connection, kept alive between requests, read by hand: what arrives is what
    uvicorn sent, status line and all."""

    def __init__(self, url: str) -> None:
        host, port = url.removeprefix("http://").split(":")
        self.sock = socket.create_connection((host, int(port)), timeout=60)
        self.buffer = b""

    def request(self, head: bytes) -> tuple[int, dict[str, str], bytes]:
        self.sock.sendall(head)
        while b"\r\n\r\n" not in self.buffer:
            self._more()
        raw, self.buffer = self.buffer.split(b"\r\n\r\n", 1)
        status_line, *lines = raw.decode("latin-1").split("\r\n")
        headers = {k.lower(): v.strip() for k, v in (line.split(":", 1) for line in lines)}
        length = 0 if head.startswith(b"HEAD") else int(headers.get("content-length", 0))
        while len(self.buffer) < length:
            self._more()
        body, self.buffer = self.buffer[:length], self.buffer[length:]
        return int(status_line.split()[1]), headers, body

    def _more(self) -> None:
        chunk = self.sock.recv(1 << 16)
        if not chunk:
            raise ConnectionError("the server closed the connection")
        self.buffer += chunk

    def __enter__(self) -> Connection:
        return self

    def __exit__(self, *_: object) -> None:
        self.sock.close()


def get(path: str, extra: str = "", method: str = "GET") -> bytes:
    return f"{method} {path} HTTP/1.1\r\nHost: gradstep\r\n{extra}\r\n".encode()


def test_keep_alive_survives_a_huge_gradient_and_head(
    server: tuple[subprocess.Popen[bytes], str],
) -> None:
    with Connection(server[1]) as connection:
        for source in HUGE_GRADS:
            query = "source=" + source.replace(" ", "%20").replace("\n", "%0A")
            for step in (0, 1):
                status, _, _ = connection.request(get(f"/api/graph.svg?{query}&step={step}"))
                assert status == 200
        status, headers, body = connection.request(get("/healthz", method="HEAD"))
        assert status == 200 and body == b"" and int(headers["content-length"]) > 0
        status, _, body = connection.request(get("/healthz"))  # the same connection, still open
        assert status == 200 and b'"ok"' in body


def test_a_url_or_headers_too_large_are_refused_in_the_error_shape(
    server: tuple[subprocess.Popen[bytes], str],
) -> None:
    """A URL over ~200 KB was reset with no status, a header flood got uvicorn's plain text."""
    url = server[1]
    long_url = "/api/graph.svg?source=" + "a" * MAX_URL_BYTES
    with Connection(url) as connection:
        status, headers, body = connection.request(get(long_url))
    assert status == 414 and headers["content-type"] == "application/json"
    assert b'"kind":"limit"' in body and f"{MAX_URL_BYTES:,} allowed".encode() in body
    flood = "".join(f"X-Header-{i}: {'v' * 100}\r\n" for i in range(MAX_HEADERS + 1))
    with Connection(url) as connection:
        status, headers, body = connection.request(get("/healthz", flood))
    assert status == 431 and headers["content-type"] == "application/json"
    assert b'"kind":"limit"' in body
    # past what uvicorn reads at all: its own plain 400, or the connection closed (docs/api.md)
    with Connection(url) as connection, contextlib.suppress(OSError):
        assert connection.request(get("/?" + "a" * 2 * MAX_REQUEST_HEAD_BYTES))[0] == 400
    with Connection(url) as connection:
        assert connection.request(get("/healthz"))[0] == 200
