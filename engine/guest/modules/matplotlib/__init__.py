"""matplotlib, as a stand-in: learners' programs import it to plot their training, and the
sandbox has no C extensions. ``matplotlib.pyplot`` records what is plotted so that gradstep can
draw it beside the graph; this package holds what is set up before that (``use``,
``rcParams``). Submodules are imported on first use, so that importing the package is cheap."""

from __future__ import annotations

import copy
import importlib
from typing import Any

__name__ = "matplotlib"  # so that reprs and errors name the module the program imported
__version__ = "3.9.0"
_SUBMODULES = ("pyplot", "patches", "cm", "colors")


class RcParams(dict[str, Any]):
    """Settings: any key may be set; one never set reads as None instead of failing.
    gradstep draws in its own style, so none of them changes the record."""

    def __missing__(self, key: str) -> Any:
        return None


DEFAULTS: dict[str, Any] = {
    "figure.figsize": [6.4, 4.8],
    "figure.dpi": 100.0,
    "font.size": 10.0,
    "lines.linewidth": 1.5,
    "lines.markersize": 6.0,
    "axes.grid": False,
    "savefig.dpi": "figure",
}
rcParams = RcParams(copy.deepcopy(DEFAULTS))


def use(*args: Any, **kwargs: Any) -> None:
    """Choosing a backend changes nothing here: gradstep is the only one."""


def rc(*args: Any, **kwargs: Any) -> None:
    """``rc('font', size=12)``: kept in rcParams, as matplotlib does."""
    if args:
        for key, value in kwargs.items():
            rcParams[f"{args[0]}.{key}"] = value


def get_backend() -> str:
    return "agg"


def __getattr__(name: str) -> Any:
    """``matplotlib.pyplot`` (and the other submodules) once imported, or ``colormaps``."""
    if name in _SUBMODULES:
        return importlib.import_module(f"engine.guest.modules.matplotlib.{name}")
    if name == "colormaps":
        return importlib.import_module("engine.guest.modules.matplotlib.cm").colormaps
    if name == "style":
        return importlib.import_module("engine.guest.modules.matplotlib.pyplot").style
    raise AttributeError(f"module 'matplotlib' has no attribute {name!r}")
