"""The stepper in a real Chromium against a live server, stepping: the landing page's finished
picture, a pasted program stepped to its end by buttons and by keys, the explanation of a step,
the decimals, and predict mode checking a student's answer."""

from __future__ import annotations

import pytest
from browser_wait import wait_for
from stepper_pages import (
    PRODUCT,
    mark_box,
    node_class,
    node_text,
    open_page,
    position,
    run_program,
)

from app.presets import MICROGRAD_README

pytestmark = pytest.mark.browser


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
    page.keyboard.press("ArrowRight")  # the end of a walk is a wall
    assert position(page) == "backward 26/26"
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
    assert "b.grad: 673.3440 → ≈ 645.5773, accumulates (b is used by " in text  # 645.5772 shown
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
