"""A QR code of a link as SVG, for students' phones: sized for a slide when asked, the link
printed under it."""

from __future__ import annotations

import io
from html import escape

import segno

from engine.errors import GradstepError

MAX_QR_CHARS = 2_000  # a version-40 QR code holds 2,331 bytes at error level M; phones need less
MAX_QR_SIDE = 2_048  # pixels
QR_BORDER = 4  # modules of quiet zone, as the standard asks


def qr_svg(text: str, size: int | None = None, caption: bool = False) -> str:
    """A QR code of ``text`` as SVG, ``size`` pixels wide as whole pixels per module (None: 4
    per module); with ``caption``, the text printed under it. A text too long for a QR code
    raises GradstepError (kind limit)."""
    try:
        code = segno.make(text, error="m", micro=False)
    except segno.DataOverflowError:
        raise GradstepError(
            f"this link ({len(text.encode())} bytes) is too long for a QR code", "limit"
        ) from None
    modules = code.symbol_size(scale=1, border=QR_BORDER)[0]
    scale = max(1, size // modules) if size else 4
    buffer = io.BytesIO()
    code.save(
        buffer,
        kind="svg",
        scale=scale,
        border=QR_BORDER,
        title="QR code of the link",
        unit=None,
        light="#ffffff",  # the quiet zone stays light on a dark slide
        xmldecl=not caption,
    )
    svg = buffer.getvalue().decode()
    return _captioned(svg, text, modules * scale) if caption else svg


def _captioned(code: str, text: str, width: float) -> str:
    """The code's SVG with ``text`` under it, in a monospace font sized to the code's width."""
    font = min(width / 12, 0.95 * width / (0.6 * len(text)))  # a monospace glyph: ~0.6 em wide
    height = round(width + 1.5 * font)
    return (
        f'<?xml version="1.0" encoding="utf-8"?>\n<svg xmlns="http://www.w3.org/2000/svg" '
        f'width="{width}" height="{height}" viewBox="0 0 {width} {height}">'
        f'<rect width="{width}" height="{height}" fill="#ffffff"/>{code}'
        f'<text x="{width / 2:g}" y="{width + font * 0.9:.1f}" font-size="{font:.1f}" '
        f'font-family="DejaVu Sans Mono, monospace" text-anchor="middle" fill="#000000">'
        f"{escape(text)}</text></svg>"
    )
