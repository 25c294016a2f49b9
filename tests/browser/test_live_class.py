"""A live class in Chromium (issue 29's front end): a teacher's page starts a class and steps
with a clicker; three students' pages (one a 390 × 844 phone) follow, answer a question twice
and see the histograms the server counted; a student whose network drops comes back on the
teacher's step; pause freezes a student's keys; the end reaches every student."""

from __future__ import annotations

import json
import os
import re
import urllib.parse
from collections.abc import Iterator
from pathlib import Path

import pytest
import segno
from browser_wait import frames, wait_for
from qr_codes import decode_qr

pytestmark = pytest.mark.browser

PRODUCT = "a = Value(2.0)\nb = Value(-3.0)\nc = a * b + b\nc.backward()\n"  # 2 fwd, 3 bwd steps
QUERY = "?" + urllib.parse.urlencode({"source": PRODUCT, "phase": "forward", "step": "0"})
SHOTS = Path(os.environ.get("GRADSTEP_CLASS_SHOTS", "/tmp/classfront-shots"))
TRUE_A_GRAD = "\u22123.0000"  # a.grad = b = -3, as the page writes it
AXE = Path(__file__).resolve().parents[2] / ".cache" / "npm" / "node_modules" / "axe-core"
AXE_SERIOUS_JS = """async () => (await axe.run(document)).violations
  .filter((v) => v.impact === 'serious' || v.impact === 'critical')
  .map((v) => `${v.id} (${v.impact}): ${v.nodes.length} × ${v.nodes[0].target}`)"""


def text(page, selector: str) -> str:
    return page.locator(selector).inner_text().strip()


def wait_text(page, selector: str, wanted: str, timeout: float = 20) -> None:
    wait_for(
        page,
        "([s, w]) => (document.querySelector(s)?.textContent ?? '').includes(w)",
        [selector, wanted],
        timeout,
    )


def at_step(page, wanted: str, timeout: float = 20) -> None:
    wait_text(page, '[data-part="position"]', wanted, timeout)


def start_class(teacher) -> str:
    teacher.goto(f"/{QUERY}")
    wait_for(teacher, "() => Number(document.querySelector('#graph-view').dataset.runs || 0) > 0")
    teacher.click("#class-start")
    wait_for(teacher, "() => !document.getElementById('class-bar').hidden")
    code = teacher.evaluate("JSON.parse(sessionStorage.getItem('gradstep-teacher')).code")
    assert len(code) == 10
    assert code in text(teacher, "#class-code").replace(" ", "")
    wait_for(teacher, "() => document.getElementById('class-qr').naturalWidth > 0")
    return code


def join_at_the_first_backward_step(teacher, student, code: str) -> None:
    """The student joins on the class's first step; the clicker takes both to PRODUCT's first
    backward step, which computes c.grad."""
    student.goto(f"/c/{code}")
    at_step(student, "forward 1/2")
    teacher.focus("#graph-view")
    for _ in range(2):
        teacher.keyboard.press("PageDown")
    at_step(student, "backward 1/3")


@pytest.fixture
def contexts(browser, base_url) -> Iterator[list]:
    """Browser contexts (each its own storage and network), closed after the test; each page
    fails the test on a script error."""
    made: list = []
    errors: list[str] = []

    def new(**options):
        context = browser.new_context(base_url=base_url, **options)
        context.on("weberror", lambda e: errors.append(str(e.error)))
        made.append(context)
        return context.new_page()

    yield new  # type: ignore[misc]
    for context in made:
        context.close()
    assert errors == [], f"script errors: {errors}"


def answer(student, value: str) -> None:
    wait_for(student, "() => !document.getElementById('question').hidden")
    student.fill("#answer-value", value)
    student.click("#question button[type=submit]")
    wait_for(student, "() => document.getElementById('question').dataset.sent === 'counted'")


