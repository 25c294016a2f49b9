"""Short links in Chromium: the Share dialog shows the view's short link and a QR code
of it that ``zbarimg`` reads back; opening the short link restores the view (program, step,
theme); presentation mode shows it on Q; with the link store down the dialog falls back to the
full link and says so. Screenshots at 1280×720 and 1920×1080 go to artifacts/screenshots/."""

from __future__ import annotations

import json
import re
import urllib.parse

import pytest
import resvg_py
import segno
from browser_wait import wait_for
from conftest import SCREENSHOTS
from qr_codes import decode_qr

from app.presets import MICROGRAD_README

pytestmark = pytest.mark.browser

VIEW = {"source": MICROGRAD_README, "phase": "backward", "step": "3", "theme": "dark"}
DRAWN = "() => Number(document.querySelector('#graph-view').dataset.runs || 0) > 0"
SHORT = re.compile(r"http://127\.0\.0\.1:\d+/s/[a-z2-7]{8}")
SCREENS = ((1280, 720), (1920, 1080))


def open_view(page, view: dict[str, str] = VIEW) -> None:
    page.goto("/?" + urllib.parse.urlencode(view))
    wait_for(page, DRAWN)


def open_share(page) -> str:
    """Open the Share dialog; the short link once it is shown."""
    page.click("#share")
    return str(wait_for(page, "() => document.getElementById('share-short').value"))


def test_the_share_dialog_shows_a_short_link_and_its_qr_code(page, browser, shot) -> None:
    open_view(page)
    short = open_share(page)
    assert SHORT.fullmatch(short), short
    assert page.locator("#share-qr-link").inner_text() == short  # printed under the code
    note = "Scan to open this program on a phone, at its first step"
    assert page.locator("#share-qr-note").inner_text() == note
    wait_for(page, "() => document.getElementById('share-qr').naturalWidth > 0")
    assert decode_qr(page.locator("#share-qr").screenshot()) == short

    long = page.locator('[data-share="link"]').input_value()  # still offered, and copied
    assert long.startswith(page.url.split("?")[0] + "?source=")
    page.click('[data-copy="share-short"]')
    wait_for(
        page, "() => document.getElementById('share-status').textContent.includes('short link')"
    )
    versions = (segno.make(short, error="m").version, segno.make(long, error="m").version)
    assert versions[0] <= 4 < 17 <= versions[1], versions
    (SCREENSHOTS / "short-link-qr-versions.json").write_text(
        json.dumps({"short": [short, versions[0]], "long": [len(long), versions[1]]})
    )

    # the picture for a slide: 640 px or so, the link printed under the code, readable
    slide = page.locator("#share-qr-slide").get_attribute("href")
    svg = page.request.get(slide).text()
    png = bytes(resvg_py.svg_to_bytes(svg_string=svg, font_dirs=["/usr/share/fonts/truetype"]))
    (SCREENSHOTS / "short-link-slide-qr.png").write_bytes(png)
    assert decode_qr(png) == short and f">{short}</text>" in svg

    modules = segno.make(short, error="m").symbol_size(scale=1, border=4)[0]
    for width, height in SCREENS:
        page.set_viewport_size({"width": width, "height": height})
        box = page.locator("#share-qr").bounding_box()
        # large enough for the back of a hall: 15 px a module on a 1080p screen (docs/classroom.md)
        assert box and box["width"] / modules >= height / 72, (width, box)
        caption = page.locator("#share-qr-link").bounding_box()
        assert caption and caption["y"] >= box["y"] + box["height"]  # under the code
        assert caption["y"] + caption["height"] <= height, "the link is cut off"
        shot(page, f"short-link-dialog-{width}x{height}")

    # the short link opens the same program and theme, from its first step (a class follows)
    other = browser.new_page()
    other.goto(short)
    wait_for(other, DRAWN)
    opened = urllib.parse.parse_qs(urllib.parse.urlsplit(other.url).query)
    kept = {k: v for k, v in VIEW.items() if k not in ("phase", "step")}
    assert {k: v[0] for k, v in opened.items() if k in kept} == kept
    assert other.locator("#source").input_value() == MICROGRAD_README
    # students start at the first step: the finished picture would show every gradient
    assert other.locator("#position").inner_text() == "forward 1/25"
    assert other.locator("#graph-view g.node.value.grad-final").count() == 0
    assert other.evaluate("document.documentElement.dataset.theme") == "dark"
    other.close()


