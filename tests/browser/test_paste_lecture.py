"""The whole lecture pasted into the editor, as a teacher would: micrograd's README, the
lecture's neuron cells (with the notebook's own helpers around them), its MLP, micrograd.nn's
MLP and demo.ipynb's loss cell. Each draws, steps, and ends with the program's update; the MLP
folds by layer, opens one level at a time, and steps over a folded call or into it. The text
stays readable on a projector and a phone."""

from __future__ import annotations

from urllib.parse import urlencode

import pytest
from browser_wait import frames, wait_for
from stepper_pages import TEXT_PX, paste, position, runs, title
from stepper_pages import wait_drawn as drawn
from traces import steps

from app.lecture import (
    DEMO,
    LECTURE_MLP,
    LECTURE_NEURON,
    MICROGRAD_NN_MLP,
    MICROGRAD_README,
)
from app.numbers import BOX_CHARS, DEFAULT_DECIMALS, format_number
from engine import run, trace

pytestmark = pytest.mark.browser

# The notebook's cells with its own class Value run the program's own engine now (an
# OwnProgram, which the stepper cannot show until engine.own lands): not pasted here.
PROGRAMS = {
    "readme": MICROGRAD_README,
    "lecture-neuron": LECTURE_NEURON,
    "lecture-mlp": LECTURE_MLP,
    "micrograd-nn-mlp": MICROGRAD_NN_MLP,
    "demo-4-moons": DEMO,
}
SIZES = [(1280, 720), (1920, 1080), (390, 844)]


def text_of(page, selector: str) -> str:
    """An SVG text's content (inner_text is for HTML elements)."""
    return page.locator(selector).text_content() or ""


def number(x: float) -> str:
    return format_number(x, DEFAULT_DECIMALS, BOX_CHARS)


@pytest.mark.parametrize("name", PROGRAMS)
def test_a_pasted_lecture_program_draws_steps_and_ends_with_its_update(page, shot, name) -> None:
    source = PROGRAMS[name]
    t = trace(run(source))
    backward, update = steps(t, "backward"), steps(t, "update")
    paste(page, source)
    assert page.locator("#error").is_hidden(), page.locator("#error").inner_text()
    # the output's numbers, in its own box or listed in the folded call that made it
    out = t.structure.output
    assert text_of(page, f"#graph-view #n{out}-data") == number(t.numbers.data[out])
    assert text_of(page, f"#graph-view #n{out}-grad") == number(1.0)
    # what the language skipped is said under the editor
    notes = page.locator("#notes")
    assert notes.is_visible() == bool(t.structure.notes)
    for note in t.structure.notes:
        assert note in notes.inner_text()
    # the finished picture is the end of the walk: after the update, when there is one
    if update:
        assert position(page) == "update"
        assert title(page) == update[0].title
    else:
        assert position(page) == f"backward {len(backward)}/{len(backward)}"
    shot(page, f"paste-{name}")
    # a clicker walks it: the start of the forward pass, then on
    page.locator("#graph-view").focus()
    page.keyboard.press("Home")
    assert position(page).startswith("forward ")
    seen = [position(page)]
    presses = min(3, int(page.locator("#scrubber").get_attribute("max")))
    for _ in range(presses):
        page.keyboard.press("PageDown")
        seen.append(position(page))
    assert len(set(seen)) == presses + 1, seen  # every press moved on
    page.keyboard.press("End")
    finished = f"backward {len(backward)}/{len(backward)}"
    assert position(page) == ("update" if update else finished)


def call_id(t, title: str, parent: str | None) -> int:
    titles = {c.id: c.title for c in t.structure.calls}
    return next(
        c.id
        for c in t.structure.calls
        if c.title == title and (titles.get(c.parent) if c.parent is not None else None) == parent
    )


def open_box(page, call: int) -> None:
    """Fit the whole graph (a big one opens zoomed to the step), then click the folded box."""
    page.click("#zoom-fit")
    before = runs(page)
    page.locator(f"#graph-view #c{call}").click()
    drawn(page, before)