def test_a_class_follows_answers_reconnects_pauses_and_ends(contexts) -> None:
    teacher = contexts(viewport={"width": 1440, "height": 900})
    code = start_class(teacher)
    students = [
        contexts(viewport={"width": 1000, "height": 700}),
        contexts(viewport={"width": 1000, "height": 700}),
        contexts(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True),
    ]
    for student in students:
        student.goto(f"/c/{code.upper()}")  # as read off a slide: capitals are the same code
        wait_for(student, "() => document.getElementById('student').dataset.state === 'ready'")
        at_step(student, "forward 1/2")
        assert text(student, "#class-state") == "Following the teacher"

    # the clicker steps the teacher; every student follows
    teacher.focus("#graph-view")
    for wanted in ("forward 2/2", "backward 1/3", "backward 2/3", "backward 3/3"):
        teacher.keyboard.press("PageDown")
        at_step(teacher, wanted)
        for student in students:
            at_step(student, wanted)
    # a student's keys do not step while following
    students[0].keyboard.press("ArrowLeft")
    frames(students[0])
    assert text(students[0], '[data-part="position"]') == "backward 3/3"

    # the step computes a.grad and b.grad: ask for a.grad
    teacher.select_option("#class-node", label="a.grad")
    teacher.click("#class-ask")
    for student in students:
        wait_text(student, "#question-text", "What is a.grad?")
    for student, value in zip(students, ["-3", "−3", "2"], strict=True):
        answer(student, value)
    wait_text(teacher, "#class-count", "3 answers")
    # a second answer from the same student is not counted: the first counts
    students[0].evaluate("document.getElementById('question').dataset.sent = ''")
    students[0].evaluate("document.querySelectorAll('#question input, #question button')"
                         ".forEach((e) => { e.disabled = false; })")  # fmt: skip
    students[0].fill("#answer-value", "5")
    students[0].click("#question button[type=submit]")
    wait_text(students[0], "#answer-state", "your first answer counts")

    teacher.click("#class-reveal")
    for page, results in [(teacher, "#class-results-body"), *((s, "#results") for s in students)]:
        wait_for(page, "(s) => document.querySelectorAll(`${s} .histogram`).length === 1", results)
        marked = page.locator(f"{results} .hist-true")
        assert marked.count() == 1 and marked.get_attribute("data-count") == "2"
        assert TRUE_A_GRAD in text(page, f"{results} .hist-truth")
        assert page.locator(f"{results} .histogram").get_attribute("data-correct") == "2"

    # Ask again takes Reveal's place, and the focus with it (the bar's keys go on from there)
    assert teacher.is_hidden("#class-reveal")
    assert teacher.evaluate("document.activeElement.id") == "class-again"

    # Peer Instruction's second vote: both histograms side by side
    teacher.click("#class-again")
    for student, value in zip(students, ["-3", "-3", "-3"], strict=True):
        wait_text(student, "#question-text", "Vote 2: What is a.grad?")
        answer(student, value)
    wait_text(teacher, "#class-count", "3 answers")
    teacher.click("#class-reveal")
    for page, results in [(teacher, "#class-results-body"), *((s, "#results") for s in students)]:
        wait_for(page, "(s) => document.querySelectorAll(`${s} .histogram`).length === 2", results)
        corrects = page.eval_on_selector_all(
            f"{results} .histogram", "(hs) => hs.map((h) => h.dataset.correct)"
        )
        assert corrects == ["2", "3"]
    boxes = teacher.eval_on_selector_all(
        "#class-results-body .histogram", "(hs) => hs.map((h) => h.getBoundingClientRect().top)"
    )
    assert boxes[0] == boxes[1]  # side by side

    # a student's network drops while the teacher steps twice: back online, the current step
    dropped = students[2]
    dropped.context.set_offline(True)
    teacher.focus("#graph-view")
    teacher.keyboard.press("PageUp")
    teacher.keyboard.press("PageUp")
    at_step(teacher, "backward 1/3")
    at_step(students[0], "backward 1/3")
    assert text(dropped, '[data-part="position"]') == "backward 3/3"  # it heard nothing
    dropped.context.set_offline(False)
    at_step(dropped, "backward 1/3", timeout=30)
    assert text(dropped, "#class-state") == "Following the teacher"

    # roam: students step on their own, back over what the class has seen but not past its
    # step (issue 42, item 4) unless the teacher lets them go anywhere; pause freezes their
    # keys; follow me snaps them back
    teacher.click("#class-roam")
    wait_text(students[0], "#class-state", "Explore up to the class's step")
    students[0].keyboard.press("ArrowRight")
    frames(students[0])
    assert text(students[0], '[data-part="position"]') == "backward 1/3"  # the class's step
    students[0].keyboard.press("ArrowLeft")
    at_step(students[0], "forward 2/2")
    teacher.select_option("#class-roam-to", "anywhere")
    wait_text(students[0], "#class-state", "Explore: step on your own")
    students[0].keyboard.press("ArrowRight")
    at_step(students[0], "backward 1/3")
    students[0].keyboard.press("ArrowRight")
    at_step(students[0], "backward 2/3")
    teacher.click("#class-pause")
    wait_text(students[0], "#class-state", "Paused")
    students[0].keyboard.press("ArrowRight")
    students[0].keyboard.press("PageDown")
    frames(students[0])
    assert text(students[0], '[data-part="position"]') == "backward 2/3"
    assert students[0].locator("#class-state").is_visible()
    teacher.click("#class-pause")  # resume
    wait_text(students[0], "#class-state", "Explore")
    students[0].keyboard.press("ArrowRight")
    at_step(students[0], "backward 3/3")
    teacher.click("#class-roam")  # follow me
    at_step(students[0], "backward 1/3")
    wait_text(students[0], "#class-state", "Following the teacher")

    # the answers as CSV, then the end
    with teacher.expect_download() as download:
        teacher.click("#class-csv")
    rows = Path(download.value.path()).read_text("utf-8").splitlines()
    assert rows[0].startswith("question,phase,step,node,name,round") and len(rows) == 7
    teacher.click("#class-end")
    teacher.click("#class-end")  # twice: a stray press does not end a class
    wait_for(teacher, "() => document.getElementById('class-bar').hidden")
    for student in students:
        wait_text(student, "#class-state", "The class has ended")


