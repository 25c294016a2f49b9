"""The link store: one small interface, a backend per database (``app/links/sqlite.py``, the
default, and ``app/links/postgres.py``), chosen by a URL.

The URL is the server's setting (``Settings.links_url``): ``GRADSTEP_DATABASE_URL=postgresql://…``
shares links between servers; without it links live in SQLite in the data directory
(``GRADSTEP_DATA``). A write returns only once it is committed. Each backend runs its schema's
missing migrations when it opens, recording them in a ``schema_version`` table.

The server's store is capped (``Settings.links_store_mb``, counted in rows' packed bytes): each
new link trims it. Links never opened go first, the oldest first, then those opened least
recently. Opening a link writes when it was opened, at most once every ``VISIT_EVERY``, so a
class opening one link at once is one write.
"""

from __future__ import annotations

import json
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import AbstractContextManager
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any, Protocol, TextIO

from app.links.state import MIN_ID_CHARS, State, full_id, is_link_id

PAGE_ROWS = 500  # rows read at a time by export, and by trim
MB = 1024 * 1024
# Packed links a server keeps: 256 MB holds 330,000 views of the longest preset (771 bytes) or
# 16,000 of the largest a link may be (16 KiB); a term's links are a few thousand.
DEFAULT_STORE_MB = 256
VISIT_EVERY = timedelta(hours=1)  # how often a link's last visit is written again
# the rows trimmed first: never opened before opened, then the oldest (created, or opened)
EVICTION_ORDER = "(visited IS NOT NULL), (coalesce(visited, created)), id"


class StoreError(Exception):
    """The store cannot be reached, or failed a statement: the server answers 503."""


@dataclass(frozen=True, slots=True)
class Record:
    """One link as export writes it and import reads it."""

    id: str
    state: State
    created: datetime


@dataclass(slots=True)
class Imported:
    added: int = 0
    present: int = 0  # already there with the same state: importing twice is harmless
    conflicts: list[str] = field(default_factory=list)  # the id holds another state: kept


class LinkStore(ABC):
    """``get`` and ``put`` for the routes, ``export`` and ``import_`` for the CLI."""

    kind: str

    @abstractmethod
    def get(self, link_id: str) -> State | None:
        """The state stored under ``link_id``, or None."""

    @abstractmethod
    def put(self, link_id: str, state: State, created: datetime | None = None) -> bool:
        """Store ``state`` under ``link_id`` unless the id is taken; True once committed, False
        when the id was already there (its row is never changed)."""

    @abstractmethod
    def visit(self, link_id: str) -> State | None:
        """``get`` for someone opening the link: also notes when it was opened (at most once
        every ``VISIT_EVERY``), which keeps it from being trimmed before links never opened."""

    @abstractmethod
    def trim(self, max_bytes: int, keep: str) -> int:
        """Delete links in ``EVICTION_ORDER`` (never ``keep``, the link just stored) until their
        packed bytes are at most ``max_bytes``; how many were deleted."""

    @abstractmethod
    def rows_after(self, after: str, limit: int) -> list[Record]:
        """Up to ``limit`` links with ids after ``after``, in id order."""

    @abstractmethod
    def batch(self) -> AbstractContextManager[None]:
        """One transaction around the puts and gets made inside it (on this thread)."""

    @abstractmethod
    def close(self) -> None: ...

    def healthy(self) -> bool:
        """Whether links can be stored and opened (``/healthz``)."""
        return True

    def moved(self) -> bool:
        """Whether the store is no longer where it was opened (a deleted SQLite file)."""
        return False

    def export(self) -> Iterator[Record]:
        """Every link, in id order, a page at a time (no lock held between pages)."""
        after = ""
        while rows := self.rows_after(after, PAGE_ROWS):
            yield from rows
            after = rows[-1].id

    def import_(self, records: Iterable[Record]) -> Imported:
        """Add the links whose ids are free, in one transaction; ids are kept."""
        result = Imported()
        with self.batch():
            for record in records:
                if self.put(record.id, record.state, record.created):
                    result.added += 1
                elif self.get(record.id) == record.state:
                    result.present += 1
                else:
                    result.conflicts.append(record.id)
        return result

    def __enter__(self) -> LinkStore:
        return self

    def __exit__(self, *_: object) -> None:
        self.close()


def stale(visited: datetime | None) -> bool:
    """Whether a link's last visit should be written again: never written, or long ago."""
    return visited is None or now() - visited >= VISIT_EVERY