def test_sharing_the_same_view_again_gives_the_same_link(page) -> None:
    open_view(page)
    first = open_share(page)
    page.keyboard.press("Escape")
    page.reload()
    wait_for(page, DRAWN)
    assert open_share(page) == first


def test_presentation_mode_shows_the_short_link_on_q(page, shot) -> None:
    open_view(page, {**VIEW, "theme": "light"})
    page.set_viewport_size({"width": 1920, "height": 1080})
    page.click("#present")
    wait_for(page, "() => document.body.classList.contains('presenting')")
    panel = page.locator("#scan-panel")
    assert panel.is_hidden()
    whole = page.locator("#graph-view").bounding_box()
    page.keyboard.press("q")
    wait_for(page, "() => document.querySelector('#scan-panel img').naturalWidth > 0")
    short = panel.locator(".qr-link").inner_text()
    assert SHORT.fullmatch(short) and "Scan to follow" in panel.inner_text()
    assert decode_qr(panel.locator("img").screenshot()) == short
    box = panel.bounding_box()
    graph = page.locator("#graph-view").bounding_box()
    # the graph gives the panel its column (nothing drawn under it) and keeps most of the screen
    assert graph and box and graph["x"] + graph["width"] <= box["x"]
    assert whole and graph["width"] * graph["height"] > 0.7 * whole["width"] * whole["height"]
    shot(page, "short-link-presenting-1920x1080")
    page.keyboard.press("Q")
    assert panel.is_hidden()
    page.click("#present-qr")  # the button does the same
    wait_for(page, "() => !document.getElementById('scan-panel').hidden")
    page.keyboard.press("Escape")
    wait_for(page, "() => !document.body.classList.contains('presenting')")
    assert panel.is_hidden()


def test_without_the_link_store_the_dialog_uses_the_full_link(page) -> None:
    down = {"error": {"message": "the link store is unavailable", "kind": "store_unavailable"}}
    page.route(
        "**/api/links",
        lambda route: route.fulfill(status=503, json=down, headers={"retry-after": "5"}),
    )
    open_view(page, {"source": "a = Value(2.0)\nb = a * a\nb.backward()\n"})
    page.click("#share")
    wait_for(page, "() => document.getElementById('share-qr').naturalWidth > 0")
    note = page.locator("#share-qr-note").inner_text()
    assert note == (
        "No short link (the link store is unavailable): this QR code holds the full link."
    )
    assert page.locator("#share-short").input_value() == ""
    long = page.locator('[data-share="link"]').input_value()
    assert decode_qr(page.locator("#share-qr").screenshot()) == long


def test_a_link_too_long_to_redirect_to_opens_in_place(page, browser) -> None:
    """Issue 30, item 12: 19,900 emoji in a comment made a 303 too long to follow. The page and
    the embed open at the short link itself, on the link's program, step and theme, and keep
    that address (the long one would be refused)."""
    source = "x = Value(2.0)\n# " + "\U0001f600" * 19_900 + "\ny = x * x\ny.backward()\n"
    made = page.request.post("/api/links", data={"source": source, "step": 0, "theme": "dark"})
    assert made.status == 201, made.text()
    short = made.json()["url"]
    page.goto(short)
    wait_for(page, DRAWN)
    assert page.locator("#source").input_value() == source
    assert page.locator("#position").inner_text() == "backward 1/2"
    assert page.evaluate("document.documentElement.dataset.theme") == "dark"
    page.keyboard.press("ArrowRight")  # a new view: the address stays the short link
    wait_for(page, "() => document.getElementById('position').textContent === 'backward 2/2'")
    page.wait_for_timeout(500)  # past the page's debounce of its address (250 ms)
    assert page.url == short
    embed = browser.new_page()
    embed.goto(f"{short}/embed")
    wait_for(embed, "() => document.querySelector('[data-player]').dataset.state === 'ready'")
    assert (
        embed.locator('[data-part="open"]').get_attribute("href")
        == urllib.parse.urlsplit(short).path
    )
    embed.close()