def test_the_teachers_link_resumes_the_class_as_teacher(contexts) -> None:
    teacher = contexts(viewport={"width": 1280, "height": 720})
    code = start_class(teacher)
    key = teacher.evaluate("JSON.parse(sessionStorage.getItem('gradstep-teacher')).key")
    teacher.focus("#graph-view")
    teacher.keyboard.press("PageDown")
    at_step(teacher, "forward 2/2")
    # another tab (no sessionStorage) opens the teacher's link: it is the teacher's page
    other = contexts(viewport={"width": 1280, "height": 720})
    other.goto(f"/c/{code}#key={key}")
    wait_for(other, "() => !document.getElementById('class-bar').hidden")
    at_step(other, "forward 2/2")
    assert "key" not in other.url and f"class={code}" in other.url
    student = contexts(viewport={"width": 390, "height": 844})
    student.goto(f"/c/{code}")
    at_step(student, "forward 2/2")
    other.focus("#graph-view")
    other.keyboard.press("PageDown")
    at_step(student, "backward 1/3")


SMALLEST_TEXT_JS = """(s) => Math.min(...[...document.querySelectorAll(s)]
  .filter((e) => e.getClientRects().length && e.textContent.trim())
  .map((e) => parseFloat(getComputedStyle(e).fontSize)))"""


def test_the_projected_code_and_histogram_read_from_the_back(contexts, base_url) -> None:
    """In Present mode the class's QR code has 10 px a module at 720p and 15 at 1080p (as the
    Share dialog's, docs/classroom.md) and zbar reads the student's link off the screen; the
    histogram's text is no smaller than Present mode's own, and the whole of it is on screen."""
    teacher = contexts(viewport={"width": 1280, "height": 720})
    code = start_class(teacher)
    teacher.click("#present")
    wait_for(teacher, "() => document.body.classList.contains('presenting')")
    link = f"{base_url}/c/{code}"
    modules = segno.make(link, error="m").symbol_size(scale=1, border=4)[0]
    for width, height in ((1280, 720), (1920, 1080)):
        teacher.set_viewport_size({"width": width, "height": height})
        frames(teacher, 3)
        qr = teacher.locator("#class-qr")
        box = qr.bounding_box()
        assert box and box["width"] / modules >= height / 72, (width, box)
        assert box["y"] + box["height"] <= height, "the code is cut off"
        graph = teacher.locator("#graph-view").bounding_box()
        assert graph and graph["x"] + graph["width"] <= box["x"], "the code covers the graph"
        assert decode_qr(qr.screenshot()) == link

    student = contexts(viewport={"width": 390, "height": 844})
    join_at_the_first_backward_step(teacher, student, code)
    teacher.keyboard.press("a")  # A asks: the step computes c.grad
    answer(student, "1")
    wait_text(teacher, "#class-asking-count", "1 answer")
    teacher.keyboard.press("r")  # R reveals
    wait_for(teacher, "() => document.querySelector('#class-results-body .histogram')")
    for width, height in ((1280, 720), (1920, 1080)):
        teacher.set_viewport_size({"width": width, "height": height})
        frames(teacher, 3)
        body = teacher.evaluate("parseFloat(getComputedStyle(document.body).fontSize)")
        steps = teacher.evaluate(SMALLEST_TEXT_JS, ".stepper button")
        smallest = teacher.evaluate(SMALLEST_TEXT_JS, "#class-results-body *")
        assert smallest >= min(steps, 0.75 * body), (width, smallest, steps, body)
        shown = teacher.locator("#class-results-body .histogram").bounding_box()
        assert shown and shown["y"] + shown["height"] <= height and shown["width"] > width / 2
        SHOTS.mkdir(parents=True, exist_ok=True)  # for people to look at
        teacher.screenshot(path=str(SHOTS / f"test-teacher-{width}x{height}-revealed.png"))


@pytest.mark.parametrize("theme", ["light", "dark"])
def test_the_class_pages_have_no_serious_accessibility_violation(
    browser, base_url, contexts, theme: str
) -> None:
    if not (AXE / "axe.min.js").is_file():
        pytest.fail(f"axe-core is not installed at {AXE} (scripts/test.sh installs it)")
    teacher = contexts(viewport={"width": 1280, "height": 720}, bypass_csp=True)
    teacher.emulate_media(color_scheme=theme)
    code = start_class(teacher)
    context = browser.new_context(
        base_url=base_url, bypass_csp=True, viewport={"width": 390, "height": 844}
    )
    try:
        student = context.new_page()
        student.emulate_media(color_scheme=theme)
        join_at_the_first_backward_step(teacher, student, code)
        teacher.select_option("#class-kind", "sign")
        teacher.click("#class-ask")
        wait_for(student, "() => !document.getElementById('answer-sign').hidden")
        student.click('[data-sign="+"]')
        wait_for(student, "() => document.getElementById('question').dataset.sent === 'counted'")
        teacher.click("#class-reveal")
        wait_for(student, "() => document.querySelector('#results .hist-sign')")
        assert student.locator("#results .hist-true .hist-label").inner_text() == "+"
        wait_for(teacher, "() => document.querySelector('#class-results-body .hist-sign')")
        for page in (student, teacher):  # the teacher's page with the class's bar and answers
            page.add_script_tag(path=str(AXE / "axe.min.js"))
            violations = page.evaluate(AXE_SERIOUS_JS)
            assert violations == [], page.url
            assert page.locator("h1").count() == 1
    finally:
        context.close()


