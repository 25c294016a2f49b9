"""matplotlib.cm: the colormaps learners pass as ``cmap=`` (``plt.cm.Spectral`` above all, the
one the classic moons demos colour their decision boundary with). Spectral and RdBu are
matplotlib's own ColorBrewer anchors, so their colours are exact; viridis and coolwarm are
17 evenly spaced samples of matplotlib's tables, linearly between them (within 0.03)."""

from __future__ import annotations

from typing import Any

from engine.guest.modules.matplotlib.colors import Colormap

__name__ = "matplotlib.cm"  # so that reprs and errors name the module the program imported

_ANCHORS: dict[str, tuple[tuple[float, float, float], ...]] = {
    "Spectral": (
        (0.61960784313725492, 0.003921568627450980, 0.25882352941176473),
        (0.83529411764705885, 0.24313725490196078, 0.30980392156862746),
        (0.95686274509803926, 0.42745098039215684, 0.2627450980392157),
        (0.99215686274509807, 0.68235294117647061, 0.38039215686274508),
        (0.99607843137254903, 0.8784313725490196, 0.54509803921568623),
        (1.0, 1.0, 0.74901960784313726),
        (0.90196078431372551, 0.96078431372549022, 0.59607843137254901),
        (0.6705882352941176, 0.8666666666666667, 0.64313725490196083),
        (0.4, 0.76078431372549016, 0.6470588235294118),
        (0.19607843137254902, 0.53333333333333333, 0.74117647058823533),
        (0.36862745098039218, 0.30980392156862746, 0.63529411764705879),
    ),
    "RdBu": (
        (0.40392156862745099, 0.0, 0.12156862745098039),
        (0.69803921568627447, 0.09411764705882353, 0.16862745098039217),
        (0.83921568627450982, 0.37647058823529411, 0.30196078431372547),
        (0.95686274509803926, 0.6470588235294118, 0.50980392156862742),
        (0.99215686274509807, 0.85882352941176465, 0.7803921568627451),
        (0.96862745098039216, 0.96862745098039216, 0.96862745098039216),
        (0.81960784313725488, 0.89803921568627454, 0.94117647058823528),
        (0.5725490196078431, 0.77254901960784317, 0.87058823529411766),
        (0.2627450980392157, 0.57647058823529407, 0.76470588235294112),
        (0.12941176470588237, 0.4, 0.67450980392156867),
        (0.0196078431372549, 0.18823529411764706, 0.38039215686274508),
    ),
    "viridis": (
        (0.267, 0.0049, 0.3294),
        (0.2823, 0.095, 0.4173),
        (0.2788, 0.1755, 0.4834),
        (0.259, 0.2515, 0.5247),
        (0.2297, 0.3224, 0.5457),
        (0.1994, 0.3876, 0.5546),
        (0.1727, 0.4488, 0.5579),
        (0.149, 0.5081, 0.5573),
        (0.1276, 0.5669, 0.5506),
        (0.1201, 0.6222, 0.5349),
        (0.1539, 0.6802, 0.5042),
        (0.2394, 0.7356, 0.4557),
        (0.3607, 0.786, 0.3878),
        (0.5063, 0.8288, 0.3004),
        (0.6681, 0.862, 0.1963),
        (0.8353, 0.886, 0.1026),
        (0.9932, 0.9062, 0.1439),
    ),
    "coolwarm": (
        (0.2298, 0.2987, 0.7537),
        (0.3042, 0.4069, 0.8453),
        (0.3837, 0.5102, 0.9178),
        (0.4677, 0.6056, 0.9685),
        (0.5543, 0.6901, 0.9955),
        (0.6408, 0.7608, 0.9978),
        (0.724, 0.8149, 0.9757),
        (0.8006, 0.8504, 0.93),
        (0.8674, 0.8644, 0.8626),
        (0.9227, 0.8286, 0.7771),
        (0.9582, 0.7712, 0.6803),
        (0.9699, 0.6958, 0.5813),
        (0.9583, 0.6043, 0.4833),
        (0.9244, 0.4986, 0.3891),
        (0.8697, 0.3793, 0.3009),
        (0.7959, 0.2418, 0.2208),
        (0.7057, 0.0156, 0.1502),
    ),
}
_ANCHORS["RdYlBu"] = _ANCHORS["Spectral"]  # near enough for the rarer diverging names
_ANCHORS["bwr"] = ((0.0, 0.0, 1.0), (1.0, 1.0, 1.0), (1.0, 0.0, 0.0))
_ANCHORS["Greys"] = ((1.0, 1.0, 1.0), (0.0, 0.0, 0.0))
_ANCHORS["gray"] = ((0.0, 0.0, 0.0), (1.0, 1.0, 1.0))
_ANCHORS["binary"] = _ANCHORS["Greys"]
_cache: dict[str, Colormap] = {}


def get_cmap(name: Any = None, lut: int | None = None) -> Colormap:
    """The colormap of that name (``"Spectral_r"`` reversed); an unknown name gives viridis
    under the asked name, so that a program using a rarer map still runs and is coloured."""
    if isinstance(name, Colormap):
        return name if lut is None else name.resampled(lut)
    key = str(name) if name is not None else "viridis"
    if key not in _cache:
        base = key[:-2] if key.endswith("_r") else key
        anchors = _ANCHORS.get(base, _ANCHORS["viridis"])
        _cache[key] = Colormap(key, anchors[::-1] if base != key else anchors)
    cmap = _cache[key]
    return cmap if lut is None else cmap.resampled(lut)


class _Registry(dict[str, Colormap]):
    """``matplotlib.colormaps``: every name resolves (see get_cmap)."""

    def __missing__(self, key: str) -> Colormap:
        return get_cmap(key)

    def get_cmap(self, cmap: Any) -> Colormap:
        return get_cmap(cmap)


colormaps = _Registry()


class ScalarMappable:
    """What ``plt.colorbar`` is given; gradstep draws no colorbar, so it only keeps its parts."""

    def __init__(self, norm: Any = None, cmap: Any = None) -> None:
        self.norm = norm
        self.cmap = get_cmap(cmap)

    def set_array(self, array: Any) -> None:
        self.array = array

    def to_rgba(self, x: Any, alpha: float | None = None) -> Any:
        return self.cmap(self.norm(x) if self.norm is not None else x, alpha)


def __getattr__(name: str) -> Colormap:
    """``cm.Spectral``, ``cm.viridis_r``, ...: built on first use, so import stays cheap."""
    if name.startswith("_"):
        raise AttributeError(f"module 'matplotlib.cm' has no attribute {name!r}")
    return get_cmap(name)
