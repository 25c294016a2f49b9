"""Where a learner's own engine goes wrong, on the page: the findings panel, the ≠ on a node once
its wrong grad is final (as the server's own pictures mark it, at every step), the sentence in
the step's explanation and its narration, the line marked in the editor, the inspector, predict
mode, and the finding read from the back of a room in Present mode."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from pathlib import Path
from urllib.parse import urlencode

import httpx
import pytest
from browser_wait import frames, wait_for
from learner_pages import WRONG_IDS_JS, answer, mistake, source_of
from stepper_pages import paste, title

from app.numbers import format_number, relation_text
from engine.notation import Relation

pytestmark = pytest.mark.browser

SVG = "{http://www.w3.org/2000/svg}"
SHOTS = Path("/tmp/shots42")


def server_wrong(base_url: str, source: str, phase: str, step: int) -> list[str]:
    """The nodes the server's picture of a step marks wrong (app/draw/texts.py)."""
    query = urlencode({"source": source, "phase": phase, "step": step})
    root = ET.fromstring(httpx.get(f"{base_url}/api/graph.svg?{query}").content)
    return [
        g.get("id") or ""
        for g in root.iter(f"{SVG}g")
        if {"value", "wrong"} <= set((g.get("class") or "").split())
    ]


@pytest.mark.parametrize("name", ["overwrite_add", "order_bfs", "local_tanh"])
def test_a_mistake_is_found_marked_explained_and_pointed_at(page, base_url, name) -> None:
    m = mistake(name)
    source = source_of(m["wrong"])
    own = answer(base_url, source)
    structure, findings = own["structure"], own["numbers"]["findings"]
    first = findings[0]
    paste(page, source)
    # the panel lists every wrong gradient, the first wrong write first, at the mistake's line
    items = page.locator("#findings .finding-item")
    listed = items.evaluate_all("(es) => es.map((e) => Number(e.dataset.finding))")
    names = [structure["nodes"][findings[i]["node"]]["name"] for i in listed]
    assert names[0] == structure["nodes"][first["node"]]["name"]
    assert set(m["differs"]) <= set(names)
    assert items.first.locator(".finding-where").inner_text() == f"line {m['line']}"
    assert items.first.get_attribute("aria-current") == "true"
    # the editor marks that line (the program shown is the one in the editor)
    assert page.locator("#gutter span").nth(m["line"] - 1).get_attribute("class") == "finding-line"
    assert page.locator("#highlight mark.finding-span").count() == 1
    # at the end each wrong grad is final, so each of its nodes is marked, as the server's picture
    wrong = sorted(f"n{f['node']}" for f in findings)
    assert sorted(page.evaluate(WRONG_IDS_JS)) == wrong
    assert page.locator(f"#graph-view #n{first['node']} .wrong-mark").count() == 1
    # every step marks what the server marks: a wrong grad once it is final, never before
    page.locator("#graph-view").focus()
    page.keyboard.press("Home")
    count = len(structure["steps"])
    for at, step in enumerate(structure["steps"]):
        phase_start = next(
            i for i, s in enumerate(structure["steps"]) if s["phase"] == step["phase"]
        )
        shown = sorted(page.evaluate(WRONG_IDS_JS))
        assert shown == sorted(server_wrong(base_url, source, step["phase"], at - phase_start)), at
        if at < count - 1:
            page.keyboard.press("PageDown")
    # activating the first finding goes to its step, whose explanation says it, for all to hear
    items.first.click()
    here = structure["steps"][first["step"]]
    assert title(page) == here["title"]
    numbers, plain = first["numbers"], "n" * len(first["numbers"])
    sentence = "".join(
        p if isinstance(p, str)
        else relation_text(Relation(**p), plain, numbers, 4) if isinstance(p, dict)
        else format_number(numbers[p])
        for p in first["text"]
    )  # fmt: skip
    assert page.locator("#explanation .finding").first.inner_text() == sentence
    live = "(s) => document.querySelector('[data-part=live]').textContent.includes(s)"
    wait_for(page, live, sentence)  # the narration says it too
    node = page.locator(f"#graph-view #n{first['node']}")
    assert "selected" in (node.get_attribute("class") or "")
    # the inspector: their grad, the true one, and the finding's sentence
    terms = page.locator("#inspector dt").all_inner_texts()
    shown = dict(zip(terms, page.locator("#inspector dd").all_inner_texts(), strict=True))
    n = first["node"]
    assert shown["their grad"] == format_number(own["numbers"]["grad"][n])
    assert shown["true grad"] == format_number(own["numbers"]["true_grad"][n])
    assert page.locator("#inspector .finding").inner_text() == sentence


