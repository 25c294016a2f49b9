"""One HTML file that steps through a program from disk: no server, no network.

It is ``templates/embed.html`` with its stylesheets, the trace, the SVG and the player's script
written inside it. The script is ``static/offline.js`` and the modules it imports, joined by a
small bundler: each module becomes a function scope that returns its exports, and each
``import {a, b as c} from "./x.js"`` becomes ``const {a, b: c} = <x's exports>``. The page and
the file run the very same modules; there is no second copy to keep in step.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

from markupsafe import Markup
from pydantic import TypeAdapter

from app.draw.svg import Theme
from app.pipeline import Drawn
from app.serving import CONFIG_MODULE, STATIC_DIR, config_module, templates
from engine.steps import Phase
from engine.trace import Trace

OFFLINE_ENTRY = "offline.js"
OFFLINE_STYLES = ("app.css", "graph.css", "embed.css")

_IMPORT = re.compile(
    r'^import\s*\{(?P<names>[^}]*)\}\s*from\s*"\./(?P<file>[\w.-]+\.js)";[ \t]*$', re.M
)
_OTHER_IMPORT = re.compile(r"^\s*import\b", re.M)
_EXPORT = re.compile(
    r"^export\s+(?:async\s+)?(?:function\*?|const|let|class)\s+(?P<name>\w+)", re.M
)
_CLOSING_TAG = re.compile(r"</(script|style)", re.I)
_TRACE = TypeAdapter(Trace)


class BundleError(ValueError):
    """A module the bundler cannot join (an import form it does not handle)."""


def _binding(names: str) -> str:
    """``a, b as c`` → ``a, b: c`` (destructuring)."""
    parts = []
    for raw in names.split(","):
        name = raw.strip()
        if name:
            original, _, alias = (p.strip() for p in name.partition(" as "))
            parts.append(f"{original}: {alias}" if alias else original)
    return ", ".join(parts)


def _scope_name(file: str) -> str:
    return "__gradstep_" + re.sub(r"\W", "_", file.removesuffix(".js"))


def bundle(entry: str, static_dir: Path = STATIC_DIR, module: bool = False) -> str:
    """``entry`` and every module it imports (relative ``./x.js`` only) as one classic script;
    with ``module``, an ES module whose default export is ``entry``'s exports (the notebook
    widget's ``_esm``: anywidget imports it and calls its ``render``)."""
    order: list[str] = []
    sources: dict[str, str] = {}
    generated = {CONFIG_MODULE: config_module()}  # served by a route, not a file

    def visit(file: str, path: tuple[str, ...]) -> None:
        if file in sources:
            return
        if file in path:
            raise BundleError(f"import cycle: {' -> '.join((*path, file))}")
        text = generated[file] if file in generated else (static_dir / file).read_text("utf-8")
        sources[file] = text
        for match in _IMPORT.finditer(text):
            visit(match["file"], (*path, file))
        order.append(file)

    visit(entry, ())
    chunks = []
    for file in order:
        text = sources[file]
        body = _IMPORT.sub(
            lambda m: f"const {{ {_binding(m['names'])} }} = {_scope_name(m['file'])};", text
        )
        if _OTHER_IMPORT.search(body):
            raise BundleError(f'{file}: only `import {{...}} from "./x.js";` can be bundled')
        exports = _EXPORT.findall(body)
        body = re.sub(r"^export\s+", "", body, flags=re.M)
        chunks.append(
            f"// ---- {file}\nconst {_scope_name(file)} = (() => {{\n{body}\n"
            f"return {{ {', '.join(exports)} }};\n}})();"
        )
    script = '"use strict";\n' + "\n".join(chunks)
    if module:
        script += f"\nexport default {_scope_name(entry)};\n"
    if _CLOSING_TAG.search(script):
        raise BundleError("a module contains </script or </style, which would end the tag")
    return script


def _styles() -> str:
    css = "\n".join((STATIC_DIR / name).read_text(encoding="utf-8") for name in OFFLINE_STYLES)
    if _CLOSING_TAG.search(css):
        raise BundleError("a stylesheet contains </style")
    return css


def offline_html(drawn: Drawn, theme: Theme | str, phase: Phase, step: int | None) -> str:
    """The self-contained page of a drawn program; it opens at ``step`` of ``phase`` (the start
    of the walk when ``step`` is None)."""
    source = drawn.source
    data = {
        "trace": json.loads(_TRACE.dump_json(drawn.trace)),  # as POST /api/graph sends it
        "svg": drawn.svg(),
        "fold": drawn.fold.as_json(),
        "source": source,
        "theme": theme,
        "start": None if step is None else {"phase": phase, "step": step},
    }
    # "<" never needs to be literal in JSON text: escaped, nothing inside can close the tag
    data_json = json.dumps(data, ensure_ascii=False).replace("<", "\\u003c")
    template = templates.get_template("embed.html")
    return template.render(
        offline=True,
        title="gradstep · " + (source.strip().splitlines() or ["a program"])[0][:60],
        styles=Markup(_styles()),
        bundle=Markup(bundle(OFFLINE_ENTRY)),
        data_json=Markup(data_json),
    )
