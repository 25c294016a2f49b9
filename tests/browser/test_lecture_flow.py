"""A lecture driven by a presentation clicker (it sends PageDown and PageUp), and predict mode
that a student cannot get around: what the lecture hall asks of the page, in a real Chromium."""

from __future__ import annotations

from urllib.parse import urlencode

import pytest
from browser_wait import wait_for
from stepper_pages import PRODUCT, position, runs, wait_drawn

pytestmark = pytest.mark.browser


def open_program(page, source: str = PRODUCT, **query: str) -> None:
    page.goto("/?" + urlencode({"source": source, **query}))
    wait_drawn(page, 0)


def test_the_clicker_steps_from_anywhere_but_the_program_text(page) -> None:
    open_program(page)
    assert position(page) == "backward 2/2"  # the finished picture first
    page.keyboard.press("PageDown")  # from the finished picture, the walk starts over
    assert position(page) == "forward 1/1"
    page.locator("#inputs input[type=range]").first.focus()
    page.keyboard.press("PageDown")  # a slider keeps its arrows, not the clicker's keys
    assert position(page) == "backward 1/2"
    page.locator("#inputs input[type=number]").first.focus()
    page.keyboard.press("PageUp")
    assert position(page) == "forward 1/1"
    page.locator("#decimals").focus()
    page.keyboard.press("PageDown")
    assert position(page) == "backward 1/2"
    assert page.input_value("#decimals") == "4"  # the select did not move
    page.locator("#source").focus()
    page.keyboard.press("PageDown")  # typing: the editor's own keys
    assert position(page) == "backward 1/2"


def test_no_press_of_the_clicker_loses_the_finished_graph(page) -> None:
    open_program(page)
    page.keyboard.press("PageDown")  # the finished picture it opened on: the walk starts
    assert position(page) == "forward 1/1"
    page.keyboard.press("PageUp")  # ... and one press back returns to it
    assert position(page) == "backward 2/2"
    assert page.locator("#graph-view g.node.value.grad-final").count() > 0
    assert page.locator("#again").is_hidden()
    for _ in range(3):
        page.keyboard.press("PageDown")
    assert position(page) == "backward 2/2"  # stepped to the end
    grads = page.locator("#explanation").inner_text()
    for _ in range(3):
        page.keyboard.press("PageDown")  # the end of the pass is a wall, not a wrap
        assert position(page) == "backward 2/2"
    assert page.locator("#explanation").inner_text() == grads
    assert page.locator("#next").is_hidden() and page.locator("#last").is_hidden()
    again = page.locator("#again")
    assert again.is_visible() and "Start again" in again.inner_text()
    again.click()  # starting again is a control of its own
    assert position(page) == "forward 1/1"
    assert again.is_hidden() and page.locator("#next").is_enabled()
    open_program(page)  # End on the finished picture it opened on: the end of a walk too
    page.keyboard.press("End")
    page.keyboard.press("PageDown")
    assert position(page) == "backward 2/2"


def test_after_run_the_graph_has_the_keys(page) -> None:
    open_program(page)
    before = runs(page)
    page.locator("#source").focus()
    page.keyboard.press("Control+Enter")
    wait_drawn(page, before)
    assert page.evaluate("document.activeElement.id") == "graph-view"
    page.keyboard.press("PageDown")
    assert position(page) == "forward 1/1"


def test_a_preset_by_its_id(page) -> None:
    page.goto("/?preset=lecture-neuron")
    wait_drawn(page, 0)
    assert "tanh" in page.input_value("#source")
    assert page.locator("#graph-view g.node.value").count() == 10


