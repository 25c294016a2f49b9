"""The app's rooms keep to their walls (issue 44), read from the source's syntax trees: a route
imports no other route (what two routes share lives in a module of its own), reads nothing from
``request.app.state`` (app/deps.py gives each route what it names), and the app's start-up sets
its own state only, never another module's globals."""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
ROUTES = ROOT / "app" / "routes"


def _route_modules() -> list[Path]:
    found = sorted(p for p in ROUTES.glob("*.py") if p.name != "__init__.py")
    assert len(found) >= 7, found  # the glob found the routes
    return found


def _tree(path: Path) -> ast.Module:
    return ast.parse(path.read_text(encoding="utf-8"), str(path))


def imported_modules(tree: ast.Module) -> Iterator[str]:
    """Every module ``tree`` imports, as dotted names; ``from package import name`` also
    yields ``package.name`` (the name may be a module)."""
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            yield from (alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = "." * node.level + (node.module or "")
            yield base
            yield from (f"{base}.{alias.name}".replace("..", ".") for alias in node.names)


def is_route_import(module: str) -> bool:
    """``app.routes.x`` (or a relative import, which in app/routes/ is one of its siblings)."""
    return module.startswith((".", "app.routes.")) or module == "app.routes"


def state_reads(tree: ast.Module) -> list[int]:
    """The lines that read ``….app.state`` (``request.app.state.layout``)."""
    return sorted(
        node.lineno
        for node in ast.walk(tree)
        if isinstance(node, ast.Attribute)
        and node.attr == "state"
        and isinstance(node.value, ast.Attribute)
        and node.value.attr == "app"
    )


def foreign_assignments(tree: ast.Module, own: str) -> list[int]:
    """The lines that assign an attribute of anything but the name ``own``: another module's
    global (``pipeline.RUNS = …``) or an object imported from one (``STRUCTURES.max_bytes``)."""
    lines = []
    for node in ast.walk(tree):
        targets = (
            node.targets
            if isinstance(node, ast.Assign)
            else [node.target]
            if isinstance(node, ast.AugAssign | ast.AnnAssign)
            else []
        )
        for target in targets:
            for part in ast.walk(target):
                if isinstance(part, ast.Attribute) and isinstance(part.ctx, ast.Store):
                    root = part.value
                    while isinstance(root, ast.Attribute):
                        root = root.value
                    if not (isinstance(root, ast.Name) and root.id == own):
                        lines.append(node.lineno)
    return sorted(lines)


def test_no_route_imports_another_route() -> None:
    found = {
        path.name: sorted({m for m in imported_modules(_tree(path)) if is_route_import(m)})
        for path in _route_modules()
    }
    assert {name: modules for name, modules in found.items() if modules} == {}


def test_no_route_reads_the_app_state() -> None:
    found = {path.name: state_reads(_tree(path)) for path in _route_modules()}
    assert {name: lines for name, lines in found.items() if lines} == {}


def test_the_start_up_sets_the_app_alone() -> None:
    assert foreign_assignments(_tree(ROOT / "app" / "main.py"), own="app") == []


def test_the_checks_see_what_they_refuse() -> None:
    """Each check finds the thing it refuses, written each way it could be."""
    for line in ("import app.routes.graph", "from app.routes import links",
                 "from app.routes.exports import x", "from . import training",
                 "from .pages import y"):  # fmt: skip
        assert any(is_route_import(m) for m in imported_modules(ast.parse(line))), line
    assert not any(is_route_import(m) for m in imported_modules(ast.parse("from app import deps")))
    reads = ast.parse("def f(request):\n    x = 1\n    return request.app.state.layout\n")
    assert state_reads(reads) == [3]
    patched = ast.parse(
        "app.state.layout = 1\npipeline.RUNS = 2\nSTRUCTURES.max_bytes = 3\n"
        "runner.LIMITS.fuel += 4\n"
    )
    assert foreign_assignments(patched, own="app") == [2, 3, 4]
