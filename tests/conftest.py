"""For the whole run: short links go to a temporary data directory, never the user's own
(``~/.local/share/gradstep``). Apps the tests make, and servers they start, inherit it."""

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
