"""A live class against real servers: a teacher and ``--students`` simulated phones on one
class, on the single-process default (one worker, classes in its memory) and on ``gradstep
serve --workers N`` with one ``redis-server`` (``GRADSTEP_BROKER_URL``), both up at once and
measured side by side in one run. Prints one table.

    python bench/classroom.py [--students 300] [--steps 20] [--workers 2] [--skip-kill]
                              [--client raw|httpx] [--retry-ms MS]

Each student follows the class's Server-Sent Events as a browser's ``EventSource`` does: it
keeps ``Last-Event-ID`` and, when its stream ends, connects again after the ``retry:`` the
server sent (1 s). What is measured:

1. **steps**: the teacher posts ``--steps`` positions (the two servers taking turns); the delay
   of each is from just before the teacher's POST to each student's reading of that
   ``position`` event: p50, p99 and max over every student and step, and how many steps reached
   99% of the students within 250 ms;
2. **answers**: the teacher asks a question, every student answers once at a random moment of
   2 s and one in ten sends a second answer (which must be refused, 409); the tally must count
   each student once;
3. **a worker killed** (Redis setup only; ``--skip-kill`` to leave out): a second round of the
   question is answered over 2 s, and 1 s in one worker gets SIGKILL (not the supervisor,
   which starts another). The teacher steps 0.5 s after the kill. For each student whose stream
   broke: the gap from the stream's end to its stream delivering the current position again
   (and from the kill); answers whose request failed are sent again, as a page would, and the
   tally must still count every student once;
4. **memory**: the server's process tree's RSS (its Python processes: supervisor and workers)
   with the class and no student connected, then with every student connected; the
   difference divided by the students. redis-server's own growth is shown apart.

The students run in this process (asyncio), on the same machine as the servers: its CPU time
is printed, and how late its event loop ran (a late loop reads events late, which counts in
the delays). ``--client raw`` reads each stream with asyncio's own streams (HTTP/1.1, chunked),
``--client httpx`` with ``httpx.AsyncClient.stream``, to compare what the client costs.

Targets (the issue's, on 2 cores): 99% of the students within 250 ms of a step; 300 answers
within 2 s counted exactly once; after a worker is killed no student without the class for
more than 3 s and no counted answer lost.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "tests" / "api")]

from load import rss_mb  # noqa: E402
from served import free_port  # noqa: E402

# a.grad = b + 1 = -2 (tests/api/class_client.py); two forward steps, and backward ones
PROGRAM = "a = 2.0\nb = -3.0\nc = a * b\nd = c + a"
TARGET_S = 0.250
ANSWER_WINDOW_S = 2.0
KILL_AFTER_S = 1.0  # into the second round's answers
GAP_TARGET_S = 3.0
WAIT_S = 15.0  # for every student to read an event, before giving up on the rest
clock = time.perf_counter  # CLOCK_MONOTONIC: the teacher and the students read the same one


# ── the servers ───────────────────────────────────────────────────────────────────────────────


def wait_for(url: str, process: subprocess.Popen[bytes]) -> None:
    deadline = time.monotonic() + 120
    while True:
        if process.poll() is not None or time.monotonic() > deadline:
            raise RuntimeError(f"{url} did not start ({process.returncode})")
        try:
            if httpx.get(f"{url}/healthz", timeout=1).status_code == 200:
                return
        except httpx.TransportError:
            time.sleep(0.05)


@contextlib.contextmanager
def redis_server(root: Path) -> Iterator[tuple[str, int]]:
    """A fresh redis-server on a free port, nothing saved to disk: its URL and pid."""
    binary = shutil.which("redis-server")
    if binary is None:
        sys.exit("redis-server is not installed (Debian: apt-get install redis-server)")
    port = free_port()
    options = ["--port", str(port), "--bind", "127.0.0.1", "--dir", str(root)]
    options += ["--save", "", "--appendonly", "no"]
    process = subprocess.Popen([binary, *options], stdout=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 10
        while True:
            try:
                with socket.create_connection(("127.0.0.1", port)):
                    break
            except OSError:
                if process.poll() is not None or time.monotonic() > deadline:
                    raise RuntimeError("redis-server did not start") from None
                time.sleep(0.02)
        yield f"redis://127.0.0.1:{port}/0", process.pid
    finally:
        process.terminate()
        process.wait()


@dataclass
class Server:
    name: str
    workers: int
    broker: str | None
    root: Path
    process: subprocess.Popen[bytes] | None = None
    url: str = ""

    def start(self) -> None:
        port = free_port()
        env = {**os.environ, "PYTHONPATH": str(ROOT), "GRADSTEP_DATA": str(self.root)}
        env.pop("GRADSTEP_BROKER_URL", None)
        if self.broker:
            env["GRADSTEP_BROKER_URL"] = self.broker
        command = [sys.executable, "-m", "app.cli", "serve", "--port", str(port)]
        command += ["--workers", str(self.workers)]
        with open(self.root / "server.log", "ab") as log:
            self.process = subprocess.Popen(
                command, cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT
            )
        self.url = f"http://127.0.0.1:{port}"
        wait_for(self.url, self.process)

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(30)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()

    def rss_mb(self) -> float:
        assert self.process is not None
        return rss_mb(self.process.pid)[0]

    def worker_pids(self) -> list[int]:
        """The supervisor's worker processes (uvicorn's, spawned), oldest first."""
        assert self.process is not None
        found = []
        for entry in Path("/proc").iterdir():
            if not entry.name.isdigit():
                continue
            try:
                stat = (entry / "stat").read_text().rsplit(")", 1)[1].split()
                cmdline = (entry / "cmdline").read_bytes()
            except OSError:
                continue
            if int(stat[1]) == self.process.pid and b"spawn_main" in cmdline:
                found.append((int(stat[19]), int(entry.name)))  # start time, pid
        return [pid for _, pid in sorted(found)]


def cpu_of(pid: int) -> float:
    """CPU seconds a process has used (user and system), 0 once it is gone."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def machine_cpu() -> tuple[int, int]:
    """The machine's busy and total CPU time so far (/proc/stat, in ticks of every core)."""
    ticks = [int(n) for n in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]]
    idle = ticks[3] + ticks[4]  # idle, iowait
    return sum(ticks) - idle, sum(ticks)