def doomed(excess: int, page: Callable[[int], Sequence[tuple[str, int]]]) -> list[str]:
    """The ids that free ``excess`` bytes, first in eviction order: ``page(skip)`` gives the
    next rows (id, packed bytes) of that order after the first ``skip``, PAGE_ROWS at most."""
    ids: list[str] = []
    while excess > 0:
        rows = page(len(ids))
        if not rows:
            break
        for link_id, size in rows:
            if excess <= 0:
                break
            ids.append(link_id)
            excess -= size
    return ids


def save(store: LinkStore, state: State) -> tuple[str, bool]:
    """The id of ``state`` in ``store`` and whether it was stored now: the shortest prefix of
    its hash that is free or already holds this same state."""
    digest = full_id(state)
    for length in range(MIN_ID_CHARS, len(digest) + 1):
        candidate = digest[:length]
        held = store.get(candidate)
        if held is None:
            if store.put(candidate, state):
                return candidate, True
            held = store.get(candidate)  # another request stored it first
        if held == state:
            return candidate, False
    raise StoreError("every prefix of this link's hash holds another link")  # 2**-256


# ── schema ────────────────────────────────────────────────────────────────────────────────────


class Cursor(Protocol):
    def execute(self, sql: str, /) -> object: ...
    def fetchone(self) -> Any: ...


Migration = tuple[str, ...]  # the statements of one schema version, run in order


def migrate(cursor: Cursor, migrations: Sequence[Migration]) -> None:
    """Run the migrations not yet recorded in ``schema_version``, inside the caller's
    transaction (which also keeps two servers starting at once from both running them)."""
    cursor.execute("CREATE TABLE IF NOT EXISTS schema_version (version INTEGER PRIMARY KEY)")
    cursor.execute("SELECT coalesce(max(version), 0) FROM schema_version")
    current = int(cursor.fetchone()[0])
    if current > len(migrations):
        raise StoreError(
            f"the link store's schema is version {current}, newer than this gradstep knows "
            f"({len(migrations)}): upgrade gradstep"
        )
    for version, statements in enumerate(migrations[current:], start=current + 1):
        for sql in statements:
            cursor.execute(sql)
        cursor.execute(f"INSERT INTO schema_version (version) VALUES ({version})")


# ── opening a store ──────────────────────────────────────────────────────────────────────────


def open_store(url: str) -> LinkStore:
    """The store at ``url`` (``postgresql://…`` or ``sqlite:///path``), migrated and ready."""
    if url.startswith(("postgresql://", "postgres://")):
        from app.links.postgres import PostgresStore  # psycopg: the optional 'postgres' extra

        return PostgresStore(url)
    if url.startswith("sqlite:///"):
        from app.links.sqlite import SQLiteStore

        return SQLiteStore(Path(url.removeprefix("sqlite:///")))
    scheme = url.partition(":")[0]  # the rest may hold a password: never repeat it
    raise StoreError(f"a link store's URL starts postgresql:// or sqlite:///, not {scheme}:")


# ── export and import as JSON lines ──────────────────────────────────────────────────────────


def dump(records: Iterable[Record], out: TextIO) -> int:
    count = 0
    for record in records:
        line = {"id": record.id, "created": record.created.isoformat(), "state": record.state}
        out.write(json.dumps(line, ensure_ascii=False, sort_keys=True) + "\n")
        count += 1
    return count


def load(lines: Iterable[str]) -> Iterator[Record]:
    """Records from JSON lines; a line that is not a link (or whose id is not its state's
    hash) raises ValueError naming the line."""
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        try:
            yield _record(json.loads(line))
        except (ValueError, TypeError, KeyError) as error:
            raise ValueError(f"line {number}: {error}") from None


def _record(item: Any) -> Record:
    if not isinstance(item, dict) or set(item) - {"id", "created", "state"}:
        raise ValueError('expected {"id", "created", "state"}')
    link_id, state = item["id"], item["state"]
    if not isinstance(state, dict) or not all(
        isinstance(k, str) and isinstance(v, str) for k, v in state.items()
    ):
        raise ValueError("state must be an object of strings")
    if not isinstance(link_id, str) or not is_link_id(link_id):
        raise ValueError(f"{link_id!r} is not a link id")
    if not full_id(state).startswith(link_id):
        raise ValueError(f"{link_id} is not the hash of its state")
    created = datetime.fromisoformat(item["created"]) if "created" in item else now()
    return Record(link_id, state, created if created.tzinfo else created.replace(tzinfo=UTC))


def now() -> datetime:
    return datetime.now(UTC)
