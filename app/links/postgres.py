"""Links in PostgreSQL (psycopg 3, the optional ``postgres`` extra), for several servers behind
a reverse proxy: ``GRADSTEP_DATABASE_URL=postgresql://user@host/db``.

A small pool of autocommit connections: a write is committed (and, with PostgreSQL's default
``synchronous_commit``, flushed) before ``put`` returns. A connection that broke (the database
restarted) is replaced when it is next taken from the pool; meanwhile requests get a 503.
Servers starting together take an advisory lock, so one of them runs the migrations.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import datetime
from typing import Any

import psycopg
from psycopg_pool import ConnectionPool

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

POOL_SIZE = 4  # link requests are rare and short; the threadpool waits for a connection
WAIT_S = 5  # for a free connection, or for the database at start-up
MIGRATION_LOCK = 0x67726164  # an advisory lock's key: "grad"

MIGRATIONS: tuple[Migration, ...] = (
    (
        'CREATE TABLE links (id text COLLATE "C" PRIMARY KEY, state text NOT NULL, '
        "created timestamptz NOT NULL DEFAULT now())",
    ),
    # 2: states packed (app/links/state.py); the rows before keep their JSON, now as bytes
    ("ALTER TABLE links ALTER COLUMN state TYPE bytea USING convert_to(state, 'UTF8')",),
    # 3: when a link was last opened, and the order the store's cap deletes links in
    (
        "ALTER TABLE links ADD COLUMN visited timestamptz",
        f"CREATE INDEX links_eviction ON links ({EVICTION_ORDER})",
    ),
)

Connection = psycopg.Connection[Any]


class PostgresStore(LinkStore):
    kind = "postgresql"

    def __init__(self, url: str) -> None:
        self._local = threading.local()
        self._pool: ConnectionPool[Connection] = ConnectionPool(
            url,
            min_size=1,
            max_size=POOL_SIZE,
            kwargs={"autocommit": True},
            check=ConnectionPool.check_connection,
            timeout=WAIT_S,
            open=False,
            name="gradstep-links",
        )
        try:
            self._pool.open(wait=True, timeout=WAIT_S)
        except psycopg.Error as error:
            self._pool.close()
            raise StoreError(f"cannot reach the link store (PostgreSQL): {error}") from error
        with self.batch(), self._use() as db:
            db.execute("SELECT pg_advisory_xact_lock(%s)", (MIGRATION_LOCK,))
            migrate(db.cursor(), MIGRATIONS)

    @contextmanager
    def _use(self) -> Iterator[Connection]:
        held: Connection | None = getattr(self._local, "db", None)
        if held is not None:  # inside batch(): its transaction's connection
            yield held
            return
        try:
            with self._pool.connection() as db:
                yield db
        except psycopg.Error as error:
            raise StoreError(f"the link store (PostgreSQL) failed: {error}") from error

    @contextmanager
    def batch(self) -> Iterator[None]:
        with self._use() as db, db.transaction():
            self._local.db = db
            try:
                yield
            finally:
                self._local.db = None

    def get(self, link_id: str) -> State | None:
        with self._use() as db:
            row = db.execute("SELECT state FROM links WHERE id = %s", (link_id,)).fetchone()
        return None if row is None else unpack(row[0])

    def visit(self, link_id: str) -> State | None:
        with self._use() as db:
            row = db.execute(
                "SELECT state, visited FROM links WHERE id = %s", (link_id,)
            ).fetchone()
            if row is None:
                return None
            if stale(row[1]):
                db.execute("UPDATE links SET visited = %s WHERE id = %s", (now(), link_id))
        return unpack(row[0])

    def put(self, link_id: str, state: State, created: datetime | None = None) -> bool:
        with self._use() as db:
            cursor = db.execute(
                "INSERT INTO links (id, state, created) VALUES (%s, %s, %s) "
                "ON CONFLICT (id) DO NOTHING",
                (link_id, pack(state), created or now()),
            )
            return cursor.rowcount == 1

    def trim(self, max_bytes: int, keep: str) -> int:
        with self.batch(), self._use() as db:
            row = db.execute("SELECT coalesce(sum(octet_length(state)), 0) FROM links").fetchone()
            ids = doomed(
                int(row[0]) - max_bytes if row else 0,
                lambda skip: db.execute(
                    f"SELECT id, octet_length(state) FROM links WHERE id <> %s "
                    f"ORDER BY {EVICTION_ORDER} LIMIT %s OFFSET %s",
                    (keep, PAGE_ROWS, skip),
                ).fetchall(),
            )
            db.execute("DELETE FROM links WHERE id = ANY(%s)", (ids,))
            return len(ids)

    def rows_after(self, after: str, limit: int) -> list[Record]:
        with self._use() as db:
            rows = db.execute(
                "SELECT id, state, created FROM links WHERE id > %s ORDER BY id LIMIT %s",
                (after, limit),
            ).fetchall()
        return [Record(i, unpack(s), c) for i, s, c in rows]

    def close(self) -> None:
        self._pool.close()
