"""Colours read from the back of a room, computed from the stylesheets themselves (WCAG 2.x
contrast): every gradient bucket stands apart from its neighbours and from zero (≥ 1.5:1), and
every text on the page and in the graph can be read (≥ 4.5:1, AA), in both themes."""

from __future__ import annotations

import itertools

import pytest

from app.draw.png import theme_colours
from app.serving import STATIC_DIR

BUCKETS = ("n3", "n2", "n1", "0", "p1", "p2", "p3")
STRONG = ("n3", "p3")  # the strongest colours carry the strong ink (graph.css)


def luminance(hex_colour: str) -> float:
    def channel(c: float) -> float:
        return c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4

    r, g, b = (int(hex_colour[i : i + 2], 16) / 255 for i in (1, 3, 5))
    return 0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b)


def contrast(a: str, b: str) -> float:
    high, low = sorted((luminance(a), luminance(b)), reverse=True)
    return (high + 0.05) / (low + 0.05)


def colours(sheet: str, theme: str) -> dict[str, str]:
    found = theme_colours((STATIC_DIR / sheet).read_text("utf-8"), theme)  # type: ignore[arg-type]
    return {k: v for k, v in found.items() if v.startswith("#") and len(v) == 7}


@pytest.mark.parametrize("theme", ["light", "dark"])
def test_gradient_buckets_stand_apart_and_their_text_reads(theme: str) -> None:
    g = colours("graph.css", theme)
    fills = [g[f"--g-bin-{b}"] for b in BUCKETS]
    for left, right in itertools.pairwise(fills):
        assert contrast(left, right) >= 1.5, (theme, left, right)
    for bucket, fill in zip(BUCKETS, fills, strict=True):
        if bucket != "0":
            assert contrast(fill, g["--g-bin-0"]) >= 1.5, (theme, bucket)
        ink = g["--g-bin-ink-strong"] if bucket in STRONG else g["--g-ink"]
        assert contrast(ink, fill) >= 4.5, (theme, bucket, ink, fill)


@pytest.mark.parametrize("theme", ["light", "dark"])
def test_every_text_of_the_graph_and_the_page_reads(theme: str) -> None:
    g = colours("graph.css", theme)
    for text, ground in [("--g-ink", "--g-node"), ("--g-muted", "--g-node"), ("--g-ink", "--g-bg"),
                         ("--g-muted", "--g-bg")]:  # fmt: skip
        assert contrast(g[text], g[ground]) >= 4.5, (theme, text, ground)
    page = colours("app.css", theme)
    pairs = [("--ink", "--panel"), ("--ink", "--bg"), ("--muted", "--panel"), ("--muted", "--bg"),
             ("--accent-ink", "--accent"), ("--error", "--error-bg"), ("--ok", "--panel"),
             ("--current", "--panel"), ("--accent", "--panel")]  # fmt: skip
    for text, ground in pairs:
        assert contrast(page[text], page[ground]) >= 4.5, (theme, text, ground)


@pytest.mark.parametrize("theme", ["light", "dark"])
def test_a_wrong_grad_is_marked_where_it_can_be_seen(theme: str) -> None:
    """A learner's wrong grad: its ring (on the graph's background) and its outline on an
    unshaded box are ≥ 3:1, the ≠ on its disc and the sentence on its warning ≥ 4.5:1."""
    g = colours("graph.css", theme)
    for ground in ("--g-bg", "--g-node"):
        assert contrast(g["--g-wrong"], g[ground]) >= 3, (theme, ground)
    assert contrast(g["--g-wrong-ink"], g["--g-wrong"]) >= 4.5, theme
    page = colours("app.css", theme)
    assert contrast(page["--ink"], page["--error-bg"]) >= 4.5, theme
