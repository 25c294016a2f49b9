"""/embed in Chromium inside a deck: a page of another origin (or a file opened from disk)
clicks into the frame and steps it with Page Down, drives it by postMessage and hears its
events, gets the keys back at the end or on Escape; the main page refuses to be framed."""

from __future__ import annotations

import threading
import urllib.parse
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest
from browser_wait import wait_for
from embed_pages import PRODUCT

pytestmark = pytest.mark.browser


HOST_PAGE = """<!doctype html>
<html><head><meta charset="utf-8"><title>a deck</title><link rel="icon" href="data:,"></head>
<body>
<h1>Slide 3: backpropagation</h1>
<iframe id="graph" src="{src}" width="{width}" height="{height}" title="gradstep"></iframe>
<script>
  window.events = [];
  window.hostKeys = [];
  window.addEventListener("message", (e) => {{
    if (e.data && e.data.source === "gradstep") window.events.push(e.data);
  }});
  document.addEventListener("keydown", (e) => window.hostKeys.push(e.key));
  const frame = document.getElementById("graph");
  window.send = (message) => frame.contentWindow.postMessage(message, "*");
</script>
</body></html>
"""


@pytest.fixture(scope="module")
def host_server() -> Iterator[dict[str, str]]:
    """A second local origin (another port) serving the deck pages the tests write."""
    pages: dict[str, str] = {}

    class Handler(BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            body = pages.get(self.path.split("?")[0], "").encode()
            self.send_response(200 if body else 404)
            self.send_header("content-type", "text/html; charset=utf-8")
            self.send_header("content-length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *_args: object) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    pages["__origin__"] = f"http://127.0.0.1:{server.server_address[1]}"
    yield pages
    server.shutdown()
    server.server_close()


def deck(host: dict[str, str], base_url: str, query: dict[str, str], size=(640, 400)) -> str:
    src = f"{base_url}/embed?{urllib.parse.urlencode(query)}"
    host["/deck.html"] = HOST_PAGE.format(src=src, width=size[0], height=size[1])
    return host["__origin__"] + "/deck.html"


def events(page, name: str) -> list[dict]:
    return [e for e in page.evaluate("window.events") if e["event"] == name]


def frame_of(page):
    handle = page.wait_for_selector("#graph")
    frame = handle.content_frame()
    assert frame is not None
    wait_for(frame, "() => document.querySelector('[data-player]')?.dataset.state === 'ready'")
    return frame


def explanation(frame) -> str:
    return frame.locator('[data-part="explanation"]').inner_text()


def test_deck_on_another_origin_clicks_in_and_steps_with_page_down(
    watched, base_url, host_server, shot
) -> None:
    page = watched.new_page()
    page.goto(deck(host_server, base_url, {"source": PRODUCT, "controls": "minimal"}))
    frame = frame_of(page)
    ready = wait_for(page, "() => window.events.find((e) => e.event === 'ready')")
    assert ready["position"] == 0 and ready["total"] == 5
    assert explanation(frame).startswith("Forward step 1 of 2")

    frame.locator('[data-part="graph"]').click()
    page.keyboard.press("PageDown")
    wait_for(frame, "() => document.querySelector('[data-player]').dataset.position === '1'")
    assert "Forward step 2 of 2" in explanation(frame)
    assert "c = (a * b) + b" in explanation(frame) or "= (−6.0000) + (−3.0000)" in explanation(
        frame
    )
    page.keyboard.press("PageDown")
    wait_for(frame, "() => document.querySelector('[data-player]').dataset.position === '2'")
    assert "Backward step 1 of 3" in explanation(frame)
    page.keyboard.press("PageUp")
    wait_for(frame, "() => document.querySelector('[data-player]').dataset.position === '1'")
    assert page.evaluate("window.hostKeys") == []  # the frame had the keys, not the deck
    wait_for(page, "() => window.events.filter((e) => e.event === 'stepchanged').length === 3")
    changed = events(page, "stepchanged")
    assert [e["position"] for e in changed] == [1, 2, 1]
    assert changed[1]["phase"] == "backward" and changed[1]["step"] == 0
    shot(page, "embed-in-deck")


def test_post_message_commands_and_events(watched, base_url, host_server) -> None:
    page = watched.new_page()
    page.goto(deck(host_server, base_url, {"source": PRODUCT, "controls": "none"}))
    frame = frame_of(page)
    wait_for(page, "() => window.events.some((e) => e.event === 'ready')")
    page.evaluate("window.send({command: 'next'})")
    wait_for(page, "() => window.events.filter((e) => e.event === 'stepchanged').length === 1")
    page.evaluate("window.send({command: 'goto', phase: 'backward', step: 2})")
    wait_for(page, "() => window.events.filter((e) => e.event === 'stepchanged').length === 2")
    last = events(page, "stepchanged")[-1]
    assert (last["phase"], last["step"], last["position"]) == ("backward", 2, 4)
    assert "Backward step 3 of 3" in last["explanation"]
    assert "Backward step 3 of 3" in explanation(frame)
    # the finished graph: a.grad = b = −3, b.grad = a + 1 = 3
    grads = frame.evaluate(
        "() => ['n0', 'n1'].map((id) => document.getElementById(id + '-grad').textContent)"
    )
    assert grads == ["−3.0000", "3.0000"]
    page.evaluate("window.send({command: 'goto', step: 0})")  # on the whole walk
    page.evaluate("window.send({command: 'prev'})")  # at the start: answered, not moved
    page.evaluate("window.send({command: 'bogus'})")  # ignored
    page.evaluate("window.send('next')")
    wait_for(page, "() => window.events.filter((e) => e.event === 'stepchanged').length === 5")
    positions = [e["position"] for e in events(page, "stepchanged")]
    assert positions == [1, 4, 0, 0, 1]
    assert frame.locator(".player-bar").is_hidden()  # controls=none


def test_escape_and_stepping_past_the_end_give_the_keys_back(
    watched, base_url, host_server
) -> None:
    page = watched.new_page()
    query = {"source": PRODUCT, "phase": "backward", "step": "1"}
    page.goto(deck(host_server, base_url, query))
    frame = frame_of(page)
    frame.locator('[data-part="graph"]').click()
    page.keyboard.press("ArrowRight")  # to the last step
    wait_for(frame, "() => document.querySelector('[data-player]').dataset.position === '4'")
    page.keyboard.press("PageDown")  # past the end: the deck gets the keyboard back
    wait_for(page, "() => window.events.some((e) => e.event === 'release')")
    assert events(page, "release")[0]["reason"] == "end"
    page.keyboard.press("PageDown")
    wait_for(page, "() => window.hostKeys.includes('PageDown')")
    assert frame.evaluate("document.querySelector('[data-player]').dataset.position") == "4"

    frame.locator('[data-part="graph"]').click()
    page.keyboard.press("ArrowLeft")
    wait_for(frame, "() => document.querySelector('[data-player]').dataset.position === '3'")
    page.keyboard.press("Escape")
    wait_for(page, "() => window.events.filter((e) => e.event === 'release').length === 2")
    assert events(page, "release")[1]["reason"] == "escape"
    page.keyboard.press("ArrowLeft")
    wait_for(page, "() => window.hostKeys.includes('ArrowLeft')")
    assert frame.evaluate("document.querySelector('[data-player]').dataset.position") == "3"


def test_main_page_cannot_be_framed(browser, base_url, host_server) -> None:
    host_server["/framed.html"] = f'<iframe id="graph" src="{base_url}/"></iframe>'
    context = browser.new_context()
    page = context.new_page()
    logged: list[str] = []  # Chromium logs the refusal as an error: expected here
    page.on("console", lambda m: logged.append(m.text))
    page.goto(host_server["__origin__"] + "/framed.html")
    frame = page.wait_for_selector("#graph").content_frame()
    deadline = 50
    while deadline and not any("ancestor" in t or "X-Frame" in t for t in logged):
        page.wait_for_timeout(100)
        deadline -= 1
    assert frame is None or frame.evaluate("() => !document.querySelector('#graph-view')")
    assert any("frame-ancestors" in text or "X-Frame-Options" in text for text in logged)
    context.close()


def test_a_deck_opened_from_disk_can_embed(watched, base_url, tmp_path: Path) -> None:
    """reveal.js decks are often opened as files: CSP's "*" alone would refuse a file: parent."""
    deck_file = tmp_path / "deck.html"
    src = f"{base_url}/embed?{urllib.parse.urlencode({'source': PRODUCT})}"
    deck_file.write_text(HOST_PAGE.format(src=src, width=640, height=400), encoding="utf-8")
    page = watched.new_page()
    page.goto(deck_file.as_uri())
    wait_for(page, "() => window.events.some((e) => e.event === 'ready')")
    page.evaluate("window.send({command: 'next'})")
    wait_for(page, "() => window.events.some((e) => e.event === 'stepchanged')")