def test_a_finding_is_activated_by_keyboard_and_points_the_editor_at_its_line(
    page, base_url
) -> None:
    source = source_of(mistake("order_bfs")["wrong"])
    findings = answer(base_url, source)["numbers"]["findings"]
    paste(page, source)
    page.locator("#graph-view").focus()
    page.keyboard.press("Home")  # the editor follows the first forward step, far from the line
    frames(page, 2)
    line = findings[1]["span"]["line"]
    row = page.locator("#gutter span").nth(line - 1)
    assert not in_view(page, row)
    second = page.locator('#findings [data-finding="1"]')
    second.focus()
    page.keyboard.press("Enter")
    assert second.get_attribute("aria-current") == "true"
    assert (
        title(page) == answer(base_url, source)["structure"]["steps"][findings[1]["step"]]["title"]
    )
    node = findings[1]["node"]
    assert "selected" in (page.locator(f"#graph-view #n{node}").get_attribute("class") or "")
    assert row.get_attribute("class") == "finding-line"
    frames(page, 2)
    assert in_view(page, row)  # scrolled to, wherever the step's own span is
    # an edit makes the marks stale: the finding's line is no longer marked
    page.locator("#source").focus()
    page.keyboard.press("End")
    page.keyboard.type(" ")
    assert page.locator("#gutter .finding-line").count() == 0


def in_view(page, row) -> bool:
    """Whether a gutter row is inside the editor's visible box."""
    box, editor = row.bounding_box(), page.locator("#source").bounding_box()
    return bool(box and editor and editor["y"] <= box["y"] <= editor["y"] + editor["height"] - 10)


def test_the_right_twin_has_no_finding(page) -> None:
    paste(page, source_of(mistake("overwrite_add")["right"]))
    assert page.locator("#findings").inner_text() == (
        "Every gradient your engine computed equals the true one."
    )
    assert page.evaluate(WRONG_IDS_JS) == []
    assert page.locator("#gutter .finding-line").count() == 0
    assert page.locator("#legend-wrong").is_hidden()


def test_the_gradients_a_mistake_made_wrong_are_listed_under_it(page, base_url) -> None:
    # no seed: one mistake (the output's gradient), every other wrong gradient follows from it
    source = source_of(mistake("seed_missing")["wrong"])
    findings = answer(base_url, source)["numbers"]["findings"]
    paste(page, source)
    hint = page.locator("#findings .hint").inner_text()
    assert hint == f"{len(findings)} gradients differ from the true ones, all from one mistake."
    top = page.locator("#findings .findings-list > li > .finding-item")
    assert top.count() == 1 and top.get_attribute("data-finding") == "0"
    under = page.locator("#findings .finding-consequences .finding-item")
    assert under.count() == len(findings) - 1
    assert under.locator(".finding-text").count() == 0  # one line each: the grads, the line
    # a consequence still goes to its own step
    under.first.click()
    step = findings[int(under.first.get_attribute("data-finding") or "")]["step"]
    assert title(page) == answer(base_url, source)["structure"]["steps"][step]["title"]


def test_predict_mode_keeps_the_findings_until_every_step_is_answered(page) -> None:
    paste(page, source_of(mistake("overwrite_add")["wrong"]))
    page.click("#predict")
    assert page.locator("#findings .finding-item").count() == 0
    assert page.locator("#findings").inner_text().startswith("Predict mode")
    assert page.locator("#gutter .finding-line").count() == 0
    assert page.locator("#legend-wrong").is_hidden()
    for _ in range(2):  # the seed, then b._backward(): "just show me" each
        page.click("#predict-reveal")
        if page.locator("#next").is_enabled():
            page.click("#next")
    wait_for(page, "() => document.querySelectorAll('#findings .finding-item').length === 1")
    assert page.locator("#gutter .finding-line").count() == 1