def rss_of(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


# ── the students ──────────────────────────────────────────────────────────────────────────────


@dataclass
class Student:
    n: int
    url: str
    code: str
    client: str
    http: httpx.AsyncClient | None = None
    retry_ms: int | None = None  # instead of the server's retry:, to see what another would give
    last_id: str | None = None
    retry_s: float = 2.0
    seen: dict[int, float] = field(default_factory=dict)  # a step's mark → when it was read
    marks: dict[int, int] = field(default_factory=dict)  # opening position's mark, per stream
    position_mark: int | None = None
    counts: dict[tuple[int, int], tuple[int, float]] = field(default_factory=dict)  # read
    connected: asyncio.Event = field(default_factory=asyncio.Event)
    lost_at: float | None = None
    gaps: list[tuple[float, float, int | None]] = field(default_factory=list)  # lost, back, mark
    ends: int = 0  # streams ended (by the server, or its process gone)
    refused: list[int] = field(default_factory=list)  # statuses of failed (re)connections
    stopping: bool = False

    @property
    def token(self) -> str:
        return f"bench-student-{self.n:06d}"

    async def follow(self) -> None:
        """Follow the class as EventSource does: reconnect after ``retry`` when the stream
        ends or fails, sending Last-Event-ID."""
        while not self.stopping:
            try:
                if self.client == "raw":
                    await self._stream_raw()
                else:
                    await self._stream_httpx()
            except (OSError, EOFError, asyncio.IncompleteReadError, httpx.TransportError):
                pass
            if self.stopping:
                return
            self.ends += 1
            self.connected.clear()
            if self.lost_at is None:
                self.lost_at = clock()
            await asyncio.sleep(self.retry_s)

    def _headers(self) -> dict[str, str]:
        headers = {"accept": "text/event-stream", "cache-control": "no-cache"}
        if self.last_id is not None:
            headers["last-event-id"] = self.last_id
        return headers

    async def _stream_raw(self) -> None:
        host, port = self.url.removeprefix("http://").split(":")
        reader, writer = await asyncio.open_connection(host, int(port))
        try:
            head = f"GET /api/classes/{self.code}/events HTTP/1.1\r\nhost: {host}:{port}\r\n"
            head += "".join(f"{k}: {v}\r\n" for k, v in self._headers().items())
            writer.write((head + "\r\n").encode())
            status = await reader.readline()
            if not status.startswith(b"HTTP/1.1 200"):
                self.refused.append(int(status.split()[1]) if status else 0)
                return
            chunked = False
            while (line := await reader.readline()) not in (b"\r\n", b""):
                if line.lower().startswith(b"transfer-encoding:") and b"chunked" in line:
                    chunked = True
            pending = b""
            while True:
                if chunked:
                    size = int((await reader.readline()).split(b";")[0] or b"0", 16)
                    if size == 0:
                        return
                    data = (await reader.readexactly(size + 2))[:-2]
                else:
                    data = await reader.read(65536)
                    if not data:
                        return
                now = clock()
                pending += data
                *events, pending = pending.split(b"\n\n")
                for event in events:
                    self._event(event.decode().split("\n"), now)
        finally:
            writer.close()

    async def _stream_httpx(self) -> None:
        assert self.http is not None
        url = f"{self.url}/api/classes/{self.code}/events"
        async with self.http.stream("GET", url, headers=self._headers()) as response:
            if response.status_code != 200:
                self.refused.append(response.status_code)
                return
            lines: list[str] = []
            async for line in response.aiter_lines():
                if line:
                    lines.append(line)
                    continue
                self._event(lines, clock())
                lines = []

    def _event(self, lines: list[str], now: float) -> None:
        data = None
        for line in lines:
            if line.startswith("retry: "):
                self.retry_s = (self.retry_ms or int(line[7:])) / 1000
            elif line.startswith("id: "):
                self.last_id = line[4:]
            elif line.startswith("data: "):
                data = json.loads(line[6:])
        if data is None:
            return
        kind = data["type"]
        if kind == "position":
            mark = int(data["values"].get("a", -1))
            self.position_mark = mark
            self.seen.setdefault(mark, now)
            if not self.connected.is_set():  # the opening event of a stream
                if self.lost_at is not None:
                    self.gaps.append((self.lost_at, now, mark))
                    self.lost_at = None
                self.connected.set()
        elif kind == "answers":
            key = (data["question"], data["round"])
            if data["count"] > self.counts.get(key, (-1, 0.0))[0]:
                self.counts[key] = (data["count"], now)
        elif kind == "closed":
            self.stopping = True


@dataclass
class Class:
    server: Server
    code: str
    key: str
    students: list[Student] = field(default_factory=list)
    tasks: list[asyncio.Task[None]] = field(default_factory=list)
    mark: int = -1  # the teacher's last step's mark
    question: int = 0

    @property
    def auth(self) -> dict[str, str]:
        return {"authorization": f"Bearer {self.key}"}

    def path(self, rest: str = "") -> str:
        return f"{self.server.url}/api/classes/{self.code}{rest}"


async def teacher(http: httpx.AsyncClient, method: str, url: str, **kw: Any) -> httpx.Response:
    """A teacher's command; sent again when its connection broke (the worker was killed)."""
    for _ in range(20):
        try:
            return await http.request(method, url, **kw)
        except httpx.TransportError:
            await asyncio.sleep(0.2)
    raise RuntimeError(f"{method} {url}: no answer")


async def step(http: httpx.AsyncClient, lesson: Class, mark: int) -> float:
    """Post a position marked ``mark`` (the slider ``a``); when it was posted."""
    body = {
        "phase": ("forward", "backward")[mark % 2],
        "step": mark // 2 % 2,
        "values": {"a": mark},
    }
    posted = clock()
    moved = await teacher(http, "POST", lesson.path("/position"), json=body, headers=lesson.auth)
    assert moved.status_code == 204, moved.text
    lesson.mark = mark
    return posted


async def reached(students: list[Student], mark: int, timeout: float = WAIT_S) -> None:
    deadline = clock() + timeout
    while clock() < deadline and any(mark not in s.seen for s in students):
        await asyncio.sleep(0.01)


async def connect(lesson: Class, count: int, args: argparse.Namespace, http: Any) -> None:
    start = len(lesson.students)
    url, code = lesson.server.url, lesson.code
    fresh = [Student(start + n, url, code, args.client, http, args.retry_ms) for n in range(count)]
    lesson.students += fresh
    lesson.tasks += [asyncio.create_task(s.follow()) for s in fresh]
    await asyncio.wait_for(asyncio.gather(*(s.connected.wait() for s in fresh)), 60)


async def disconnect(lesson: Class) -> None:
    for s in lesson.students:
        s.stopping = True
    for task in lesson.tasks:
        task.cancel()
    await asyncio.gather(*lesson.tasks, return_exceptions=True)
    lesson.students, lesson.tasks = [], []


# ── the measures ──────────────────────────────────────────────────────────────────────────────


@dataclass
class Results:
    delays: list[float] = field(default_factory=list)
    per_step_p99: list[float] = field(default_factory=list)
    missed: int = 0  # (student, step) pairs never read
    loop_lag: list[float] = field(default_factory=list)
    client_cpu: float = 0.0
    steps_wall: float = 0.0
    answers: dict[str, Any] = field(default_factory=dict)
    kill: dict[str, Any] = field(default_factory=dict)
    rss: tuple[float, float] = (0.0, 0.0)
    redis_rss: tuple[float, float] | None = None


async def lag_monitor(lags: list[float], stop: asyncio.Event) -> None:
    """How late the client's event loop wakes (10 ms sleeps): its reading of events is as late."""
    while not stop.is_set():
        before = clock()
        await asyncio.sleep(0.01)
        lags.append(clock() - before - 0.01)


async def post_raw(url: str, path: str, body: dict[str, Any]) -> tuple[int, dict[str, Any]]:
    """One POST on a connection of its own, as asyncio streams (httpx's pool, with hundreds of
    requests in flight, took a core of this process by itself): its status and JSON."""
    host, port = url.removeprefix("http://").split(":")
    reader, writer = await asyncio.open_connection(host, int(port))
    try:
        payload = json.dumps(body).encode()
        head = f"POST {path} HTTP/1.1\r\nhost: {host}:{port}\r\ncontent-type: application/json\r\n"
        head += f"content-length: {len(payload)}\r\nconnection: close\r\n\r\n"
        writer.write(head.encode() + payload)
        status = await reader.readline()
        if not status:
            raise ConnectionResetError("no answer")
        length = None
        while (line := await reader.readline()) not in (b"\r\n", b""):
            if line.lower().startswith(b"content-length:"):
                length = int(line.split(b":")[1])
        raw = await (reader.readexactly(length) if length is not None else reader.read())
        return int(status.split()[1]), (json.loads(raw) if raw else {})
    finally:
        writer.close()


async def answer(lesson: Class, s: Student, delay: float, out: list[Any]) -> None:
    """A student's answer at ``delay`` s, sent again while its request fails (not its refusal)."""
    await asyncio.sleep(delay)
    body = {"student": s.token, "question": lesson.question, "value": -2.0 + s.n % 5 * 0.5}
    path = f"/api/classes/{lesson.code}/answers"
    tries = 0
    while True:
        tries += 1
        began = clock()
        try:
            status, got = await asyncio.wait_for(post_raw(lesson.server.url, path, body), 30)
        except (OSError, EOFError, asyncio.IncompleteReadError, TimeoutError):
            if tries > 20:
                out.append(("gave up", 0.0, tries, clock()))
                return
            await asyncio.sleep(0.5)
            continue
        if status == 503 and tries <= 20:
            await asyncio.sleep(1.0)
            continue
        kind = str(status)
        if status == 409:
            kind += " " + str(got.get("error", {}).get("kind", ""))
        out.append((kind, clock() - began, tries, clock()))
        return


def errors_of(response: httpx.Response) -> str:
    try:
        return str(response.json())
    except ValueError:
        return response.text[:200]


async def answers_round(http: httpx.AsyncClient, lesson: Class, round_: int) -> dict[str, Any]:
    """Every student answers once over ANSWER_WINDOW_S, one in ten twice; the tally is read."""
    rnd = random.Random(round_)
    outcomes: list[Any] = []
    second: list[Any] = []
    began = clock()
    jobs = []
    for s in lesson.students:
        at = rnd.uniform(0, ANSWER_WINDOW_S)
        jobs.append(answer(lesson, s, at, outcomes))
        if s.n % 10 == 0:
            jobs.append(answer(lesson, s, at + 0.3, second))
    await asyncio.gather(*jobs)
    sent = clock() - began
    expected = len(lesson.students)
    deadline = clock() + WAIT_S
    key = (lesson.question, round_)

    def full(s: Student) -> bool:
        return s.counts.get(key, (0, 0.0))[0] >= expected

    while clock() < deadline and not all(full(s) for s in lesson.students):
        await asyncio.sleep(0.02)
    last_count = max((s.counts[key][1] for s in lesson.students if full(s)), default=0.0)
    last_answer = max(at for kind, _l, _t, at in outcomes if kind == "202")
    tally = await teacher(http, "GET", lesson.path("/answers"), headers=lesson.auth)
    assert tally.status_code == 200, errors_of(tally)
    rounds = tally.json()["questions"][lesson.question - 1]["rounds"]
    counted = rounds[round_ - 1]
    statuses: dict[str, int] = {}
    for kind, _latency, _tries, _at in outcomes:
        statuses[kind] = statuses.get(kind, 0) + 1
    seconds: dict[str, int] = {}
    for kind, _latency, _tries, _at in second:
        seconds[kind] = seconds.get(kind, 0) + 1
    return {
        "students": expected,
        "statuses": statuses,
        "seconds": seconds,
        "counted": len(counted["answers"]),
        "histogram": counted["histogram"]["count"],
        "latency": [latency for _k, latency, _t, _a in outcomes],
        "retried": sum(1 for _k, _l, tries, _a in outcomes if tries > 1),
        "sent_s": sent,
        "all_counts_s": (last_count - last_answer) if last_count else None,
        "got_count": sum(1 for s in lesson.students if full(s)),
        "ends": sum(s.ends for s in lesson.students),
    }


async def kill_round(http: httpx.AsyncClient, lesson: Class) -> dict[str, Any]:
    """A second round answered over 2 s; one worker SIGKILLed 1 s in; the teacher steps 0.5 s
    after. Reconnect gaps, answers, and how long the supervisor takes to start another."""
    again = await teacher(
        http, "POST", lesson.path(f"/questions/{lesson.question}/again"), headers=lesson.auth
    )
    assert again.status_code == 201, errors_of(again)
    workers = lesson.server.worker_pids()
    victim = workers[0]
    ends_before = {s.n: s.ends for s in lesson.students}
    mark = lesson.mark + 1

    survivors = workers[1:]
    usage: dict[str, Any] = {}

    async def kill_then_step() -> tuple[float, float]:
        await asyncio.sleep(KILL_AFTER_S)
        killed = clock()
        usage["before"] = (sum(cpu_of(pid) for pid in survivors), machine_cpu())
        os.kill(victim, signal.SIGKILL)
        await asyncio.sleep(0.5)
        await step(http, lesson, mark)
        return killed, clock()  # from now on, a stream opens on this step

    round_task = asyncio.create_task(answers_round(http, lesson, 2))
    killed, stepped = await kill_then_step()
    # every student back on the class, with the step made during the outage
    deadline = clock() + 30
    while clock() < deadline and any(
        not s.connected.is_set() or s.position_mark != mark for s in lesson.students
    ):
        await asyncio.sleep(0.02)
    back = clock() - killed
    survivor_cpu = sum(cpu_of(pid) for pid in survivors) - usage["before"][0]
    busy, total = (now - then for now, then in zip(machine_cpu(), usage["before"][1], strict=True))
    answered = await round_task
    broke = [s for s in lesson.students if s.ends > ends_before[s.n]]
    gaps = [back - lost for s in broke for lost, back, _m in s.gaps if lost >= killed - 0.1]
    retry = statistics.median(s.retry_s for s in lesson.students)
    from_kill = [back - killed for s in broke for _l, back, _m in s.gaps if back >= killed]
    stale = [s.n for s in broke for _l, back, m in s.gaps if back > stepped and m != mark]
    restarted = None
    deadline = clock() + 60
    while clock() < deadline:
        now = lesson.server.worker_pids()
        if len(now) == len(workers) and victim not in now:
            restarted = clock() - killed
            break
        await asyncio.sleep(0.05)
    # the class goes on: one more step reaches everyone
    final = await step(http, lesson, mark + 1)
    await reached(lesson.students, mark + 1)
    after = [s.seen[mark + 1] - final for s in lesson.students if mark + 1 in s.seen]
    return {
        "workers": len(workers),
        "broke": len(broke),
        "gaps": gaps,
        "after_retry": [gap - retry for gap in gaps],
        "from_kill": from_kill,
        "over_target": sum(1 for g in gaps if g > GAP_TARGET_S),
        "not_back": sum(1 for s in lesson.students if not s.connected.is_set()),
        "stale": len(stale),
        "refused": dict(Counter(str(status) for s in lesson.students for status in s.refused)),
        "restarted_s": restarted,
        "back_s": back,
        "survivor_cpu_s": survivor_cpu,
        "machine_busy": busy / total if total else 0.0,
        "step_s": stepped - killed - 0.5,
        "answers": answered,
        "after_step": after,
    }


def progress(what: str) -> None:
    print(f"{time.strftime('%H:%M:%S')} {what}", file=sys.stderr, flush=True)


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] if ordered else float("nan")


