"""The link stores, SQLite and PostgreSQL alike (a real PostgreSQL server, started for these
tests): rows, migrations, concurrent saves of one view, import conflicts, moving a term's links
from SQLite to PostgreSQL with the CLI, and durability: a real ``gradstep serve`` killed with
SIGKILL right after its 201 still has the link when it starts again."""

from __future__ import annotations

import os
import signal
import sqlite3
import threading
from collections.abc import Iterator
from contextlib import closing
from datetime import UTC, datetime
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlsplit

import httpx
import pytest
from postgres import Server, postgres_server
from served import gradstep_serve

from app.cli import main
from app.draw.layout.dot_backend import dot_available
from app.links.sqlite import MIGRATIONS
from app.links.state import canonical, full_id, pack
from app.links.store import LinkStore, Record, open_store, save
from app.presets import MICROGRAD_README

ROOT = Path(__file__).resolve().parents[2]
STATE = {"source": MICROGRAD_README, "phase": "backward", "step": "3"}
VIEW = {"source": MICROGRAD_README, "phase": "backward"}
EMOJI = {"source": "x = 1.0\n# " + "\U0001f600" * 19_900 + "\ny = x * 2\n"}
VERSIONS = list(range(1, len(MIGRATIONS) + 1))


@pytest.fixture(scope="module")
def postgres() -> Iterator[Server]:
    with postgres_server() as server:
        yield server


@pytest.fixture(params=["sqlite", "postgresql"])
def store_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path / 'links.sqlite3'}"
        return
    server: Server = request.getfixturevalue("postgres")
    with server.database() as url:
        yield url


@pytest.fixture
def store(store_url: str) -> Iterator[LinkStore]:
    with open_store(store_url) as opened:
        yield opened


def test_rows_are_written_once_and_read_back(store: LinkStore) -> None:
    when = datetime(2025, 9, 1, 9, 0, tzinfo=UTC)
    assert store.get("abcdefgh") is None
    assert store.put("abcdefgh", STATE, when) is True
    assert store.put("abcdefgh", {"source": "a = 1"}) is False  # a row never changes
    assert store.get("abcdefgh") == STATE
    store.put("aaaaaaaa", {"source": "a = 1"})
    records = list(store.export())
    assert [r.id for r in records] == ["aaaaaaaa", "abcdefgh"]
    assert records[1] == Record("abcdefgh", STATE, when)


