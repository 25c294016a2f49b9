"""matplotlib.pyplot, as a stand-in that draws nothing: it records what the program plots
(figures, their axes, each line, scatter and bar as plain numbers) so that gradstep can draw it
beside the graph, and it never fails on the calls learners make. What it cannot draw it still
accepts, and the figure's ``skipped`` says so once ("contourf was not drawn").

The harness reads ``record()`` after the program and calls ``reset()`` before the next one.
Both the state machine (``plt.plot``) and the objects (``fig, ax = plt.subplots()``) work.
"""

from __future__ import annotations

import bisect
import copy
import importlib
import itertools
import math
import sys
from collections.abc import Callable, Iterator
from types import FrameType
from typing import Any

from engine.guest.modules import matplotlib as _package
from engine.guest.modules.matplotlib import cm as cm
from engine.guest.modules.matplotlib import colors as colors
from engine.guest.modules.matplotlib.cm import get_cmap as get_cmap
from engine.guest.modules.matplotlib.colors import Normalize as Normalize
from engine.guest.modules.matplotlib.patches import Circle as Circle
from engine.guest.modules.matplotlib.patches import Patch as Patch
from engine.guest.modules.matplotlib.patches import Polygon as Polygon
from engine.guest.modules.matplotlib.patches import Rectangle as Rectangle

__name__ = "matplotlib.pyplot"  # so that reprs and errors name the module the program imported

PROGRAM = "<program>"  # the file name the program is compiled with
MAX_FIGURES = 20  # recorded; later figures still work but keep nothing
MAX_SERIES_POINTS = 5_000
MAX_FIGURE_POINTS = 20_000
HELD_FIGURE_POINTS = 100_000  # kept before the figure's cap is applied in record()
MAX_SERIES = 1_000  # per figure: a loop adding a series each step stops adding here
LINE_STYLES = {
    "-": "-",
    "solid": "-",
    "--": "--",
    "dashed": "--",
    ":": ":",
    "dotted": ":",
    "-.": "-.",
    "dashdot": "-.",
}
NO_LINE = ("None", "none", " ", "", None)
MARKERS = frozenset(".,ov^<>12348spP*hH+xXDd|_")
SCALES = ("linear", "log", "symlog")
rcParams = _package.rcParams
Number = float | None


# Numbers -----------------------------------------------------------------------------------


def _unwrap(value: Any) -> Any:
    """Arrays to lists (``tolist``), gradstep-like nodes to their number (``.data``)."""
    for _ in range(4):
        if isinstance(value, (str, bytes, list, tuple, int, float)):
            return value
        if hasattr(value, "tolist"):
            value = value.tolist()
        elif hasattr(value, "data"):
            value = value.data
        else:
            return value
    return value


def _number(value: Any) -> Number:
    """A plain finite float, or None for what is not one (NaN, inf, text, objects)."""
    value = _unwrap(value)
    try:
        number = float(value)
    except (TypeError, ValueError, OverflowError):
        return None
    return number if math.isfinite(number) else None


def _is_sequence(value: Any) -> bool:
    return not isinstance(value, (str, bytes)) and hasattr(value, "__iter__")


def _flat(value: Any) -> list[Any]:
    """Every leaf of a (nested) sequence, in order; a single value as a list of one."""
    value = _unwrap(value)
    if not _is_sequence(value):
        return [value]
    out: list[Any] = []
    for item in value:
        item = _unwrap(item)
        out.extend(_flat(item) if _is_sequence(item) else [item])
    return out


def _columns(value: Any) -> list[list[Any]]:
    """plot's y: a 2-D table gives one line per column, as matplotlib draws it."""
    value = _unwrap(value)
    if not _is_sequence(value):
        return [[value]]
    rows = [_unwrap(row) for row in value]
    if rows and all(_is_sequence(row) for row in rows):
        width = min(len(list(row)) for row in rows)
        table = [list(row) for row in rows]
        return [[row[j] for row in table] for j in range(width)]
    return [rows]


