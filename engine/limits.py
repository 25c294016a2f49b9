"""The limits on a program, as named constants the app can show and settings can change.

A program runs in CPython inside a WebAssembly sandbox (engine.runner), so the limits on its
work are the sandbox's, exact and deterministic: ``RUN_FUEL`` units of WebAssembly work (the
same program always uses the same fuel: about 10 s of a training loop on a 2-core machine, 8 s
of an empty ``while True: pass``; a run that makes values stops itself when a quarter of its
fuel is left, keeping what it printed and made), and ``RUN_MEMORY_MB`` of memory (past
it, a ``MemoryError`` inside). The server's settings can change both (app/settings.py).

What the recorder keeps of a run: ``MAX_NODES`` values in a graph it keeps (a larger one is
counted, not kept, and is refused if it is the one to draw); ``MAX_KEPT_NODES`` values in all
the graphs of a run together (a training loop's iterations: later ones past it are counted,
not kept); ``MAX_CONSOLE_CHARS`` characters of printed output. ``MAX_SOURCE_CHARS`` bounds the
text, which a whole notebook chapter fits.

``DEFAULT_SEED`` seeds ``random`` and numpy's ``np.random`` before every run: the same program
always builds the same graph.
"""

from __future__ import annotations

from dataclasses import dataclass

MAX_SOURCE_CHARS = 60_000  # characters of source text: a whole chapter (seed 002's is 22,669)
MAX_NODES = 5_000  # values in one graph (one training iteration's): inputs, constants, results
MAX_KEPT_NODES = 400_000  # values in all the graphs one run keeps (a loop's iterations)
MAX_ITERATIONS = 100_000  # passes of backward() one run records (later ones are not drawn)
MAX_CHECK_EVALUATIONS = 100_000  # op re-evaluations the numerical gradient check may spend
MAX_TRUTH_RUNS = 40  # runs of a learner's program to find derivatives gradstep's ops do not know
MAX_MESSAGE_CHARS = 200  # an error's message as shown: a raise or assert of 100 KB is cut
MAX_LABEL_CHARS = 100  # a value's label, name or (a learner's engine) op text, as drawn
MAX_PARENTS = 1_000  # a value's operands (a learner's engine may list any number)
MAX_CONSOLE_CHARS = 50_000  # characters print() shows; the rest is cut, with a line saying so
RUN_FUEL = 27_000_000_000  # units of work one run may do (wasmtime's fuel): about 10 s here
RUN_MEMORY_MB = 512  # the memory one run may use
DEFAULT_SEED = 0  # random.seed() and np.random.seed() before every run


@dataclass(frozen=True, slots=True)
class RunLimits:
    """What one run may use: passed to each run (``engine.runner.run``), from the server's
    settings (app/settings.py, app/pipeline.py's ``Pipeline``) or these defaults."""

    fuel: int = RUN_FUEL
    memory_mb: int = RUN_MEMORY_MB


DEFAULT_LIMITS = RunLimits()


def cut_message(message: str) -> str:
    """An error's message as shown: at most ``MAX_MESSAGE_CHARS`` characters (the sandbox cuts
    it, and the host again, as the program inside could say anything)."""
    if len(message) <= MAX_MESSAGE_CHARS:
        return message
    return message[: MAX_MESSAGE_CHARS - 1] + "…"
