"""The stepper in a real Chromium against a live server: what a user sees and does."""

from __future__ import annotations

import re

import pytest
from browser_wait import wait_for

from app.presets import MICROGRAD_README

pytestmark = pytest.mark.browser


PRODUCT = "a = Value(2.0)\nb = Value(-3.0)\nc = a * b\nc.backward()\n"

NODE_TEXT_JS = """([label, field]) => {
  for (const g of document.querySelectorAll('#graph-view g.node.value')) {
    const name = g.querySelector('[id$="-label"]');
    if (name && name.textContent.trim() === label) {
      return field ? g.querySelector(`[id$="-${field}"]`).textContent : g.getAttribute("class");
    }
  }
  return null;
}"""


def runs(page, element: str = "#graph-view") -> int:
    return int(page.locator(element).get_attribute("data-runs") or 0)


def wait_drawn(page, before: int) -> None:
    wait_for(
        page, "n => Number(document.querySelector('#graph-view').dataset.runs || 0) > n", before
    )


def open_page(page, query: str = "") -> None:
    page.goto(f"/{query}")
    wait_drawn(page, 0)


def run_program(page, source: str) -> None:
    before = runs(page)
    page.fill("#source", source)
    page.click("#run")
    wait_drawn(page, before)


def node_text(page, label: str, field: str) -> str | None:
    return page.evaluate(NODE_TEXT_JS, [label, field])


def mark_box(page, cls: str, line: int, columns: tuple[int, int] | None) -> None:
    """The editor's highlight box sits on `line` and, if given, spans those 1-based columns."""
    mark = page.locator(f"#highlight mark.{cls}").bounding_box()
    row = page.locator("#gutter span").nth(line - 1).bounding_box()
    assert mark is not None and row is not None
    centre = mark["y"] + mark["height"] / 2
    assert row["y"] <= centre <= row["y"] + row["height"]
    if columns:
        char = page.evaluate(
            "() => { const s = document.createElement('span'); s.textContent = 'M'.repeat(50);"
            " s.className = 'probe'; document.querySelector('#highlight').append(s);"
            " const w = s.getBoundingClientRect().width / 50; s.remove(); return w; }"
        )
        assert abs(mark["width"] - (columns[1] - columns[0]) * char) < 2


def node_class(page, label: str) -> str:
    return page.evaluate(NODE_TEXT_JS, [label, None])


def position(page) -> str:
    return page.locator("#position").inner_text()


def test_landing_page_draws_the_readme_program(page, shot):
    open_page(page)
    assert page.locator("#graph-view svg.gradstep-graph").count() == 1
    assert page.locator("#graph-view g.node.value").count() > 20
    assert "g = f / 2.0" in page.input_value("#source")
    active = page.locator("#preset-list button[aria-pressed=true]")
    assert active.count() == 1
    assert "README" in active.inner_text()
    # the finished picture first: every grad known
    assert position(page) == "backward 26/26"
    assert node_text(page, "a", "grad") == "138.8338"
    shot(page, "desktop-landing")


def test_pasted_readme_program_stepped_to_the_end(page, shot):
    open_page(page)
    run_program(page, "x = Value(1.0)\ny = x * x\n")  # something else first
    run_program(page, MICROGRAD_README)
    page.click("#first")
    assert position(page) == "forward 1/25"
    assert node_text(page, "a", "grad") == "?"  # not yet known, not 0
    # none of the finished picture's classes linger (the server drew the SVG finished)
    classes = node_class(page, "a").split()
    assert "grad-pending" in classes
    assert not [c for c in classes if c.startswith("gbin") or c == "grad-final"], classes
    assert node_text(page, "g₁", "data") == "?"
    for _ in range(25 + 26 - 1):
        page.click("#next")
    assert position(page) == "backward 26/26"
    assert node_text(page, "a", "grad") == "138.8338"
    assert node_text(page, "b", "grad") == "645.5773"
    assert node_text(page, "g₁", "data") == "24.7041"
    # text_content: innerText leaves out rows below the fold (content-visibility: auto)
    rows = page.locator("#inputs").text_content()
    assert "138.8338" in rows
    assert "645.5773" in rows
    shot(page, "desktop-readme-end")


