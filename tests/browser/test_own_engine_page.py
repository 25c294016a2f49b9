"""A learner's own engine on the page, around its graph: what the program printed, and the
switch between its class Value and gradstep's (in the URL, a reload, the share links and the
embed), or the note saying which engine runs when only theirs can."""

from __future__ import annotations

from urllib.parse import urlencode

import pytest
from browser_wait import wait_for
from learner_pages import MICROGRAD, WRONG_IDS_JS, answer, source_of
from stepper_pages import paste, position, runs, title
from stepper_pages import wait_drawn as drawn

pytestmark = pytest.mark.browser


def grads(page, ids: list[int]) -> list[str]:
    return [page.locator(f"#graph-view #n{i}-grad").text_content() or "" for i in ids]


def test_micrograd_as_written_prints_steps_its_own_backward_and_switches_engines(
    page, base_url
) -> None:
    own = answer(base_url, MICROGRAD)
    backward = [s for s in own["structure"]["steps"] if s["phase"] == "backward"]
    paste(page, MICROGRAD)
    assert page.locator("#stage").get_attribute("data-engine") == "program"
    # what it printed, each line with its line number, in order
    printed = page.locator("#console li").all_inner_texts()
    assert printed == ["line 171 │ 24.7041", "line 173 │ 138.8338", "line 174 │ 645.5773"]
    assert page.locator("#console-panel").is_visible()
    # both engines can build it: the switch, on their own Value
    switch = page.locator("#engine-switch")
    assert switch.is_visible() and page.locator("#engine-note").is_hidden()
    assert switch.locator("[aria-pressed=true]").inner_text() == "your Value"
    # their backward pass, step by step, from the seed to the last _backward() call
    assert page.locator("#findings").inner_text() == (
        "Every gradient your engine computed equals the true one."
    )
    page.click("#phase-backward")
    page.locator("#graph-view").focus()
    for k, step in enumerate(backward):
        if k:
            page.keyboard.press("PageDown")
        assert position(page) == f"backward {k + 1}/{len(backward)}"
        assert title(page) == step["title"]
        assert page.locator("#explanation .line .write").count() == sum(
            1 for row in step["rows"] if row[0]["role"] == "write"
        )
        assert page.evaluate(WRONG_IDS_JS) == []
    assert page.locator("#explanation .finding").count() == 0
    assert grads(page, [0, 1]) == ["138.8338", "645.5773"]
    # gradstep's Value instead: the same numbers, gradstep's structure, the choice in the URL
    before = runs(page)
    switch.get_by_role("button", name="gradstep's Value").click()
    drawn(page, before)
    assert page.locator("#stage").get_attribute("data-engine") == "gradstep"
    assert switch.locator("[aria-pressed=true]").inner_text() == "gradstep's Value"
    assert page.locator("#findings-panel").is_hidden()
    assert grads(page, [0, 1]) == ["138.8338", "645.5773"]
    assert page.locator("#console li").count() == 3
    wait_for(page, "() => new URLSearchParams(location.search).get('engine') === 'gradstep'")
    # the share dialog's links and images carry it too
    page.click("#share")
    assert "engine=gradstep" in page.locator("#share-link").input_value()
    assert "engine=gradstep" in (page.locator("[data-download=svg]").get_attribute("href") or "")
    page.keyboard.press("Escape")
    page.reload()
    drawn(page, 0)
    assert page.locator("#stage").get_attribute("data-engine") == "gradstep"
    assert page.locator("#engine-switch [aria-pressed=true]").inner_text() == "gradstep's Value"
    before = runs(page)
    page.get_by_role("button", name="your Value").click()
    drawn(page, before)
    assert page.locator("#stage").get_attribute("data-engine") == "program"
    wait_for(page, "() => !new URLSearchParams(location.search).has('engine')")


def test_the_embed_runs_the_engine_its_url_names(page, base_url) -> None:
    for engine in ("auto", "gradstep"):
        steps = answer(base_url, MICROGRAD, engine)["structure"]["steps"]
        seed = next(s for s in steps if s["phase"] == "backward")
        query = {"source": MICROGRAD, "phase": "backward", "step": 0}
        page.goto(
            "/embed?" + urlencode({**query, **({"engine": engine} if engine != "auto" else {})})
        )
        wait_for(page, "() => document.querySelector('[data-player]').dataset.state === 'ready'")
        assert page.locator("[data-part=explanation] .step-title").inner_text() == seed["title"]


def test_a_class_of_another_name_says_which_engine_runs(page) -> None:
    paste(page, source_of("mistakes/local_sub_wrong.py"))  # its class is ValueNode
    switch = page.locator("#engine-switch")
    assert switch.is_visible() and page.locator("#engine-note").is_hidden()
    yours = switch.locator('button[data-engine="auto"]')
    assert yours.inner_text() == "your ValueNode" and yours.get_attribute("aria-pressed") == "true"
    before = runs(page)
    switch.locator('button[data-engine="gradstep"]').click()  # gradstep's Value in its place
    drawn(page, before)
    assert "your class ValueNode was left out" in page.locator("#notes").inner_text()
    assert yours.inner_text() == "your ValueNode" and yours.get_attribute("aria-pressed") == "false"
    paste(page, "a = Value(2.0)\nb = a * a\nb.backward()\n")  # gradstep's Value: nothing to say
    assert page.locator("#engine-switch").is_hidden() and page.locator("#engine-note").is_hidden()
    assert (
        page.locator("#findings-panel").is_hidden() and page.locator("#console-panel").is_hidden()
    )


def test_an_engine_that_breaks_is_said_on_the_stage_over_the_last_graph(page) -> None:
    source = source_of("mistakes/overwrite_add_wrong.py")
    paste(page, source)
    assert page.locator("#stale").is_hidden()
    broken = source.replace("def backward(self):", "def backward(self):\n        n = missing + 1")
    before, errors = runs(page), int(page.locator("#error").get_attribute("data-runs") or 0)
    editor = page.locator("#source")
    editor.fill(broken)
    editor.press("Control+Enter")
    wait_for(page, "(n) => Number(document.getElementById('error').dataset.runs ?? 0) > n", errors)
    stale = page.locator("#stale")
    assert stale.is_visible()  # on the stage, where the room looks, not only under the editor
    line = broken.splitlines().index("        n = missing + 1") + 1
    said = f"Not drawn: line {line}: NameError: name 'missing' is not defined"  # CPython's
    assert stale.inner_text().startswith(said)
    assert "last program that ran" in stale.inner_text()
    assert "stale-graph" in (page.locator("#graph-wrap").get_attribute("class") or "")
    editor.fill(source)  # fixed: the graph is this program's again
    editor.press("Control+Enter")
    drawn(page, before)
    wait_for(page, "() => document.getElementById('stale').hidden")


def test_a_learners_backward_pass_is_stepped_through_even_inside_a_folded_call(page) -> None:
    # their steps are their code's, in their order: never summed up as a folded call's
    paste(page, source_of("text2.py"))
    page.locator("#graph-view").focus()
    page.click("#phase-backward")
    seen = set()
    for _ in range(6):
        seen.add(title(page))
        assert "folded" not in title(page) and title(page).startswith("Backward step")
        page.keyboard.press("PageDown")
    assert len(seen) == 6