async def make_class(http: httpx.AsyncClient, server: Server) -> Class:
    made = await http.post(f"{server.url}/api/classes", json={"source": PROGRAM})
    assert made.status_code == 201, errors_of(made)
    body = made.json()
    lesson = Class(server, body["code"], body["teacher_key"])
    await step(http, lesson, 0)
    return lesson


async def run(args: argparse.Namespace, servers: list[Server], redis_pid: int) -> list[Results]:
    results = [Results() for _ in servers]
    limits = httpx.Limits(max_connections=args.students * 2 + 50, max_keepalive_connections=None)
    timeout = httpx.Timeout(30, read=None)
    async with (
        httpx.AsyncClient(timeout=30) as desk,  # the teacher's
        httpx.AsyncClient(timeout=timeout, limits=limits) as phones,  # the students' requests
    ):
        lessons = [await make_class(desk, server) for server in servers]
        # warm each server's class paths (its pub/sub connection, the stream's code), then
        # none connected: the memory before
        for lesson in lessons:
            await connect(lesson, 4, args, phones)
            await disconnect(lesson)
        await asyncio.sleep(1.5)
        before = [server.rss_mb() for server in servers]
        redis_before = rss_of(redis_pid)
        for lesson in lessons:
            await connect(lesson, args.students, args, phones)
        await asyncio.sleep(1.5)
        for result, server, mb in zip(results, servers, before, strict=True):
            result.rss = (mb, server.rss_mb())
            if server.broker:
                result.redis_rss = (redis_before, rss_of(redis_pid))

        # 1. steps, the servers taking turns
        progress("steps")
        stop = asyncio.Event()
        lags: list[float] = []
        monitor = asyncio.create_task(lag_monitor(lags, stop))
        cpu = time.process_time()
        began = clock()
        for mark in range(1, args.steps + 1):
            for lesson, result in zip(lessons, results, strict=True):
                posted = await step(desk, lesson, mark)
                await reached(lesson.students, mark)
                got = [s.seen[mark] - posted for s in lesson.students if mark in s.seen]
                result.delays += got
                result.missed += len(lesson.students) - len(got)
                result.per_step_p99.append(percentile(got, 0.99))
                await asyncio.sleep(0.1)
        wall = clock() - began
        cpu = time.process_time() - cpu
        stop.set()
        await monitor
        for result in results:
            result.loop_lag = lags
            result.client_cpu = cpu / wall
            result.steps_wall = wall

        # 2. answers, one server at a time
        for lesson, result in zip(lessons, results, strict=True):
            asked = await desk.post(
                lesson.path("/questions"), json={"node": 0, "kind": "number"}, headers=lesson.auth
            )
            assert asked.status_code == 201, errors_of(asked)
            lesson.question = asked.json()["question"]
            progress(f"answers: {lesson.server.name} (pid {lesson.server.process.pid})")  # type: ignore[union-attr]
            result.answers = await answers_round(desk, lesson, 1)

        # 3. a worker killed
        for lesson, result, server in zip(lessons, results, servers, strict=True):
            if server.broker and not args.skip_kill:
                progress(f"SIGKILL: {server.name}")
                result.kill = await kill_round(desk, lesson)
        for lesson in lessons:
            await disconnect(lesson)
    return results


