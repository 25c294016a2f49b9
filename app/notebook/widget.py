"""The stepper as a notebook widget (anywidget): JupyterLab, Notebook 7, VS Code, Colab.

The kernel traces and lays out (app.notebook.drawing); the widget's front end is
``static/notebook.js`` and the modules it imports, bundled as the offline file's are
(``app.draw.offline.bundle``), with the page's stylesheets scoped to the widget
(``app.notebook.css``). Nothing is fetched: the bundle travels in the wheel with ``static/``.
"""

from __future__ import annotations

import json
from functools import cache
from html import escape
from pathlib import Path
from typing import Any, cast

import anywidget
import traitlets
from pydantic import TypeAdapter

from app.draw.offline import OFFLINE_STYLES, bundle, offline_html
from app.draw.slide import caption, slide_svg
from app.draw.svg import Theme, standalone_svg
from app.notebook.css import scope_css
from app.notebook.drawing import notebook_layout
from app.pipeline import Drawn, draw_trace
from app.serving import STATIC_DIR, templates
from engine.steps import Phase
from engine.trace import Trace

WIDGET_ENTRY = "notebook.js"
WIDGET_STYLE = "notebook.css"  # after the page's (scoped) sheets, as it is
_TRACE = TypeAdapter(Trace)


@cache
def widget_esm() -> str:
    return bundle(WIDGET_ENTRY, module=True)


@cache
def widget_css() -> str:
    page = "\n".join((STATIC_DIR / name).read_text(encoding="utf-8") for name in OFFLINE_STYLES)
    return scope_css(page) + "\n" + (STATIC_DIR / WIDGET_STYLE).read_text(encoding="utf-8")


def static_views(drawn: Drawn, phase: Phase, step: int | None, theme: Theme) -> dict[str, str]:
    """The graph at ``step`` of ``phase`` (None: finished) as SVG, a slide with the step's
    explanation under the graph, and as HTML, the graph and then the explanation as text."""
    at = (phase, step) if step is not None else (None, None)
    rows = caption(drawn.trace, *at)
    filled = drawn.svg(*at)
    slide = standalone_svg(slide_svg(filled, rows, "16:9"), theme)
    graph = standalone_svg(filled, theme).split("?>", 1)[1]  # inline: no XML declaration
    text = "\n".join("  ".join(cell for cell in row if cell) for row in rows)
    shown = -1 if step is None else step
    html = (
        f'<figure class="gradstep-static" data-phase="{phase}" data-step="{shown}">'
        f'<div style="max-width: 100%; overflow: auto">{graph}</div>'
        f"<figcaption><pre>{escape(text)}</pre></figcaption></figure>"
    )
    return {"image/svg+xml": slide, "text/html": html}


@cache
def player_html() -> str:
    return templates.get_template("player.html").render(offline=True, heading=False)


class Stepper(anywidget.AnyWidget):
    """One drawn graph, stepped through in the notebook. ``phase`` and ``step`` follow the
    browser (and move it when set here); ``step`` is -1 for the finished picture until a front
    end has drawn it."""

    _esm = widget_esm()
    _css = widget_css()
    _player_html = traitlets.Unicode(player_html()).tag(sync=True)
    trace = traitlets.Dict().tag(sync=True)
    svg = traitlets.Unicode().tag(sync=True)
    fold = traitlets.Dict().tag(sync=True)
    source = traitlets.Unicode().tag(sync=True)
    theme = traitlets.Enum(["auto", "light", "dark"], "auto").tag(sync=True)
    decimals = traitlets.Int(4).tag(sync=True)
    height = traitlets.Int(480).tag(sync=True)
    phase = traitlets.Enum(["forward", "backward", "update"], "backward").tag(sync=True)
    step = traitlets.Int(-1).tag(sync=True)

    def __init__(self, drawn: Drawn, **kwargs: Any) -> None:
        super().__init__(
            trace=json.loads(_TRACE.dump_json(drawn.trace)),  # as POST /api/graph sends it
            svg=drawn.svg(),
            fold=json.loads(json.dumps(drawn.fold.as_json())),
            source=drawn.source,
            **kwargs,
        )
        self._drawn = drawn
        self.on_msg(self._on_message)

    def _on_message(self, _widget: object, content: object, _buffers: object) -> None:
        """A view opened (where it opened), or asks for other calls folded (a click on a box or
        a call's frame: the same trace, laid out again)."""
        if not isinstance(content, dict):
            return
        if isinstance(content.get("fold"), str):
            self.refold(content["fold"])
        elif isinstance(content.get("opened"), dict):
            self._opened(content["opened"])

    def _opened(self, at: dict[str, object]) -> None:
        """A view has drawn itself at ``at``. A position Python holds (set before the view
        existed, or taken in another view) wins: it is sent again, since the first sending may
        have reached the front end before the view's model was there to take it. Otherwise
        Python learns where the view opened (the finished picture: the last step)."""
        if self.step >= 0:
            self.send_state(["phase", "step"])
            return
        phase, step = at.get("phase"), at.get("step")
        if phase in ("forward", "backward", "update") and isinstance(step, int) and step >= 0:
            with self.hold_sync():
                self.phase = phase
                self.step = step

    def _repr_mimebundle_(self, **kwargs: object) -> tuple[dict[str, Any], dict[str, Any]] | None:
        """The widget, and for whatever cannot run it (nbconvert's HTML or PDF, GitHub, a
        notebook opened without its widget state) the graph at this step as SVG and HTML."""
        bundle = super()._repr_mimebundle_(**kwargs)  # type: ignore[arg-type]
        if bundle is None:
            return None
        data, metadata = bundle
        phase = cast(Phase, self.phase)
        step = None if self.step < 0 else self.step
        theme = "light" if self.theme == "auto" else cast(Theme, self.theme)
        return {**data, **static_views(self._drawn, phase, step, theme)}, metadata

    def refold(self, folded: str) -> None:
        """Draw ``folded`` calls as boxes (auto, none, all or call ids, as ``show``'s
        ``folded``); the step stays."""
        d = self._drawn
        self._drawn = draw_trace(
            notebook_layout(), d.trace, d.rankdir, None, folded, d.source, d.values
        )
        with self.hold_sync():
            self.fold = json.loads(json.dumps(self._drawn.fold.as_json()))
            self.svg = self._drawn.svg()

    @property
    def drawn(self) -> Drawn:
        return self._drawn

    def save(self, path: str | Path) -> Path:
        """The offline file (as ``GET /api/graph.html`` writes it) at this widget's step."""
        phase = cast(Phase, self.phase)
        html = offline_html(self._drawn, self.theme, phase, None if self.step < 0 else self.step)
        target = Path(path)
        target.write_text(html, encoding="utf-8")
        return target
