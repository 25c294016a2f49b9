"""The stepper in a real Chromium against a live server, the graph view and the page around
it: the inspector, the numerical gradients, the dark theme, other screen sizes, zoom, pan and
fit, the flowing edges' overlay, labelled controls, and the page's DOM-free modules."""

from __future__ import annotations

import re

import pytest
from browser_wait import wait_for
from stepper_pages import open_page

pytestmark = pytest.mark.browser


def test_inspector_shows_the_gradient_as_a_sum_over_uses(page, shot):
    open_page(page)
    page.check("#topo")
    b_node = page.locator(
        "#graph-view g.node.value", has=page.locator("text", has_text=re.compile(r"^b$"))
    )
    page.click("#zoom-fit")
    b_node.first.dispatch_event(
        "pointerdown", {"button": 0, "pointerId": 1, "clientX": 1, "clientY": 1}
    )
    b_node.first.dispatch_event(
        "pointerup", {"button": 0, "pointerId": 1, "clientX": 1, "clientY": 1}
    )
    inspector = page.locator("#inspector").inner_text()
    assert "input" in inspector
    assert "b.grad = ∂(b−a)/∂b·(b−a).grad + " in inspector
    assert inspector.count(".grad") >= 6  # b is used by five nodes: one term per use
    assert "used by b−a, b+a, b³, a·b and c" in inspector
    # 6.9417 + 0.0000 + 999.6035 + (−333.2012) + (−27.7668) is 645.5772: the sum says it is rounded
    assert inspector.rstrip().endswith(" ≈ 645.5773")
    assert re.search(r"topological\s+\d+ of 35", inspector)
    assert page.locator("#graph-view svg.show-topo .topo-badge").first.is_visible()
    assert page.locator("#graph-view g.node.value.selected").count() == 1
    shot(page, "desktop-inspector")


def test_numerical_gradient_toggle(page):
    open_page(page)
    assert "numerical" not in page.locator("#inputs").text_content()
    page.check("#numeric")
    rows = page.locator("#inputs").text_content()
    assert re.search(r"grad 138\.8338 · numerical 138\.833\d", rows)
    assert re.search(r"grad 645\.5773 · numerical 645\.577\d", rows)


def test_dark_theme(page, shot):
    open_page(page)
    page.select_option("#theme", "dark")
    assert page.evaluate("document.documentElement.dataset.theme") == "dark"
    background = page.evaluate("getComputedStyle(document.body).backgroundColor")
    channels = [int(x) for x in re.findall(r"\d+", background)[:3]]
    assert max(channels) < 60, background
    node_fill = page.evaluate(
        "getComputedStyle(document.querySelector('g.node.value.gbin-0 > polygon, "
        "g.node.value.kind-constant > polygon')).fill"
    )
    assert max(int(x) for x in re.findall(r"\d+", node_fill)[:3]) < 90, node_fill
    wait_for(page, "() => location.search.includes('theme=dark')")
    shot(page, "desktop-dark")


@pytest.mark.parametrize(("width", "height", "name"), [(1280, 720, "laptop"), (390, 844, "phone")])
def test_layout_at_other_sizes(browser, base_url, shot, width, height, name):
    context = browser.new_context(viewport={"width": width, "height": height}, base_url=base_url)
    try:
        page = context.new_page()
        open_page(page)
        graph = page.locator(".graph-wrap").bounding_box()
        editor = page.locator("#editor").bounding_box()
        assert graph["width"] > 0.3 * width and graph["height"] >= 300
        if width < 900:  # stacked: the graph first (on the first screen), then the program
            assert graph["y"] + graph["height"] <= min(height, editor["y"])
            assert page.evaluate("document.documentElement.scrollWidth") <= width
        else:  # side by side
            assert editor["x"] + editor["width"] <= graph["x"]
        shot(page, name)
    finally:
        context.close()


def test_zoom_pan_and_fit(page):
    open_page(page)
    svg = page.locator("#graph-view svg.gradstep-graph")
    page.click("#zoom-fit")
    fitted = svg.evaluate("s => s.style.transform")
    width = page.locator("#n0 > polygon").bounding_box()["width"]
    page.click("#zoom-in")
    assert page.locator("#n0 > polygon").bounding_box()["width"] > 1.2 * width
    box = page.locator(".graph-wrap").bounding_box()
    page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    page.mouse.wheel(0, 400)  # zooms out
    assert page.locator("#n0 > polygon").bounding_box()["width"] < 1.2 * width
    before = page.locator("#n0 > polygon").bounding_box()
    page.mouse.down()
    page.mouse.move(box["x"] + box["width"] / 2 + 80, box["y"] + box["height"] / 2 + 30, steps=5)
    page.mouse.up()
    after = page.locator("#n0 > polygon").bounding_box()
    assert abs(after["x"] - before["x"] - 80) < 3 and abs(after["y"] - before["y"] - 30) < 3
    page.click("#zoom-fit")
    assert svg.evaluate("s => s.style.transform") == fitted


