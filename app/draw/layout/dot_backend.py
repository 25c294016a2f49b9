"""Layout with the ``dot`` program on PATH, in a subprocess killed at the time limit."""

from __future__ import annotations

import shutil
import subprocess

from app.capacity import layout_failed
from app.draw.layout.limits import too_complex
from engine.errors import GradstepError


def dot_available() -> bool:
    return shutil.which("dot") is not None


def layout_with_dot(source: str, timeout: float) -> str:
    """The SVG of ``source`` as drawn by ``dot -Tsvg``."""
    try:
        done = subprocess.run(
            ["dot", "-Tsvg"], input=source.encode(), capture_output=True, timeout=timeout
        )  # on timeout, run() kills dot and reaps it before raising
    except subprocess.TimeoutExpired:
        raise too_complex(timeout) from None
    except OSError as error:  # dot vanished from PATH, or no memory or processes left
        raise layout_failed(f"dot could not start: {error.strerror or error}") from None
    if done.returncode < 0:  # killed by a signal (the OOM killer, an operator): not the graph
        raise layout_failed(f"dot was killed by signal {-done.returncode}")
    if done.returncode != 0:
        detail = done.stderr.decode(errors="replace").strip().splitlines()[:1]
        raise GradstepError(f"Graphviz could not draw this graph: {' '.join(detail)}", "layout")
    return done.stdout.decode()
