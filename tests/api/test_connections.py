"""One laptop cannot stall a lecture hall: idle sockets are closed when their request head is
overdue, and neither they nor a flood of event streams from one address take the places of
ordinary requests (a real ``gradstep serve``, one worker)."""

from __future__ import annotations

import asyncio
import socket
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import ExitStack, contextmanager

import httpx
from class_client import PROGRAM
from served import gradstep_serve

from app.connections import HEAD_TIMEOUT_S
from app.middleware.inflight import InFlight

IDLE = 1_000
STREAMS = 500
STUDENTS = 60


def _address(url: str) -> tuple[str, int]:
    host, port = url.removeprefix("http://").split(":")
    return host, int(port)


def _stream(url: str, code: str, forwarded_for: str | None = None) -> socket.socket:
    """A raw connection asking for the class's events (read or not, as the test likes)."""
    s = socket.create_connection(_address(url))
    extra = f"X-Forwarded-For: {forwarded_for}\r\n" if forwarded_for else ""
    s.sendall(f"GET /api/classes/{code}/events HTTP/1.1\r\nHost: x\r\n{extra}\r\n".encode())
    return s


def _read_until(s: socket.socket, needle: bytes, seen: bytes = b"") -> bytes:
    s.settimeout(30)
    while needle not in seen:
        chunk = s.recv(65536)
        assert chunk, f"closed before {needle!r}: {seen[-300:]!r}"
        seen += chunk
    return seen


@contextmanager
def _server() -> Iterator[str]:
    env = {"GRADSTEP_TRUSTED_PROXIES": "127.0.0.1", "GRADSTEP_WORKERS": "1"}
    with gradstep_serve(env) as (_process, url):
        yield url


def test_a_socket_that_sends_no_request_is_closed_and_one_that_sends_one_is_answered() -> None:
    with (
        _server() as url,
        socket.create_connection(_address(url)) as idle,
        socket.create_connection(_address(url)) as slow,
    ):
        slow.sendall(b"GET /healthz HTTP/1.1\r\n")  # half a head, never finished
        idle.settimeout(HEAD_TIMEOUT_S * 4)
        slow.settimeout(HEAD_TIMEOUT_S * 4)
        assert idle.recv(1) == b""  # closed by the server, without an answer
        assert slow.recv(1) == b""
        with httpx.Client() as client:  # a kept-alive connection answers, then is let go
            assert client.get(f"{url}/healthz").status_code == 200
            assert client.get(f"{url}/healthz").status_code == 200


def test_a_thousand_idle_sockets_and_five_hundred_streams_leave_the_class_its_server() -> None:
    with _server() as url, ExitStack() as held, httpx.Client(timeout=30) as client:
        made = client.post(f"{url}/api/classes", json={"source": PROGRAM})
        assert made.status_code == 201, made.text
        code, key = made.json()["code"], made.json()["teacher_key"]
        students = []
        for n in range(STUDENTS):  # each from an address of its own, as the proxy says
            s = held.enter_context(_stream(url, code, f"10.0.{n // 250}.{n % 250 + 1}"))
            _read_until(s, b"data: ")
            students.append(s)
        flood = [held.enter_context(_stream(url, code)) for _ in range(STREAMS)]
        idle = [held.enter_context(socket.create_connection(_address(url))) for _ in range(IDLE)]
        health = client.get(f"{url}/healthz")
        page = client.get(f"{url}/?source=a%3D1")
        moved = client.post(
            f"{url}/api/classes/{code}/position",
            json={"phase": "backward", "step": 1},
            headers={"authorization": f"Bearer {key}"},
        )
        assert (health.status_code, page.status_code, moved.status_code) == (200, 200, 204)
        for s in students:  # every student is sent the teacher's step
            _read_until(s, b'"phase":"backward"')
        assert _read_until(flood[-1], b"HTTP/1.1 ").startswith(b"HTTP/1.1 200")
        time.sleep(HEAD_TIMEOUT_S + 1)
        closed = 0
        for s in idle:
            s.settimeout(10)
            closed += s.recv(1) == b""
        assert closed == IDLE


def test_streams_past_the_cap_of_one_address_are_refused_and_the_others_go_on() -> None:
    env = {"GRADSTEP_CLASS_STREAMS_PER_ADDRESS": "3"}
    with gradstep_serve(env) as (_p, url), ExitStack() as held, httpx.Client(timeout=30) as client:
        made = client.post(f"{url}/api/classes", json={"source": PROGRAM}).json()
        code = made["code"]
        open_ = [held.enter_context(_stream(url, code)) for _ in range(3)]
        for s in open_:
            _read_until(s, b"data: ")
        refused = client.get(f"{url}/api/classes/{code}/events")
        assert refused.status_code == 429 and refused.headers["retry-after"]
        assert "3 streams" in refused.json()["error"]["message"]
        open_.pop().close()  # one closes: its place is free again
        time.sleep(0.5)
        with client.stream("GET", f"{url}/api/classes/{code}/events") as again:
            assert again.status_code == 200


def test_requests_in_progress_are_bounded_and_streams_hold_no_place() -> None:
    """The app's count (app/middleware/inflight.py): a request holds a place until its answer
    starts, so open streams hold none; past the limit, a 503 with Retry-After at once."""

    async def main() -> list[int]:
        release = asyncio.Event()

        async def app(scope: dict, receive: object, send: object) -> None:
            start = {"type": "http.response.start", "status": 200, "headers": []}
            if scope["path"] == "/stream":
                await send(start)  # type: ignore[operator]
                await release.wait()
            else:
                await release.wait()
                await send(start)  # type: ignore[operator]
            await send({"type": "http.response.body", "body": b""})  # type: ignore[operator]

        gate = InFlight(app, limit=2)
        statuses: list[int] = []

        def request(path: str) -> asyncio.Task[None]:
            async def send(message: dict) -> None:
                if message["type"] == "http.response.start":
                    headers = dict(message["headers"])
                    if message["status"] == 503:
                        assert headers[b"retry-after"] == b"1"
                    statuses.append(message["status"])

            scope = {"type": "http", "path": path, "headers": []}
            return asyncio.create_task(gate(scope, None, send))  # type: ignore[arg-type]

        tasks = [request("/stream") for _ in range(5)]
        tasks += [request("/work"), request("/work")]
        await asyncio.sleep(0.05)
        await request("/work")  # a third piece of work: refused at once
        release.set()
        await asyncio.gather(*tasks)
        return statuses

    # in a thread of its own: a worker that ran the browser tests first has Playwright's loop
    # running in this one (the suite runs in parallel, files in any order)
    with ThreadPoolExecutor(1) as thread:
        statuses = thread.submit(asyncio.run, main()).result()
    assert statuses[:6] == [200] * 5 + [503]  # the streams' starts, then the refusal
    assert sorted(statuses[6:]) == [200, 200] and statuses.count(503) == 1
