"""Every export is bounded by pixels, and so by memory: a picture has at most MAX_PNG_PIXELS
(a 4K slide; resvg holds ~8 bytes a pixel), a GIF's frame at most MAX_GIF_PIXELS (QHD; the
server decodes and quantises it, ~12 bytes a pixel), a ZIP or GIF at most MAX_EXPORT_PIXELS in
all. A request past any is a 422 naming the limit and the largest scale that fits, before
anything is drawn; a request with no scale always fits. The peak memory of the largest accepted
exports is measured by bench/export_memory.py (figures in docs/benchmarks.md)."""

from __future__ import annotations

import gc
import math
import re
import sys
from collections.abc import Iterator

import pytest
from fastapi.testclient import TestClient

from app.capacity import Unavailable
from app.draw import png
from app.draw.frames import GIF_LIMIT, MAX_EXPORT_PIXELS, StepFile, check_export, export_scale
from app.draw.png import PICTURE_LIMIT, PixelLimit, check_pixels, png_size
from app.draw.slide import slide_svg
from app.main import create_app
from app.routes import exports
from engine.errors import GradstepError

PRODUCT = "a = Value(2.0)\nb = Value(-3.0)\nc = a * b + b\nc.backward()\n"  # 2 fwd, 3 bwd steps
README = {"preset": "micrograd-readme"}  # 51 steps, 26 of them backward


@pytest.fixture(scope="module")
def client() -> Iterator[TestClient]:
    with TestClient(create_app()) as made:
        yield made


@pytest.fixture
def drawn(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Every picture resvg is asked to draw (none, for a refused export)."""
    calls: list[int] = []
    real = png.rasterise
    monkeypatch.setattr(png, "rasterise", lambda **a: calls.append(1) or real(**a))
    return calls


@pytest.mark.parametrize(
    ("kind", "params", "limit"),
    [
        ("png", {"scale": 4}, "MAX_PNG_PIXELS"),  # 7680 × 4320
        ("png", {"scale": 4, "aspect": "4:3"}, "MAX_PNG_PIXELS"),
        ("zip", {"scale": 2.5}, "MAX_PNG_PIXELS"),
        ("zip", {"scale": 2}, "MAX_EXPORT_PIXELS"),  # 51 × 3840 × 2160
        ("gif", {"scale": 1.5}, "MAX_GIF_PIXELS"),  # 2880 × 1620: decoded in the server
        ("gif", {"scale": 4, "aspect": "graph"}, "MAX_GIF_PIXELS"),
    ],
)
def test_an_export_too_large_is_refused_before_anything_is_drawn(
    client: TestClient, drawn: list[int], kind: str, params: dict[str, object], limit: str
) -> None:
    response = client.get(f"/api/graph.{kind}", params={**README, **params})
    assert response.status_code == 422, response.text[:200]
    error = response.json()["error"]
    assert error["kind"] == "limit" and limit in error["message"], error
    assert re.search(r"use a smaller scale \(at most \d", error["message"]), error
    assert drawn == []


@pytest.mark.parametrize("frames", [1, 26, 51, 192, 193, 300])
@pytest.mark.parametrize("aspect", ["16:9", "4:3", "graph"])
@pytest.mark.parametrize("limit", [PICTURE_LIMIT, GIF_LIMIT], ids=["zip", "gif"])
def test_an_export_without_a_scale_always_fits(frames: int, aspect: str, limit: PixelLimit) -> None:
    """A slide is 1920 × 1080 until 193 of them would pass MAX_EXPORT_PIXELS; then they shrink."""
    svg = wide_graph() if aspect == "graph" else slide_svg(wide_graph(), [["x"]], aspect)  # type: ignore[arg-type]
    preferred = 2.0 if aspect == "graph" else 1.0
    scale = export_scale(svg, frames, 4_096, preferred, limit)
    steps = [StepFile(k + 1, "backward", k) for k in range(frames)]
    check_export(steps, svg, scale, limit)  # no refusal
    width, height = png_size(svg, scale)
    assert width * height <= limit[0] and width * height * frames <= MAX_EXPORT_PIXELS
    if aspect == "16:9" and frames <= 192:
        assert (width, height) == (1920, 1080)


def test_the_largest_scale_a_refusal_names_is_accepted() -> None:
    svg = slide_svg(wide_graph(), [["x"]], "16:9")
    with pytest.raises(GradstepError) as refused:
        check_pixels(svg, 3.0)
    most = float(re.search(r"at most ([\d.]+)", refused.value.message)[1])  # type: ignore[index]
    assert most == 2.0  # 3840 × 2160, exactly the limit
    check_pixels(svg, most)
    with pytest.raises(GradstepError):
        check_pixels(svg, most + 0.01)
    steps = [StepFile(k + 1, "forward", k) for k in range(51)]
    with pytest.raises(GradstepError) as too_many:
        check_export(steps, svg, 2.0)
    fits = float(re.search(r"at most ([\d.]+)", too_many.value.message)[1])  # type: ignore[index]
    check_export(steps, svg, fits)
    assert math.prod(png_size(svg, fits)) * 51 <= MAX_EXPORT_PIXELS


def test_zip_and_gif_say_how_many_pictures_they_hold(client: TestClient) -> None:
    zipped = client.get("/api/graph.zip", params={"source": PRODUCT})
    assert zipped.status_code == 200 and zipped.headers["x-gradstep-frames"] == "5"
    gif = client.get("/api/graph.gif", params={"source": PRODUCT})
    assert gif.status_code == 200 and gif.headers["x-gradstep-frames"] == "3"


def wide_graph() -> str:
    """A graph's SVG as Graphviz sizes it: 6,000 × 400 points."""
    return (
        '<svg width="6000pt" height="400pt" viewBox="0 0 6000 400" '
        'xmlns="http://www.w3.org/2000/svg"><g></g></svg>'
    )


def test_an_export_refused_for_room_has_nothing_to_give_back(monkeypatch) -> None:
    """Refused (503) before it held a place, its end finds nothing to release (no error
    logged when it is collected)."""
    raised: list[object] = []
    monkeypatch.setattr(sys, "unraisablehook", raised.append)
    held = [exports.Admitted() for _ in range(exports.EXPORT_STREAMS)]
    try:
        with pytest.raises(Unavailable):
            exports.Admitted()
        gc.collect()
    finally:
        for admitted in held:
            admitted.release()
    assert raised == []
    exports.Admitted().release()  # every place given back