STUDENT_DATA_JS = """() => [...document.querySelectorAll(
  '[data-part="graph"] g.node.value [id$="-data"]')].map((t) => t.textContent)"""


def test_a_value_and_a_new_program_reach_the_students(contexts) -> None:
    teacher = contexts(viewport={"width": 1440, "height": 900})
    code = start_class(teacher)
    student = contexts(viewport={"width": 390, "height": 844})
    student.goto(f"/c/{code}")
    at_step(student, "forward 1/2")
    assert "2.0000" in student.evaluate(STUDENT_DATA_JS)
    # the teacher types another value for a: the students' graph is drawn with it
    teacher.fill('#inputs input[type=number][data-label="a"]', "5")
    wait_for(student, f"() => ({STUDENT_DATA_JS})().includes('5.0000')")
    at_step(student, "forward 1/2")
    # another program, run: the students are sent it
    teacher.evaluate(
        """() => { const s = document.getElementById('source');
                   s.value = 'x = Value(4.0)\\ny = x * x\\ny.backward()\\n';
                   s.dispatchEvent(new Event('input', { bubbles: true })); }"""
    )
    teacher.click("#run")
    wait_for(student, f"() => ({STUDENT_DATA_JS})().includes('16.0000')")
    # a run program opens on its finished picture (every grad), but a class takes it from its
    # first step, as a new class does (issue 42, item 2)
    at_step(teacher, "forward 1/1")
    at_step(student, "forward 1/1")
    teacher.focus("#graph-view")
    teacher.keyboard.press("End")
    shown = text(teacher, "#position")
    assert shown.startswith("backward")
    at_step(student, shown)
    # the same program run again, and Page Up past the first step (the finished picture): the
    # class stays at the first step
    teacher.click("#run")
    at_step(teacher, "forward 1/1")
    at_step(student, "forward 1/1")
    teacher.focus("#graph-view")
    teacher.keyboard.press("PageUp")
    frames(teacher)
    assert text(teacher, "#position") == "forward 1/1"
    frames(student)
    assert text(student, '[data-part="position"]') == "forward 1/1"


TRAINING = """w = Value(0.3)
for k in range(3):
    loss = (w * 2.0 - 1.0) ** 2
    loss.backward()
    w.data -= 0.1 * w.grad
    w.grad = 0.0
"""  # three iterations: w * 2.0 is 0.6, 0.92 and 0.984 in them
FOLDED_JS = """(part) => [...document.querySelectorAll(`${part} g.call.folded`)]
  .map((g) => g.id).sort().join(',')"""


def start_class_on(teacher, source: str) -> str:
    teacher.goto("/?" + urllib.parse.urlencode({"source": source}))
    wait_for(teacher, "() => Number(document.querySelector('#graph-view').dataset.runs || 0) > 0")
    teacher.click("#class-start")
    wait_for(teacher, "() => !document.getElementById('class-bar').hidden")
    return teacher.evaluate("JSON.parse(sessionStorage.getItem('gradstep-teacher')).code")


def test_an_opened_fold_and_another_iteration_reach_the_students(contexts) -> None:
    from app.lecture import LECTURE_MLP

    # the lecture's MLP opens folded by layer: the student's graph has the teacher's boxes
    teacher = contexts(viewport={"width": 1440, "height": 900})
    code = start_class_on(teacher, LECTURE_MLP)
    student = contexts(viewport={"width": 390, "height": 844})
    student.goto(f"/c/{code}")
    wait_for(student, "() => document.getElementById('student').dataset.state === 'ready'")
    boxes = teacher.evaluate(FOLDED_JS, "#graph-view")
    assert boxes and student.evaluate(FOLDED_JS, '[data-part="graph"]') == boxes
    # the teacher opens one: the student's graph is drawn with it open
    teacher.click("#zoom-fit")  # (a click Playwright refuses if the class's QR panel covers it)
    runs = int(teacher.locator("#graph-view").get_attribute("data-runs"))
    first = boxes.split(",")[0]
    teacher.locator(f"#graph-view #{first}").click()
    wait_for(teacher, f"() => Number(document.querySelector('#graph-view').dataset.runs) > {runs}")
    opened = teacher.evaluate(FOLDED_JS, "#graph-view")
    assert first not in opened.split(",")
    wait_for(student, f"() => ({FOLDED_JS})('[data-part=\"graph\"]') === {opened!r}")

    # a training loop: the teacher moves to the last iteration, and the student's numbers are its
    teacher.evaluate(
        """(src) => { const s = document.getElementById('source');
                      s.value = src; s.dispatchEvent(new Event('input', { bubbles: true })); }""",
        TRAINING,
    )
    teacher.click("#run")
    wait_for(student, f"() => ({STUDENT_DATA_JS})().includes('0.6000')")  # the first iteration
    scrubber = teacher.locator('[data-iterations="scrubber"]')
    scrubber.evaluate("(el) => { el.value = '2'; el.dispatchEvent(new Event('change')); }")
    wait_for(student, f"() => ({STUDENT_DATA_JS})().includes('0.9840')")
    assert "0.6000" not in student.evaluate(STUDENT_DATA_JS)


