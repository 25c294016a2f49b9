"""The one way every bench script times things: the first call apart from the repeats, then the
median and the spread (lowest to highest) of the repeats; alternatives measured side by side in
one run, interleaved round by round, so a burst of load from elsewhere on a shared machine
falls on all of them; ratios of medians, with the spread of the round-by-round ratios.

    from timing import interleaved, measure

    t = measure(lambda: work(), repeat=7)  # Timing(first=..., repeats=[...])
    print(t)  # 12.3 ms (first 20.1, 11.8–13.0)
    ts = interleaved({"ours": f, "theirs": g}, 7)  # {"ours": Timing, "theirs": Timing}
    print(ratio(ts["theirs"], ts["ours"]))  # 2.31× (2.10–2.52): of the medians (of each round)

``in_processes`` runs a bench script's own ``--child`` mode in several fresh interpreters, one
alternative per process and the alternatives taking turns, for work whose cost depends on
what a process has done before (the cyclic garbage collector's heap, caches, imports).
"""

from __future__ import annotations

import json
import os
import statistics
import subprocess
import sys
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field

Clock = Callable[[], float]
WALL: Clock = time.perf_counter
CPU: Clock = time.process_time  # this process's CPU time: for work that runs in it alone


@dataclass
class Timing:
    """Seconds: the first call, and each repeat after it."""

    first: float
    repeats: list[float] = field(default_factory=list)

    @property
    def median(self) -> float:
        return statistics.median(self.repeats) if self.repeats else self.first

    @property
    def low(self) -> float:
        return min(self.repeats, default=self.first)

    @property
    def high(self) -> float:
        return max(self.repeats, default=self.first)

    def __str__(self) -> str:
        return f"{ms(self.median)} (first {ms(self.first, unit='')}, {self.spread()})"

    def spread(self) -> str:
        return f"{ms(self.low, unit='')}–{ms(self.high, unit='')}"

    def as_json(self) -> dict[str, object]:
        return {"first": self.first, "repeats": self.repeats}

    @classmethod
    def pooled(cls, timings: Sequence[Timing]) -> Timing:
        """Several processes' timings as one: the median first call, every repeat."""
        return cls(
            statistics.median(t.first for t in timings), [r for t in timings for r in t.repeats]
        )


def ms(seconds: float, unit: str = " ms") -> str:
    value = seconds * 1000
    text = f"{value:,.0f}" if value >= 100 else f"{value:.1f}" if value >= 1 else f"{value:.2f}"
    return text + unit


def measure(run: Callable[[], object], repeat: int, clock: Clock = WALL) -> Timing:
    """``run``'s first call, then ``repeat`` more."""
    return interleaved({"": run}, repeat, clock)[""]


def interleaved(
    runs: Mapping[str, Callable[[], object]], repeat: int, clock: Clock = WALL
) -> dict[str, Timing]:
    """Each alternative's first call, then ``repeat`` rounds in which each runs once; the
    order within a round turns, so none always runs right after another."""
    names = list(runs)
    timings = {name: Timing(_time(runs[name], clock)) for name in names}
    for r in range(repeat):
        for name in names[r % len(names) :] + names[: r % len(names)]:
            timings[name].repeats.append(_time(runs[name], clock))
    return timings


def by_round(runs: Mapping[str, Callable[[int], object]], repeat: int) -> dict[str, Timing]:
    """Like interleaved, in the given order, with the round's number (0: the first call), so
    each round can work on a variant of its own (bench/api.py: laid out alone, then asked for
    cold, then warm)."""
    timings = {name: Timing(0.0) for name in runs}
    for r in range(repeat + 1):
        for name, run in runs.items():
            start = time.perf_counter()
            run(r)
            elapsed = time.perf_counter() - start
            if r == 0:
                timings[name].first = elapsed
            else:
                timings[name].repeats.append(elapsed)
    return timings


def _time(run: Callable[[], object], clock: Clock) -> float:
    start = clock()
    run()
    return clock() - start


def ratio(slower: Timing, faster: Timing) -> str:
    """slower ÷ faster, of the medians, with the lowest and highest ratio of the repeats taken
    in the same round (when both have as many)."""
    text = f"{slower.median / faster.median:.2f}×"
    pairs = list(zip(slower.repeats, faster.repeats, strict=False))
    if len(pairs) > 1 and len(slower.repeats) == len(faster.repeats):
        ratios = sorted(a / b for a, b in pairs)
        text += f" ({ratios[0]:.2f}–{ratios[-1]:.2f})"
    return text


def in_processes(
    script: str,
    alternatives: Sequence[str],
    processes: int,
    repeat: int,
    args: Sequence[str] = (),
    env: Mapping[str, Mapping[str, str]] | None = None,
) -> dict[str, Timing]:
    """``python script --child NAME --repeat N [args]`` for every alternative, in ``processes``
    rounds of fresh interpreters (the order turning each round), pooled; ``env`` adds
    variables for an alternative (PYTHONPATH to time another checkout)."""
    found: dict[str, list[Timing]] = {name: [] for name in alternatives}
    names = list(alternatives)
    for r in range(processes):
        for name in names[r % len(names) :] + names[: r % len(names)]:
            command = [sys.executable, script, "--child", name, "--repeat", str(repeat), *args]
            extra = (env or {}).get(name, {})
            done = subprocess.run(
                command, capture_output=True, text=True, env={**os.environ, **extra}, check=False
            )
            if done.returncode != 0:
                raise RuntimeError(f"{name}: {done.stderr.strip().splitlines()[-1:]}")
            found[name].append(Timing(**json.loads(done.stdout.strip().splitlines()[-1])))
    return {name: Timing.pooled(timings) for name, timings in found.items()}


def child_output(timing: Timing) -> None:
    """What a ``--child`` process prints for ``in_processes``: its timing, as JSON."""
    print(json.dumps(timing.as_json()))
