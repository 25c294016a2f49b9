"""The interpreter's budget: counters checked while the program runs, each against its limit in
``engine.limits``. Going over raises a ``limit`` error with no span; the statement or expression
that was running locates it. Every check happens before the work it guards."""

from __future__ import annotations

import time
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar

from engine import limits
from engine.errors import GradstepError

CLOCK_EVERY = 256  # statements or loop passes between two looks at the clock (a few ms of work)

# the deadline (time.monotonic()) of the runs made within ``time_limit``, and its seconds; None:
# each run has MAX_RUN_S of its own
_DEADLINE: ContextVar[tuple[float, float] | None] = ContextVar("gradstep_deadline", default=None)


def _limit(message: str) -> GradstepError:
    return GradstepError(message, kind="limit")


class OutOfTime(GradstepError):
    """A run passed its deadline (``MAX_RUN_S``): not retried by whoever runs a program again
    (an own engine's derivative runs), as the next run would be out of time too."""


@contextmanager
def time_limit(seconds: float | None = None) -> Iterator[None]:
    """Every run begun inside ends within ``seconds`` (None: MAX_RUN_S) from now, all of them
    together (one request's: an own engine's program runs again up to MAX_TRUTH_RUNS times)."""
    seconds = limits.MAX_RUN_S if seconds is None else seconds
    mine = (time.monotonic() + seconds, seconds)
    outer = _DEADLINE.get()
    token = _DEADLINE.set(mine if outer is None else min(outer, mine))
    try:
        yield
    finally:
        _DEADLINE.reset(token)


class Budget:
    __slots__ = (
        "all_values", "bulk_items", "deadline", "depth", "instances", "iterations", "seconds",
        "statements", "text", "values",
    )  # fmt: skip

    def __init__(self) -> None:
        shared = _DEADLINE.get()
        self.seconds = limits.MAX_RUN_S if shared is None else shared[1]
        self.deadline = time.monotonic() + self.seconds if shared is None else shared[0]
        self.statements = 0
        self.iterations = 0
        self.depth = 0
        self.values = 0  # in the graph being built: made since the last iteration's backward()
        self.all_values = 0
        self.bulk_items = 0
        self.instances = 0
        self.text = 0

    def statement(self) -> None:
        self.statements += 1
        if self.statements > limits.MAX_STATEMENTS:
            raise _limit(
                f"the program ran {self.statements:,} statements; the limit is "
                f"{limits.MAX_STATEMENTS:,} (each pass through a loop or a function counts)"
            )
        if not self.statements % CLOCK_EVERY:
            self.clock()

    def clock(self) -> None:
        """Stops the run past its deadline."""
        if time.monotonic() > self.deadline:
            raise OutOfTime(
                f"the program ran for more than {self.seconds:g} s, gradstep's limit for one "
                "run (a smaller model, fewer points or fewer steps would fit)",
                kind="limit",
            )

    def loop(self, items: Iterable[object], what: str = "this loop") -> Iterator[object]:
        """``items``, counted against the per-loop and the total limit as they are taken."""
        n = 0
        try:
            for item in items:
                n += 1
                self.iterations += 1
                if n > limits.MAX_LOOP_ITERATIONS:
                    raise _limit(
                        f"{what} ran {n:,} times; the limit is {limits.MAX_LOOP_ITERATIONS:,}"
                    )
                if not self.iterations % CLOCK_EVERY:
                    self.clock()
                if self.iterations > limits.MAX_TOTAL_ITERATIONS:
                    raise _limit(
                        f"the program's loops ran {self.iterations:,} times in all; the limit "
                        f"is {limits.MAX_TOTAL_ITERATIONS:,}"
                    )
                yield item
        except ValueError as error:  # g = (sum(g) for i in range(2)): Python's own refusal
            if "already executing" not in str(error):
                raise
            raise GradstepError(
                "a generator is read while it is still making its items (it reads itself): "
                "make a list first, as in xs = [...], and read that",
                kind="unsupported",
            ) from None

    def enter(self) -> None:
        self.depth += 1
        if self.depth > limits.MAX_CALL_DEPTH:
            raise _limit(
                f"calls nest {self.depth} deep here; the limit is {limits.MAX_CALL_DEPTH} "
                "(does a function call itself without end?)"
            )

    def leave(self) -> None:
        self.depth -= 1

    def value(self) -> None:
        self.values += 1
        if self.values > limits.MAX_VALUES_MADE:
            raise _limit(
                f"the program made {self.values:,} values before a backward(); the limit is "
                f"{limits.MAX_VALUES_MADE:,}, and a graph may have {limits.MAX_NODES:,} (a "
                "smaller model, fewer points or fewer steps would fit)"
            )
        self.all_values += 1
        if self.all_values > limits.MAX_TOTAL_NODES:
            raise _limit(
                f"the program made {self.all_values:,} values in all; the limit is "
                f"{limits.MAX_TOTAL_NODES:,} (fewer iterations, a smaller model or fewer points "
                "would fit)"
            )

    def graph(self, n: int) -> None:
        """A graph of ``n`` values, walked by ``backward()`` or drawn."""
        if n > limits.MAX_NODES:
            raise _limit(
                f"the graph would have {n:,} values; the limit is {limits.MAX_NODES:,} "
                "(a smaller model, fewer points or fewer steps would fit)"
            )

    def next_graph(self) -> None:
        """A training loop's next iteration begins: its graph is counted afresh."""
        self.values = 0

    def instance(self) -> None:
        self.instances += 1
        if self.instances > limits.MAX_INSTANCES:
            raise _limit(
                f"the program made {self.instances:,} objects of its own classes; the limit is "
                f"{limits.MAX_INSTANCES:,} (a smaller model, fewer points or fewer steps would fit)"
            )

    def chars(self, n: int) -> None:
        """A string of ``n`` characters about to be built: checked before it is."""
        if n > limits.MAX_TEXT_CHARS:
            raise _limit(
                f"this string would have {n:,} characters; the limit is {limits.MAX_TEXT_CHARS:,}"
            )
        self.text += n
        if self.text > limits.MAX_TEXT_BUILT:
            raise _limit(
                f"the program has built {self.text:,} characters of strings; the limit is "
                f"{limits.MAX_TEXT_BUILT:,}"
            )

    def size(self, n: int, what: str = "this list") -> None:
        if n > limits.MAX_LIST_SIZE:
            raise _limit(f"{what} would have {n:,} items; the limit is {limits.MAX_LIST_SIZE:,}")

    def bulk(self, n: int) -> None:
        self.bulk_items += n
        if self.bulk_items > limits.MAX_BULK_ITEMS:
            raise _limit(
                f"the program has copied, compared or hashed list, tuple and array items and "
                f"walked graph nodes {self.bulk_items:,} times; the limit is "
                f"{limits.MAX_BULK_ITEMS:,}"
            )


def check_int_bits(bits: float, text: str) -> None:
    """Refuse a whole number of about ``bits`` bits before computing it (``text``: the op)."""
    if bits > limits.MAX_INT_BITS:
        raise GradstepError(
            f"{text} overflows: the result would be a whole number of about {bits:,.0f} bits; "
            f"the limit is {limits.MAX_INT_BITS:,} bits, the range of a float",
            kind="overflow",
        )
