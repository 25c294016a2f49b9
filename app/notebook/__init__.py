"""gradstep in a notebook, with no server and no system Graphviz (docs/notebook.md).

    from app.notebook import show, draw_dot
    show(o)       # the stepper, inline: forward and backward, keys, the chain rule
    draw_dot(o)   # a static SVG in micrograd's look

``show`` needs the notebook extra (``pip install 'gradstep[notebook]'``: anywidget).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING

from app.draw.dot import Direction
from app.notebook.drawing import DotGraph, draw_dot, draw_graph
from engine.steps import Phase
from engine.value import Value

if TYPE_CHECKING:
    from app.notebook.widget import Stepper

__all__ = ["DotGraph", "draw_dot", "show"]


def show(
    what: Value | str,
    phase: Phase | None = None,
    step: int | None = None,
    folded: str | None = None,
    values: Mapping[str, float] | None = None,
    *,
    theme: str = "auto",
    decimals: int = 4,
    height: int = 480,
    rankdir: Direction = "auto",
) -> Stepper:
    """The stepper for ``what`` (a ``Value``, whose whole graph is traced and backpropagated,
    or a program's text with optional input ``values``), opened at ``step`` of ``phase`` (the
    finished picture when neither is given). ``folded``: which calls are boxes, as the page's
    ``fold`` parameter (auto, none, all or call ids)."""
    try:
        from app.notebook.widget import Stepper
    except ImportError as e:  # pragma: no cover - the extra is missing
        raise ImportError("show() needs anywidget: pip install 'gradstep[notebook]'") from e
    drawn = draw_graph(what, values, folded, rankdir)
    at = -1 if phase is None and step is None else max(step or 0, 0)
    return Stepper(
        drawn,
        phase=phase or "backward",
        step=at,
        theme=theme,
        decimals=decimals,
        height=height,
    )
