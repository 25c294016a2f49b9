"""The main page's classroom parts in Chromium: the Share dialog (link, snippets,
Markdown image of the step, QR code, downloads) and presentation mode."""

from __future__ import annotations

import urllib.parse

import pytest
from browser_wait import wait_for
from conftest import SCREENSHOTS

pytestmark = pytest.mark.browser

PRODUCT = "a = Value(2.0)\nb = Value(-3.0)\nc = a * b + b\nc.backward()\n"  # 2 fwd, 3 bwd steps
QUERY = "?" + urllib.parse.urlencode({"source": PRODUCT, "phase": "backward", "step": "1"})


def open_drawn(page, query: str = QUERY) -> None:
    page.goto(f"/{query}")
    wait_for(page, "() => Number(document.querySelector('#graph-view').dataset.runs || 0) > 0")


def field(page, name: str) -> str:
    return page.locator(f'[data-share="{name}"]').input_value()


def test_share_dialog_links_snippets_qr_and_downloads(page, base_url, shot) -> None:
    page.context.grant_permissions(["clipboard-read", "clipboard-write"], origin=base_url)
    open_drawn(page)
    page.click("#share")
    assert page.locator("#share-dialog").is_visible()

    link = field(page, "link")  # a class follows from the first step: no gradient shown yet
    assert link.startswith(f"{base_url}/?")
    state = urllib.parse.parse_qs(urllib.parse.urlsplit(link).query)
    assert state["source"] == [PRODUCT] and state["phase"] == ["forward"] and state["step"] == ["0"]
    exact = urllib.parse.parse_qs(urllib.parse.urlsplit(field(page, "stepLink")).query)
    assert exact["phase"] == ["backward"] and exact["step"] == ["1"]  # ... or opens this step

    iframe = field(page, "iframe")
    assert iframe.startswith('<iframe src="' + base_url + "/embed?")
    assert "step=" not in iframe  # an embed starts at the first step
    assert "controls=minimal" in iframe and 'width="800" height="500"' in iframe
    reveal = field(page, "reveal")
    assert reveal.count('<span class="fragment"></span>') == 4  # 5 steps: the first is shown
    assert '"fragmentshown"' in reveal and 'Reveal.on("slidechanged"' in reveal
    assert 'command: "goto"' in reveal  # absolute steps: a lost message is made good

    markdown = field(page, "markdown")
    assert markdown.startswith("![gradstep: backward step 2](" + base_url + "/api/graph.png?")
    png_url = markdown[markdown.index("(") + 1 : -1]
    png = page.request.get(png_url)
    assert png.status == 200 and png.headers["content-type"] == "image/png"
    assert png.body()[:8] == b"\x89PNG\r\n\x1a\n"
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    (SCREENSHOTS / "export-step.png").write_bytes(png.body())  # for people to look at

    wait_for(page, "() => document.getElementById('share-qr').naturalWidth > 0")
    for name in ("png", "svg", "zip", "gif", "html"):
        href = page.locator(f'[data-download="{name}"]').get_attribute("href")
        assert href and href.startswith(f"{base_url}/api/graph.{name}?"), name
    gif = page.locator('[data-download="gif"]').get_attribute("href")
    page.select_option("#share-delay", "2000")
    assert page.locator('[data-download="gif"]').get_attribute("href") != gif
    assert "delay=2000" in page.locator('[data-download="gif"]').get_attribute("href")

    page.click('[data-copy="share-link"]')
    wait_for(page, "() => document.getElementById('share-status').textContent.includes('Copied')")
    assert page.evaluate("navigator.clipboard.readText()") == link

    page.select_option("#share-controls", "none")
    assert "controls=none" in field(page, "iframe")
    page.select_option("#share-controls", "minimal")
    shot(page, "share-dialog")

    before = page.locator("#position").inner_text()
    page.keyboard.press("ArrowRight")  # inside the dialog the arrows do not step the graph
    assert page.locator("#position").inner_text() == before
    page.keyboard.press("Escape")
    assert not page.locator("#share-dialog").is_visible()


def test_embed_snippet_from_the_dialog_starts_the_same_program_at_its_first_step(page) -> None:
    open_drawn(page)  # the page is at backward step 2
    page.click("#share")
    iframe = field(page, "iframe")
    src = iframe.split('src="', 1)[1].split('"', 1)[0].replace("&amp;", "&")
    embed = page.context.new_page()
    embed.goto(src)
    wait_for(embed, "() => document.querySelector('[data-player]')?.dataset.state === 'ready'")
    assert "Forward step 1 of 2" in embed.locator('[data-part="explanation"]').inner_text()
    embed.close()


def test_p_starts_and_ends_presentation_mode_but_types_in_the_editor(page) -> None:
    open_drawn(page)
    presenting = "() => document.body.classList.contains('presenting')"
    page.locator("#graph-view").focus()
    page.keyboard.press("p")
    wait_for(page, presenting)
    assert page.locator(".topbar").is_hidden()
    page.keyboard.press("P")
    wait_for(page, "() => !document.body.classList.contains('presenting')")
    source = page.input_value("#source")
    page.locator("#source").press("Control+End")
    page.locator("#source").press("p")  # typing: a p in the program, not Present mode
    assert page.input_value("#source") == source + "p"
    assert not page.evaluate(presenting)


def test_presentation_mode_shows_graph_step_and_controls_only(page, shot) -> None:
    open_drawn(page)
    formula = page.locator("#explanation .line").first
    small = float(formula.evaluate("el => parseFloat(getComputedStyle(el).fontSize)"))
    page.click("#present")
    wait_for(page, "() => document.body.classList.contains('presenting')")
    # the graph has the keys, not the Exit button (Space or Enter from a clicker would press it)
    assert page.evaluate("() => document.activeElement.id") == "graph-view"
    for hidden in (".topbar", ".side", ".graph-tools", "#speed"):
        assert page.locator(hidden).is_hidden(), hidden
    for shown in ("#explanation", "#graph-view", "#next", "#prev", "#scrubber", "#present-exit"):
        assert page.locator(shown).is_visible(), shown
    large = float(formula.evaluate("el => parseFloat(getComputedStyle(el).fontSize)"))
    assert large >= small * 1.4
    graph = page.locator("#graph-view").bounding_box()
    assert graph and graph["height"] > 0.55 * 900 and graph["width"] > 0.95 * 1440
    page.keyboard.press("PageDown")
    wait_for(page, "() => document.querySelector('#position').textContent === 'backward 3/3'")
    shot(page, "presentation-mode")
    page.keyboard.press("Escape")
    wait_for(page, "() => !document.body.classList.contains('presenting')")
    assert page.locator(".topbar").is_visible() and page.locator(".side").is_visible()
    assert page.locator("#present").get_attribute("aria-pressed") == "false"
