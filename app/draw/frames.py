"""Every step of a program at once, for slide decks that take only pictures: a ZIP of numbered
PNGs and SVGs (a slide per step) and the backward pass as an animated GIF. Each picture is the
engine's state at that step filled into the one laid-out template (``Drawn.svg``)."""

from __future__ import annotations

import io
import zipfile
from collections.abc import Iterator
from dataclasses import dataclass

from PIL import Image

from app.draw.png import png_size, svg_to_png
from app.draw.svg import SvgTemplate, Theme, standalone_svg
from app.pipeline import Drawn
from engine.errors import GradstepError
from engine.steps import Phase
from engine.trace import Trace

MAX_EXPORT_STEPS = 300  # forward + backward steps in one ZIP or GIF (each is a PNG to draw)
MAX_EXPORT_PIXELS = 400_000_000  # all frames together, so one request cannot take minutes


@dataclass(frozen=True, slots=True)
class StepFile:
    number: int  # 1-based place in the whole walk
    phase: Phase
    step: int  # 0-based index into that phase's steps

    @property
    def stem(self) -> str:
        """``007-backward-03``: sorts in walk order in any file browser or slide importer."""
        return f"{self.number:03d}-{self.phase}-{self.step + 1:03d}"


def walk(trace: Trace, phases: tuple[Phase, ...] = ("forward", "backward")) -> list[StepFile]:
    """The steps of ``phases`` in the order the stepper plays them."""
    files: list[StepFile] = []
    for phase in phases:
        count = len(trace.forward if phase == "forward" else trace.backward)
        files += [StepFile(len(files) + 1 + k, phase, k) for k in range(count)]
    return files


def check_export(steps: list[StepFile], template: SvgTemplate, scale: float) -> None:
    """Refuse, before drawing anything, an export that would be too long or too large."""
    if len(steps) > MAX_EXPORT_STEPS:
        raise GradstepError(
            f"this program has {len(steps)} steps to export; at most {MAX_EXPORT_STEPS} are "
            "drawn at once (export single steps with /api/graph.png instead)",
            "limit",
        )
    width, height = png_size(template.parts[0], scale)  # parts[0] holds the <svg> root
    if width * height * len(steps) > MAX_EXPORT_PIXELS:
        raise GradstepError(
            f"{len(steps)} pictures of {width} × {height} pixels are too much to draw at once: "
            "use a smaller scale",
            "limit",
        )


def zip_of_steps(drawn: Drawn, theme: Theme, scale: float) -> Iterator[tuple[str, bytes]]:
    """(name, bytes) of a standalone SVG and a PNG per step, in walk order."""
    for step in walk(drawn.trace):
        svg = drawn.svg(step.phase, step.step)
        yield f"{step.stem}.svg", standalone_svg(svg, theme).encode()
        yield f"{step.stem}.png", svg_to_png(svg, theme, scale)


def build_zip(files: Iterator[tuple[str, bytes]]) -> bytes:
    buffer = io.BytesIO()
    # PNGs are compressed already; the SVGs shrink about 10× with deflate
    with zipfile.ZipFile(buffer, "w") as archive:
        for name, data in files:
            method = zipfile.ZIP_STORED if name.endswith(".png") else zipfile.ZIP_DEFLATED
            archive.writestr(name, data, compress_type=method)
    return buffer.getvalue()


def backward_gif(drawn: Drawn, theme: Theme, scale: float, delay_ms: int) -> bytes:
    """The backward pass as an animated GIF, one frame per step, looping, the last frame held
    three times as long so the finished gradients can be read before it starts over."""
    frames = []
    for step in walk(drawn.trace, ("backward",)):
        png = svg_to_png(drawn.svg(step.phase, step.step), theme, scale)
        with Image.open(io.BytesIO(png)) as image:
            frames.append(image.convert("RGB").quantize(colors=255, dither=Image.Dither.NONE))
    durations = [delay_ms] * len(frames)
    durations[-1] = delay_ms * 3
    buffer = io.BytesIO()
    frames[0].save(
        buffer,
        format="GIF",
        save_all=True,
        append_images=frames[1:],
        duration=durations,
        loop=0,
        disposal=1,
        optimize=False,
    )
    return buffer.getvalue()
