"""A real reveal.js deck (from the npm registry; scripts/test.sh installs it) with the Share
dialog's snippet pasted as written, driven by what a clicker sends (PageDown, PageUp) alone:
forward and back across slides, a quick double press while the graph loads, the print view,
and the deck opened from disk."""

from __future__ import annotations

import functools
import shutil
import threading
from collections.abc import Iterator
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest
from browser_wait import wait_for

pytestmark = pytest.mark.browser

ROOT = Path(__file__).resolve().parents[2]
REVEAL = ROOT / ".cache" / "npm" / "node_modules" / "reveal.js" / "dist"
PRODUCT = "a = Value(2.0)\nb = Value(-3.0)\nc = a * b + b\nc.backward()\n"  # 2 + 3 = 5 steps
DECK = """<!doctype html>
<html><head><meta charset="utf-8"><title>deck</title>
<link rel="stylesheet" href="{reveal}/reveal.css">
<link rel="stylesheet" href="{reveal}/theme/white.css">
</head><body><div class="reveal"><div class="slides">
<section><h2>Backpropagation</h2></section>
{slide}
<section><h2>Questions?</h2></section>
</div></div>
<script src="{reveal}/reveal.js"></script>
<script>Reveal.initialize({{ hash: false, transition: "none", width: 1280, height: 720 }});</script>
{script}
</body></html>
"""


@pytest.fixture(scope="module")
def snippet(browser, base_url) -> tuple[str, str]:
    """The reveal.js slide and script, as the Share dialog writes them for PRODUCT."""
    if not REVEAL.is_dir():
        pytest.fail(f"reveal.js is not installed at {REVEAL} (scripts/test.sh installs it)")
    context = browser.new_context(base_url=base_url)
    page = context.new_page()
    from urllib.parse import urlencode

    page.goto("/?" + urlencode({"source": PRODUCT}))
    wait_for(page, "() => Number(document.querySelector('#graph-view').dataset.runs || 0) > 0")
    page.click("#share")
    text = page.locator('[data-share="reveal"]').input_value()
    context.close()
    slide, script = text.split("<!-- once per deck", 1)
    return slide, "<!-- once per deck" + script


@pytest.fixture(scope="module")
def deck_site(snippet, tmp_path_factory) -> Iterator[str]:
    """The deck on a second origin (not gradstep's): a static server of its own."""
    root = tmp_path_factory.mktemp("deck")
    shutil.copytree(REVEAL, root / "reveal")
    slide, script = snippet
    (root / "deck.html").write_text(DECK.format(reveal="reveal", slide=slide, script=script))
    handler = functools.partial(SimpleHTTPRequestHandler, directory=str(root))
    server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{server.server_address[1]}"
    server.shutdown()
    server.server_close()


@pytest.fixture
def deck(browser) -> Iterator[object]:
    context = browser.new_context(viewport={"width": 1280, "height": 720})
    page = context.new_page()
    yield page
    context.close()


def graph_at(page) -> int | None:
    """The embedded graph's position on its walk, or None while it loads."""
    for frame in page.frames:
        if "/embed" in frame.url:
            try:
                state = frame.evaluate("() => document.querySelector('[data-player]').dataset")
            except Exception:  # the frame is being replaced
                return None
            return int(state["position"]) if state.get("state") == "ready" else None
    return None


def wait_graph(page, expected: int) -> None:
    for _ in range(400):
        if graph_at(page) == expected:
            return
        page.wait_for_timeout(25)
    assert graph_at(page) == expected


def press(page, key: str, expected: int | None) -> None:
    page.keyboard.press(key)
    if expected is not None:
        wait_graph(page, expected)


def slide_index(page) -> int:
    return page.evaluate("() => Reveal.getIndices().h")


def test_paging_forward_and_back_keeps_the_graph_on_the_fragment(deck, deck_site) -> None:
    deck.goto(f"{deck_site}/deck.html")
    wait_for(deck, "() => window.Reveal && Reveal.isReady()")
    press(deck, "PageDown", 0)  # onto the graph's slide: the first step
    for step in range(1, 5):
        press(deck, "PageDown", step)  # every fragment is a step
    press(deck, "PageDown", None)  # past the last fragment: the next slide
    wait_for(deck, "() => Reveal.getIndices().h === 2")
    press(deck, "PageUp", 4)  # back: reveal reloads the frame, which asks where to be
    assert slide_index(deck) == 1
    press(deck, "PageUp", 3)
    press(deck, "PageUp", 2)