def test_the_lecture_mlp_folds_by_layer_opens_a_level_at_a_time_and_steps_over_or_into(
    page, shot
) -> None:
    t = trace(run(LECTURE_MLP))
    paste(page, LECTURE_MLP)
    boxes = page.locator("#graph-view g.call.folded")
    assert boxes.count() == 15  # the parameters' 3 layers, and 3 layers for each of 4 points
    assert page.locator("#graph-view g.node.value").count() < 40  # the loss's own values
    layer = call_id(t, "Layer 1", "n(x) #1")
    open_box(page, layer)
    # one level opens: the layer's frame around its four neurons, each still folded
    assert page.locator(f"#graph-view #k{layer}").count() == 1
    neurons = [c.id for c in t.structure.calls if c.parent == layer]
    assert len(neurons) == 4
    for n in neurons:
        assert page.locator(f"#graph-view #c{n}").count() == 1
    # the URL follows the page after a short debounce
    fold = wait_for(page, "() => new URLSearchParams(location.search).get('fold')")
    assert str(layer) not in fold.split(",") and str(neurons[0]) in fold.split(",")
    open_box(page, neurons[0])
    # the neuron's own values: its weights' products, their sum and its tanh
    inside = [n for n in t.structure.nodes if n.call == neurons[0]]
    assert {n.op for n in inside} >= {"mul", "add", "tanh"}
    for n in inside:
        assert page.locator(f"#graph-view #n{n.id}").count() == 1, n.name
    shot(page, "lecture-mlp-neuron-open")

    # stepping over a folded neuron is one step; into it, one per value
    page.locator("#graph-view").focus()
    page.keyboard.press("Home")
    assert title(page) == steps(t, "forward")[0].title  # inside the open Neuron 1
    assert "in Neuron 1, Layer 1, n(x) #1" in title(page)
    over_steps = int(page.locator("#scrubber").get_attribute("max"))
    for _ in range(8):
        if "Neuron 2, folded" in title(page):
            break
        page.keyboard.press("PageDown")
    assert title(page).startswith("Forward steps 8–14 of 304 · Neuron 2, folded · in Layer 1")
    page.uncheck("#over")
    into_steps = int(page.locator("#scrubber").get_attribute("max"))
    assert into_steps > over_steps
    assert position(page) == "forward 14/304"  # still where it was
    page.check("#over")

    # the fold is in the URL (written once the page is quiet): a reload opens the same boxes
    wait_for(
        page,
        "(n) => !new URLSearchParams(location.search).get('fold').split(',').includes(n)",
        str(neurons[0]),
    )
    url = page.url
    page.goto(url)
    drawn(page, 0)
    for n in inside:
        assert page.locator(f"#graph-view #n{n.id}").count() == 1


def test_the_update_shows_each_weights_new_data_when_unfolded(page) -> None:
    t = trace(run(LECTURE_MLP))
    page.goto("/?" + urlencode({"source": LECTURE_MLP, "fold": "none"}))
    drawn(page, 0)
    assert position(page) == "update"
    (update,) = steps(t, "update")
    assert page.locator("#graph-view g.node.value.updated").count() == len(update.changes) == 41
    first = update.changes[0]
    after = t.numbers.slots[first.data]  # type: ignore[index]
    assert text_of(page, f"#graph-view #n{first.node}-data") == number(after)
    page.locator("#graph-view").focus()
    page.keyboard.press("PageUp")  # the last backward step: the data the forward pass used
    backward = steps(t, "backward")
    assert position(page) == f"backward {len(backward)}/{len(backward)}"
    assert page.locator("#graph-view g.node.value.updated").count() == 0
    assert text_of(page, f"#graph-view #n{first.node}-data") == number(t.numbers.data[first.node])


# a lecture hall's sizes: in Present mode the neuron and the README program are shown whole,
# their text at least 20 and 12 px at 720p; a phone reads 13 px; the MLP, too large for that,
# zooms to the step at 16 px at 720p and as much larger as the screen is wider (24 at 1080p)
LEAST_PX = {"lecture-neuron": 20, "micrograd-readme": 12}
WHOLE = {"lecture-neuron", "micrograd-readme"}


def least_px(preset: str, width: int) -> float:
    return LEAST_PX.get(preset, 16 * max(1, width / 1280))