def test_predict_mode_reveals_nothing_that_was_not_predicted(page) -> None:
    open_program(page)  # opens finished: every grad on screen
    page.check("#predict")  # ... and predict mode hides them again
    assert position(page) == "forward 1/1"
    assert page.locator("#predict-form").is_visible()
    assert page.locator("#graph-view g.node.value.grad-final").count() == 0
    for way_around in ("#phase-backward", "#last"):
        page.click(way_around)
        assert position(page) == "forward 1/1", way_around
    page.locator("#graph-view").focus()
    page.keyboard.press("End")
    assert position(page) == "forward 1/1"
    page.locator("#scrubber").fill("2")  # dragged to the end
    assert position(page) == "forward 1/1"
    assert page.input_value("#scrubber") == "0"
    page.check("#numeric")
    assert "numerical" not in page.locator("#inputs").text_content()  # it would give grads away
    assert "?" in page.locator("#inputs").text_content()
    # answering steps reveals them one by one; the score is kept
    page.fill("#predict-0", "1")
    page.click("#predict-form button[type=submit]")
    assert position(page) == "backward 1/2"
    page.locator("#graph-view").focus()
    page.keyboard.press("PageDown")
    page.fill("#predict-0", "-3")
    page.fill("#predict-1", "2")
    page.click("#predict-form button[type=submit]")
    assert position(page) == "backward 2/2"
    assert page.locator("#predict-score").inner_text() == "2 of 2 right"
    assert "numerical" in page.locator("#inputs").text_content()  # all revealed now
    # a run of the same program keeps the answers
    before = runs(page)
    page.click("#run")
    wait_drawn(page, before)
    page.keyboard.press("End")
    assert position(page) == "backward 2/2"


def test_a_clicker_gets_through_predict_mode_in_present_mode(page) -> None:
    open_program(page)
    page.check("#predict")
    page.click("#present")
    wait_for(page, "() => document.body.classList.contains('presenting')")
    page.locator("#graph-view").focus()
    assert position(page) == "forward 1/1"  # and the first backward step's question is open
    for shown in ("#predict-form", "#predict-question", "#predict-0", ".predict-switch"):
        assert page.locator(shown).is_visible(), shown
    page.keyboard.press("PageDown")  # nothing typed: the step is shown, not stuck
    assert position(page) == "backward 1/2"
    assert page.locator("#predict-score").inner_text() == "1 shown without an answer"
    page.keyboard.press("PageDown")  # the next question; an answer typed is checked
    page.fill("#predict-0", "-3")
    page.fill("#predict-1", "2")
    page.keyboard.press("PageDown")  # from the answer field, as a clicker sends it
    assert position(page) == "backward 2/2"
    assert page.locator("#predict-score").inner_text() == "1 of 1 right · 1 shown without an answer"
    assert page.locator("#predict-result").is_visible()


def test_the_embed_says_what_went_wrong_instead_of_loading(page) -> None:
    page.goto("/embed?" + urlencode({"source": "a = 2.0\nb = a * frobnicate(a)\n"}))
    wait_for(page, "() => document.querySelector('[data-player]').dataset.state === 'error'")
    assert "Loading" not in page.locator('[data-part="explanation"]').inner_text()
    assert "frobnicate" in page.locator('[data-part="error"]').inner_text()
    page.goto("/embed?preset=accumulation")
    wait_for(page, "() => document.querySelector('[data-player]').dataset.state === 'ready'")
    assert page.locator("g.node.value").count() == 2


def test_a_step_with_more_lines_than_its_panel_says_so(page) -> None:
    page.set_viewport_size({"width": 1280, "height": 720})
    page.goto("/?preset=lecture-mlp")
    wait_drawn(page, 0)
    page.locator("#graph-view").focus()
    page.keyboard.press("End")  # the update: 41 values changed, 7 lines show
    panel = page.locator("#explanation")
    wait_for(page, "() => document.querySelector('#explanation').classList.contains('more-below')")
    label = panel.evaluate("(el) => getComputedStyle(el, '::after').content")
    assert "more below" in label
    panel.evaluate("(el) => { el.scrollTop = el.scrollHeight; }")  # read to the end
    wait_for(page, "() => !document.querySelector('#explanation').classList.contains('more-below')")
    page.keyboard.press("Home")  # a step that fits: no label
    page.wait_for_timeout(100)
    assert "more-below" not in (panel.get_attribute("class") or "")
