"""A training loop on the page: the lecture's notebook pasted whole, its 20 iterations stepped by
PageDown alone, from the first forward step of iteration 0 to the last step of iteration 19,
the iteration strip (its scrubber, ‹ ›, [ and ], the loss plot) and the layout kept between
iterations, in a real Chromium."""

from __future__ import annotations

import pytest
from browser_wait import wait_for
from stepper_pages import paste, position, runs, wait_drawn

from app.lecture import LECTURE_NOTEBOOK_NEURON, LECTURE_TRAINING
from app.lecture.notebook import LECTURE_DATASET_CELL, LECTURE_MLP_CELL, LECTURE_TRAINING_CELL
from app.numbers import format_number
from engine import run

pytestmark = pytest.mark.browser

NOTEBOOK = "\n".join(
    [LECTURE_NOTEBOOK_NEURON, LECTURE_MLP_CELL, "n = MLP(3, [4, 4, 1])", LECTURE_DATASET_CELL,
     LECTURE_TRAINING_CELL]
)  # fmt: skip
LOSSES = run(LECTURE_TRAINING).losses
SHOWN = """() => ({
  iteration: document.querySelector('[data-iterations="position"]').textContent,
  loss: document.querySelector('[data-iterations="loss"]').textContent,
  busy: document.querySelector('#status').textContent.includes('computing'),
  again: !document.querySelector('#again').hidden,
})"""


def shown(page) -> dict:
    """What the strip shows once the page is not computing (one round trip when it is not)."""
    now = page.evaluate(SHOWN)
    if now["busy"]:
        wait_for(page, "() => !document.querySelector('#status').textContent.includes('computing')")
        now = page.evaluate(SHOWN)
    return now


def go_to_iteration(page, k: int) -> None:
    before = runs(page)
    scrubber = page.locator('[data-iterations="scrubber"]')
    set_to = "(el, k) => { el.value = String(k); el.dispatchEvent(new Event('change')); }"
    scrubber.evaluate(set_to, k)
    wait_drawn(page, before)


def test_the_lecture_steps_by_page_down_alone_through_its_twenty_iterations(page, shot) -> None:
    page.set_viewport_size({"width": 1280, "height": 720})
    paste(page, NOTEBOOK)  # its own class Value, its loop drawn by iteration, from the first
    assert shown(page)["iteration"] == "iteration 0"
    before = runs(page)
    page.click('#engine-switch button[data-engine="gradstep"]')  # folded calls: fewer steps
    wait_drawn(page, before)
    assert shown(page)["iteration"] == "iteration 0"
    page.locator("#graph-view").focus()
    page.keyboard.press("Home")
    assert shown(page)["iteration"] == "iteration 0" and position(page).startswith("forward")
    seen, presses = ["iteration 0"], 0
    while not (now := shown(page))["again"]:
        page.keyboard.press("PageDown")
        presses += 1
        if now["iteration"] != seen[-1]:
            seen.append(now["iteration"])
        assert presses < 2_000
    assert seen == [f"iteration {k}" for k in range(20)]  # each in turn, none skipped
    assert now["loss"] == f"loss {format_number(LOSSES[19])}"
    assert position(page) == "update" and page.locator("#next").is_hidden()
    shot(page, "training-loop-last-step-1280")
    for _ in range(3):  # the end of the last iteration is a wall
        page.keyboard.press("PageDown")
    assert shown(page)["iteration"] == "iteration 19" and position(page) == "update"
    go_to_iteration(page, 3)  # back to the program's own engine: its iteration 3, run again
    before = runs(page)
    page.click('#engine-switch button[data-engine="auto"]')
    wait_drawn(page, before)
    assert page.locator("#error").is_hidden() and shown(page)["iteration"] == "iteration 3"
    assert shown(page)["loss"] == f"loss {format_number(LOSSES[3])}"