def test_export_pages_through_every_row(store: LinkStore, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("app.links.store.PAGE_ROWS", 3)
    states = [{"source": f"a = {i}"} for i in range(10)]
    assert store.import_(Record(full_id(s)[:8], s, datetime.now(UTC)) for s in states).added == 10
    assert sorted(r.state["source"] for r in store.export()) == sorted(s["source"] for s in states)


def run_sql(url: str, *statements: str, params: tuple[object, ...] = ()) -> list[tuple[Any, ...]]:
    """The rows of the last of ``statements`` (``?`` for parameters), run on the store itself."""
    if url.startswith("sqlite:///"):
        with closing(sqlite3.connect(url.removeprefix("sqlite:///"))) as db, db:
            for sql in statements[:-1]:
                db.execute(sql)
            return db.execute(statements[-1], params).fetchall()
    import psycopg

    with psycopg.connect(url) as db:
        for sql in statements[:-1]:
            db.execute(sql)
        cursor = db.execute(statements[-1].replace("?", "%s"), params)
        return cursor.fetchall() if cursor.description else []


def schema_versions(url: str) -> list[int]:
    return [v for (v,) in run_sql(url, "SELECT version FROM schema_version ORDER BY version")]


def test_migrations_run_once_and_keep_the_rows(store_url: str) -> None:
    for _ in range(3):
        with open_store(store_url) as store:
            store.put("abcdefgh", STATE)
            assert schema_versions(store_url) == VERSIONS
    with open_store(store_url) as store:
        assert store.get("abcdefgh") == STATE


def test_a_row_holds_its_view_packed(store: LinkStore, store_url: str) -> None:
    """Issue 30, item 12: 19,900 emoji in a comment were a row of 238,842 bytes (JSON with
    ``ensure_ascii``: 12 bytes an emoji). Packed (UTF-8, compressed) it is under 200."""
    link_id, _ = save(store, EMOJI)
    ((size,),) = run_sql(
        store_url, "SELECT length(state) FROM links WHERE id = ?", params=(link_id,)
    )
    assert size < 200, size
    assert store.get(link_id) == EMOJI


def test_links_stored_before_rows_were_packed_still_open(store_url: str) -> None:
    """A store of the first schema, its rows canonical JSON, opens migrated: its links open,
    export and are found again when the same view is shared."""
    first = {"source": "a = 1.0\nb = a * 2  # ∂b/∂a 😀"}
    old = {full_id(state)[:8]: state for state in (STATE, first, EMOJI)}
    created = "timestamptz" if store_url.startswith("postgres") else "TEXT"
    run_sql(
        store_url,
        "CREATE TABLE links (id TEXT PRIMARY KEY, state TEXT NOT NULL, "
        f"created {created} NOT NULL)",
        "CREATE TABLE schema_version (version INTEGER PRIMARY KEY)",
        "INSERT INTO schema_version (version) VALUES (1)",
    )
    for link_id, state in old.items():
        row = (link_id, canonical(state), "2025-09-01T09:00:00+00:00")
        run_sql(store_url, "INSERT INTO links (id, state, created) VALUES (?, ?, ?)", params=row)
    with open_store(store_url) as store:
        assert schema_versions(store_url) == VERSIONS
        for link_id, state in old.items():
            assert store.get(link_id) == state
            assert save(store, state) == (link_id, False)
        assert {r.id: r.state for r in store.export()} == old
        new_id, _ = save(store, {**first, "step": "1"})
        assert store.get(new_id) == {**first, "step": "1"}


def test_the_store_is_trimmed_links_never_opened_first(store: LinkStore) -> None:
    """Issue 30, item 13: links were never deleted, so 100 large ones added 24 MB in 2 s and no
    size was too much. Trimmed, the links never opened go first (the oldest first), then those
    opened least recently; the link just stored is kept. An opening is written once an hour."""
    states = [{"source": f"a = {i}.0\nb = a * {i}"} for i in range(6)]
    ids = [full_id(state)[:8] for state in states]
    size = {i: len(pack(state)) for i, state in zip(ids, states, strict=True)}
    for minute, (link_id, state) in enumerate(zip(ids, states, strict=True)):
        store.put(link_id, state, datetime(2025, 9, 1, 9, minute, tzinfo=UTC))
    assert store.visit(ids[0]) == states[0] and store.visit(ids[2]) == states[2]
    store.visit(ids[0])  # within the hour: still opened before ids[2]
    total = sum(size.values())

    def kept() -> list[str]:
        return [r.id for r in sorted(store.export(), key=lambda r: ids.index(r.id))]

    assert store.trim(total, ids[5]) == 0
    assert store.trim(total - 1, ids[5]) == 1 and kept() == [ids[i] for i in (0, 2, 3, 4, 5)]
    assert store.trim(size[ids[0]] + size[ids[2]] + size[ids[5]], ids[5]) == 2
    assert kept() == [ids[0], ids[2], ids[5]]
    assert store.trim(size[ids[2]] + size[ids[5]], ids[5]) == 1 and kept() == [ids[2], ids[5]]
    assert store.trim(0, ids[5]) == 1 and kept() == [ids[5]]  # the new link itself stays


def test_one_view_saved_at_once_from_many_threads_is_one_link(store: LinkStore) -> None:
    results: list[tuple[str, bool]] = []
    barrier = threading.Barrier(8)

    def share() -> None:
        barrier.wait()
        results.append(save(store, STATE))

    threads = [threading.Thread(target=share) for _ in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert {link_id for link_id, _ in results} == {full_id(STATE)[:8]}
    assert sorted(created for _, created in results) == [False] * 7 + [True]
    assert len(list(store.export())) == 1


def test_import_keeps_what_is_there_and_reports_conflicts(store: LinkStore) -> None:
    other = {"source": "a = 2"}
    store.put(full_id(STATE)[:8], other)  # as if another view had taken this id here
    records = [
        Record(full_id(STATE)[:8], STATE, datetime.now(UTC)),
        Record(full_id(other)[:8], other, datetime.now(UTC)),
    ]
    assert store.import_(records).added == 1
    again = store.import_(records)
    assert (again.added, again.present, again.conflicts) == (0, 1, [full_id(STATE)[:8]])
    assert store.get(full_id(STATE)[:8]) == other


def test_a_term_moves_from_sqlite_to_postgresql(
    postgres: Server, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    sqlite_url = f"sqlite:///{tmp_path / 'links.sqlite3'}"
    with open_store(sqlite_url) as old:
        ids = [save(old, {**STATE, "step": str(step)})[0] for step in range(20)]
    dump = tmp_path / "term.jsonl"
    with postgres.database() as postgres_url:
        assert main(["links", "export", "--database", sqlite_url, "-o", str(dump)]) == 0
        for _ in range(2):  # importing twice is harmless
            assert main(["links", "import", str(dump), "--database", postgres_url]) == 0
        err = capsys.readouterr().err
        assert "imported 20 new links into postgresql; 0 were there already" in err
        assert "imported 0 new links into postgresql; 20 were there already" in err
        with open_store(sqlite_url) as old, open_store(postgres_url) as new:
            assert sorted(r.id for r in new.export()) == sorted(ids)
            assert list(new.export()) == list(old.export())
            assert save(new, {**STATE, "step": "7"}) == (ids[7], False)  # sharing it again


def test_a_broken_postgresql_connection_is_replaced(postgres: Server) -> None:
    import psycopg

    with postgres.database() as url, open_store(url) as store:
        store.put("abcdefgh", STATE)
        with psycopg.connect(postgres.url(), autocommit=True) as admin:
            admin.execute(
                "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                "WHERE datname = %s AND pid <> pg_backend_pid()",
                (url.rsplit("/", 1)[1],),
            )
        assert store.get("abcdefgh") == STATE


# ── durability: SIGKILL right after a 201 ───────────────────────────────────────────────────


def test_a_link_answered_201_survives_sigkill(store_url: str) -> None:
    env = {"GRADSTEP_DATABASE_URL": store_url}
    if dot_available():
        env["GRADSTEP_LAYOUT"] = "dot"  # no WebAssembly to compile: a quicker start
    with gradstep_serve(env) as (process, url):
        ids = []
        for step in range(5):
            response = httpx.post(f"{url}/api/links", json={**VIEW, "step": step}, timeout=30)
            assert response.status_code == 201, response.text
            ids.append(response.json()["id"])
        os.kill(process.pid, signal.SIGKILL)  # at once after the last 201: no shutdown at all
        assert process.wait() == -signal.SIGKILL
    with gradstep_serve(env) as (_, url):
        for step, link_id in enumerate(ids):
            response = httpx.get(f"{url}/s/{link_id}", timeout=30)
            assert response.status_code == 303, link_id
            view = parse_qs(urlsplit(response.headers["location"]).query)
            assert view["source"] == [MICROGRAD_README] and view["step"] == [str(step)]
