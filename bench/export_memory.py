"""Peak memory of the largest exports the server accepts: micrograd's README program as a PNG, a
ZIP of every step and a GIF of the backward pass, as 16:9 slides and as the bare graph, each at
the largest scale accepted (found from the 422s that larger scales get, which name it).

Each export runs in a fresh ``gradstep serve`` so that the kernel's high-water marks (VmHWM) are
that export's own: the server's process, and the PNG process (resvg) it starts. Their sum bounds
the server's peak from above.

    python bench/export_memory.py [--layout dot|wasm]
"""

from __future__ import annotations

import argparse
import re
import sys
import time
from pathlib import Path

import httpx

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests" / "api"))

from served import gradstep_serve  # noqa: E402

EXPORTS = [("png", "16:9"), ("zip", "16:9"), ("gif", "16:9"), ("png", "graph"), ("zip", "graph"),
           ("gif", "graph")]  # fmt: skip
MIB = 2**20


def status_kib(pid: int, field: str) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith(field + ":"):
            return int(line.split()[1])
    return 0


def children(pid: int) -> list[int]:
    found = []
    for entry in Path("/proc").iterdir():
        try:
            if entry.name.isdigit() and int((entry / "stat").read_text().split()[3]) == pid:
                found.append(int(entry.name))
        except (OSError, ValueError):
            continue
    return found


def largest_scale(url: str, kind: str, aspect: str) -> float:
    """4, or the largest scale a refusal names, until one is accepted (HEAD: nothing is drawn)."""
    scale = 4.0
    while True:
        params = {"preset": "micrograd-readme", "aspect": aspect, "scale": str(scale)}
        answer = httpx.head(f"{url}/api/graph.{kind}", params=params, timeout=60)
        if answer.status_code == 200:
            return scale
        refused = httpx.get(f"{url}/api/graph.{kind}", params=params, timeout=60)
        scale = float(re.search(r"at most ([\d.]+)", refused.json()["error"]["message"])[1])  # type: ignore[index]


def measure(kind: str, aspect: str, layout: str) -> tuple[float, str, int, float, float, float]:
    with gradstep_serve({"GRADSTEP_LAYOUT": layout}) as (process, url):
        scale = largest_scale(url, kind, aspect)
        params = {"preset": "micrograd-readme", "aspect": aspect, "scale": str(scale)}
        start = time.perf_counter()
        size = 0
        with httpx.stream("GET", f"{url}/api/graph.{kind}", params=params, timeout=900) as answer:
            assert answer.status_code == 200, answer.read()[:300]
            frames = answer.headers.get("x-gradstep-frames", "1")
            for chunk in answer.iter_bytes():
                size += len(chunk)
        seconds = time.perf_counter() - start
        server = status_kib(process.pid, "VmHWM") / 1024
        png = sum(status_kib(child, "VmHWM") for child in children(process.pid)) / 1024
    return scale, frames, size, seconds, server, png


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--layout", default="dot", choices=("dot", "wasm"))
    args = parser.parse_args()
    print("| export | aspect | largest scale | pictures | sent | time | server peak | "
          "children's peak | sum |")  # fmt: skip
    print("| --- | --- | --- | --- | --- | --- | --- | --- | --- |")
    for kind, aspect in EXPORTS:
        scale, frames, size, seconds, server, png = measure(kind, aspect, args.layout)
        print(
            f"| {kind.upper()} | {aspect} | {scale:g} | {frames} | {size / MIB:.1f} MiB "
            f"| {seconds:.0f} s | {server:.0f} MiB | {png:.0f} MiB | {server + png:.0f} MiB |",
            flush=True,
        )


if __name__ == "__main__":
    main()
