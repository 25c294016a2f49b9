"""Helpers for the live classroom's tests: an app on either store (memory, or a real Redis
server), a class and its teacher's commands, and a reader of its event stream."""

from __future__ import annotations

import json
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

import httpx
import pytest
from backends import BACKENDS
from fastapi.testclient import TestClient
from redis_server import redis_server

from app.classroom import stream
from app.links.ratelimit import TokenBuckets
from app.main import create_app
from app.settings import Settings

STORES = ["memory", "redis"]
# a.grad = b + 1 = -2, b.grad = a = 2, c.grad = d.grad = 1; node ids: a 0, b 1, c 2, d 3
PROGRAM = "a = 2.0\nb = -3.0\nc = a * b\nd = c + a"
KEEPALIVE_S = 0.2  # short, so that a test waiting for an event that never comes fails soon
MAX_QUIET_S = 10
ROOM = 1_000  # classes a module makes, and codes it misses


@contextmanager
def class_client(kind: str) -> Iterator[TestClient]:
    """A TestClient of an app whose classes live in memory or in a fresh Redis server."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(stream, "KEEPALIVE_S", KEEPALIVE_S)
        if kind == "memory":
            with TestClient(create_app(Settings(layout=BACKENDS[0]))) as client:
                yield roomy(client)
            return
        with redis_server() as url:
            settings = Settings(layout=BACKENDS[0], broker_url=url)
            with TestClient(create_app(settings)) as client:
                yield roomy(client)


def roomy(client: TestClient) -> TestClient:
    """The client, with room for a module's classes (one address makes them all)."""
    client.app.state.class_buckets = TokenBuckets(ROOM)  # type: ignore[attr-defined]
    client.app.state.class_misses = TokenBuckets(ROOM)  # type: ignore[attr-defined]
    client.app.state.address_answers = TokenBuckets(ROOM)  # type: ignore[attr-defined]
    return client


class Events:
    """The events of a stream, read one at a time: ``(id, data)``. Fails rather than waits
    when none comes for ``MAX_QUIET_S`` (keep-alive comments are counted)."""

    def __init__(self, response: httpx.Response) -> None:
        assert response.status_code == 200, response.read()
        assert response.headers["content-type"].startswith("text/event-stream")
        self.lines = response.iter_lines()
        self.keepalives = 0

    def next(self) -> tuple[int, dict[str, Any]]:
        event_id = None
        quiet = 0
        for line in self.lines:
            if line.startswith(":"):
                self.keepalives += 1
                quiet += 1
                assert quiet * KEEPALIVE_S < MAX_QUIET_S, "no event came"
            elif line.startswith("id: "):
                event_id = int(line[4:])
            elif line.startswith("data: "):
                assert event_id is not None, "an event without an id"
                return event_id, json.loads(line[6:])
        raise AssertionError("the stream ended")

    def until(self, kind: str) -> list[tuple[int, dict[str, Any]]]:
        seen = [self.next()]
        while seen[-1][1]["type"] != kind:
            seen.append(self.next())
        return seen

    def ended(self) -> bool:
        """Whether the stream ends without another event."""
        for line in self.lines:
            if line.startswith("data: "):
                return False
        return True


@dataclass
class Class:
    client: TestClient
    code: str
    key: str

    @property
    def auth(self) -> dict[str, str]:
        return {"authorization": f"Bearer {self.key}"}

    def url(self, path: str = "") -> str:
        return f"/api/classes/{self.code}{path}"

    def command(self, path: str, body: dict[str, Any] | None = None) -> httpx.Response:
        return self.client.post(self.url(path), json=body, headers=self.auth)

    def answer(self, student: str, question: int, value: Any, **more: Any) -> httpx.Response:
        body = {"student": student, "question": question, "value": value, **more}
        return self.client.post(self.url("/answers"), json=body)

    def tally(self) -> dict[str, Any]:
        answer = self.client.get(self.url("/answers"), headers=self.auth)
        assert answer.status_code == 200, answer.text
        result: dict[str, Any] = answer.json()
        return result

    def view(self) -> dict[str, Any]:
        answer = self.client.get(self.url())
        assert answer.status_code == 200, answer.text
        result: dict[str, Any] = answer.json()
        return result


def new_class(client: TestClient, source: str = PROGRAM, **more: Any) -> Class:
    made = client.post("/api/classes", json={"source": source, **more})
    assert made.status_code == 201, made.text
    body = made.json()
    return Class(client, body["code"], body["teacher_key"])


def student(n: int) -> str:
    return f"student-token-{n:06d}"