# ── the table ─────────────────────────────────────────────────────────────────────────────────


def ms(seconds: float | None) -> str:
    return "–" if seconds is None else f"{seconds * 1000:,.0f}"


def triple(values: list[float]) -> str:
    if not values:
        return "–"
    p50, p99 = percentile(values, 0.5), percentile(values, 0.99)
    return f"{ms(p50)} / {ms(p99)} / {ms(max(values))} ms"


def statuses(counts: dict[str, int]) -> str:
    return ", ".join(f"{k}×{v}" for k, v in sorted(counts.items())) or "–"


def report(args: argparse.Namespace, servers: list[Server], results: list[Results]) -> None:
    rows: list[tuple[str, list[str]]] = []

    def row(label: str, cell: Any) -> None:
        rows.append((label, [cell(r, s) for r, s in zip(results, servers, strict=True)]))

    n = args.students
    row("step delay p50 / p99 / max", lambda r, s: triple(r.delays))
    row(
        f"steps reaching 99% within {ms(TARGET_S)} ms",
        lambda r, s: f"{sum(1 for p in r.per_step_p99 if p <= TARGET_S)} of {len(r.per_step_p99)}",
    )
    row("worst step's p99", lambda r, s: f"{ms(max(r.per_step_p99))} ms")
    row("steps never read (student × step)", lambda r, s: str(r.missed))
    row(
        "answers: first / second (1 in 10)",
        lambda r, s: f"{statuses(r.answers['statuses'])} / {statuses(r.answers['seconds'])}",
    )
    row(
        f"answers counted in the tally (of {n})",
        lambda r, s: f"{r.answers['counted']} (histogram {r.answers['histogram']})",
    )
    row("answer request p50 / p99 / max", lambda r, s: triple(r.answers["latency"]))
    row(
        "full count read by all, after the last 202",
        lambda r, s: (
            f"{ms(r.answers['all_counts_s'])} ms ({r.answers['got_count']} of {n} "
            f"read the full count)"
        ),
    )
    row("streams ended during the answers", lambda r, s: str(r.answers["ends"]))
    if any(r.kill for r in results):
        for label, cell in (
            ("SIGKILL: streams broken", lambda k: f"{k['broke']} of {n} ({k['workers']} workers)"),
            ("  gap, stream lost → position p50 / p99 / max", lambda k: triple(k["gaps"])),
            ("  the same, less the retry: wait", lambda k: triple(k["after_retry"])),
            ("  kill → position again p50 / p99 / max", lambda k: triple(k["from_kill"])),
            (
                f"  students whose gap passed {GAP_TARGET_S:.0f} s / never back / stale",
                lambda k: f"{k['over_target']} / {k['not_back']} / {k['stale']}",
            ),
            ("  refused reconnections (status: number)", lambda k: statuses(k["refused"])),
            (
                "  answers: first (retried) / second",
                lambda k: (
                    f"{statuses(k['answers']['statuses'])} ({k['answers']['retried']}) / "
                    f"{statuses(k['answers']['seconds'])}"
                ),
            ),
            (f"  answers counted (of {n})", lambda k: str(k["answers"]["counted"])),
            ("  worker started again after", lambda k: f"{ms(k['restarted_s'])} ms"),
            (
                "  until all were back: survivor's CPU, cores busy",
                lambda k: (
                    f"{k['survivor_cpu_s']:.2f} s of {k['back_s']:.2f} s, "
                    f"{k['machine_busy'] * os.cpu_count():.1f} of {os.cpu_count()} busy"
                ),  # type: ignore[operator]
            ),
            ("  teacher's step 0.5 s after the kill took", lambda k: f"{ms(k['step_s'])} ms"),
            ("  next step p50 / p99 / max", lambda k: triple(k["after_step"])),
        ):
            row(label, lambda r, s, cell=cell: cell(r.kill) if r.kill else "n/a")
    row(
        f"server RSS, 0 → {n} students",
        lambda r, s: f"{r.rss[0]:.0f} → {r.rss[1]:.0f} MB",
    )
    row(
        "per connected student",
        lambda r, s: f"{(r.rss[1] - r.rss[0]) * 1024 / n:.0f} KB",
    )
    row(
        "redis-server RSS",
        lambda r, s: f"{r.redis_rss[0]:.1f} → {r.redis_rss[1]:.1f} MB" if r.redis_rss else "–",
    )
    names = [s.name for s in servers]
    width = max(len(label) for label, _ in rows) + 2
    cols = [
        max(len(name), *(len(cells[i]) for _, cells in rows)) + 2 for i, name in enumerate(names)
    ]
    print()
    print("".ljust(width) + "".join(name.ljust(c) for name, c in zip(names, cols, strict=True)))
    for label, cells in rows:
        print(label.ljust(width) + "".join(v.ljust(c) for v, c in zip(cells, cols, strict=True)))
    lags = results[0].loop_lag
    print(
        f"\nclient ({args.client}, {n * len(servers)} streams in one process): "
        f"{results[0].client_cpu:.2f} of a core during the steps; its loop woke late by p50 "
        f"{ms(percentile(lags, 0.5))} ms, p99 {ms(percentile(lags, 0.99))} ms, "
        f"max {ms(max(lags, default=0))} ms"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--students", type=int, default=300)
    parser.add_argument("--steps", type=int, default=20)
    parser.add_argument("--workers", type=int, default=2, help="of the Redis setup")
    parser.add_argument("--skip-kill", action="store_true")
    parser.add_argument("--client", choices=("raw", "httpx"), default="raw")
    parser.add_argument(
        "--retry-ms", type=int, help="students reconnect after this, not the server's retry:"
    )
    args = parser.parse_args()
    load = os.getloadavg()
    print(
        f"gradstep classroom: {os.cpu_count()} cores, load average {load[0]:.2f}, "
        f"{args.students} students per class, {args.steps} steps, client {args.client}"
        + (f", reconnecting after {args.retry_ms} ms" if args.retry_ms else "")
    )
    root = Path(tempfile.mkdtemp(prefix="gradstep-classbench-"))
    try:
        with redis_server(root) as (broker, redis_pid):
            servers = [
                Server("1 worker, memory", 1, None, root / "single"),
                Server(f"{args.workers} workers, Redis", args.workers, broker, root / "redis"),
            ]
            try:
                for server in servers:
                    server.root.mkdir()
                    server.start()
                results = asyncio.run(run(args, servers, redis_pid))
            finally:
                for server in servers:
                    server.stop()
        report(args, servers, results)
        print(f"load average after: {os.getloadavg()[0]:.2f}")
    finally:
        if os.environ.get("GRADSTEP_BENCH_KEEP"):
            print(f"server logs kept in {root}")
        else:
            shutil.rmtree(root, ignore_errors=True)


if __name__ == "__main__":
    main()