def test_stepping_by_keyboard(page):
    open_page(page)
    page.locator("#graph-view").focus()
    page.keyboard.press("Home")
    assert position(page) == "forward 1/25"
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowRight")
    assert position(page) == "forward 3/25"
    page.keyboard.press("PageDown")  # what a presentation clicker sends
    assert position(page) == "forward 4/25"
    page.keyboard.press("PageUp")
    page.keyboard.press("ArrowLeft")
    assert position(page) == "forward 2/25"
    page.keyboard.press("End")
    assert position(page) == "backward 26/26"
    page.keyboard.press("ArrowRight")  # from the finished picture, the walk starts over
    assert position(page) == "forward 1/25"
    page.keyboard.press("End")
    page.keyboard.press("ArrowLeft")
    assert position(page) == "backward 25/26"
    # Space plays from here to the end, then stops by itself
    page.select_option("#speed", "30")
    page.keyboard.press("Space")
    wait_for(page, "() => document.querySelector('#position').textContent === 'backward 26/26'")
    wait_for(page, "() => !document.querySelector('#play').classList.contains('playing')")


def test_explanation_of_known_steps(page):
    open_page(page)
    page.keyboard.press("Home")
    explanation = page.locator("#explanation")
    assert "c = a + b = (−4.0000) + 2.0000 = −2.0000" in explanation.inner_text()
    page.keyboard.press("End")  # the last backward step: c = a + b sends its gradient to a, b
    text = explanation.inner_text()
    assert "a.grad += ∂c/∂a · c.grad" in text
    assert "∂c/∂a = 1" in text
    assert "= 1.0000 × (−27.7668) = −27.7668" in text
    assert "a.grad: 166.6006 → 138.8338, accumulates (a is used by " in text
    assert "b.grad: 673.3440 → 645.5773, accumulates (b is used by " in text
    # the current node's source span is highlighted in the editor
    assert page.locator("#gutter .current-line").inner_text().strip() == "5"
    mark_box(page, "span", line=5, columns=(5, 10))  # c = [a + b]
    # the current node and the edges carrying gradient are marked in the graph
    assert page.locator("#graph-view g.node.value.current").count() == 1
    assert page.locator("#graph-view g.edge.flow").count() == 2
    # a value that has received some but not all of its contributions is partial
    assert "grad-final" in node_class(page, "a")
    page.keyboard.press("ArrowLeft")
    assert "grad-partial" in node_class(page, "a")
    assert node_text(page, "a", "grad") == "166.6006"
    # the seed step
    page.click("#phase-backward")
    assert "g₁.grad = 1 (the output's gradient with respect to itself)" in explanation.inner_text()


def test_decimals_change_every_number(page):
    open_page(page)
    page.select_option("#decimals", "2")
    assert node_text(page, "a", "grad") == "138.83"
    wait_for(page, "() => location.search.includes('decimals=2')")  # the URL follows


def test_slider_and_number_field_recompute_keeping_layout_and_step(page, shot):
    open_page(page)
    run_program(page, PRODUCT)
    page.click("#first")
    box = page.locator("#graph-view g.node.value.kind-output > polygon").get_attribute("points")
    step_before = position(page)
    page.evaluate("() => { window.__shownSvg = document.querySelector('svg.gradstep-graph'); }")
    before = runs(page)
    with page.expect_response("**/api/graph") as answer:
        page.locator("#inputs input[type=number][data-label=a]").fill("3")
    wait_drawn(page, before)
    # the page named the layout it shows, so the answer left out the SVG and the page kept its own
    assert answer.value.json()["svg"] is None
    assert page.evaluate("() => document.querySelector('svg.gradstep-graph') === window.__shownSvg")
    assert node_text(page, "c", "data") == "−9.0000"
    assert position(page) == step_before  # the step is kept
    after = page.locator("#graph-view g.node.value.kind-output > polygon").get_attribute("points")
    assert after == box  # the layout is kept
    before = runs(page)
    page.locator("#inputs input[type=range][data-label=b]").fill("1")
    wait_drawn(page, before)
    assert node_text(page, "b", "data") == "1.0000"
    assert node_text(page, "c", "data") == "3.0000"
    page.click("#last")
    assert node_text(page, "a", "grad") == "1.0000"
    shot(page, "desktop-slider")


def test_number_fields_show_every_input_value_zero_included(page):
    open_page(page)
    run_program(page, "x1 = 2.0\nx2 = 0.0\ny = x1 * x2\n")  # the lecture neuron's x2 is 0
    fields = page.locator("#inputs input[type=number]")
    assert [fields.nth(i).input_value() for i in range(fields.count())] == ["2", "0"]