@pytest.mark.parametrize("preset", ["micrograd-readme", "lecture-neuron", "lecture-mlp"])
@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_the_graph_is_readable_in_present_mode_and_on_a_phone(
    browser, base_url, shot, preset, size
) -> None:
    width, height = size
    phone = width < 600
    for scheme in ("light", "dark"):
        context = browser.new_context(
            viewport={"width": width, "height": height}, base_url=base_url, color_scheme=scheme
        )
        page = context.new_page()
        page.goto(f"/?preset={preset}")
        drawn(page, 0)
        if not phone:
            page.click("#present")
            wait_for(page, "() => document.body.classList.contains('presenting')")
        page.locator("#graph-view").focus()
        moved = "s => document.querySelector('#position').textContent !== s"
        for _ in range(2):  # from the finished picture to the first step, then the next
            before = position(page)
            page.keyboard.press("PageDown")
            wait_for(page, moved, before)
        frames(page)  # the view refitted to the step's explanation (the finished one is taller)
        measured = page.evaluate(TEXT_PX)
        least = 13 if phone else least_px(preset, width)  # Present is read from the back row
        assert measured["px"] >= least - 0.01, measured
        assert measured["inView"], "the step being explained is on screen"
        if not phone:
            assert not measured["cut"], "the step's explanation is not cut off"
            assert measured["whole"] or preset not in WHOLE, measured
        shot(page, f"readable-{preset}-{width}x{height}-{scheme}")
        context.close()


FITS = """() => {
  const e = document.querySelector('#explanation');
  const line = e.querySelector('.line');
  const px = line ? parseFloat(getComputedStyle(line).fontSize) : 0;
  return { cut: e.scrollHeight > e.clientHeight + 1, px };
}"""


def test_every_backward_step_of_the_neuron_fits_its_explanation_panel(browser, base_url) -> None:
    """The neuron's label x1*w1 + x2*w2 wraps its formulas onto more lines than the page's panel
    holds at 1280 x 720: the lines shrink to fit (a room cannot scroll), never under 12 px."""
    context = browser.new_context(viewport={"width": 1280, "height": 720}, base_url=base_url)
    page = context.new_page()
    t = trace(run(LECTURE_NEURON))
    page.goto("/?preset=lecture-neuron&phase=backward&step=0")
    drawn(page, 0)
    page.locator("#graph-view").focus()
    count = len(steps(t, "backward"))
    for step in range(count):
        assert position(page) == f"backward {step + 1}/{count}"
        measured = wait_for(page, f"() => {{ const m = ({FITS})(); return m.cut ? null : m; }}")
        assert measured["px"] >= 12, (step, measured)
        page.keyboard.press("PageDown")
    context.close()


UPDATED_BOXES_JS = """() => {
  const view = document.querySelector('#graph-view').getBoundingClientRect();
  return [...document.querySelectorAll('#graph-view g.node.call.updated')].map((g) => {
    const r = g.getBoundingClientRect();
    return { text: g.textContent.replace(/\\s+/g, ' ').trim(),
             inView: r.left >= view.left && r.right <= view.right
               && r.top >= view.top && r.bottom <= view.bottom };
  });
}"""


@pytest.mark.parametrize("theme", ["light", "dark"])
@pytest.mark.parametrize("size", [(1280, 720), (1920, 1080)], ids=["720p", "1080p"])
def test_the_update_marks_the_folded_boxes_that_hold_the_changed_weights(
    sized, size: tuple[int, int], theme: str
) -> None:
    """Issue 42, item 6: folded by layer, the MLP's 41 weights are inside the constructor's
    Layer boxes, and the update step marked nothing on the graph; now the boxes that hold a
    changed value are marked, and brought into view as the step is shown."""
    page = sized(size[0], size[1], theme)
    page.goto("/?" + urlencode({"source": LECTURE_MLP}))
    drawn(page, 0)
    page.click("#present")
    wait_for(page, "() => document.body.classList.contains('presenting')")
    page.locator("#graph-view").focus()
    page.keyboard.press("Home")
    page.keyboard.press("End")
    page.keyboard.press("PageUp")  # from the last backward step, as the clicker comes
    for _ in range(10):  # (its explanation's lines are paged first)
        if position(page) == "update":
            break
        page.keyboard.press("PageDown")
    assert position(page) == "update"
    frames(page)
    boxes = page.evaluate(UPDATED_BOXES_JS)
    assert [b["text"] for b in boxes] == [
        "Layer 1 16 values",
        "Layer 2 20 values",
        "Layer 3 5 values",
    ]  # 16 + 20 + 5: the 41 values the step changes
    assert all(b["inView"] for b in boxes), boxes
    page.screenshot(path=f"/tmp/update-boxes-{size[0]}-{theme}.png")
    page.keyboard.press("Home")  # another step: no box is marked
    frames(page)
    assert page.evaluate(UPDATED_BOXES_JS) == []
