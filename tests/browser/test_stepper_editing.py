"""The stepper in a real Chromium against a live server, the program and its inputs: sliders
and number fields recompute keeping the layout and the step, an error shown at its line, the
editor's keys, and a shared URL reloaded into a fresh page."""

from __future__ import annotations

import re

import pytest
from browser_wait import wait_for
from stepper_pages import (
    NODE_TEXT_JS,
    PRODUCT,
    mark_box,
    node_text,
    open_page,
    position,
    run_program,
    runs,
    wait_drawn,
)

pytestmark = pytest.mark.browser


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


def test_a_program_run_just_after_a_value_is_typed_is_not_sent_the_old_inputs(page):
    """A value's run waits a moment for more typing; Run in that moment is the newer wish, and
    the old program's input must not follow it ("values given for 'a', which is not an input")."""
    open_page(page)
    run_program(page, PRODUCT)
    before = runs(page)
    # a loaded server: the program's run is still on its way when the value's would start
    page.route("**/api/graph", lambda route: (page.wait_for_timeout(400), route.continue_()))
    page.evaluate(  # in one go, well within the value's debounce
        """() => {
          const a = document.querySelector('#inputs input[type=number][data-label=a]');
          a.value = '5';
          a.dispatchEvent(new Event('input', { bubbles: true }));
          const source = document.getElementById('source');
          source.value = 'x = Value(4.0)\\ny = x * x\\ny.backward()\\n';
          source.dispatchEvent(new Event('input', { bubbles: true }));
          document.getElementById('run').click();
        }"""
    )
    wait_drawn(page, before)
    page.wait_for_timeout(600)  # past the debounce: no late run of the value replaces the graph
    assert not page.locator("#error").is_visible()
    assert node_text(page, "y", "data") == "16.0000"


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


def test_a_busy_server_is_asked_again_after_its_retry_after(page):
    """A server at capacity answers 503 busy with Retry-After (issue 30, item 5): the page asks
    again after that wait instead of showing the refusal to a student."""
    open_page(page)
    asked: list[int] = []

    def busy_once(route) -> None:  # the first graph request finds the server full
        asked.append(1)
        if len(asked) > 1:
            route.continue_()
            return
        refusal = {"error": {"message": "the server is busy", "kind": "busy"}}
        route.fulfill(status=503, headers={"Retry-After": "1"}, json=refusal)

    page.route("**/api/graph", busy_once)
    run_program(page, PRODUCT)
    assert len(asked) == 2
    assert page.locator("#error").is_hidden()
    assert node_text(page, "c", "data") is not None
