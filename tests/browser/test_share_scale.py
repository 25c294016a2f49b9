"""The Share dialog's embeds carry a text size (scale) large enough for a slide: the iframe and
the reveal.js snippets as written, pasted into a page, show the lecture's MLP with its text at
20 px and more, where the page's own size (scale 1) shows it at 14 (issue 42, "Smaller")."""

from __future__ import annotations

import re
from html import escape, unescape
from pathlib import Path
from statistics import median
from urllib.parse import parse_qs, urlencode, urlsplit

import pytest
from browser_wait import frames, wait_for
from stepper_pages import wait_drawn

pytestmark = pytest.mark.browser

SHOTS = Path("/tmp/shots42")
THEMES = ["light", "dark"]
SIZES = [(1280, 720), (1920, 1080), (390, 844)]

# the graph's text as the frame shows it, in CSS pixels: each text of a node in sight
TEXT_PX_JS = """() => {
  const view = document.querySelector('[data-part="graph"]').getBoundingClientRect();
  const px = [];
  for (const t of document.querySelectorAll('[data-part="graph"] g.node text')) {
    const r = t.getBoundingClientRect();
    if (r.width === 0 || r.right < view.left || r.left > view.right
        || r.bottom < view.top || r.top > view.bottom) continue;
    px.push(t.getScreenCTM().a * parseFloat(t.getAttribute('font-size')));
  }
  return px;
}"""
READY_JS = "() => document.querySelector('[data-player]')?.dataset.state === 'ready'"
POSITION_JS = "(n) => document.querySelector('[data-player]')?.dataset.position === String(n)"
GOTO_JS = """(step) => document.querySelector('iframe').contentWindow
  .postMessage({ command: 'goto', step }, '*')"""
STEPS = [0, 1, 5, 12, 25, 40, 49]  # of the MLP's walk, its calls folded: forward, backward, update


def snippets(page) -> dict[str, str]:
    page.goto("/?preset=lecture-mlp")
    wait_drawn(page, 0)
    page.click("#share")
    wait_for(page, "() => document.getElementById('share-dialog').open")
    return {
        name: page.locator(f'[data-share="{name}"]').input_value() for name in ("iframe", "reveal")
    }


def frame_of(snippet: str) -> tuple[str, int, int]:
    """The embed's address and the frame's size in a snippet (src, or reveal's data-src)."""
    tag = re.search(r"<iframe\b[^>]*>", snippet)
    assert tag, snippet
    attrs = dict(re.findall(r'([\w-]+)="([^"]*)"', tag.group(0)))
    return (
        unescape(attrs.get("src") or attrs["data-src"]),
        int(attrs["width"]),
        int(attrs["height"]),
    )


def text_px(page) -> list[float]:
    wait_for(page, READY_JS)
    frames(page, 4)
    return page.evaluate(TEXT_PX_JS)


@pytest.mark.parametrize("theme", THEMES)
@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_the_snippets_give_the_embed_a_slides_text_size(sized, size, theme) -> None:
    width, height = size
    page = sized(width, height, theme)
    texts = snippets(page)
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"share-dialog-{width}x{height}-{theme}.png"))
    for name in ("iframe", "reveal"):
        src, _, _ = frame_of(texts[name])
        assert parse_qs(urlsplit(src).query).get("scale") == ["1.5"], (name, src)
    # the teacher may choose the page's own size: then the snippets say nothing of it
    page.select_option("#share-scale", "1")
    assert "scale" not in parse_qs(
        urlsplit(frame_of(page.locator("#share-iframe").input_value())[0]).query
    )


@pytest.mark.parametrize("theme", THEMES)
@pytest.mark.parametrize("name", ["iframe", "reveal"])
def test_an_embed_on_a_slide_reads_from_the_back(sized, base_url, tmp_path, name, theme) -> None:
    """The snippet's frame pasted into a 1280×720 page (a slide shown at its size): the graph's
    text at 20 px or more at every step shown, half as large again as at scale 1."""
    page = sized(1280, 720, theme)
    src, width, height = frame_of(snippets(page)[name])
    sizes: dict[str, float] = {}
    for scale in ("1", "1.5"):
        parts = urlsplit(src)
        query = {**parse_qs(parts.query), "scale": [scale]}
        shown = escape(parts._replace(query=urlencode(query, doseq=True)).geturl())
        host = tmp_path / f"slide-{scale}.html"
        host.write_text(
            '<!doctype html><body style="margin:0">'
            f'<iframe src="{shown}" width="{width}" height="{height}" style="border:0"></iframe>'
        )
        page.goto(host.as_uri())
        embed = next(f for f in page.frames if "/embed" in f.url)
        px: list[float] = []
        for step in STEPS:  # as a deck steps it: the view follows the step at the same size
            page.evaluate(GOTO_JS, step)
            wait_for(embed, POSITION_JS, step)
            px += text_px(embed)
        assert px, "no text of the graph in sight"
        sizes[scale] = median(px)
        if scale == "1.5":
            assert min(px) >= 19.5, (name, sorted(px)[:5])
            SHOTS.mkdir(parents=True, exist_ok=True)
            page.screenshot(path=str(SHOTS / f"share-{name}-slide-{theme}.png"))
    assert sizes["1.5"] >= 1.4 * sizes["1"], sizes
