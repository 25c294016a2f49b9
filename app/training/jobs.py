"""Training jobs: one spawned process each, a named cap on how many run at once.

Pure-Python training in a thread would hold the GIL against every other request, so each job
is a process. A reader thread per job carries the worker's messages from its pipe into an
asyncio queue for the event stream, and, once the pipe closes, joins the process and frees the
slot. Cancelling sets the worker's stop flag (it stops between batches); a worker that has not
ended ``STOP_GRACE_S`` later is terminated, then killed.
"""

from __future__ import annotations

import asyncio
import multiprocessing
import multiprocessing.forkserver
import threading
import time
import uuid
from dataclasses import dataclass, field
from multiprocessing.connection import Connection
from typing import Any

from app.capacity import Unavailable
from app.training.worker import Message, run
from engine.lab.config import TrainConfig

MAX_TRAINING_JOBS = 2  # concurrent jobs: one per core of a small server
MAX_TRAINING_SECONDS = 600.0  # a job still running after this is cancelled
STOP_GRACE_S = 3.0  # from the stop flag to SIGTERM, and again to SIGKILL
POLL_S = 0.25  # how often a reader thread looks at the clock while its worker is quiet
RETRY_AFTER_S = 15  # the Retry-After of a 503 when every slot is busy

# Workers are forked from a fork server: a clean single-threaded process (no fork of a threaded
# server) started once, with the worker's modules (the engine, numpy) already imported, so a
# job starts in milliseconds instead of a fresh interpreter's half second.
_WORKERS = multiprocessing.get_context("forkserver")
_WORKERS.set_forkserver_preload(["app.training.worker", "engine.lab.tape"])


class TrainingBusy(Unavailable):
    """Every job slot is taken: try again in ``RETRY_AFTER_S``."""

    def __init__(self, max_jobs: int) -> None:
        message = f"all {max_jobs} training slots are busy: try again shortly"
        super().__init__(message, "busy", RETRY_AFTER_S)


@dataclass
class Job:
    id: str
    process: Any  # multiprocessing.context.SpawnProcess
    conn: Connection
    stop_flag: Any  # multiprocessing.synchronize.Event
    queue: asyncio.Queue[Message | None]
    loop: asyncio.AbstractEventLoop
    started: float = field(default_factory=time.monotonic)
    epoch: int = 0
    reason: str | None = None  # why it was cancelled: "stop", "disconnect", "time limit"
    ended: threading.Event = field(default_factory=threading.Event)

    def cancel(self, reason: str) -> None:
        """Ask the worker to stop between batches; escalate if it does not."""
        if self.ended.is_set() or self.stop_flag.is_set():
            return
        self.reason = reason
        self.stop_flag.set()
        threading.Thread(target=self._escalate, name=f"stop-{self.id}", daemon=True).start()

    def _escalate(self) -> None:
        if self.ended.wait(STOP_GRACE_S):
            return
        self.process.terminate()
        if not self.ended.wait(STOP_GRACE_S):
            self.process.kill()

    def describe(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "pid": self.process.pid,
            "alive": self.process.is_alive(),
            "epoch": self.epoch,
            "seconds": round(time.monotonic() - self.started, 3),
            "cancelled": self.reason,
        }


class TrainingJobs:
    """The running jobs of one app."""

    def __init__(self, max_jobs: int = MAX_TRAINING_JOBS) -> None:
        self.max_jobs = max_jobs
        self._jobs: dict[str, Job] = {}
        self._lock = threading.Lock()

    def start(self, config: TrainConfig) -> Job:
        """A new job on the running event loop; TrainingBusy if every slot is taken."""
        loop = asyncio.get_running_loop()
        with self._lock:
            if len(self._jobs) >= self.max_jobs:
                raise TrainingBusy(self.max_jobs)
            parent, child = _WORKERS.Pipe(duplex=False)
            stop_flag = _WORKERS.Event()
            process = _WORKERS.Process(
                target=run, args=(config, child, stop_flag), name="gradstep-train", daemon=True
            )
            job = Job(uuid.uuid4().hex[:12], process, parent, stop_flag, asyncio.Queue(), loop)
            self._jobs[job.id] = job
        try:
            process.start()
        except BaseException:
            with self._lock:
                del self._jobs[job.id]
            raise
        finally:
            child.close()  # the worker holds the only write end: its exit means end of file
        threading.Thread(target=self._read, args=(job,), name=f"read-{job.id}", daemon=True).start()
        return job

    @staticmethod
    def warm() -> None:
        """Start the fork server ahead of the first job (it imports the engine and numpy)."""
        multiprocessing.forkserver.ensure_running()

    def get(self, job_id: str) -> Job | None:
        with self._lock:
            return self._jobs.get(job_id)

    def running(self) -> list[Job]:
        with self._lock:
            return list(self._jobs.values())

    def close(self) -> None:
        """Cancel every job and wait for the workers to end (the app is shutting down)."""
        jobs = self.running()
        for job in jobs:
            job.cancel("shutdown")
        for job in jobs:
            job.ended.wait(3 * STOP_GRACE_S)

    def _read(self, job: Job) -> None:
        try:
            while True:
                if not job.conn.poll(POLL_S):
                    if time.monotonic() - job.started > MAX_TRAINING_SECONDS:
                        job.cancel("time limit")
                    continue
                message = job.conn.recv()
                if message[0] == "epoch":
                    job.epoch = message[1]["epoch"]
                self._deliver(job, message)
        except (EOFError, OSError):
            pass  # the worker ended and its end of the pipe closed
        finally:
            job.process.join()
            job.conn.close()
            with self._lock:
                self._jobs.pop(job.id, None)
            job.ended.set()
            self._deliver(job, None)

    @staticmethod
    def _deliver(job: Job, message: Message | None) -> None:
        try:
            job.loop.call_soon_threadsafe(job.queue.put_nowait, message)
        except RuntimeError:
            pass  # the event loop is closed: nobody is listening any more
