"""Short links through the API, on SQLite in a temporary directory, moved between stores with
the CLI: export then import keeps the ids, and a line whose id is not its hash is refused."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from link_client import (
    LONG,
    VIEW,
    create,
    sqlite_client,  # noqa: F401  (the fixture client)
)

from app.cli import main
from app.links.state import full_id
from app.links.store import open_store


def test_export_then_import_into_another_store_keeps_the_ids(
    client: TestClient, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    ids = {create(client, {**VIEW, "step": step}) for step in range(5)}
    source = f"sqlite:///{tmp_path / 'links.sqlite3'}"
    target = f"sqlite:///{tmp_path / 'next-term' / 'links.sqlite3'}"
    dump = tmp_path / "links.jsonl"
    assert main(["links", "export", "-o", str(dump), "--database", source]) == 0
    lines = [json.loads(line) for line in dump.read_text().splitlines()]
    assert {line["id"] for line in lines} == ids and set(lines[0]) == {"id", "created", "state"}
    assert main(["links", "import", str(dump), "--database", target]) == 0
    assert "imported 5 new links into sqlite; 0 were there already" in capsys.readouterr().err
    assert main(["links", "import", str(dump), "--database", target]) == 0  # harmless twice
    assert "imported 0 new links into sqlite; 5 were there already" in capsys.readouterr().err
    with open_store(source) as old, open_store(target) as new:
        assert list(new.export()) == list(old.export())  # ids, states and dates


def test_import_refuses_a_line_whose_id_is_not_its_hash(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    dump = tmp_path / "links.jsonl"
    good = {"id": full_id(LONG)[:8], "state": LONG}
    forged = {"id": "aaaaaaaa", "state": LONG}
    dump.write_text(json.dumps(good) + "\n\n" + json.dumps(forged) + "\n")
    target = f"sqlite:///{tmp_path / 'links.sqlite3'}"
    assert main(["links", "import", str(dump), "--database", target]) == 2
    assert "line 3: aaaaaaaa is not the hash of its state" in capsys.readouterr().err
    with open_store(target) as store:
        assert list(store.export()) == []  # one transaction: nothing half imported