@pytest.mark.parametrize("size", [(1280, 720), (1920, 1080)])
def test_the_finding_reads_on_a_projector(browser, base_url, shot, size) -> None:
    """Present mode shows the graph and the explanation alone: the sentence is there, whole, in
    type the back row reads (12 px of a 720p picture and up), and the wrong node's mark too."""
    context = browser.new_context(
        viewport=dict(zip(("width", "height"), size, strict=True)), base_url=base_url
    )
    page = context.new_page()
    source = source_of(mistake("overwrite_add")["wrong"])
    paste(page, source)
    page.click("#present")
    frames(page, 3)
    box = page.locator("#explanation")
    assert page.locator("#explanation .finding").is_visible()
    fits = box.evaluate("(e) => e.scrollHeight <= e.clientHeight + 1")
    px = page.locator("#explanation .finding").evaluate(
        "(e) => parseFloat(getComputedStyle(e).fontSize)"
    )
    assert fits and px >= 12 * size[1] / 720, (fits, px)
    assert page.locator("#graph-view #n0.wrong .wrong-mark").is_visible()
    shot(page, f"own-engine-present-{size[0]}x{size[1]}")
    context.close()


# the editor's code box, the finding's mark in it, the findings panel's top, and the editor's
# edges: how far its longest line goes on past the box, and the shade on each side (app.css)
IN_SIGHT_JS = """() => {
  const textarea = document.getElementById('source');
  const box = (r) => [r.left, r.top, r.right, r.bottom];
  const mark = document.querySelector('#highlight mark.finding-span');
  const shade = (side) => Number(getComputedStyle(textarea.parentElement, side).opacity);
  return {
    code: box(textarea.getBoundingClientRect()),
    mark: box(mark.getBoundingClientRect()),
    panel: document.getElementById('findings-panel').getBoundingClientRect().top,
    height: innerHeight,
    more_left: textarea.scrollLeft > 1,
    more_right: textarea.scrollLeft + textarea.clientWidth < textarea.scrollWidth - 1,
    shade_left: shade('::before'),
    shade_right: shade('::after'),
    scrolls: getComputedStyle(textarea).overflowX,
  };
}"""


@pytest.mark.parametrize("theme", ["light", "dark"])
@pytest.mark.parametrize("size", [(1280, 720), (1920, 1080), (390, 844)], ids=str)
@pytest.mark.parametrize("name", ["overwrite_add", "overwrite_mul", "local_tanh"])
def test_the_findings_and_the_wrong_line_are_in_sight(sized, name, size, theme) -> None:
    """Run with a planted mistake: on a desktop the findings panel starts on the first screen
    (not below the examples), and the editor shows the mistake's code whole (scrolled sideways
    to it when its line is longer than the editor) or, longer than the editor itself, from its
    start; a line cut at an edge is never cut silently: a shade on that side says so."""
    page = sized(*size, theme)
    m = mistake(name)
    paste(page, source_of(m["wrong"]))
    frames(page, 3)
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"own-findings-{name}-{size[0]}x{size[1]}-{theme}.png"))
    seen = page.evaluate(IN_SIGHT_JS)
    code, mark = seen["code"], seen["mark"]
    if size[0] > 900:  # a phone shows the stage first and the panels under it, by design
        assert 0 <= seen["panel"] <= seen["height"] - 80, seen
    assert code[1] <= mark[1] and mark[3] <= code[3], seen  # its line in sight
    assert code[0] <= mark[0] + 1, seen  # its start in sight
    if mark[2] - mark[0] <= code[2] - code[0] - 20:
        assert mark[2] <= code[2] + 1, seen  # whole when it fits
    assert seen["scrolls"] in ("auto", "scroll"), seen
    assert seen["shade_left"] == (1 if seen["more_left"] else 0), seen
    assert seen["shade_right"] == (1 if seen["more_right"] else 0), seen
