"""For the whole run: short links go to a temporary data directory, never the user's own
(``~/.local/share/gradstep``). Apps the tests make, and servers they start, inherit it. And
the files in order, the longest first."""

from __future__ import annotations

import os
import shutil
import tempfile

import pytest

_DATA = tempfile.mkdtemp(prefix="gradstep-test-data-")


def pytest_configure(config: pytest.Config) -> None:
    os.environ["GRADSTEP_DATA"] = _DATA
    os.environ.pop("GRADSTEP_DATABASE_URL", None)


def pytest_unconfigure(config: pytest.Config) -> None:
    shutil.rmtree(_DATA, ignore_errors=True)


# The files that take longest (measured with --durations on two workers, longest first). Each
# file runs on one worker (scripts/test.sh: --dist loadfile) and a worker is handed the next file
# as it runs out: started first, the long ones end beside the short ones instead of keeping one
# core busy alone at the end (test_layout_memory.py, handed out last, did for four minutes).
LONGEST_FILES = (
    "browser/test_notebook_front_ends.py",
    "browser/test_live_class.py",
    "api/test_exports.py",
    "browser/test_training_loop_page.py",
    "api/test_layout_memory.py",
    "api/test_faults.py",
    "browser/test_notebook.py",
    "browser/test_paste_lecture.py",
    "api/test_answers.py",
    "api/test_layout.py",
    "api/test_connections.py",
    "engine/test_micrograd_demo.py",
    "api/test_link_stores.py",
    "notebook/test_export.py",
    "browser/test_one_source.py",
)


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    tests = config.rootpath / "tests"

    def rank(item: pytest.Item) -> int:
        path = item.path.relative_to(tests).as_posix() if item.path.is_relative_to(tests) else ""
        return LONGEST_FILES.index(path) if path in LONGEST_FILES else len(LONGEST_FILES)

    items.sort(key=rank)  # stable: the other files keep their order