UNBROKEN_JS = """() => {
  const panel = document.querySelector('#stage [data-part="explanation"]');
  const cells = [...panel.querySelectorAll('.line > span')];
  const line = parseFloat(getComputedStyle(cells[0]).lineHeight);
  const broken = cells.filter((c) => c.offsetHeight > 1.5 * line).map((c) => c.textContent);
  return { cells: cells.length, broken, hidden: panel.scrollHeight > panel.clientHeight + 1 };
}"""


def test_the_explanation_beside_the_classs_qr_code_breaks_no_formula(contexts) -> None:
    """Projected at 720p with the class's QR code beside it, the step's explanation is narrow:
    its lines are set smaller rather than broken mid-formula or cut off."""
    from app.lecture import LECTURE_NEURON

    teacher = contexts(viewport={"width": 1280, "height": 720})
    teacher.goto("/?" + urllib.parse.urlencode({"source": LECTURE_NEURON}))
    wait_for(teacher, "() => Number(document.querySelector('#graph-view').dataset.runs || 0) > 0")
    teacher.click("#present")
    teacher.click("#present-class")
    wait_for(teacher, "() => document.body.classList.contains('class-qr-on')")
    at_step(teacher, "forward 1/")  # a class begins at the first step
    teacher.focus("#graph-view")
    teacher.keyboard.press("End")  # the last backward step: two grads
    at_step(teacher, "backward 6/6")
    frames(teacher)
    unbroken = f"() => {{ const s = ({UNBROKEN_JS})(); return s.broken.length ? null : s; }}"
    shown = wait_for(teacher, unbroken)
    assert shown["cells"] == 8 and not shown["hidden"], shown  # two grads: a rule, its numbers


def test_a_student_refused_as_busy_draws_the_graph_when_the_server_has_room(contexts) -> None:
    """Past the page's own retries, a busy server's refusal is shown and the graph is asked for
    again by itself: the student does not wait for the teacher's next step."""
    teacher = contexts(viewport={"width": 1440, "height": 900})
    code = start_class(teacher)
    student = contexts(viewport={"width": 390, "height": 844})
    refused: list[int] = []

    def busy_four_times(route) -> None:  # the first try and the page's 3 retries
        if len(refused) < 4:
            refused.append(1)
            body = '{"error": {"message": "The server is busy.", "kind": "busy"}}'
            route.fulfill(status=503, headers={"Retry-After": "1"}, body=body,
                          content_type="application/json")  # fmt: skip
        else:
            route.continue_()

    student.route("**/api/graph", busy_four_times)
    student.goto(f"/c/{code}")
    wait_for(student, "() => !document.getElementById('class-error').hidden")
    assert "busy" in text(student, "#class-error")
    wait_for(student, "() => document.getElementById('student').dataset.state === 'ready'")
    at_step(student, "forward 1/2")
    assert student.is_hidden("#class-error") and len(refused) == 4


@pytest.mark.parametrize("theme", ["light", "dark"])
def test_a_class_the_server_lost_is_said_to_be_lost_not_mistyped(contexts, theme: str) -> None:
    """Issue 41, item 8: a Redis restart without persistence loses the class without a `closed`
    event. The student's stream breaks, its reconnection is refused (404), and the page, which
    had joined the class, says the class is no longer on the server, not that the code is
    mistyped; its keys stop asking for it."""
    teacher = contexts(viewport={"width": 1440, "height": 900})
    code = start_class(teacher)
    student = contexts(viewport={"width": 390, "height": 844}, color_scheme=theme)
    student.goto(f"/c/{code}")
    at_step(student, "forward 1/2")
    message = f"there is no class {code}: it has closed, or expired, or the code is mistyped"
    body = json.dumps({"error": {"message": message, "kind": "not_found"}})
    asked: list[str] = []

    def lost(route) -> None:  # the server as it is after the restart
        asked.append(route.request.url)
        route.fulfill(status=404, body=body, content_type="application/json")

    student.route(f"**/api/classes/{code}**", lost)
    student.context.set_offline(True)  # the stream breaks as the server restarts
    student.context.set_offline(False)
    wait_for(student, "() => !document.getElementById('class-error').hidden", timeout=30)
    shown = text(student, "#class-error")
    assert shown.startswith("This class is no longer on the server")
    assert "mistyped" not in shown
    assert student.is_hidden("#nickname")  # nothing more is sent to a class that is gone
    SHOTS.mkdir(parents=True, exist_ok=True)
    student.screenshot(path=str(SHOTS / f"class-lost-390-{theme}.png"))
    frames(student, 30)
    settled = len(asked)
    student.wait_for_timeout(3000)  # past RECHECK_MS: nothing more is asked of a lost class
    assert len(asked) == settled


