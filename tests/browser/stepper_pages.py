"""What the stepper's browser tests share: a small program, opening the page and running a
program in it (or pasting one, as a teacher does), waiting for a drawing, and reading a node's
texts, the step, its title and the editor's highlight off the page."""

from __future__ import annotations

from browser_wait import wait_for

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


def paste(page, source: str) -> None:
    """Into the editor of the landing page, then Ctrl-Enter: what a teacher does."""
    open_page(page)
    before = runs(page)
    editor = page.locator("#source")
    editor.fill("")
    editor.focus()
    page.keyboard.insert_text(source)  # one input event, as a paste gives
    page.keyboard.press("Control+Enter")
    wait_drawn(page, before)
    assert page.locator("#error").is_hidden(), page.locator("#error").inner_text()


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


def title(page) -> str:
    return page.locator("#explanation .step-title").inner_text()


# the graph's text as the page shows it (CSS pixels: font size × the SVG's scale), the median of
# the nodes' texts; whether the step's node and every node are in sight; whether the
# explanation is cut
TEXT_PX = """() => {
  const texts = [...document.querySelectorAll('#graph-view svg g.node text')]
    .filter((t) => t.textContent.trim() && t.getBoundingClientRect().height > 0);
  const px = texts.map((t) => t.getScreenCTM().a * parseFloat(t.getAttribute('font-size')));
  px.sort((a, b) => a - b);
  const view = document.querySelector('#graph-view').getBoundingClientRect();
  const inside = (r) => r.left >= view.left - 1 && r.right <= view.right + 1
    && r.top >= view.top - 1 && r.bottom <= view.bottom + 1;
  const current = document.querySelector('#graph-view g.current')?.getBoundingClientRect();
  const nodes = [...document.querySelectorAll('#graph-view g.node')];
  const explanation = document.querySelector('#explanation');
  return {
    px: px[Math.floor(px.length / 2)],
    inView: !current || inside(current),
    whole: nodes.every((g) => inside(g.getBoundingClientRect())),
    cut: explanation.scrollHeight > explanation.clientHeight + 1,
  };
}"""
