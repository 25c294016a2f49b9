"""A clean SIGTERM: requests in flight finish, training jobs stop at once, and no child process
outlives the server.

uvicorn answers SIGTERM by refusing new connections and waiting for open ones to finish. A
graph request finishes in seconds, but a training stream would hold the server up for its whole
run (minutes), so on the signal every job is told to stop: its stream ends with its ``done``
event and its worker process exits, and then uvicorn can end. The same happens in each worker
process of ``gradstep serve --workers N`` (uvicorn passes the signal on to each).
"""

from __future__ import annotations

import asyncio
import multiprocessing.forkserver
import multiprocessing.resource_tracker
import threading
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from app.exit_signals import on_exit_signal
from app.training.jobs import TrainingJobs


def cancel_training(jobs: TrainingJobs, reason: str = "shutdown") -> None:
    for job in jobs.running():
        job.cancel(reason)


@asynccontextmanager
async def stop_training_on_exit(jobs: TrainingJobs) -> AsyncIterator[None]:
    """A lifespan: SIGTERM and SIGINT stop every training job at once (app/exit_signals.py), and
    at shutdown every worker is waited for."""
    try:
        async with on_exit_signal(lambda: cancel_training(jobs)):
            yield
    finally:
        await asyncio.to_thread(jobs.close)


def stop_multiprocessing_helpers() -> None:
    """End the training jobs' fork server, then multiprocessing's resource tracker, and wait for
    each. The tracker is started for the PNG pool's and the jobs' queues and events, and ends
    only when every holder of its pipe has; the server is the last, so without this both outlive
    it, reparented to PID 1. Call it once every other child has ended. Only in a server's main
    thread: a test harness (its TestClient runs the lifespan in another thread) keeps them for
    the apps that follow, and under ``--workers`` the tracker is the supervisor's."""
    if threading.current_thread() is not threading.main_thread():
        return
    fork_server = multiprocessing.forkserver._forkserver
    stop_forking = getattr(fork_server, "_stop", None)  # closes its "alive" pipe, waits for it
    if getattr(fork_server, "_forkserver_pid", None) is not None and stop_forking is not None:
        stop_forking()
    tracker = multiprocessing.resource_tracker._resource_tracker
    stop = getattr(tracker, "_stop", None)  # CPython 3.11.5+ and 3.12+
    if getattr(tracker, "_pid", None) is not None and stop is not None:
        stop()