@pytest.mark.parametrize("theme", ["light", "dark"])
def test_a_class_never_shows_an_answer_before_its_reveal(contexts, theme: str) -> None:
    """Issue 42, items 1 and 2: a run program opens on its finished picture (every grad), yet
    the class starts at the first forward step; paging past a question stops its answers (the
    phones' answer box goes, the projector says so); the reveal takes everyone back to the
    question's step, and its histogram is shown with that step alone."""
    teacher = contexts(viewport={"width": 1280, "height": 720}, color_scheme=theme)
    teacher.goto("/?" + urllib.parse.urlencode({"source": PRODUCT}))  # at backward 3/3
    wait_for(teacher, "() => Number(document.querySelector('#graph-view').dataset.runs || 0) > 0")
    at_step(teacher, "backward 3/3")
    teacher.click("#class-start")
    wait_for(teacher, "() => !document.getElementById('class-bar').hidden")
    code = teacher.evaluate("JSON.parse(sessionStorage.getItem('gradstep-teacher')).code")
    at_step(teacher, "forward 1/2")
    student = contexts(viewport={"width": 390, "height": 844}, color_scheme=theme)
    student.goto(f"/c/{code}")
    at_step(student, "forward 1/2")
    teacher.focus("#graph-view")
    for _ in range(3):
        teacher.keyboard.press("PageDown")
    at_step(student, "backward 2/3")
    teacher.click("#class-ask")  # backward 2/3 computes a·b's grad alone
    wait_for(student, "() => !document.getElementById('question').hidden")
    name = text(student, "#question-text")
    answer(student, "1")

    teacher.focus("#graph-view")
    teacher.keyboard.press("PageDown")  # past the question: its answers stop
    at_step(student, "backward 3/3")
    wait_text(teacher, "#class-asking-how", "Answers are closed")
    wait_text(teacher, "#class-count", "closed")
    assert teacher.is_visible("#class-reveal") and not teacher.is_visible("#class-lock")
    frames(student)
    assert student.is_hidden("#question") and student.is_hidden("#results")
    assert student.is_hidden("#question-locked")  # said at the question's own step
    SHOTS.mkdir(parents=True, exist_ok=True)
    teacher.screenshot(path=str(SHOTS / f"class-closed-1280-{theme}.png"))

    teacher.keyboard.press("r")  # the reveal: back to the question's step, its histogram
    at_step(teacher, "backward 2/3")
    at_step(student, "backward 2/3")
    wait_for(student, "() => document.querySelectorAll('#results .histogram').length === 1")
    assert "1 of 1 right" in text(student, "#results") and name.startswith("What is")
    student.screenshot(path=str(SHOTS / f"class-revealed-390-{theme}.png"))
    teacher.focus("#graph-view")
    teacher.keyboard.press("PageDown")
    at_step(student, "backward 3/3")
    frames(student)
    assert student.is_hidden("#results")  # an old histogram stays with its own step


LABELS_JS = """async (rounds) => {
  const { histogramRounds } = await import('/static/histogram.js');
  const results = document.getElementById('results')
    ?? document.getElementById('class-results-body');
  results.hidden = false;
  results.replaceChildren(...histogramRounds(rounds, 'a.grad', 4));
  const shown = [...results.querySelectorAll('.hist-label')]
    .filter((l) => getComputedStyle(l).visibility !== 'hidden');
  const boxes = shown.map((l) => {
    const r = document.createRange();
    r.selectNodeContents(l);
    const b = r.getBoundingClientRect();
    return { text: l.textContent, left: b.left, right: b.right };
  });
  const overlaps = boxes.slice(1)
    .filter((b, i) => b.left < boxes[i].right - 0.5 && b.right > boxes[i].left)
    .map((b) => b.text);
  const titles = [...results.querySelectorAll('.hist-col')].map((c) => c.title);
  return { labels: boxes.map((b) => b.text), overlaps, titles };
}"""


@pytest.mark.parametrize("width,height", [(390, 844), (1280, 720)])
def test_histogram_bins_are_labelled_as_a_person_writes_them_and_whole(
    contexts, width: int, height: int
) -> None:
    """Issue 42, item 3: a true value of −4.55 put a bin's centre at 2.2e−16 (rounding's
    residue), labelled "−2.2e−16", cut to "−2.2e" beside a second vote and clipped on a phone.
    Labels are now the bin width's precision, and none is cut or overlaps another."""
    from app.classroom.tally import histogram

    page = contexts(viewport={"width": width, "height": height})
    page.goto("/c/aaaaaaaaaa" if width < 600 else "/")
    votes = {n: histogram("number", -4.55, [-4.5, 0.0, -2.0, -4.55]) for n in (1, 2)}
    shown = page.evaluate(LABELS_JS, votes)
    if width < 600:  # the teacher's panel is hidden here: its figures are measured, not seen
        SHOTS.mkdir(parents=True, exist_ok=True)
        page.locator(".histogram").first.screenshot(path=str(SHOTS / f"histogram-{width}.png"))
    labels = shown["labels"]
    assert "0" in labels and not any("e" in label for label in labels), labels
    assert all(len(label) <= 5 for label in labels), labels
    assert shown["overlaps"] == [], shown
    assert not any(re.search(r"\de[−-]?\d", title) for title in shown["titles"]), shown["titles"]


