"""Stop requests that reach another worker process than the job's own.

Under ``gradstep serve --workers N`` each worker holds its own training jobs, and the browser's
Stop request (a new connection) lands on any of them. The CLI makes one directory for the whole
server (``GRADSTEP_JOB_BOARD``, inherited by every worker): a worker pins a file per running job
there, a Stop for a job it does not hold leaves a request beside it, and the job's reader thread,
which already wakes every quarter second, sees it. Without the variable (one process, tests)
there is nothing to share and nothing is written.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

ENV = "GRADSTEP_JOB_BOARD"
_JOB_ID = re.compile(r"[0-9a-f]{12}")  # training_jobs makes uuid4().hex[:12]


def _board() -> Path | None:
    where = os.environ.get(ENV)
    return Path(where) if where else None


def _file(job_id: str, suffix: str) -> Path | None:
    board = _board()
    if board is None or not _JOB_ID.fullmatch(job_id):
        return None
    return board / f"{job_id}.{suffix}"


def pin(job_id: str) -> None:
    """Mark ``job_id`` as running in this server."""
    running = _file(job_id, "running")
    if running is not None:
        running.touch()


def unpin(job_id: str) -> None:
    for suffix in ("running", "stop"):
        path = _file(job_id, suffix)
        if path is not None:
            path.unlink(missing_ok=True)


def request_stop(job_id: str) -> bool:
    """Ask whichever worker holds ``job_id`` to stop it; False if no worker does."""
    running = _file(job_id, "running")
    stop = _file(job_id, "stop")
    if running is None or stop is None or not running.exists():
        return False
    stop.touch()
    return True


def stop_requested(job_id: str) -> bool:
    stop = _file(job_id, "stop")
    return stop is not None and stop.exists()
