"""Two real ``gradstep serve`` processes sharing one redis-server (GRADSTEP_BROKER_URL), as a
lecture hall's servers behind a proxy: a step posted to one reaches listeners on both, an
answer posted to either is counted once in the tally read from the other, and SIGTERM ends a
server's open class streams at once instead of waiting for them."""

from __future__ import annotations

import asyncio
import json
import signal
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import httpx
import pytest
from class_client import PROGRAM, student
from redis_server import redis_server
from served import gradstep_serve

from app.cli import GRACEFUL_SHUTDOWN_S

LISTENERS = 200  # half on each server; 200 at once found redis-py's pool refusing (a 503)


@pytest.fixture(scope="module")
def servers() -> Iterator[tuple[str, str, Any]]:
    with redis_server() as broker:
        env = {"GRADSTEP_BROKER_URL": broker}
        with gradstep_serve(env) as (_a, one), gradstep_serve(env) as (process, other):
            yield one, other, process


def _class(url: str) -> tuple[str, dict[str, str]]:
    made = httpx.post(f"{url}/api/classes", json={"source": PROGRAM}, timeout=30)
    assert made.status_code == 201, made.text
    body = made.json()
    return body["code"], {"authorization": f"Bearer {body['teacher_key']}"}


async def _listen(
    http: httpx.AsyncClient, url: str, ready: asyncio.Event, seen: list[float], want: int
) -> None:
    """Follow a class's events; note when the event ``want`` (an id) arrives."""
    async with http.stream("GET", url) as response:
        assert response.status_code == 200
        async for line in response.aiter_lines():
            if line.startswith("id: ") and int(line[4:]) >= want:
                seen.append(time.perf_counter())
                return
            if line.startswith("data: ") and '"position"' in line:
                ready.set()


def test_a_step_on_one_server_reaches_listeners_on_both(servers: tuple[str, str, Any]) -> None:
    one, other, _ = servers
    code, auth = _class(one)

    async def run() -> float:
        seen: list[float] = []
        limits = httpx.Limits(max_connections=LISTENERS + 10)
        async with httpx.AsyncClient(timeout=30, limits=limits) as http:
            readies = [asyncio.Event() for _ in range(LISTENERS)]
            tasks = [
                asyncio.create_task(
                    _listen(
                        http, f"{(one, other)[n % 2]}/api/classes/{code}/events", ready, seen, 1
                    )
                )
                for n, ready in enumerate(readies)
            ]
            await asyncio.wait_for(asyncio.gather(*(r.wait() for r in readies)), 30)
            posted = time.perf_counter()
            moved = await http.post(
                f"{one}/api/classes/{code}/position",
                json={"phase": "backward", "step": 1},
                headers=auth,
            )
            assert moved.status_code == 204, moved.text
            await asyncio.wait_for(asyncio.gather(*tasks), 30)
        assert len(seen) == LISTENERS
        return max(seen) - posted

    # in a thread of its own: a worker that ran the browser tests first has Playwright's loop
    # running in this one (the suite runs in parallel, files in any order)
    with ThreadPoolExecutor(1) as thread:
        took = thread.submit(asyncio.run, run()).result()
    print(f"\na step reached {LISTENERS} listeners on two servers in {took * 1000:.0f} ms")
    assert took < 5


def test_answers_on_both_servers_are_counted_once(servers: tuple[str, str, Any]) -> None:
    one, other, _ = servers
    code, auth = _class(one)
    asked = httpx.post(
        f"{other}/api/classes/{code}/questions", json={"node": 0, "kind": "number"}, headers=auth
    )
    assert asked.status_code == 201, asked.text
    body = {"student": student(1), "question": 1, "value": -2.0}
    first = httpx.post(f"{one}/api/classes/{code}/answers", json=body)
    again = httpx.post(f"{other}/api/classes/{code}/answers", json={**body, "value": 3.0})
    second = httpx.post(f"{other}/api/classes/{code}/answers", json={**body, "student": student(2)})
    assert (first.status_code, again.status_code, second.status_code) == (202, 409, 202)
    tally = httpx.get(f"{other}/api/classes/{code}/answers", headers=auth).json()
    answers = tally["questions"][0]["rounds"][0]["answers"]
    assert [a["value"] for a in answers] == [-2.0, -2.0]
    assert tally["questions"][0]["true"] == -2.0
    table = httpx.get(f"{one}/api/classes/{code}/answers.csv", headers=auth).text
    assert len(table.strip().splitlines()) == 3


def test_sigterm_ends_open_streams_at_once(servers: tuple[str, str, Any]) -> None:
    one, other, process = servers  # the second server; the first keeps the class
    code, _auth = _class(one)
    with httpx.stream("GET", f"{other}/api/classes/{code}/events", timeout=30) as response:
        lines = response.iter_lines()
        for line in lines:
            if line.startswith("data: "):
                assert json.loads(line[6:])["type"] == "position"
                break
        started = time.monotonic()
        process.send_signal(signal.SIGTERM)
        for _line in lines:  # the stream ends, without a "closed": the class goes on
            assert '"closed"' not in _line
    process.wait(timeout=GRACEFUL_SHUTDOWN_S + 5)
    took = time.monotonic() - started
    assert took < GRACEFUL_SHUTDOWN_S / 2, f"the server took {took:.1f} s to stop"
    assert httpx.get(f"{one}/api/classes/{code}").status_code == 200
