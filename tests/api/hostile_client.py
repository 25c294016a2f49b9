"""What the hostile requests' tests share: the app they attack (the fixture ``client``,
imported), run with a small fuel so that a program that would run forever ends in a fraction of
a second; the canary file a program that reached the server's files would leave; the checks that
a request was refused in the one error shape and that the server is still healthy; and
``answered``, which waits for a request with a time limit so that a hang fails its test rather
than the suite."""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from pathlib import Path

import httpx
import pytest
from fastapi.testclient import TestClient

from app.draw.layout.dot_backend import dot_available
from app.main import create_app
from app.settings import Settings

NEEDS_DOT = pytest.mark.skipif(not dot_available(), reason="no dot on PATH")

CANARY = Path("/tmp/gradstep-hostile-canary")
HOSTILE_FUEL = 400_000_000  # a few tenths of a second of work: the slowest legitimate program
# here (programs.slow_source, 156 M) fits; ``while True: pass`` ends at once
ANSWER_WITHIN_S = 60.0  # generous: a hostile run that hangs fails its test, not the suite


@pytest.fixture(scope="module", name="client")
def hostile_client() -> Iterator[TestClient]:
    """``client`` in the modules that import this: the app on dot with a 1 s layout timeout and
    ``HOSTILE_FUEL`` a run, its public address the test client's (oEmbed answers then); the module
    fails if a hostile program reached the server's files (the canary file exists)."""
    CANARY.unlink(missing_ok=True)
    settings = Settings(
        layout="dot", layout_timeout=1.0, public_url="http://testserver", run_fuel=HOSTILE_FUEL
    )
    with TestClient(create_app(settings)) as made:
        yield made
    assert not CANARY.exists(), "a hostile program reached the server's files"


def answered(
    request: Callable[[], httpx.Response], within: float = ANSWER_WITHIN_S
) -> httpx.Response:
    """``request``'s answer, made on a thread of its own and waited for ``within`` seconds at
    most (the test client has no timeout of its own); past that, the test fails."""
    out: list[httpx.Response | BaseException] = []

    def call() -> None:
        try:
            out.append(request())
        except BaseException as e:  # re-raised on the test's thread
            out.append(e)

    thread = threading.Thread(target=call, daemon=True)
    thread.start()
    thread.join(within)
    assert out, f"no answer within {within:g} s"
    if isinstance(out[0], BaseException):
        raise out[0]
    return out[0]


def assert_healthy(client: TestClient) -> None:
    assert client.get("/healthz").json()["status"] == "ok"


def assert_refused(response: httpx.Response, kinds: set[str] | None = None) -> dict[str, object]:
    """A 4xx in the one error shape, with a message a person can read, never the server's own
    failure (kind internal: "please report the program")."""
    assert 400 <= response.status_code < 500, (response.status_code, response.text[:300])
    error = response.json()["error"]
    assert isinstance(error["message"], str) and len(error["message"]) > 10
    assert "Traceback" not in response.text and 'File "' not in response.text
    assert error["kind"] != "internal", error
    if kinds is not None:
        assert error["kind"] in kinds, error
    return error  # type: ignore[no-any-return]