def test_a_press_while_the_graph_loads_is_not_lost(deck, deck_site) -> None:
    deck.goto(f"{deck_site}/deck.html")
    wait_for(deck, "() => window.Reveal && Reveal.isReady()")
    deck.keyboard.press("PageDown")
    deck.keyboard.press("PageDown")  # quickly: the frame is still loading
    wait_graph(deck, 1)  # once ready, the frame asks the deck where to be


def test_the_readme_frame_shows_the_whole_graph_readably(deck, deck_site) -> None:
    deck.goto(f"{deck_site}/deck.html")
    wait_for(deck, "() => window.Reveal && Reveal.isReady()")
    press(deck, "PageDown", 0)
    frame = next(f for f in deck.frames if "/embed" in f.url)
    fit = frame.evaluate(
        """() => {
          const view = document.querySelector('[data-part="graph"]').getBoundingClientRect();
          const boxes = [...document.querySelectorAll('g.node')]
            .map((g) => g.getBoundingClientRect());
          const text = document.querySelector('g.node text');
          return {
            whole: boxes.every((r) => r.left >= view.left - 1 && r.right <= view.right + 1
                                    && r.top >= view.top - 1 && r.bottom <= view.bottom + 1),
            px: text.getScreenCTM().a * parseFloat(text.getAttribute('font-size')),
          };
        }"""
    )
    assert fit["whole"] and fit["px"] >= 14, fit


PRINTED_JS = """() => JSON.stringify([...document.querySelectorAll('.pdf-page')]
  .filter((page) => page.querySelector('iframe.gradstep'))
  .map((page) => page.querySelectorAll('.fragment.visible').length))"""


def test_each_printed_copy_of_the_slide_shows_its_step(deck, deck_site) -> None:
    """Printed, each fragment of the slide is a page of its own, with a frame of its own."""
    deck.goto(f"{deck_site}/deck.html?print-pdf")
    wait_for(deck, "() => document.querySelectorAll('.pdf-page iframe.gradstep').length === 5")
    assert deck.evaluate(PRINTED_JS) == "[0,1,2,3,4]"  # each page: one more fragment shown
    for _ in range(400):
        frames = [f for f in deck.frames if "/embed" in f.url]
        shown = [
            f.evaluate("() => document.querySelector('[data-player]')?.dataset.position ?? null")
            for f in frames
        ]
        if len(shown) == 5 and None not in shown and sorted(map(int, shown)) == [0, 1, 2, 3, 4]:
            break
        deck.wait_for_timeout(25)
    assert sorted(map(int, shown)) == [0, 1, 2, 3, 4]  # each copy at its own step, none blank


def test_a_deck_opened_from_disk_steps_too(deck, snippet, tmp_path) -> None:
    shutil.copytree(REVEAL, tmp_path / "reveal")
    slide, script = snippet
    (tmp_path / "deck.html").write_text(DECK.format(reveal="reveal", slide=slide, script=script))
    deck.goto((tmp_path / "deck.html").as_uri())
    wait_for(deck, "() => window.Reveal && Reveal.isReady()")
    press(deck, "PageDown", 0)
    press(deck, "PageDown", 1)
    press(deck, "PageUp", 0)


def test_a_plain_frame_on_a_slide_not_shown_waits_for_its_size(deck, base_url, tmp_path) -> None:
    # the docs' plain <iframe src=...> (no data-src) loads while its slide is not shown (as
    # reveal.js's own stylesheet has it until the deck starts): it has no size, and used to
    # show "aspect: Input should be greater than 0" instead of the graph
    (tmp_path / "slides.html").write_text(
        '<!doctype html><div id="slide" style="display:none">'
        f'<iframe src="{base_url}/embed?preset=lecture-neuron&controls=minimal" '
        'width="800" height="500" style="border:0"></iframe></div>'
    )
    deck.goto((tmp_path / "slides.html").as_uri())
    for _ in range(400):
        embed = next((f for f in deck.frames if "/embed" in f.url), None)
        if embed and embed.evaluate("() => document.readyState") == "complete":
            break
        deck.wait_for_timeout(25)
    deck.wait_for_timeout(500)  # not shown: no graph, and no error either
    assert embed.evaluate("() => document.querySelector('[data-part=\"error\"]').hidden")
    assert embed.evaluate("() => innerWidth") == 0
    state = "() => document.querySelector('[data-player]').dataset.state"
    assert embed.evaluate(state) == "loading"
    deck.evaluate("() => { document.getElementById('slide').style.display = 'block'; }")
    for _ in range(400):
        if embed.evaluate(state) != "loading":
            break
        deck.wait_for_timeout(25)
    assert embed.evaluate(state) == "ready"
    assert embed.locator("g.node.value").count() == 10
