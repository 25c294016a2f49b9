"""A throwaway PostgreSQL server for the link store's tests, from Debian's ``postgresql``
package: ``initdb`` in a temporary directory, ``pg_ctl`` on a free port of 127.0.0.1, run as
``nobody`` when the tests run as root (PostgreSQL refuses to run as root), removed afterwards.

Outside CI the PostgreSQL tests skip when the server or psycopg is missing; in CI (``CI`` set)
they fail instead, as the browser tests do without Chromium.
"""

from __future__ import annotations

import glob
import os
import shutil
import subprocess
import tempfile
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from served import free_port

SUPERUSER = "postgres"


def unavailable(reason: str) -> None:
    if os.environ.get("CI"):
        pytest.fail(f"PostgreSQL tests cannot run in CI: {reason}", pytrace=False)
    pytest.skip(reason)


def _bin_dir() -> Path | None:
    found = sorted(
        glob.glob("/usr/lib/postgresql/*/bin/initdb"), key=lambda p: int(p.split("/")[4])
    )
    return Path(found[-1]).parent if found else None


class Server:
    """``url(db)`` for a database on the running server; ``database()`` makes a fresh one."""

    def __init__(self, port: int) -> None:
        self.port = port

    def url(self, database: str = "postgres") -> str:
        return f"postgresql://{SUPERUSER}@127.0.0.1:{self.port}/{database}"

    @contextmanager
    def database(self) -> Iterator[str]:
        import psycopg

        name = f"links_{uuid.uuid4().hex[:12]}"
        with psycopg.connect(self.url(), autocommit=True) as admin:
            admin.execute(f"CREATE DATABASE {name}")
        try:
            yield self.url(name)
        finally:
            with psycopg.connect(self.url(), autocommit=True) as admin:
                admin.execute(f"DROP DATABASE {name} WITH (FORCE)")


@contextmanager
def postgres_server() -> Iterator[Server]:
    try:
        import psycopg  # noqa: F401
    except ImportError:
        unavailable("psycopg is not installed (pip install -e '.[postgres]')")
    bin_dir = _bin_dir()
    if bin_dir is None:
        unavailable("PostgreSQL is not installed (Debian: apt-get install postgresql)")
        raise AssertionError  # unreachable: unavailable() skips or fails
    as_user = ["runuser", "-u", "nobody", "--"] if os.geteuid() == 0 else []
    root = Path(tempfile.mkdtemp(prefix="gradstep-pg-"))
    data = root / "data"
    if as_user:
        shutil.chown(root, "nobody")
    port = free_port()

    def run(*command: str) -> None:
        subprocess.run([*as_user, *command], check=True, capture_output=True, cwd=root)

    try:
        pg_ctl = str(bin_dir / "pg_ctl")
        run(str(bin_dir / "initdb"), "-D", str(data), "-U", SUPERUSER, "--auth=trust", "-E", "UTF8")
        options = f"-p {port} -k {root} -c listen_addresses=127.0.0.1"
        run(pg_ctl, "-D", str(data), "-o", options, "-l", str(root / "log"), "-w", "start")
        try:
            yield Server(port)
        finally:
            run(pg_ctl, "-D", str(data), "-m", "fast", "-w", "stop")
    except subprocess.CalledProcessError as error:
        log = (root / "log").read_text() if (root / "log").exists() else ""
        raise RuntimeError(f"PostgreSQL failed: {error.stderr.decode()}\n{log}") from error
    finally:
        shutil.rmtree(root, ignore_errors=True)
