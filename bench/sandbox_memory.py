"""The server process's memory with the sandbox: its resident set (RSS) once the component is
loaded, its peak while 4 runs go at once (the run gate's slots on a 4-core server), and after
1,000 runs one after another (each run is a fresh store and instance: nothing should pile up).

    python bench/sandbox_memory.py [--runs N]

The programs: the lecture's 20-iteration training loop (the 4 at once) and micrograd's README
(the 1,000), each run afresh (the record cache cleared), as a request that misses it would.
"""

from __future__ import annotations

import argparse
import sys
import threading
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from app.lecture import LECTURE_TRAINING, MICROGRAD_README
from engine import runner


def status(field: str) -> float:
    """A field of /proc/self/status, in MB (VmRSS: now; VmHWM: the peak so far)."""
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith(field + ":"):
            return int(line.split()[1]) / 1024
    raise KeyError(field)


def fresh(source: str, values: dict[str, float]) -> None:
    runner._records.clear()
    runner.run_record(source, values, "auto")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=1000)
    args = parser.parse_args()
    runner.sandbox().load()
    fresh(MICROGRAD_README, {})
    print(f"loaded: RSS {status('VmRSS'):.0f} MB")
    threads = [threading.Thread(target=fresh, args=(LECTURE_TRAINING, {})) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    print(f"4 runs at once: peak RSS {status('VmHWM'):.0f} MB, then RSS {status('VmRSS'):.0f} MB")
    for i in range(args.runs):
        fresh(MICROGRAD_README, {"a": -4.0 + i / args.runs})
        if (i + 1) % (args.runs // 4 or 1) == 0:
            print(f"after {i + 1} runs: RSS {status('VmRSS'):.0f} MB")


if __name__ == "__main__":
    main()