def test_page_up_from_an_iterations_first_step_goes_back_to_the_one_before(page) -> None:
    page.goto("/?preset=lecture-training&iteration=5&phase=forward&step=0")
    wait_drawn(page, 0)
    page.locator("#graph-view").focus()
    page.keyboard.press("Home")
    page.keyboard.press("PageUp")
    now = shown(page)
    assert now["iteration"] == "iteration 4" and position(page) == "update"
    assert now["loss"] == f"loss {format_number(LOSSES[4])}"
    for _ in range(10):  # the update's 41 changes, a screenful a press, then the next iteration
        page.keyboard.press("PageDown")
        if shown(page)["iteration"] == "iteration 5":
            break
    assert shown(page)["iteration"] == "iteration 5" and position(page).startswith("forward")


@pytest.mark.parametrize("theme", ["light", "dark"])
@pytest.mark.parametrize("size", [(1280, 720), (1920, 1080)], ids=["720p", "1080p"])
def test_brackets_buttons_and_the_plot_move_between_iterations_keeping_step_and_layout(
    page, shot, size: tuple[int, int], theme: str
) -> None:
    page.set_viewport_size({"width": size[0], "height": size[1]})
    page.emulate_media(color_scheme=theme)
    page.goto("/?preset=lecture-training&iteration=19&phase=backward&step=3")
    wait_drawn(page, 0)
    assert shown(page)["iteration"] == "iteration 19" and position(page) == "backward 4/305"
    page.evaluate("document.querySelector('#graph-view svg').dataset.kept = 'yes'")
    page.locator("#graph-view").focus()
    page.keyboard.press("[")
    assert shown(page)["iteration"] == "iteration 18"
    assert position(page) == "backward 4/305"  # the same step, in another iteration
    assert "iteration=18" in page.evaluate("location.search") or wait_for(
        page, "() => location.search.includes('iteration=18')"
    )
    page.click('[data-iterations="prev"]')
    assert shown(page)["iteration"] == "iteration 17"
    page.keyboard.press("]")
    assert shown(page)["iteration"] == "iteration 18"
    plot = page.locator('[data-iterations="plot"]').bounding_box()
    page.mouse.click(plot["x"] + 2, plot["y"] + plot["height"] / 2)  # its left end
    assert shown(page) == {"iteration": "iteration 0", "loss": f"loss {format_number(LOSSES[0])}",
                           "busy": False, "again": False}  # fmt: skip
    # every iteration has the same layout: the drawing was restyled, never replaced
    assert page.evaluate("document.querySelector('#graph-view svg').dataset.kept") == "yes"
    assert page.locator('[data-iterations="next"]').is_enabled()
    assert page.locator('[data-iterations="prev"]').is_disabled()
    strip = page.locator("#iterations").bounding_box()
    assert strip["y"] + strip["height"] <= size[1] / 4  # above the explanation, without scrolling
    loss = page.locator('[data-iterations="loss"]')
    assert float(loss.evaluate("(el) => getComputedStyle(el).fontSize").removesuffix("px")) >= 14
    shot(page, f"training-loop-strip-{size[0]}-{theme}")


@pytest.mark.parametrize(("size", "theme"), [((1280, 720), "light"), ((1920, 1080), "dark")])
def test_a_product_that_does_not_reproduce_says_approximately(
    page, shot, size: tuple[int, int], theme: str
) -> None:
    """micrograd's README, its last step: 673.3440 − 27.7668 is 645.5772, so the grad's change
    to 645.5773 is written → ≈; the products that do multiply out keep =."""
    page.set_viewport_size({"width": size[0], "height": size[1]})
    page.emulate_media(color_scheme=theme)
    page.goto("/?preset=micrograd-readme&phase=backward&step=25")
    wait_drawn(page, 0)
    said = page.locator("#explanation").inner_text()
    assert "b.grad: 673.3440 → ≈ 645.5773" in said
    assert "a.grad: 166.6006 → 138.8338" in said  # this one adds up
    assert "= 1.0000 × (−27.7668) = −27.7668" in said
    page.select_option("#decimals", "2")
    at_two = page.locator("#explanation").inner_text()  # decided again at the decimals shown
    assert "a.grad: 166.60 → 138.83" in at_two and "b.grad: 673.34 → ≈ 645.58" in at_two
    shot(page, f"approximately-{size[0]}-{theme}")
