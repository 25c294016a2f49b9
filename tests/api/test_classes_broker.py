"""A Redis restart: /healthz says when the broker is down, and with persistence on (an
append-only file, as docs/deploy.md advises) a class and its counted answers are there again
after it; without, the class is gone (a 404) and new classes work."""

from __future__ import annotations

import pytest
from backends import BACKENDS
from class_client import new_class, roomy, student
from fastapi.testclient import TestClient
from redis_server import restartable_redis

from app.main import create_app
from app.settings import Settings


@pytest.mark.parametrize("persist", [True, False], ids=["aof", "nothing saved"])
def test_a_redis_restart_keeps_the_class_when_its_data_is_kept(persist: bool) -> None:
    with (
        restartable_redis(persist) as (url, restart),
        TestClient(create_app(Settings(layout=BACKENDS[0], broker_url=url))) as client,
    ):
        roomy(client)
        assert client.get("/healthz").json()["broker"] == "ok"
        lesson = new_class(client)
        assert lesson.command("/questions", {"node": 0, "kind": "number"}).status_code == 201
        for n in range(3):
            assert lesson.answer(student(n), 1, 2.0).status_code == 202

        def down() -> None:  # while Redis is stopped: said, and class requests are 503s
            health = client.get("/healthz")
            assert health.status_code == 200 and health.json()["broker"] == "unreachable"
            assert client.get(lesson.url()).status_code == 503

        restart(down)
        if persist:
            assert client.get("/healthz").json()["broker"] == "ok"
            tally = lesson.tally()["questions"][0]["rounds"][0]
            assert tally["histogram"]["count"] == 3
            assert lesson.answer(student(3), 1, 2.0).status_code == 202
            assert lesson.answer(student(0), 1, 2.0).status_code == 409  # counted before
        else:
            assert client.get(lesson.url()).status_code == 404
            assert new_class(client).view()["code"]
