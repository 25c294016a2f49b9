"""A lecture hall with one misbehaving laptop: `gradstep serve` (one worker) holding 1,000 idle
sockets and 500 event streams from one address while 60 students (each from an address of
their own, through a trusted proxy's X-Forwarded-For) follow a class; the time /healthz takes,
and the time from the teacher's step to the last student receiving it, beside the same with
nothing else held.

    python bench/connections.py [--repeat N] [--idle N] [--streams N] [--students N]
"""

from __future__ import annotations

import argparse
import socket
import statistics
import sys
import time
from contextlib import ExitStack
from pathlib import Path

import httpx

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "tests" / "api")]  # before bench/ (its engine.py)

from served import gradstep_serve  # noqa: E402
from test_connections import _address, _read_until, _stream  # noqa: E402

PROGRAM = "a = 2.0\nb = -3.0\nc = a * b\nd = c + a"


def measure(url: str, client: httpx.Client, args: argparse.Namespace, flood: bool) -> str:
    made = client.post(f"{url}/api/classes", json={"source": PROGRAM}).json()
    code, auth = made["code"], {"authorization": f"Bearer {made['teacher_key']}"}
    with ExitStack() as held:
        students = []
        for n in range(args.students):
            s = held.enter_context(_stream(url, code, f"10.0.{n // 250}.{n % 250 + 1}"))
            _read_until(s, b"data: ")
            students.append(s)
        if flood:
            for _ in range(args.streams):
                held.enter_context(_stream(url, code))
            for _ in range(args.idle):
                held.enter_context(socket.create_connection(_address(url)))
        health, reach = [], []
        for k in range(args.repeat):
            t = time.perf_counter()
            assert client.get(f"{url}/healthz").status_code == 200
            health.append(time.perf_counter() - t)
            t = time.perf_counter()
            body = {"phase": "backward" if k % 2 == 0 else "forward", "step": 1}
            assert client.post(f"{url}/api/classes/{code}/position", json=body, headers=auth)
            needle = f'"phase":"{body["phase"]}"'.encode()
            for s in students:
                _read_until(s, needle)
            reach.append(time.perf_counter() - t)
    return (
        f"/healthz {statistics.median(health) * 1000:.1f} ms (max {max(health) * 1000:.1f}), "
        f"a step reaching all {args.students} students {statistics.median(reach) * 1000:.1f} ms "
        f"(max {max(reach) * 1000:.1f})"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=20)
    parser.add_argument("--idle", type=int, default=1000)
    parser.add_argument("--streams", type=int, default=500)
    parser.add_argument("--students", type=int, default=60)
    args = parser.parse_args()
    env = {"GRADSTEP_TRUSTED_PROXIES": "127.0.0.1", "GRADSTEP_WORKERS": "1"}
    with gradstep_serve(env) as (_process, url), httpx.Client(timeout=30) as client:
        print("quiet:", measure(url, client, args, flood=False))
        print(f"{args.idle:,} idle sockets + {args.streams} streams from one address:",
              measure(url, client, args, flood=True))  # fmt: skip


if __name__ == "__main__":
    main()
