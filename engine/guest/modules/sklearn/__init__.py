"""scikit-learn, as a stand-in: the sandbox has no C extensions, and autograd tutorials use it
only for toy data sets (``sklearn.datasets.make_moons``). The submodule is imported on first
use, so that importing the package is cheap."""

from __future__ import annotations

import importlib
from typing import Any

__name__ = "sklearn"  # so that reprs and errors name the module the program imported
__version__ = "1.9.1"  # the release whose data sets these draw


def __getattr__(name: str) -> Any:
    if name == "datasets":
        return importlib.import_module("engine.guest.modules.sklearn.datasets")
    raise AttributeError(f"module 'sklearn' has no attribute {name!r}")