@pytest.mark.parametrize("size", [(1280, 720), (1920, 1080)], ids=["720p", "1080p"])
def test_the_class_bar_keeps_one_row_in_present_mode_while_a_question_is_open(
    contexts, size: tuple[int, int]
) -> None:
    """Issue 42, item 11: at 1280 the class's bar wrapped to two rows while a question was open,
    taking the graph's height; in Present mode its controls keep one row (the projector has its
    own QR button, the CSV waits for after the lecture, the count is the panel's)."""
    from app.lecture import LECTURE_NEURON

    teacher = contexts(viewport={"width": size[0], "height": size[1]})
    teacher.goto("/?" + urllib.parse.urlencode({"source": LECTURE_NEURON}))
    wait_for(teacher, "() => Number(document.querySelector('#graph-view').dataset.runs || 0) > 0")
    teacher.click("#present")
    teacher.click("#present-class")
    wait_for(teacher, "() => !document.getElementById('class-bar').hidden")
    teacher.focus("#graph-view")
    teacher.keyboard.press("End")
    at_step(teacher, "backward 6/6")
    teacher.click("#class-ask")
    wait_for(teacher, "() => document.body.classList.contains('class-asking-on')")
    frames(teacher, 3)
    bar, button = teacher.evaluate("""() => [document.getElementById('class-bar'),
      document.getElementById('class-pause')].map((e) => e.getBoundingClientRect().height)""")
    assert bar < 1.8 * button, (bar, button)  # one row of buttons and its padding


def test_roaming_students_go_back_over_the_class_but_never_past_it(contexts) -> None:
    """Issue 42, item 4: roaming was all or nothing, and a roaming student could step to the
    end of the program (every grad, the next questions' answers); now students roam up to the
    class's step (it moves with the teacher), the open question's step still withheld, unless
    the teacher lets them go anywhere."""
    teacher = contexts(viewport={"width": 1280, "height": 720})
    code = start_class(teacher)
    student = contexts(viewport={"width": 390, "height": 844})
    join_at_the_first_backward_step(teacher, student, code)
    teacher.keyboard.press("PageDown")
    at_step(student, "backward 2/3")
    teacher.click("#class-ask")  # backward 2/3 computes a·b's grad
    wait_for(student, "() => !document.getElementById('question').hidden")
    teacher.click("#class-roam")
    wait_text(student, "#class-state", "Explore up to the class's step")
    assert teacher.input_value("#class-roam-to") == "here"
    student.keyboard.press("End")
    frames(student)
    assert text(student, '[data-part="position"]') == "backward 2/3"
    assert "your turn" in text(student, '[data-part="explanation"]')  # the answer withheld
    student.click('[data-part="next"]')  # Next at the bound: still withheld
    frames(student)
    assert "your turn" in text(student, '[data-part="explanation"]')
    student.keyboard.press("Home")
    at_step(student, "forward 1/2")
    student.keyboard.press("End")
    at_step(student, "backward 2/3")
    teacher.focus("#graph-view")
    teacher.keyboard.press("PageUp")
    teacher.keyboard.press("PageUp")  # the class goes back to forward 2/2: so does the student
    at_step(student, "forward 2/2")
    student.keyboard.press("ArrowRight")
    frames(student)
    assert text(student, '[data-part="position"]') == "forward 2/2"
    teacher.select_option("#class-roam-to", "anywhere")
    wait_text(student, "#class-state", "Explore: step on your own")
    student.keyboard.press("End")
    at_step(student, "backward 3/3")


def test_the_teacher_sees_who_follows_and_who_answered(contexts) -> None:
    """Issue 42, item 4: the teacher's list of students (Desmos's and Poll Everywhere's first
    view): who follows now, who has answered the round on screen, the nicknames for the
    teacher's eyes alone (not in Present, on the projector)."""
    teacher = contexts(viewport={"width": 1280, "height": 720})
    code = start_class(teacher)
    phones = [contexts(viewport={"width": 390, "height": 844}) for _ in range(2)]
    phones[0].goto(f"/c/{code}")
    phones[0].fill("#nickname", "Ada")
    phones[0].locator("#nickname").blur()  # a change: the stream names her again
    phones[1].goto(f"/c/{code}")
    for phone in phones:
        at_step(phone, "forward 1/2")
    wait_text(teacher, "#class-students", "2 following")
    teacher.click("#class-students")
    wait_for(teacher, "() => document.querySelectorAll('#class-roster-list li').length === 2")
    wait_text(teacher, "#class-roster-list", "Ada")
    join_at_the_first_backward_step(teacher, phones[0], code)
    teacher.click("#class-ask")
    answer(phones[1], "1")
    wait_text(teacher, "#class-roster-summary", "2 following · 1 answered")
    rows = teacher.eval_on_selector_all(
        "#class-roster-list li", "(ls) => ls.map((l) => l.textContent)"
    )
    assert rows == ["Adafollowingnot yet", "Student 2followinganswered ✓"]  # first seen first
    SHOTS.mkdir(parents=True, exist_ok=True)
    teacher.screenshot(path=str(SHOTS / "class-roster-1280.png"))
    phones[0].close()  # a phone that leaves
    wait_text(teacher, "#class-roster-summary", "1 following, 1 left · 1 answered", timeout=30)
    teacher.click("#present")
    wait_for(teacher, "() => document.body.classList.contains('presenting')")
    assert teacher.is_hidden("#class-students") and teacher.is_hidden("#class-roster")
    assert "Ada" not in teacher.locator("body").inner_text()  # no name on the projector


NEXT_WALL = "() => document.getElementById('next').disabled"  # the stepper's wall: the end
LOOP_ITERATION = "() => document.querySelector('[data-iterations=\"position\"]').textContent"
LOOP_READY = "() => !document.querySelector('#status').textContent.includes('computing')"


