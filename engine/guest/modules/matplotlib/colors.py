"""matplotlib.colors, as far as gradstep's plots need it: a matplotlib colour (a format letter,
``"C1"``, ``"tab:orange"``, ``"0.5"``, a name, ``"#hex"``, an RGB(A) tuple) turned into a CSS
colour string that the page can draw, plus the Colormap classes that ``matplotlib.cm`` uses."""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

__name__ = "matplotlib.colors"  # so that reprs and errors name the module the program imported

RGBA = tuple[float, float, float, float]

# matplotlib's single letters are pure colours, not the tab10 ones ("g" is half-bright green)
BASE_COLORS = {
    "b": "#0000ff",
    "g": "#008000",
    "r": "#ff0000",
    "c": "#00bfbf",
    "m": "#bf00bf",
    "y": "#bfbf00",
    "k": "#000000",
    "w": "#ffffff",
}
# the default property cycle, "C0".."C9", and the same colours as "tab:blue".."tab:cyan"
CYCLE = (
    "#1f77b4",
    "#ff7f0e",
    "#2ca02c",
    "#d62728",
    "#9467bd",
    "#8c564b",
    "#e377c2",
    "#7f7f7f",
    "#bcbd22",
    "#17becf",
)
TABLEAU_COLORS = dict(
    zip(
        ("blue", "orange", "green", "red", "purple", "brown", "pink", "gray", "olive", "cyan"),
        CYCLE,
        strict=True,
    )
)
TABLEAU_COLORS["grey"] = TABLEAU_COLORS["gray"]


def _hex(rgb: Sequence[float]) -> str:
    return "#" + "".join(f"{round(max(0.0, min(1.0, float(c))) * 255):02x}" for c in rgb[:3])


def to_css(color: Any) -> str | None:
    """The CSS form of a matplotlib colour, or None for what cannot be read (the page then
    picks its own). CSS knows the same colour names as matplotlib, so names pass through."""
    if color is None:
        return None
    if isinstance(color, str):
        text = color.strip().lower()
        if text in BASE_COLORS:
            return BASE_COLORS[text]
        if len(text) == 2 and text[0] == "c" and text[1].isdigit():
            return CYCLE[int(text[1])]
        if text.startswith("tab:"):
            return TABLEAU_COLORS.get(text[4:])
        if text.startswith("#") and len(text) in (4, 5, 7, 9):
            return text
        try:
            gray = float(text)
        except ValueError:
            return text if text.isalpha() else None
        return _hex((gray, gray, gray)) if 0.0 <= gray <= 1.0 else None
    try:
        parts = [float(c) for c in color]
    except (TypeError, ValueError):
        return None
    if len(parts) == 3 and all(math.isfinite(c) for c in parts):
        return _hex(parts)
    if len(parts) == 4 and all(math.isfinite(c) for c in parts):
        if parts[3] >= 1.0:
            return _hex(parts)
        r, g, b = (round(max(0.0, min(1.0, c)) * 255) for c in parts[:3])
        return f"rgba({r}, {g}, {b}, {max(0.0, parts[3]):g})"
    return None


def is_color_like(color: Any) -> bool:
    return to_css(color) is not None


def to_hex(color: Any, keep_alpha: bool = False) -> str:
    css = to_css(color)
    return css if css is not None and css.startswith("#") else "#000000"


class Normalize:
    """Maps [vmin, vmax] onto [0, 1]; the limits come from the first data seen if not given."""

    def __init__(self, vmin: float | None = None, vmax: float | None = None, clip: bool = False):
        self.vmin, self.vmax, self.clip = vmin, vmax, clip

    def __call__(self, value: Any) -> Any:
        values = [value] if isinstance(value, (int, float)) else [float(v) for v in value]
        lo = self.vmin if self.vmin is not None else min(values)
        hi = self.vmax if self.vmax is not None else max(values)
        scaled = [0.0 if hi == lo else (v - lo) / (hi - lo) for v in values]
        return scaled[0] if isinstance(value, (int, float)) else scaled


class Colormap:
    """A colormap as matplotlib's: 256 colours, called with a float in [0, 1] (or an int index)
    it gives an RGBA tuple, and with a sequence a list of them."""

    def __init__(self, name: str, anchors: Sequence[Sequence[float]], N: int = 256):
        self.name = name
        self.N = N
        self._anchors = [tuple(float(c) for c in a[:3]) for a in anchors]
        self._lut = [self._interpolate(i / (N - 1) if N > 1 else 0.0) for i in range(N)]

    def _interpolate(self, x: float) -> RGBA:
        """Evenly spaced anchors, linearly between them (as LinearSegmentedColormap.from_list)."""
        last = len(self._anchors) - 1
        where = x * last
        i = min(int(where), last - 1) if last > 0 else 0
        t = where - i
        a = self._anchors[i]
        b = self._anchors[min(i + 1, last)]
        r, g, bl = (a[k] + (b[k] - a[k]) * t for k in range(3))
        return (r, g, bl, 1.0)

    def _one(self, x: Any, alpha: float | None) -> RGBA:
        if isinstance(x, int) and not isinstance(x, bool):
            index = max(0, min(self.N - 1, x))
        else:
            value = float(x)
            if math.isnan(value):
                return (0.0, 0.0, 0.0, 0.0)
            index = max(0, min(self.N - 1, int(value * self.N))) if value >= 0 else 0
        r, g, b, a = self._lut[index]
        return (r, g, b, a if alpha is None else float(alpha))

    def __call__(self, X: Any, alpha: float | None = None, bytes: bool = False) -> Any:
        if hasattr(X, "tolist"):
            X = X.tolist()
        if isinstance(X, (list, tuple)):
            return [self(x, alpha, bytes) for x in X]
        rgba = self._one(X, alpha)
        if bytes:
            return tuple(round(c * 255) for c in rgba)
        return rgba

    def reversed(self, name: str | None = None) -> Colormap:
        return Colormap(name or self.name + "_r", self._anchors[::-1], self.N)

    def resampled(self, lutsize: int) -> Colormap:
        return Colormap(self.name, self._anchors, lutsize)

    def __repr__(self) -> str:
        return f"<matplotlib.colors.Colormap object: {self.name!r}>"


class LinearSegmentedColormap(Colormap):
    @staticmethod
    def from_list(name: str, colors: Sequence[Any], N: int = 256) -> Colormap:
        anchors: list[Sequence[float]] = []
        for color in colors:
            if isinstance(color, tuple) and len(color) == 2 and isinstance(color[1], str):
                color = color[1]  # (position, colour): evenly spaced here
            anchors.append(_rgb(color))
        return Colormap(name, anchors, N)


class ListedColormap(Colormap):
    def __init__(self, colors: Sequence[Any], name: str = "from_list", N: int | None = None):
        super().__init__(name, [_rgb(c) for c in colors], N or len(colors))


def _rgb(color: Any) -> tuple[float, float, float]:
    css = to_css(color)
    if css is None or not css.startswith("#"):
        return (0.0, 0.0, 0.0)
    text = css[1:]
    if len(text) in (3, 4):
        text = "".join(c * 2 for c in text)
    return (int(text[0:2], 16) / 255, int(text[2:4], 16) / 255, int(text[4:6], 16) / 255)


def to_rgba(color: Any, alpha: float | None = None) -> RGBA:
    r, g, b = _rgb(color)
    return (r, g, b, 1.0 if alpha is None else float(alpha))


def to_rgb(color: Any) -> tuple[float, float, float]:
    return _rgb(color)
