"""Links in SQLite (the standard library's ``sqlite3``), the default: one file in the data
directory, so ``gradstep serve`` needs nothing else.

The journal is a write-ahead log with ``synchronous=FULL``: a link answered 201 survives the
process being killed and the machine losing power. One connection serves every thread under a
lock (a link is one row read by its primary key); worker processes share the file, and
``busy_timeout`` lets one wait for another's write.
"""

from __future__ import annotations

import os
import sqlite3
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime
from pathlib import Path

from app.links.state import State, pack, unpack
from app.links.store import (
    EVICTION_ORDER,
    PAGE_ROWS,
    LinkStore,
    Migration,
    Record,
    StoreError,
    doomed,
    migrate,
    now,
    stale,
)

BUSY_TIMEOUT_S = 10  # another worker process's write, or its start-up migration

MIGRATIONS: tuple[Migration, ...] = (
    ("CREATE TABLE links (id TEXT PRIMARY KEY, state TEXT NOT NULL, created TEXT NOT NULL)",),
    # 2: states packed (app/links/state.py); the rows before keep their JSON, now as bytes
    (
        "CREATE TABLE packed_links (id TEXT PRIMARY KEY, state BLOB NOT NULL, "
        "created TEXT NOT NULL)",
        "INSERT INTO packed_links SELECT id, CAST(state AS BLOB), created FROM links",
        "DROP TABLE links",
        "ALTER TABLE packed_links RENAME TO links",
    ),
    # 3: when a link was last opened, and the order the store's cap deletes links in
    (
        "ALTER TABLE links ADD COLUMN visited TEXT",
        f"CREATE INDEX links_eviction ON links ({EVICTION_ORDER})",
    ),
)


class SQLiteStore(LinkStore):
    kind = "sqlite"

    def __init__(self, path: Path) -> None:
        self.path = path
        self._lock = threading.RLock()
        # messages name the store's kind, never its path: they reach the browser (a 503)
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            # autocommit: each statement outside batch() is committed before it returns
            self._db = sqlite3.connect(
                path, timeout=BUSY_TIMEOUT_S, isolation_level=None, check_same_thread=False
            )
        except (OSError, sqlite3.Error) as error:
            why = error.strerror if isinstance(error, OSError) else error  # OSError's names a path
            raise StoreError(f"cannot open the link store (SQLite): {why}") from error
        try:
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute("PRAGMA synchronous=FULL")
            with self.batch(), self._use() as db:
                migrate(db.cursor(), MIGRATIONS)
            self._file = _identity(path)
        except (sqlite3.Error, StoreError) as error:
            self._db.close()  # a store that cannot be used keeps no file open
            if isinstance(error, StoreError):
                raise
            raise StoreError(f"cannot open the link store (SQLite): {error}") from error

    @contextmanager
    def _use(self) -> Iterator[sqlite3.Connection]:
        with self._lock:
            try:
                yield self._db
            except sqlite3.Error as error:
                raise StoreError(f"the link store (SQLite) failed: {error}") from error

    @contextmanager
    def batch(self) -> Iterator[None]:
        with self._use() as db:
            db.execute("BEGIN IMMEDIATE")  # takes the write lock now: no upgrade deadlock
            try:
                yield
            except BaseException:
                if db.in_transaction:
                    db.execute("ROLLBACK")
                raise
            db.execute("COMMIT")

    def get(self, link_id: str) -> State | None:
        with self._use() as db:
            row = db.execute("SELECT state FROM links WHERE id = ?", (link_id,)).fetchone()
        return None if row is None else unpack(row[0])

    def visit(self, link_id: str) -> State | None:
        with self._use() as db:
            row = db.execute("SELECT state, visited FROM links WHERE id = ?", (link_id,)).fetchone()
            if row is None:
                return None
            if stale(None if row[1] is None else datetime.fromisoformat(row[1])):
                db.execute("UPDATE links SET visited = ? WHERE id = ?", (_when(now()), link_id))
        return unpack(row[0])

    def put(self, link_id: str, state: State, created: datetime | None = None) -> bool:
        with self._use() as db:
            cursor = db.execute(
                "INSERT INTO links (id, state, created) VALUES (?, ?, ?) "
                "ON CONFLICT (id) DO NOTHING",
                (link_id, pack(state), _when(created or now())),
            )
            return cursor.rowcount == 1

    def trim(self, max_bytes: int, keep: str) -> int:
        with self.batch(), self._use() as db:
            (total,) = db.execute("SELECT coalesce(sum(length(state)), 0) FROM links").fetchone()
            ids = doomed(
                total - max_bytes,
                lambda skip: db.execute(
                    f"SELECT id, length(state) FROM links WHERE id <> ? "
                    f"ORDER BY {EVICTION_ORDER} LIMIT ? OFFSET ?",
                    (keep, PAGE_ROWS, skip),
                ).fetchall(),
            )
            db.executemany("DELETE FROM links WHERE id = ?", [(i,) for i in ids])
            return len(ids)

    def rows_after(self, after: str, limit: int) -> list[Record]:
        with self._use() as db:
            rows = db.execute(
                "SELECT id, state, created FROM links WHERE id > ? ORDER BY id LIMIT ?",
                (after, limit),
            ).fetchall()
        return [Record(i, unpack(s), datetime.fromisoformat(c)) for i, s, c in rows]

    def close(self) -> None:
        with self._lock:
            self._db.close()

    def moved(self) -> bool:
        """Whether the file was deleted or replaced since it was opened: this connection would
        write to a file no later start opens (its links lost after a 201)."""
        return _identity(self.path) != self._file


def _when(moment: datetime) -> str:
    """A time as the rows write it: UTC in ISO 8601, so that text sorts as time does."""
    return moment.astimezone(UTC).isoformat(timespec="microseconds")


def _identity(path: Path) -> tuple[int, int] | None:
    try:
        stat = os.stat(path)
    except OSError:
        return None
    return stat.st_dev, stat.st_ino