def teacher_at(page) -> str:
    return page.locator("#position").inner_text()


def following(teacher, phones: list) -> None:
    """Every phone shows the teacher's step (and the loop's iteration, if any)."""
    where = teacher_at(teacher)
    iteration = teacher.evaluate(
        "() => document.querySelector('[data-iterations=\"position\"]')?.textContent ?? ''"
    )
    for phone in phones:
        at_step(phone, where)
        if iteration and not teacher.is_hidden("#iterations"):
            wait_text(phone, "#class-iteration", iteration)


def present(teacher, preset_id: str) -> None:
    """The teacher leaves Present, runs a preset from the side panel and presents it again."""
    if teacher.evaluate("() => document.body.classList.contains('presenting')"):
        teacher.keyboard.press("Escape")
    index = teacher.evaluate(
        "async (id) => (await (await fetch('/api/presets')).json()).findIndex((p) => p.id === id)",
        preset_id,
    )
    runs = teacher.evaluate("() => Number(document.querySelector('#graph-view').dataset.runs)")
    teacher.click(f'#preset-list button[data-index="{index}"]')
    wait_for(teacher, "(n) => Number(document.querySelector('#graph-view').dataset.runs) > n", runs)
    wait_for(teacher, LOOP_READY)
    teacher.keyboard.press("p")
    wait_for(teacher, "() => document.body.classList.contains('presenting')")
    teacher.locator("#graph-view").focus()


def click_on(teacher, until: str, arg: object = None, most: int = 1_000) -> int:
    """Page Down (a clicker's one button) until ``until`` holds; the presses it took."""
    for presses in range(most):
        if teacher.evaluate(until, arg):
            return presses
        teacher.keyboard.press("PageDown")
        wait_for(teacher, LOOP_READY)  # the next iteration's graph, once past an update
    raise AssertionError(f"{most} presses did not reach {until}")


def test_a_lecture_given_with_a_clicker_alone(contexts) -> None:
    """Issue 42's walk: in Present, Page Down alone takes a class of three phones through the
    neuron (a question asked, revealed and asked again on the way), the MLP and two
    iterations of the training loop; every phone follows, none shows a step before the
    class reaches it."""
    teacher = contexts(viewport={"width": 1280, "height": 720})
    teacher.goto("/?preset=lecture-neuron")
    wait_for(teacher, "() => Number(document.querySelector('#graph-view').dataset.runs || 0) > 0")
    teacher.keyboard.press("p")
    wait_for(teacher, "() => document.body.classList.contains('presenting')")
    teacher.click("#present-class")
    wait_for(teacher, "() => !document.getElementById('class-bar').hidden")
    code = teacher.evaluate("JSON.parse(sessionStorage.getItem('gradstep-teacher')).code")
    phones = [contexts(viewport={"width": 390, "height": 844}) for _ in range(3)]
    for phone in phones:
        phone.goto(f"/c/{code}")
    teacher.locator("#graph-view").focus()
    following(teacher, phones)
    assert teacher_at(teacher) == "forward 1/5"

    # the neuron, to o = tanh(n): the class is asked n.grad, twice (Peer Instruction)
    at = "(s) => document.querySelector('#position').textContent === s"
    click_on(teacher, at, "backward 2/6")
    following(teacher, phones)
    teacher.keyboard.press("a")
    for phone, value in zip(phones, ("0.5", "0.5", "1"), strict=True):
        answer(phone, value)
    wait_text(teacher, "#class-asking-count", "3 answers")
    teacher.keyboard.press("r")
    for phone in phones:
        wait_for(phone, "() => document.querySelectorAll('#results .histogram').length === 1")
    teacher.keyboard.press("r")  # again: a second vote
    for phone in phones:
        answer(phone, "0.5")
    teacher.keyboard.press("r")
    for phone in phones:
        wait_for(phone, "() => document.querySelectorAll('#results .histogram').length === 2")
    teacher.locator("#graph-view").focus()
    neuron = click_on(teacher, NEXT_WALL)
    assert teacher_at(teacher) == "backward 6/6"
    following(teacher, phones)

    # the MLP: a new program starts the class at its first step again, then to its end
    present(teacher, "lecture-mlp")
    following(teacher, phones)
    assert teacher.input_value("#scrubber") == "0"  # its first step (Layer 1, folded)
    mlp = click_on(teacher, NEXT_WALL)
    assert teacher_at(teacher) == "update"  # its last step: p.data += -0.1 * p.grad
    following(teacher, phones)

    # the training loop: iteration 0 from its first step, through the update, into iteration 1
    present(teacher, "lecture-training")
    assert teacher.evaluate(LOOP_ITERATION) == "iteration 0"
    following(teacher, phones)
    one = click_on(teacher, f"() => ({LOOP_ITERATION})() === 'iteration 1'")
    following(teacher, phones)
    two = click_on(teacher, f"() => ({LOOP_ITERATION})() === 'iteration 2'")
    following(teacher, phones)
    assert teacher.input_value("#scrubber") == "0"  # iteration 2 from its first step
    print(f"presses: neuron {neuron}, MLP {mlp}, loop {one} + {two}")
