"""Every step of a program at once, for slide decks that take only pictures: a ZIP of numbered
PNGs and SVGs (a slide per step) and the backward pass as an animated GIF. Both are streamed,
one picture drawn at a time: a download starts at once, memory holds one frame, and a client
that gives up (Cancel) stops the drawing."""

from __future__ import annotations

import io
import zipfile
from collections.abc import Callable, Iterator
from dataclasses import dataclass

from PIL import GifImagePlugin, Image

from app.draw.png import (
    PICTURE_LIMIT,
    PixelLimit,
    check_pixels,
    fit_scale,
    largest_scale,
    png_size,
    svg_to_png,
)
from app.draw.svg import Theme, standalone_svg
from engine.errors import GradstepError
from engine.steps import Phase, step_count
from engine.trace import Structure

MAX_EXPORT_STEPS = 300  # forward + backward steps in one ZIP or GIF (each is a PNG to draw)
MAX_EXPORT_PIXELS = 400_000_000  # all frames together, so one request cannot take minutes
# A GIF's frames are decoded and quantised in the server's own process (~12 bytes a pixel at
# the peak, with the palette): at 3840 × 2160 that was 104 MB more, so GIF frames are smaller.
GIF_LIMIT: PixelLimit = (2560 * 1440, "MAX_GIF_PIXELS, 2560 × 1440 for a GIF's frames")

Picture = Callable[[Phase | None, int | None], str]  # (phase, step) -> the SVG to draw


@dataclass(frozen=True, slots=True)
class StepFile:
    number: int  # 1-based place in the whole walk
    phase: Phase
    step: int  # 0-based index into that phase's steps

    @property
    def stem(self) -> str:
        """``007-backward-03``: sorts in walk order in any file browser or slide importer."""
        return f"{self.number:03d}-{self.phase}-{self.step + 1:03d}"


def walk(
    structure: Structure, phases: tuple[Phase, ...] = ("forward", "backward", "update")
) -> list[StepFile]:
    """The steps of ``phases`` in the order the stepper plays them."""
    files: list[StepFile] = []
    for phase in phases:
        count = step_count(structure, phase)
        files += [StepFile(len(files) + 1 + k, phase, k) for k in range(count)]
    return files


def check_export(
    steps: list[StepFile], svg: str, scale: float, frame: PixelLimit = PICTURE_LIMIT
) -> None:
    """Refuse, before drawing anything, an export that would be too long or too large."""
    if len(steps) > MAX_EXPORT_STEPS:
        raise GradstepError(
            f"this program has {len(steps)} steps to export; at most {MAX_EXPORT_STEPS} are "
            "drawn at once (export single steps with /api/graph.png instead)",
            "limit",
        )
    check_pixels(svg, scale, frame)
    width, height = png_size(svg, scale)
    pixels = width * height * len(steps)
    if pixels > MAX_EXPORT_PIXELS:
        most = largest_scale(scale, pixels, MAX_EXPORT_PIXELS)
        raise GradstepError(
            f"{len(steps)} pictures of {width} × {height} pixels are "
            f"more than the {MAX_EXPORT_PIXELS:,} pixels drawn for one export "
            f"(MAX_EXPORT_PIXELS): use a smaller scale (at most {most} here)",
            "limit",
        )


def export_scale(
    svg: str, frames: int, max_side: int, preferred: float, frame: PixelLimit = PICTURE_LIMIT
) -> float:
    """The scale of an export that gave none: ``preferred``, lowered to keep within every limit."""
    return fit_scale(svg, max_side, preferred, min(frame[0], MAX_EXPORT_PIXELS // frames))


class _Sink(io.RawIOBase):
    """A file that only collects what is written to it (zipfile streams into it)."""

    def __init__(self) -> None:
        self.chunks: list[bytes] = []

    def writable(self) -> bool:
        return True

    def write(self, data: bytes) -> int:  # type: ignore[override]
        self.chunks.append(bytes(data))
        return len(data)

    def take(self) -> bytes:
        out = b"".join(self.chunks)
        self.chunks.clear()
        return out


def zip_of_steps(
    picture: Picture, structure: Structure, theme: Theme, scale: float
) -> Iterator[bytes]:
    """A standalone SVG and a PNG per step, in walk order, as the bytes of a ZIP as it is made
    (zipfile writes a streamed archive when its file cannot seek)."""
    sink = _Sink()
    with zipfile.ZipFile(sink, "w") as archive:
        for step in walk(structure):
            svg = picture(step.phase, step.step)
            # the SVGs shrink about 10× with deflate; PNGs are compressed already
            archive.writestr(f"{step.stem}.svg", standalone_svg(svg, theme), zipfile.ZIP_DEFLATED)
            archive.writestr(f"{step.stem}.png", svg_to_png(svg, theme, scale, wait=True))
            yield sink.take()
    yield sink.take()


def backward_gif(
    picture: Picture, structure: Structure, theme: Theme, scale: float, delay_ms: int
) -> Iterator[bytes]:
    """The backward pass as a looping animated GIF, one frame per step, the last held three
    times as long so the finished gradients can be read before it starts over. One palette for
    every frame, so each frame is encoded as soon as it is drawn: taken from the finished
    picture (every gradient's colour) beside the first step (the step's highlight, which the
    finished picture lacks: without it the highlight turned brown)."""

    def frame(phase: Phase | None, step: int | None) -> Image.Image:
        png = svg_to_png(picture(phase, step), theme, scale, wait=True)  # admitted: never refused
        with Image.open(io.BytesIO(png)) as image:
            return image.convert("RGB")

    steps = walk(structure, ("backward",))
    finished = frame(None, None)
    first = frame(steps[0].phase, steps[0].step) if steps else finished
    both = Image.new("RGB", (finished.width, finished.height + first.height))
    both.paste(finished, (0, 0))
    both.paste(first, (0, finished.height))
    # cropped back to one frame: the GIF's header takes its screen size from the palette's image
    palette = both.quantize(colors=255, dither=Image.Dither.NONE).crop((0, 0, *finished.size))
    header, _ = GifImagePlugin.getheader(palette)
    yield b"".join(header) + b"!\xff\x0bNETSCAPE2.0\x03\x01\x00\x00\x00"  # loop for ever
    for k, step in enumerate(steps):
        image = frame(step.phase, step.step).quantize(palette=palette, dither=Image.Dither.NONE)
        last = k == len(steps) - 1
        yield b"".join(GifImagePlugin.getdata(image, duration=delay_ms * (3 if last else 1)))
    yield b";"
