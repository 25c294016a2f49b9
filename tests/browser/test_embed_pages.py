"""/embed and the other classroom pages in Chromium on their own: the embed fills any frame,
the offline file steps to the last grad with the network blocked, the CSP the pages run under,
autoplay and the theme, and the embed's options and commands read defensively."""

from __future__ import annotations

import urllib.parse
import urllib.request
from pathlib import Path

import pytest
from browser_wait import wait_for
from embed_pages import PRODUCT

from app.presets import MICROGRAD_README

pytestmark = pytest.mark.browser


@pytest.mark.parametrize(
    ("width", "height", "name", "extra"),
    [
        (320, 240, "embed-320x240", {}),
        (1920, 1080, "embed-projector", {"scale": "1.6", "theme": "dark"}),
    ],
)
def test_embed_fills_any_frame_without_scrollbars(
    watched, base_url, shot, width, height, name, extra
) -> None:
    page = watched.new_page()
    page.set_viewport_size({"width": width, "height": height})
    query = {"source": MICROGRAD_README, "phase": "backward", "step": "3", **extra}
    page.goto(f"{base_url}/embed?{urllib.parse.urlencode(query)}")
    wait_for(page, "() => document.querySelector('[data-player]')?.dataset.state === 'ready'")
    sizes = page.evaluate(
        "() => [document.documentElement.scrollWidth, document.documentElement.scrollHeight,"
        " document.body.scrollWidth, document.body.scrollHeight]"
    )
    assert sizes == [width, height, width, height]
    bar = page.locator(".player-bar").bounding_box()
    graph = page.locator('[data-part="graph"]').bounding_box()
    assert bar and graph and bar["y"] + bar["height"] <= height + 0.5
    assert graph["height"] >= height * (0.3 if height < 300 else 0.6)
    assert "Backward step 4 of" in page.locator('[data-part="explanation"]').inner_text()
    # the current node is in view
    box = page.evaluate(
        "() => document.querySelector('.player-graph g.node.value.current')"
        ".getBoundingClientRect().toJSON()"
    )
    assert 0 <= box["x"] + box["width"] / 2 <= width and 0 <= box["y"] <= height
    shot(page, name)


def test_offline_file_steps_to_the_last_grad_with_the_network_blocked(
    browser, base_url, tmp_path: Path, shot
) -> None:
    query = urllib.parse.urlencode({"source": MICROGRAD_README})
    with urllib.request.urlopen(f"{base_url}/api/graph.html?{query}", timeout=30) as response:
        path = tmp_path / "gradstep-readme.html"
        path.write_bytes(response.read())
    context = browser.new_context(viewport={"width": 1280, "height": 720}, offline=True)
    requested: list[str] = []

    def refuse(route) -> None:
        requested.append(route.request.url)
        route.abort()

    context.route(lambda url: not url.startswith("file:"), refuse)
    errors: list[str] = []
    page = context.new_page()
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(path.as_uri())
    wait_for(page, "() => document.querySelector('[data-player]')?.dataset.state === 'ready'")
    total = page.evaluate("() => Number(document.querySelector('[data-part=scrubber]').max)")
    assert total > 30
    page.locator('[data-part="graph"]').click()
    for _ in range(total):
        page.keyboard.press("PageDown")
    wait_for(page, f"() => document.querySelector('[data-player]').dataset.position === '{total}'")
    text = page.locator('[data-part="explanation"]').inner_text()
    assert "Backward step 26 of 26" in text
    grads = page.evaluate(
        "() => ['n0', 'n1'].map((id) => document.getElementById(id + '-grad').textContent)"
    )
    assert grads == ["138.8338", "645.5773"]  # micrograd's README: dg/da, dg/db
    shot(page, "offline-file")
    context.close()
    assert requested == [] and errors == []


def test_main_page_and_embed_run_under_the_csp_without_errors(watched, base_url) -> None:
    page = watched.new_page()
    refused: list[str] = []
    page.on("console", lambda m: refused.append(m.text) if "Content Security" in m.text else None)
    for url in (f"{base_url}/", f"{base_url}/embed?source=a%3DValue(1.0)%0Ab%3Da*a"):
        response = page.goto(url)
        assert response is not None
        csp = response.headers["content-security-policy"]
        assert "'unsafe-inline'" not in csp and "'unsafe-eval'" not in csp
        if url.endswith("/"):
            wait_for(page, "() => Number(document.querySelector('#graph-view').dataset.runs) > 0")
            assert "frame-ancestors 'none'" in csp
        else:
            wait_for(
                page, "() => document.querySelector('[data-player]').dataset.state === 'ready'"
            )
            assert "frame-ancestors * file:" in csp
    assert refused == []


def test_autoplay_and_theme(watched, base_url) -> None:
    page = watched.new_page()
    query = {"source": PRODUCT, "autoplay": "1", "theme": "dark", "phase": "backward", "step": "2"}
    page.goto(f"{base_url}/embed?{urllib.parse.urlencode(query)}")
    wait_for(page, "() => document.querySelector('[data-player]')?.dataset.state === 'ready'")
    assert page.evaluate("document.documentElement.dataset.theme") == "dark"
    assert page.locator('[data-part="play"]').get_attribute("class") == "full-only playing"
    # autoplay starts from the first step whatever the link's step, and moves on by itself
    wait_for(page, "() => document.querySelector('[data-player]').dataset.position === '1'")


def test_embed_options_and_commands_are_read_defensively(watched, base_url) -> None:
    page = watched.new_page()
    page.goto(f"{base_url}/embed?source=a%3D1")
    result = page.evaluate(
        """async () => {
          const m = await import('/static/embed-options.js');
          return {
            defaults: m.embedOptions(''),
            chosen: m.embedOptions('?controls=none&autoplay=1&theme=light&scale=9'),
            junk: m.embedOptions('?controls=all&autoplay=0&theme=pink&scale=abc'),
            commands: [
              m.parseCommand({command: 'next'}), m.parseCommand('prev'),
              m.parseCommand({command: 'goto', step: '3'}),
              m.parseCommand({command: 'goto', phase: 'forward', step: 1}),
              m.parseCommand({command: 'goto', step: 1.5}), m.parseCommand({command: 'rm'}),
              m.parseCommand(null), m.parseCommand(42),
            ],
          };
        }"""
    )
    assert result["defaults"] == {
        "controls": "full",
        "autoplay": False,
        "theme": "auto",
        "scale": 1,
    }
    assert result["chosen"] == {"controls": "none", "autoplay": True, "theme": "light", "scale": 3}
    assert result["junk"] == {"controls": "full", "autoplay": False, "theme": "auto", "scale": 1}
    assert result["commands"] == [
        {"name": "next"},
        {"name": "prev"},
        {"name": "goto", "step": 3, "phase": None},
        {"name": "goto", "step": 1, "phase": "forward"},
        None,
        None,
        None,
        None,
    ]
