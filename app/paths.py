"""Where the app finds its pages and browser code, resolved once from the package so the server
starts from any working directory."""

from __future__ import annotations

from pathlib import Path

_PACKAGE = Path(__file__).resolve().parent


def _beside_or_inside(name: str) -> Path:
    # a clone (or an editable install) has the folder beside app/; a built wheel carries it
    # inside app/ (pyproject's force-include), as site-packages has no project root
    inside = _PACKAGE / name
    return inside if inside.is_dir() else _PACKAGE.parent / name


STATIC_DIR = _beside_or_inside("static")
TEMPLATES_DIR = _beside_or_inside("templates")
GRAPH_CSS = STATIC_DIR / "graph.css"