def _spaced(count: int, keep: int) -> list[int]:
    """``keep`` evenly spaced indices of ``count``, first and last included."""
    if keep >= count:
        return list(range(count))
    if keep <= 1:
        return [0]
    return [(i * (count - 1) + (keep - 1) // 2) // (keep - 1) for i in range(keep)]


def _program_line() -> int | None:
    """The line of the program running now: the innermost frame of ``<program>``."""
    frame: FrameType | None = sys._getframe(1)
    while frame is not None:
        if frame.f_code.co_filename == PROGRAM:
            return frame.f_lineno
        frame = frame.f_back
    return None


def _text(value: Any) -> str | None:
    return None if value is None else str(value)


def _label(value: Any) -> str | None:
    """matplotlib leaves labels that begin with an underscore out of the legend."""
    text = _text(value)
    return None if text is None or text.startswith("_") else text


# Things not drawn ------------------------------------------------------------------------


class _Absent:
    """What an unknown name gives: any call, attribute, item or arithmetic works and returns
    itself, so chained calls (``ax.xaxis.set_major_locator(...)``) run; the first call notes
    "<name> was not drawn" in its figure (or the current one)."""

    __slots__ = ("_figure", "_name")
    _figure: Figure | None
    _name: str

    def __init__(self, name: str, figure: Figure | None = None) -> None:
        object.__setattr__(self, "_name", name)
        object.__setattr__(self, "_figure", figure)

    def __call__(self, *args: Any, **kwargs: Any) -> _Absent:
        figure = self._figure if self._figure is not None else _state.current
        _note(f"{self._name} was not drawn", figure)
        return self

    def __getattr__(self, name: str) -> _Absent:
        if name.startswith("_"):
            raise AttributeError(name)
        return self

    def __setattr__(self, name: str, value: Any) -> None:
        pass

    def __getitem__(self, key: Any) -> _Absent:
        return self

    def __setitem__(self, key: Any, value: Any) -> None:
        pass

    def __iter__(self) -> Iterator[_Absent]:
        return iter((self,))  # ``line, = ax2.plot(...)`` unpacks

    def __enter__(self) -> _Absent:
        return self

    def __exit__(self, *exc: object) -> None:
        pass

    def __float__(self) -> float:
        return 0.0

    def __int__(self) -> int:
        return 0

    def __arithmetic(self, other: Any) -> _Absent:
        return self

    __add__ = __radd__ = __sub__ = __rsub__ = __mul__ = __rmul__ = __arithmetic
    __truediv__ = __rtruediv__ = __pow__ = __arithmetic

    def __neg__(self) -> _Absent:
        return self

    def __repr__(self) -> str:
        return f"<{self._name}: not drawn by gradstep>"


def _note(text: str, figure: Figure | None) -> None:
    """Say once, in the figure's ``skipped``, what gradstep does not show; before any figure,
    the note waits for the first one."""
    if figure is None:
        _state.pending.setdefault(text, None)
    elif figure.kept:
        figure.skipped.setdefault(text, None)


class _Style:
    """``plt.style``: styles change colours and fonts that gradstep chooses itself."""

    def __init__(self) -> None:
        self.available = ["default", "classic", "ggplot", "seaborn-v0_8", "dark_background"]
        self.library: dict[str, Any] = {}

    def use(self, style: Any) -> None:
        pass

    def context(self, style: Any, after_reset: bool = False) -> _Absent:
        return _Absent("style.context")


style = _Style()


# Artists ---------------------------------------------------------------------------------


class _Series:
    """One line, scatter or bar series, its points held at most MAX_SERIES_POINTS."""

    def __init__(self, kind: str, x: list[Any], y: list[Any], **style: Any) -> None:
        self.kind = kind
        self.style = style  # label, color, marker, style, width, size (, colors, cmap)
        self.singles = False  # made of one-point scatters, which a loop adds to
        self.total = 0
        self.stride = 1  # of the points a loop adds (extend)
        self.x: list[Number] = []
        self.y: list[Number] = []
        self.values: list[Number] | None = None  # scatter c= values, one per point
        self.set(x, y)

    def set(self, x: list[Any], y: list[Any], values: list[Any] | None = None) -> None:
        self.total = len(x)
        keep = _spaced(len(x), MAX_SERIES_POINTS)
        self.x = [_number(x[i]) for i in keep]
        self.y = [_number(y[i]) for i in keep]
        self.values = None if values is None else [_number(values[i]) for i in keep]

    def extend(self, x: list[Any], y: list[Any]) -> None:
        """Add a loop's next points: every ``stride``-th is kept, and the stride doubles
        (dropping every other point kept) whenever the series fills, so the kept points stay
        evenly spaced and each addition costs the same."""
        for px, py in zip(x, y, strict=True):
            if self.total % self.stride == 0:
                self.x.append(_number(px))
                self.y.append(_number(py))
            self.total += 1
            if len(self.x) > MAX_SERIES_POINTS:
                self.x, self.y = self.x[::2], self.y[::2]
                self.stride *= 2

    def record(self, keep: int) -> tuple[dict[str, Any], str | None]:
        indices = _spaced(len(self.x), keep)
        out: dict[str, Any] = {
            "kind": self.kind,
            "x": [self.x[i] for i in indices],
            "y": [self.y[i] for i in indices],
        }
        for key in ("label", "color", "marker", "style", "width", "size"):
            out[key] = self.style.get(key)
        if self.values is not None:
            out["colors"] = [self.values[i] for i in indices]
            out["cmap"] = self.style.get("cmap")
        shown = len(indices)
        return out, (f"{shown} points shown of {self.total}" if shown < self.total else None)


class _Handle:
    """What plot/scatter return (Line2D, PathCollection): its setters change the series."""

    def __init__(self, series: _Series, axes: Axes) -> None:
        self._series = series
        self._axes = axes

    def set_data(self, *args: Any) -> None:
        x, y = args if len(args) == 2 else _unwrap(args[0])  # set_data(x, y) or ([x], [y])
        self._set(_flat(x), _flat(y))

    def set_xdata(self, x: Any) -> None:
        self._set(_flat(x), self._series.y)

    def set_ydata(self, y: Any) -> None:
        y = _flat(y)
        x = self._series.x if len(self._series.x) == len(y) else list(range(len(y)))
        self._set(x, y)

    def set_offsets(self, offsets: Any) -> None:
        rows = [_flat(row) for row in _unwrap(offsets)] if _is_sequence(offsets) else []
        self._set([r[0] for r in rows if r], [r[-1] for r in rows if r])

    def _set(self, x: list[Any], y: list[Any]) -> None:
        if self._series.singles:
            _note("set_data on merged points was not drawn", self._axes.figure)
        elif len(x) == len(y):
            self._series.set(x, y)

    def get_xdata(self) -> list[Number]:
        return list(self._series.x)

    def get_ydata(self) -> list[Number]:
        return list(self._series.y)

    def set_label(self, label: Any) -> None:
        self._series.style["label"] = _label(label)

    def get_label(self) -> str:
        return self._series.style.get("label") or ""

    def set_color(self, color: Any) -> None:
        self._series.style["color"] = colors.to_css(color)

    def get_color(self) -> str | None:
        color: str | None = self._series.style.get("color")
        return color

    def set_linestyle(self, style: Any) -> None:
        self._series.style["style"] = _line_style(style)

    def set_linewidth(self, width: Any) -> None:
        self._series.style["width"] = _number(width)

    def set_marker(self, marker: Any) -> None:
        self._series.style["marker"] = None if marker in NO_LINE else str(marker)

    def set_alpha(self, alpha: Any) -> None:
        pass

    def remove(self) -> None:
        if self._series in self._axes.series:
            self._axes.series.remove(self._series)

    def __getattr__(self, name: str) -> Any:
        if name.startswith("_"):
            raise AttributeError(name)
        return _Absent(name, self._axes.figure)


class _Bar(Rectangle):
    """One bar of a BarContainer, with the getters used to place text above it."""

    def __init__(self, x: float, height: float, width: float) -> None:
        super().__init__((x - width / 2, 0.0), width, height)
        self._box = (x - width / 2, 0.0, width, height)

    def get_x(self) -> float:
        return self._box[0]

    def get_y(self) -> float:
        return self._box[1]

    def get_width(self) -> float:
        return self._box[2]

    def get_height(self) -> float:
        return self._box[3]

    def get_xy(self) -> tuple[float, float]:
        return (self._box[0], self._box[1])


def _line_style(style: Any) -> str | None:
    if style in NO_LINE:
        return None
    if isinstance(style, str):
        return LINE_STYLES.get(style, "-")
    return "--"  # a dash pattern such as (0, (5, 2))


def _parse_format(fmt: str) -> tuple[str | None, str | None, str | None, bool]:
    """A plot format string ("r--", "o", "C2:", "green") as matplotlib reads it: (line style,
    marker, colour, understood). No line style but a marker means markers only. matplotlib
    tries a colour first; no colour name is made of format characters only, so trying the
    format first reads the same, and the colour names stay those that CSS knows."""
    style = marker = color = None
    understood = True
    i = 0
    while i < len(fmt):
        if fmt[i : i + 2] in ("--", "-."):
            style, i = fmt[i : i + 2], i + 2
        elif fmt[i] in "-:":
            style, i = fmt[i], i + 1
        elif fmt[i] in MARKERS:
            marker, i = fmt[i], i + 1
        elif fmt[i] in colors.BASE_COLORS:
            color, i = colors.BASE_COLORS[fmt[i]], i + 1
        elif fmt[i] == "C" and i + 1 < len(fmt) and fmt[i + 1].isdigit():
            color, i = colors.CYCLE[int(fmt[i + 1]) % 10], i + 2
        else:
            understood, i = False, i + 1
    if not understood and colors.is_color_like(fmt):  # "green", "0.5", "#ff8800"
        return "-", None, colors.to_css(fmt), True
    if style is None and marker is None:
        style = "-"
    return style, marker, color, understood


def _is_color(value: Any) -> bool:
    """A colour name or an RGB(A) tuple, as one item of scatter's c=."""
    if isinstance(value, str):
        return True
    return _is_sequence(value) and len(value) in (3, 4) and colors.is_color_like(value)


def _categories(values: list[Any], axes: Axes) -> list[Any]:
    """Text positions (``plt.bar(["a", "b"], ...)``) become 0, 1, 2, ... in order of first use."""
    if not any(isinstance(v, str) for v in values):
        return values
    _note("text positions were drawn as 0, 1, 2, ...", axes.figure)
    places: dict[str, int] = {}
    return [places.setdefault(v, len(places)) if isinstance(v, str) else v for v in values]


# Axes --------------------------------------------------------------------------------------


class Axes:
    """One plot of a figure: its series, reference lines and settings, kept for record()."""

    def __init__(self, figure: Figure, row: int = 0, col: int = 0, spec: Any = None) -> None:
        self.figure = figure
        self.row = row
        self.col = col
        self.spec = spec  # (rows, cols, index) it was made with, to find it again
        self.cla()

    def cla(self) -> None:
        self.title: str | None = None
        self.xlabel: str | None = None
        self.ylabel: str | None = None
        self.xscale = "linear"
        self.yscale = "linear"
        self.xlim: list[Number] | None = None
        self.ylim: list[Number] | None = None
        self.legend_shown = False
        self.grid_shown = False
        self.series: list[_Series] = []
        self.lines: list[dict[str, Any]] = []
        self._cycle = {"line": 0, "patch": 0}  # matplotlib's two colour cycles per axes

    clear = cla

    def _next_color(self, cycle: str) -> str:
        color = colors.CYCLE[self._cycle[cycle] % len(colors.CYCLE)]
        self._cycle[cycle] += 1
        return color

    def _add(self, series: _Series) -> _Series:
        """Keep the series unless the figure already holds too much. A single point drawn
        without a line (``plt.scatter(step, loss)``, ``plt.plot(step, loss, "ro")``) joins an
        earlier one of the same look, so that a loop of them stays one series."""
        figure = self.figure
        if not figure.kept:
            return series
        lineless = series.kind == "scatter" or series.style.get("style") is None
        if lineless and len(series.x) == 1 and series.values is None:
            for other in self.series:
                if other.singles and other.style == series.style:
                    other.extend(series.x, series.y)
                    return other
            series.singles = True
        held = figure.held()
        if held[0] >= MAX_SERIES or held[1] + len(series.x) > HELD_FIGURE_POINTS:
            _note("more series than gradstep draws: the later ones were not drawn", figure)
            return series
        self.series.append(series)
        return series

    # Drawing ---------------------------------------------------------------------------

    def plot(self, *args: Any, **kwargs: Any) -> list[_Handle]:
        """plot(y), plot(x, y), plot(x, y, fmt), and several such groups in one call."""
        groups: list[tuple[Any, ...]] = []
        rest = args
        while rest:  # as matplotlib groups them: (x, y), (y, fmt) or (x, y, fmt)
            group, rest = rest[:2], rest[2:]
            if not (len(group) == 2 and isinstance(group[1], str)) and rest:
                if isinstance(rest[0], str):
                    group, rest = (*group, rest[0]), rest[1:]
            groups.append(group)
        if "x" in kwargs or "y" in kwargs:
            groups.append((kwargs.pop("x", None), kwargs.pop("y", None)))
        handles: list[_Handle] = []
        for group in groups:
            fmt = group[-1] if isinstance(group[-1], str) else None
            data = group[:-1] if fmt is not None else group
            handles.extend(self._plot_group(data, fmt, kwargs))
        return handles

    def _plot_group(self, data: tuple[Any, ...], fmt: str | None, kw: dict[str, Any]) -> Any:
        if not data or data[-1] is None:
            return []
        ys = _columns(data[-1])
        xs = _columns(data[0]) if len(data) > 1 else [list(range(len(ys[0])))]
        style: str | None = "-"
        marker: str | None = None
        color: str | None = None
        if fmt is not None:
            style, marker, color, understood = _parse_format(fmt)
            if not understood:
                _note(f"plot format {fmt!r} was not fully understood", self.figure)
        if "linestyle" in kw or "ls" in kw:
            style = _line_style(kw.get("linestyle", kw.get("ls")))
        if "marker" in kw:
            marker = None if kw["marker"] in NO_LINE else str(kw["marker"])
        given = kw.get("color", kw.get("c"))
        if given is not None:
            color = colors.to_css(given)
        handles = []
        for index, y in enumerate(ys):
            x = xs[index] if index < len(xs) else xs[0]
            x = _categories(x, self)
            if len(x) != len(y):
                _note(f"plot: x and y differ in length ({len(x)} and {len(y)})", self.figure)
                continue
            series_color = color if color is not None else self._next_color("line")
            series = _Series(
                "line",
                x,
                y,
                label=_label(kw.get("label")),
                color=series_color,
                marker=marker,
                style=style,
                width=_number(kw.get("linewidth", kw.get("lw"))),
                size=_number(kw.get("markersize", kw.get("ms"))),
            )
            handles.append(_Handle(self._add(series), self))
        return handles

    def scatter(
        self,
        x: Any,
        y: Any,
        s: Any = None,
        c: Any = None,
        marker: Any = None,
        cmap: Any = None,
        **kwargs: Any,
    ) -> _Handle | _Absent:
        """Points; ``c=`` a colour, a colour per point (one series per colour), or a number
        per point (class labels: kept as ``colors`` with the ``cmap`` name)."""
        xs, ys = _categories(_flat(x), self), _flat(y)
        if len(xs) != len(ys):
            _note(f"scatter: x and y differ in length ({len(xs)} and {len(ys)})", self.figure)
            return _Absent("scatter", self.figure)
        sizes = (
            [v for v in (_number(v) for v in _flat(s)) if v is not None] if s is not None else []
        )
        style: dict[str, Any] = {
            "label": _label(kwargs.get("label")),
            "color": None,
            "marker": "o" if marker is None else str(marker),
            "style": None,
            "width": None,
            "size": sum(sizes) / len(sizes) if sizes else None,
        }
        c = kwargs.get("color", c) if c is None else c
        if isinstance(c, str) or c is None:
            style["color"] = self._next_color("patch") if c is None else colors.to_css(c)
            return _Handle(self._add(_Series("scatter", xs, ys, **style)), self)
        flat = _flat(c)
        if (
            len(flat) in (3, 4)
            and len(xs) not in (3, 4)
            and all(_number(v) is not None for v in flat)
        ):
            style["color"] = colors.to_css(flat)  # one RGB(A) colour for every point
            return _Handle(self._add(_Series("scatter", xs, ys, **style)), self)
        items = [_unwrap(v) for v in _unwrap(c)] if _is_sequence(_unwrap(c)) else flat
        if len(items) == len(xs) and all(_is_color(v) for v in items):
            return self._scatter_by_color(xs, ys, items, style)
        values = flat if len(flat) == len(xs) else [flat[0]] * len(xs) if flat else []
        series = _Series("scatter", xs, ys, **style)
        name = cmap.name if isinstance(cmap, colors.Colormap) else cmap
        series.style["cmap"] = str(name) if name is not None else "viridis"
        series.set(xs, ys, values or None)
        return _Handle(self._add(series), self)

    def _scatter_by_color(
        self, xs: list[Any], ys: list[Any], per_point: list[Any], style: dict[str, Any]
    ) -> _Handle:
        """A colour per point (``c=["red" if t else "blue" for t in y]``): one series each."""
        groups: dict[str | None, tuple[list[Any], list[Any]]] = {}
        for x, y, color in zip(xs, ys, per_point, strict=True):
            gx, gy = groups.setdefault(colors.to_css(color), ([], []))
            gx.append(x)
            gy.append(y)
        first: _Series | None = None
        for color, (gx, gy) in groups.items():
            series = _Series("scatter", gx, gy, **{**style, "color": color})
            style = {**style, "label": None}  # one legend entry, as matplotlib's
            series = self._add(series)
            first = first or series
        assert first is not None
        return _Handle(first, self)

    def bar(
        self, x: Any, height: Any, width: Any = 0.8, bottom: Any = None, **kwargs: Any
    ) -> list[_Bar]:
        xs = _categories(_flat(x), self)
        heights = _flat(height)
        if len(heights) == 1 and len(xs) > 1:
            heights = heights * len(xs)
        if len(xs) == 1 and len(heights) > 1:
            xs = xs * len(heights)
        if len(xs) != len(heights):
            _note(f"bar: x and height differ in length ({len(xs)} and {len(heights)})", self.figure)
            return []
        if bottom is not None and any(_number(b) for b in _flat(bottom)):
            _note("bar bottoms were not drawn", self.figure)
        widths = [w for w in (_number(w) for w in _flat(width)) if w is not None]
        bar_width = widths[0] if widths else 0.8
        if kwargs.get("align") == "edge":
            lefts = [_number(v) for v in xs]
            xs = [None if v is None else v + bar_width / 2 for v in lefts]
        return self._bars(xs, heights, bar_width, kwargs)

    def _bars(
        self, xs: list[Any], heights: list[Any], width: float, kw: dict[str, Any]
    ) -> list[_Bar]:
        given = kw.get("color", kw.get("facecolor"))
        css = None if _is_sequence(given) and not isinstance(given, tuple) else given
        color = colors.to_css(css) if css is not None else None
        series = _Series(
            "bar",
            xs,
            heights,
            label=_label(kw.get("label")),
            color=color if color is not None else self._next_color("patch"),
            marker=None,
            style=None,
            width=width,
            size=None,
        )
        self._add(series)
        return [
            _Bar(_number(x) or 0.0, _number(h) or 0.0, width)
            for x, h in zip(xs, heights, strict=True)
        ]

    def hist(
        self, x: Any, bins: Any = 10, range: Any = None, density: bool = False, **kwargs: Any
    ) -> tuple[Any, Any, Any]:
        """Counted as numpy.histogram counts, drawn as bars (several data sets side by side
        in matplotlib are drawn overlapping here)."""
        raw = _unwrap(x)
        several = _is_sequence(raw) and raw and all(_is_sequence(_unwrap(d)) for d in raw)
        sets = [_flat(d) for d in raw] if several else [_flat(raw)]
        data = [[v for v in (_number(v) for v in d) if v is not None] for d in sets]
        edges = _bin_edges([v for d in data for v in d], bins, range)
        labels: Any = kwargs.get("label")
        label_list = list(labels) if _is_sequence(labels) else [labels] * len(data)
        counts_all, bars = [], []
        for index, values in enumerate(data):
            counts = _histogram(values, edges, density)
            counts_all.append(counts)
            centers = [(a + b) / 2 for a, b in itertools.pairwise(edges)]
            width = (edges[-1] - edges[0]) / max(1, len(edges) - 1)
            given = {**kwargs, "label": label_list[index] if index < len(label_list) else None}
            bars.append(self._bars(centers, counts, width, given))
        n = counts_all[0] if len(counts_all) == 1 else counts_all
        return _array(n), _array(edges), bars[0] if len(bars) == 1 else bars

    def axhline(self, y: Any = 0, xmin: Any = 0, xmax: Any = 1, **kwargs: Any) -> _Absent:
        return self._reference("h", y, kwargs)

    def axvline(self, x: Any = 0, ymin: Any = 0, ymax: Any = 1, **kwargs: Any) -> _Absent:
        return self._reference("v", x, kwargs)

    def _reference(self, axis: str, at: Any, kw: dict[str, Any]) -> _Absent:
        where = _number(at)
        if where is not None and self.figure.kept and len(self.lines) < MAX_SERIES:
            color = kw.get("color", kw.get("c"))
            self.lines.append(
                {
                    "axis": axis,
                    "at": where,
                    "label": _label(kw.get("label")),
                    "color": colors.to_css(color) if color is not None else colors.CYCLE[0],
                    "style": _line_style(kw.get("linestyle", kw.get("ls", "-"))),
                }
            )
        return _Absent(f"ax{axis}line", self.figure)

    # Settings --------------------------------------------------------------------------

    def set_title(self, label: Any, *args: Any, **kwargs: Any) -> None:
        self.title = _text(label)

    def set_xlabel(self, label: Any, *args: Any, **kwargs: Any) -> None:
        self.xlabel = _text(label)

    def set_ylabel(self, label: Any, *args: Any, **kwargs: Any) -> None:
        self.ylabel = _text(label)

    def get_title(self) -> str:
        return self.title or ""

    def get_xlabel(self) -> str:
        return self.xlabel or ""

    def get_ylabel(self) -> str:
        return self.ylabel or ""

    def set_xscale(self, value: Any, **kwargs: Any) -> None:
        self.xscale = self._scale(value)

    def set_yscale(self, value: Any, **kwargs: Any) -> None:
        self.yscale = self._scale(value)

    def _scale(self, value: Any) -> str:
        if value in SCALES:
            return str(value)
        _note(f"the {value} scale was drawn as linear", self.figure)
        return "linear"

    def set_xlim(self, *args: Any, **kwargs: Any) -> tuple[float, float]:
        self.xlim = _limits(self.xlim, args, kwargs, "left", "right", "xmin", "xmax")
        return self.get_xlim()

    def set_ylim(self, *args: Any, **kwargs: Any) -> tuple[float, float]:
        self.ylim = _limits(self.ylim, args, kwargs, "bottom", "top", "ymin", "ymax")
        return self.get_ylim()

    def get_xlim(self) -> tuple[float, float]:
        return self._limits(self.xlim, "x")

    def get_ylim(self) -> tuple[float, float]:
        return self._limits(self.ylim, "y")

    def _limits(self, fixed: list[Number] | None, axis: str) -> tuple[float, float]:
        """Set limits, else the data's range with matplotlib's 5% margins."""
        values = [v for s in self.series for v in (s.x if axis == "x" else s.y) if v is not None]
        lo, hi = (min(values), max(values)) if values else (0.0, 1.0)
        margin = (hi - lo) * 0.05 if hi > lo else 0.05
        lo, hi = lo - margin, hi + margin
        if fixed is not None:
            lo = fixed[0] if fixed[0] is not None else lo
            hi = fixed[1] if fixed[1] is not None else hi
        return (lo, hi)

    def legend(self, *args: Any, **kwargs: Any) -> _Absent:
        """legend(), legend(labels) naming the series in order, legend(handles, labels)."""
        self.legend_shown = True
        handles: Any = kwargs.get("handles")
        labels: Any = kwargs.get("labels")
        if len(args) == 1:
            labels = args[0]
        elif len(args) >= 2:
            handles, labels = args[0], args[1]
        if _is_sequence(labels):
            names = [_text(_unwrap(label)) for label in labels]
            if handles is None:
                for series, name in zip(self.series, names, strict=False):
                    series.style["label"] = name
            else:
                for handle, name in zip(handles, names, strict=False):
                    if isinstance(handle, _Handle):
                        handle._series.style["label"] = name
        return _Absent("legend", self.figure)

    def grid(self, visible: Any = None, *args: Any, **kwargs: Any) -> None:
        if visible is None and "b" in kwargs:
            visible = kwargs["b"]
        if visible is None:
            visible = True if kwargs else not self.grid_shown
        self.grid_shown = bool(visible)

    def set(self, **kwargs: Any) -> None:
        """``ax.set(title=..., xlabel=..., xlim=...)``: each as its ``set_`` method."""
        for key, value in kwargs.items():
            setter = getattr(self, f"set_{key}")
            setter(*value) if key in ("xlim", "ylim") and _is_sequence(value) else setter(value)

    # Not drawn, said once ----------------------------------------------------------------

    def text(self, *args: Any, **kwargs: Any) -> _Absent:
        return _Absent("text", self.figure)()

    def annotate(self, *args: Any, **kwargs: Any) -> _Absent:
        return _Absent("annotate", self.figure)()

    def add_patch(self, patch: Any) -> Any:
        _Absent("add_patch", self.figure)()
        return patch

    def add_artist(self, artist: Any) -> Any:
        _Absent("add_artist", self.figure)()
        return artist

    def __getattr__(self, name: str) -> Any:
        if name.startswith("_"):
            raise AttributeError(f"'Axes' object has no attribute {name!r}")
        return _Absent(name, self.figure)

    def record(self) -> dict[str, Any]:
        return {
            "row": self.row,
            "col": self.col,
            "title": self.title,
            "xlabel": self.xlabel,
            "ylabel": self.ylabel,
            "xscale": self.xscale,
            "yscale": self.yscale,
            "xlim": self.xlim,
            "ylim": self.ylim,
            "legend": self.legend_shown,
            "grid": self.grid_shown,
            "series": [],
            "lines": [dict(line) for line in self.lines],
        }

    def __repr__(self) -> str:
        return f"<Axes: title={self.title or ''!r}>"


def _limits(
    old: list[Number] | None, args: tuple[Any, ...], kw: dict[str, Any], *names: str
) -> list[Number] | None:
    lo, hi = old if old is not None else [None, None]
    if len(args) == 1 and _is_sequence(args[0]):
        args = tuple(args[0])
    if len(args) >= 1:
        lo = _number(args[0]) if args[0] is not None else lo
    if len(args) >= 2:
        hi = _number(args[1]) if args[1] is not None else hi
    for name, value in kw.items():
        if name in (names[0], names[2]) and value is not None:
            lo = _number(value)
        elif name in (names[1], names[3]) and value is not None:
            hi = _number(value)
    return None if lo is None and hi is None else [lo, hi]


def _bin_edges(values: list[float], bins: Any, span: Any) -> list[float]:
    """numpy.histogram's edges: ``bins`` equal bins over the range, or the edges given."""
    if _is_sequence(_unwrap(bins)):
        edges = [v for v in (_number(b) for b in _flat(bins)) if v is not None]
        if len(edges) >= 2:
            return edges
        bins = 10
    count = int(bins) if isinstance(bins, (int, float)) else 10
    if span is not None and _is_sequence(span):
        lo, hi = (_number(v) or 0.0 for v in list(span)[:2])
    elif values:
        lo, hi = min(values), max(values)
    else:
        lo, hi = 0.0, 1.0
    if lo == hi:
        lo, hi = lo - 0.5, hi + 0.5
    step = (hi - lo) / count
    return [lo + i * step for i in range(count)] + [hi]


def _histogram(values: list[float], edges: list[float], density: bool) -> list[float]:
    counts = [0.0] * (len(edges) - 1)
    for value in values:
        if edges[0] <= value <= edges[-1]:
            index = min(bisect.bisect_right(edges, value) - 1, len(counts) - 1)
            counts[index] += 1
    if density:
        total = sum(counts)
        widths = [b - a for a, b in itertools.pairwise(edges)]
        counts = [
            c / (total * w) if total and w else 0.0 for c, w in zip(counts, widths, strict=True)
        ]
    return counts


def _array(values: Any) -> Any:
    """A numpy-stand-in array when there is one (hist's counts and edges), else a list."""
    try:
        return importlib.import_module("engine.guest.modules.numpy").array(values)
    except (ImportError, AttributeError):
        return values


# Figures ---------------------------------------------------------------------------------


class _AxesArray:
    """What subplots returns for more than one axes, as numpy's object array of them:
    ``ax[i]``, ``ax[i, j]``, ``ax[i][j]``, ``ax.flat``, ``ax.ravel()``, iteration, ``len``."""

    def __init__(self, items: list[Axes], shape: tuple[int, ...]) -> None:
        self._items = items
        self.shape = shape
        self.ndim = len(shape)
        self.size = len(items)

    def _row(self, i: int) -> _AxesArray:
        cols = self.shape[1]
        return _AxesArray(self._items[i * cols : (i + 1) * cols], (cols,))

    def __getitem__(self, key: Any) -> Any:
        if isinstance(key, tuple):
            if len(key) == 1:
                return self[key[0]]
            row = self[key[0]]
            return row[key[1]] if isinstance(row, _AxesArray) else row
        if self.ndim == 1:
            if isinstance(key, slice):
                items = self._items[key]
                return _AxesArray(items, (len(items),))
            return self._items[key]
        rows = list(range(self.shape[0]))[key]
        if isinstance(rows, list):
            chosen = [self._row(i) for i in rows]
            return _AxesArray([a for r in chosen for a in r._items], (len(rows), self.shape[1]))
        return self._row(rows)

    def __iter__(self) -> Iterator[Any]:
        if self.ndim == 1:
            return iter(self._items)
        return (self._row(i) for i in range(self.shape[0]))

    def __len__(self) -> int:
        return self.shape[0]

    @property
    def flat(self) -> list[Axes]:
        return list(self._items)

    def ravel(self) -> _AxesArray:
        return _AxesArray(list(self._items), (self.size,))

    flatten = ravel

    def reshape(self, *shape: Any) -> _AxesArray:
        return self.ravel()

    def tolist(self) -> list[Any]:
        return [row.tolist() for row in self] if self.ndim == 2 else list(self._items)

    @property
    def T(self) -> _AxesArray:
        if self.ndim == 1:
            return self
        rows, cols = self.shape
        items = [self._items[i * cols + j] for j in range(cols) for i in range(rows)]
        return _AxesArray(items, (cols, rows))

    def __repr__(self) -> str:
        return f"array({self.tolist()!r}, dtype=object)"


class Figure:
    """A figure: its grid of axes, its suptitle, and the notes of what was not drawn."""

    def __init__(self, number: Any, kept: bool) -> None:
        self.number = number
        self.kept = kept  # one of the first MAX_FIGURES: recorded
        self.line = _program_line()
        self.title: str | None = None
        self.rows = 1
        self.cols = 1
        self._axes: list[Axes] = []
        self.current: Axes | None = None
        self.skipped: dict[str, None] = dict.fromkeys(_state.pending)
        _state.pending.clear()

    @property
    def axes(self) -> list[Axes]:
        return list(self._axes)

    def held(self) -> tuple[int, int]:
        """(series, points) kept over all axes."""
        series = [s for ax in self._axes for s in ax.series]
        return len(series), sum(len(s.x) for s in series)

    def add_subplot(self, *args: Any, **kwargs: Any) -> Axes:
        """add_subplot(), (r, c, i), (rci): the axes already at that place, else a new one."""
        rows, cols, index = _subplot_spec(args)
        if kwargs.get("projection") not in (None, "rectilinear"):
            _note(f"{kwargs['projection']} axes were drawn flat", self)
        for ax in self._axes:
            if ax.spec == (rows, cols, index):
                self.current = ax
                return ax
        self.rows, self.cols = max(self.rows, rows), max(self.cols, cols)
        ax = Axes(self, (index - 1) // cols, (index - 1) % cols, (rows, cols, index))
        self._axes.append(ax)
        self.current = ax
        return ax

    def subplots(
        self, nrows: int = 1, ncols: int = 1, *, squeeze: bool = True, **kwargs: Any
    ) -> Any:
        nrows, ncols = max(1, int(nrows)), max(1, int(ncols))
        axes = [self.add_subplot(nrows, ncols, i + 1) for i in range(nrows * ncols)]
        if squeeze and nrows == ncols == 1:
            return axes[0]
        if squeeze and (nrows == 1 or ncols == 1):
            return _AxesArray(axes, (len(axes),))
        return _AxesArray(axes, (nrows, ncols))

    def gca(self) -> Axes:
        return self.current if self.current is not None else self.add_subplot(1, 1, 1)

    def sca(self, ax: Axes) -> None:
        self.current = ax

    def suptitle(self, t: Any, *args: Any, **kwargs: Any) -> None:
        self.title = _text(t)

    def tight_layout(self, *args: Any, **kwargs: Any) -> None:
        """Layout is gradstep's own."""

    def subplots_adjust(self, *args: Any, **kwargs: Any) -> None:
        """Layout is gradstep's own."""

    def set_size_inches(self, *args: Any, **kwargs: Any) -> None:
        """Size is gradstep's own."""

    def savefig(self, *args: Any, **kwargs: Any) -> None:
        _note("savefig: gradstep saves no files", self)

    def show(self, *args: Any, **kwargs: Any) -> None:
        """Shown beside the graph when the program ends."""

    def clf(self, *args: Any, **kwargs: Any) -> None:
        self._axes.clear()
        self.current = None
        self.rows = self.cols = 1

    clear = clf

    def legend(self, *args: Any, **kwargs: Any) -> _Absent:
        return self.gca().legend(*args, **kwargs)

    def text(self, *args: Any, **kwargs: Any) -> _Absent:
        return _Absent("text", self)()

    def __getattr__(self, name: str) -> Any:
        if name.startswith("_"):
            raise AttributeError(f"'Figure' object has no attribute {name!r}")
        return _Absent(name, self)

    def record(self) -> dict[str, Any]:
        """The figure as JSON-able data, holding at most MAX_FIGURE_POINTS points."""
        series = [(ax, s) for ax in self._axes for s in ax.series]
        total = sum(len(s.x) for _, s in series)
        budget = MAX_FIGURE_POINTS - len(series)
        skipped = dict(self.skipped)
        axes = {id(ax): ax.record() for ax in self._axes}
        for ax, s in series:
            keep = len(s.x)
            if total > MAX_FIGURE_POINTS:
                keep = max(1, len(s.x) * budget // total)
            out, note = s.record(keep)
            axes[id(ax)]["series"].append(out)
            if note is not None:
                skipped.setdefault(note, None)
        return {
            "line": self.line,
            "title": self.title,
            "rows": self.rows,
            "cols": self.cols,
            "axes": list(axes.values()),
            "skipped": list(skipped),
        }

    def __repr__(self) -> str:
        return f"<Figure with {len(self._axes)} Axes>"


def _subplot_spec(args: tuple[Any, ...]) -> tuple[int, int, int]:
    try:
        if len(args) == 1 and isinstance(args[0], int) and 111 <= args[0] <= 999:
            digits = str(args[0])
            rows, cols, index = int(digits[0]), int(digits[1]), int(digits[2])
        elif len(args) == 3:
            where = args[2][0] if isinstance(args[2], tuple) else args[2]
            rows, cols, index = int(args[0]), int(args[1]), int(where)
        else:
            return (1, 1, 1)
    except (TypeError, ValueError, IndexError):
        return (1, 1, 1)
    rows, cols = max(1, rows), max(1, cols)
    return rows, cols, min(max(1, index), rows * cols)


class _State:
    """pyplot's state machine: the figures made, the open ones, the current one."""

    def __init__(self) -> None:
        self.figures: list[Figure] = []  # recorded, in the order made
        self.open: dict[Any, Figure] = {}
        self.current: Figure | None = None
        self.pending: dict[str, None] = {}  # notes made before the first figure
        self.unrecorded = 0  # figures made after the first MAX_FIGURES

    def new_figure(self, number: Any = None) -> Figure:
        if number is None:
            number = max([n for n in self.open if isinstance(n, int)] or [0]) + 1
        figure = Figure(number, kept=len(self.figures) < MAX_FIGURES)
        if figure.kept:
            self.figures.append(figure)
        else:
            self.unrecorded += 1
        self.open[number] = figure
        self.current = figure
        return figure


_state = _State()


def record() -> list[dict[str, Any]]:
    """Every figure the program made (the first MAX_FIGURES), as JSON-able data."""
    figures = [figure.record() for figure in _state.figures]
    if _state.unrecorded and figures:
        figures[-1]["skipped"].append(f"{_state.unrecorded} more figures were not drawn")
    return figures


def reset() -> None:
    """Forget every figure and setting, before the next program runs."""
    global _state
    _state = _State()
    rcParams.clear()
    rcParams.update(copy.deepcopy(_package.DEFAULTS))


# pyplot's functions ------------------------------------------------------------------------


def figure(num: Any = None, figsize: Any = None, dpi: Any = None, **kwargs: Any) -> Figure:
    if isinstance(num, Figure):
        _state.current = num
        return num
    if num is not None and num in _state.open:
        _state.current = _state.open[num]
        return _state.current
    return _state.new_figure(num)


def gcf() -> Figure:
    return _state.current if _state.current is not None else _state.new_figure()


def gca(**kwargs: Any) -> Axes:
    return gcf().gca()


def sca(ax: Axes) -> None:
    _state.current = ax.figure
    ax.figure.sca(ax)


def axes(arg: Any = None, **kwargs: Any) -> Any:
    """``plt.axes()``: the current figure's axes; one placed at a rectangle is not drawn."""
    if arg is None:
        return gcf().add_subplot(1, 1, 1, **kwargs)
    return _Absent("axes", gcf())()


def subplot(*args: Any, **kwargs: Any) -> Axes:
    return gcf().add_subplot(*args, **kwargs)


def subplots(
    nrows: int = 1, ncols: int = 1, *, squeeze: bool = True, **kwargs: Any
) -> tuple[Figure, Any]:
    fig = _state.new_figure()
    return fig, fig.subplots(nrows, ncols, squeeze=squeeze)


def close(fig: Any = None) -> None:
    if fig == "all":
        _state.open.clear()
    else:
        target = _state.current if fig is None else fig
        for number, figure in list(_state.open.items()):
            if figure is target or number == target:
                del _state.open[number]
    if _state.current is not None and _state.current not in _state.open.values():
        _state.current = next(reversed(_state.open.values()), None)


def show(*args: Any, **kwargs: Any) -> None:
    """Shows every open figure and closes them, as in a notebook: the next plot starts a new
    figure. Gradstep draws them beside the graph when the program ends."""
    close("all")


def clf() -> None:
    gcf().clf()


def cla() -> None:
    gca().cla()


def get_fignums() -> list[Any]:
    return list(_state.open)


def fignum_exists(num: Any) -> bool:
    return num in _state.open


def savefig(*args: Any, **kwargs: Any) -> None:
    gcf().savefig()


def suptitle(t: Any, *args: Any, **kwargs: Any) -> None:
    gcf().suptitle(t)


def _quiet(*args: Any, **kwargs: Any) -> None:
    """Layout, interaction and redrawing: nothing to do when nothing is drawn live."""


tight_layout = subplots_adjust = draw = ion = ioff = pause = _quiet


def isinteractive() -> bool:
    return False


def loglog(*args: Any, **kwargs: Any) -> list[_Handle]:
    ax = gca()
    ax.set_xscale("log")
    ax.set_yscale("log")
    return ax.plot(*args, **kwargs)


def semilogx(*args: Any, **kwargs: Any) -> list[_Handle]:
    gca().set_xscale("log")
    return gca().plot(*args, **kwargs)


def semilogy(*args: Any, **kwargs: Any) -> list[_Handle]:
    gca().set_yscale("log")
    return gca().plot(*args, **kwargs)


def _on_axes(name: str, method: str) -> Callable[..., Any]:
    def call(*args: Any, **kwargs: Any) -> Any:
        return getattr(gca(), method)(*args, **kwargs)

    call.__name__ = call.__qualname__ = name
    return call


plot = _on_axes("plot", "plot")
scatter = _on_axes("scatter", "scatter")
bar = _on_axes("bar", "bar")
hist = _on_axes("hist", "hist")
axhline = _on_axes("axhline", "axhline")
axvline = _on_axes("axvline", "axvline")
title = _on_axes("title", "set_title")
xlabel = _on_axes("xlabel", "set_xlabel")
ylabel = _on_axes("ylabel", "set_ylabel")
xscale = _on_axes("xscale", "set_xscale")
yscale = _on_axes("yscale", "set_yscale")
xlim = _on_axes("xlim", "set_xlim")
ylim = _on_axes("ylim", "set_ylim")
legend = _on_axes("legend", "legend")
grid = _on_axes("grid", "grid")
text = _on_axes("text", "text")
annotate = _on_axes("annotate", "annotate")


def colorbar(*args: Any, **kwargs: Any) -> _Absent:
    return _Absent("colorbar", gcf())()


def _not_drawn(name: str) -> Callable[..., _Absent]:
    def call(*args: Any, **kwargs: Any) -> _Absent:
        return _Absent(name, gcf())()

    call.__name__ = call.__qualname__ = name
    return call


contourf = _not_drawn("contourf")
contour = _not_drawn("contour")
imshow = _not_drawn("imshow")
fill_between = _not_drawn("fill_between")
pie = _not_drawn("pie")
errorbar = _not_drawn("errorbar")


def __getattr__(name: str) -> Any:
    """Any other pyplot function runs, is not drawn, and says so once."""
    if name.startswith("_"):
        raise AttributeError(f"module 'matplotlib.pyplot' has no attribute {name!r}")
    return _Absent(name)