def test_error_shown_at_its_line_and_last_graph_kept(page, shot):
    open_page(page)
    run_program(page, PRODUCT)
    before = runs(page, "#error")
    page.fill("#source", "a = Value(2.0)\nb = Value(-3.0)\nc = a * frobnicate(b)\n")
    page.click("#run")
    wait_for(page, "n => Number(document.querySelector('#error').dataset.runs || 0) > n", before)
    error = page.locator("#error")
    assert error.is_visible()
    assert re.search(r"Line 3, column \d+: ", error.inner_text())
    assert "frobnicate" in error.inner_text()
    assert page.locator("#gutter .error-line").inner_text().strip() == "3"
    mark_box(page, "error-span", line=3, columns=None)
    # the last good graph stays
    assert node_text(page, "c", "data") == "−6.0000"
    shot(page, "desktop-error")
    run_program(page, PRODUCT)
    assert not error.is_visible()


def test_reload_from_shared_url_restores_program_values_and_step(page, browser, base_url):
    open_page(page)
    run_program(page, PRODUCT)
    before = runs(page)
    page.locator("#inputs input[type=number][data-label=a]").fill("5")
    wait_drawn(page, before)
    page.click("#first")
    page.select_option("#decimals", "3")
    wait_for(page, "() => new URLSearchParams(location.search).get('phase') === 'forward'")
    url = page.url
    query = dict(re.findall(r"([^?&=]+)=([^&]*)", url))
    assert {"source", "values", "phase", "step", "decimals"} <= query.keys()

    fresh = browser.new_context(viewport={"width": 1280, "height": 720}).new_page()
    try:
        fresh.goto(url)
        wait_drawn(fresh, 0)
        assert fresh.input_value("#source") == PRODUCT
        assert fresh.input_value("#inputs input[type=number][data-label=a]") == "5"
        assert fresh.locator("#position").inner_text() == "forward 1/1"
        assert fresh.evaluate(NODE_TEXT_JS, ["c", "data"]) == "−15.000"
        assert fresh.input_value("#decimals") == "3"
        # opened straight at a forward step: none of the finished picture's classes linger
        classes = fresh.evaluate(NODE_TEXT_JS, ["a", None]).split()
        assert "grad-pending" in classes
        assert not [c for c in classes if c.startswith("gbin") or c == "grad-final"], classes
    finally:
        fresh.context.close()


def test_predict_mode_checks_the_students_answer(page, shot):
    open_page(page)
    run_program(page, PRODUCT)
    page.check("#predict")
    page.keyboard.press("Home")
    page.locator("#graph-view").focus()
    page.keyboard.press("ArrowRight")  # into the backward pass: a question instead of the answer
    assert page.locator("#predict-form").is_visible()
    assert position(page) == "forward 1/1"
    page.fill("#predict-0", "1")
    page.click("#predict-form button[type=submit]")
    assert "Right!" in page.locator("#predict-result").inner_text()
    assert position(page) == "backward 1/2"
    page.keyboard.press("ArrowRight")
    assert page.locator("#predict-form").is_visible()
    assert node_text(page, "a", "grad") == "?"  # not revealed before the answer
    page.fill("#predict-0", "-3")  # a.grad = b
    page.fill("#predict-1", "3")  # wrong: b.grad = a = 2
    shot(page, "desktop-predict")
    page.click("#predict-form button[type=submit]")
    verdict = page.locator("#predict-result").inner_text()
    assert "Not quite" in verdict
    assert "a.grad = −3.0000 ✓" in verdict or "a.grad = -3.0000 ✓" in verdict
    assert "b.grad is 2.0000, not 3.0000 ✗" in verdict
    assert node_text(page, "b", "grad") == "2.0000"


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
    assert inspector.rstrip().endswith("= 645.5773")
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


def test_editor_keys_tab_indent_and_ctrl_enter_runs(page):
    open_page(page)
    page.fill("#source", "")
    page.focus("#source")
    page.keyboard.type("x = Value(3.0)")
    page.keyboard.press("Enter")
    page.keyboard.press("Tab")
    page.keyboard.type("# note")
    page.keyboard.press("Enter")  # keeps the indentation of the line above
    page.keyboard.type("y = x * x")
    assert page.input_value("#source") == "x = Value(3.0)\n    # note\n    y = x * x"
    page.keyboard.press("Shift+Tab")  # dedents the line
    assert page.input_value("#source").endswith("\ny = x * x")
    before = runs(page)
    page.keyboard.press("Control+Enter")
    wait_drawn(page, before)
    assert node_text(page, "y", "data") == "9.0000"
    assert page.locator("#gutter span").count() == 3


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
