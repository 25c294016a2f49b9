"""What runs inside a training job's process: the engine's loop, its events sent as
``(kind, payload)`` pairs down a pipe. Imports the engine only, so a spawned worker starts fast.

The worker stops between batches once ``stop`` is set, and at once if the pipe breaks (the
server went away): it never outlives the job that started it by more than one batch.
"""

from __future__ import annotations

import time
from multiprocessing.connection import Connection
from multiprocessing.synchronize import Event as StopFlag
from typing import Any

from engine.errors import GradstepError
from engine.lab.config import TrainConfig, parameter_count
from engine.lab.train import Boundary, EpochReport, Setup, prepare, train

Message = tuple[str, dict[str, Any]]


def run(config: TrainConfig, conn: Connection, stop: StopFlag) -> None:
    try:
        for message in messages(config, stop.is_set):
            conn.send(message)
    except (BrokenPipeError, EOFError, OSError):
        pass  # the server closed its end: nobody is listening, so stop
    finally:
        conn.close()


def messages(config: TrainConfig, should_stop: Any = lambda: False) -> Any:
    """The job's events in order: start, epoch…, boundary every few epochs, then done or error."""
    epoch = 0
    try:
        setup = prepare(config)
        yield "start", start_payload(setup)
        began = time.perf_counter()
        for event in train(setup, should_stop):
            elapsed = time.perf_counter() - began
            if isinstance(event, EpochReport):
                epoch = event.epoch
                eta = elapsed / event.epoch * (event.epochs - event.epoch)
                yield (
                    "epoch",
                    {
                        "epoch": event.epoch,
                        "epochs": event.epochs,
                        "loss": event.loss,
                        "accuracy": event.accuracy,
                        "lr": event.lr,
                        "elapsed": round(elapsed, 3),
                        "eta": round(eta, 3),
                    },
                )
            elif isinstance(event, Boundary):
                yield "boundary", {"epoch": event.epoch, **grid_payload(event)}
            else:
                yield (
                    "done",
                    {
                        "epochs_run": event.epochs_run,
                        "stopped": event.stopped,
                        "loss": event.loss,
                        "accuracy": event.accuracy,
                        "elapsed": round(elapsed, 3),
                        "parameters": event.parameters,
                    },
                )
    except GradstepError as e:
        if e.kind == "overflow":  # a number too large for a float: the run diverged
            smaller = "learning rate or L2 strength" if config.l2 else "learning rate"
            e = GradstepError(
                f"the run diverged in epoch {epoch + 1} ({e.message}): try a smaller {smaller}",
                kind="overflow",
            )
        yield "error", {"error": e.to_dict()}
    except (ArithmeticError, RecursionError, MemoryError) as e:
        yield "error", {"error": {"message": f"training failed: {e}", "kind": "numeric"}}


def start_payload(setup: Setup) -> dict[str, Any]:
    b = setup.bounds
    return {
        "points": setup.points,
        "labels": setup.labels,
        "classes": setup.classes,
        "parameters": parameter_count(setup.config),
        "bounds": {"x_min": b.x_min, "x_max": b.x_max, "y_min": b.y_min, "y_max": b.y_max},
    }


def grid_payload(event: Boundary) -> dict[str, Any]:
    grid = event.grid
    return {
        "n": grid.n,
        "classes": grid.classes,
        "confidence": grid.confidence,
        "parameters": event.parameters,
    }