FLOW_JS = """() => {
  const view = document.querySelector('#graph-view');
  const rect = (el) => {
    const r = el.getBoundingClientRect();
    return [r.x, r.y, r.width, r.height];
  };
  const drawn = [...view.querySelectorAll('svg.gradstep-graph g.edge.flow > path')];
  const shown = [...view.querySelectorAll('svg.gradstep-flow path')];
  return {
    drawn: drawn.map((p) => ({ d: p.getAttribute('d'), rect: rect(p),
      visibility: getComputedStyle(p).visibility, animation: getComputedStyle(p).animationName })),
    shown: shown.map((p) => ({ d: p.getAttribute('d'), rect: rect(p),
      animation: getComputedStyle(p).animationName, dashes: getComputedStyle(p).strokeDasharray })),
  };
}"""


def assert_flow_overlaid(page, count: int) -> None:
    """The step's flowing edges move in the overlay, each exactly over its hidden graph edge."""
    flow = page.evaluate(FLOW_JS)
    assert len(flow["drawn"]) == len(flow["shown"]) == count
    for drawn, shown in zip(flow["drawn"], flow["shown"], strict=True):
        assert shown["d"] == drawn["d"]
        assert all(abs(a - b) <= 1 for a, b in zip(shown["rect"], drawn["rect"], strict=True))
        assert drawn["visibility"] == "hidden" and drawn["animation"] == "none"
        assert shown["animation"] == "gradstep-flow" and shown["dashes"] != "none"


def test_flowing_edges_move_in_an_overlay_that_follows_zoom_and_pan(page):
    open_page(page)
    page.keyboard.press("End")  # c = a + b sends its gradient to a and b
    assert_flow_overlaid(page, 2)
    page.click("#zoom-in")
    page.click("#zoom-in")
    box = page.locator(".graph-wrap").bounding_box()
    page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    page.mouse.down()
    page.mouse.move(box["x"] + box["width"] / 2 - 70, box["y"] + box["height"] / 2 + 20, steps=4)
    page.mouse.up()
    assert_flow_overlaid(page, 2)
    page.set_viewport_size({"width": 900, "height": 700})  # the frame changes size
    page.click("#zoom-fit")
    assert_flow_overlaid(page, 2)
    page.click("#present")
    assert_flow_overlaid(page, 2)
    page.keyboard.press("Escape")
    # a forward step's edges are not flowing: the overlay is empty
    page.keyboard.press("Home")
    assert_flow_overlaid(page, 0)
    assert page.locator("#graph-view g.edge.current").count() >= 1
    # the overlay never takes a click: a value under it is still selected
    page.keyboard.press("End")
    page.locator("#graph-view g.node.value").first.click()
    assert page.locator("#graph-view g.node.value.selected").count() == 1


def test_controls_are_labelled_and_the_explanation_is_announced(page):
    open_page(page)
    unlabelled = page.evaluate(
        """() => [...document.querySelectorAll('button, input, select, textarea')]
          .filter((el) => el.offsetParent !== null)
          .filter((el) => !(el.getAttribute('aria-label') || el.labels?.length
                            || el.textContent.trim() || el.title))
          .map((el) => el.outerHTML.slice(0, 80))"""
    )
    assert unlabelled == []
    live = page.locator("[data-part=live]")
    assert live.get_attribute("aria-live") == "polite"  # the narration of every step
    assert live.inner_text().startswith("Backward step 26 of 26")
    page.keyboard.press("Tab")  # the skip link first, then every control by keyboard
    assert page.evaluate("document.activeElement.className") == "skip-link"


def test_pure_helpers_in_the_browser(page):
    """The DOM-free modules, imported as the page imports them."""
    open_page(page)
    result = page.evaluate(
        """async () => {
          const f = await import('/static/format.js');
          const u = await import('/static/url.js');
          return {
            parsed: [f.parseNumber('−3'), f.parseNumber('2,5'), f.parseNumber('1e-3'),
                     f.parseNumber('abc')],
            close: [f.isClose(6.00004, 6, 4), f.isClose(6.1, 6, 4)],
            query: u.queryToState('?phase=sideways&step=x&decimals=99&theme=dark&values=a%3D1'),
          };
        }"""
    )
    assert result["parsed"] == [-3, 2.5, 0.001, None]
    assert result["close"] == [True, False]
    query = result["query"]
    assert query["phase"] is None and query["step"] is None
    assert query["decimals"] == 4 and query["theme"] == "dark"
    assert query["values"] == "a=1"  # kept as written: only the server reads values
