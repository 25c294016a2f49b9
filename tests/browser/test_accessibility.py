"""axe-core (from the npm registry; scripts/test.sh installs it) finds no serious or critical
violation on the page, the embed and the training lab, light and dark, with a graph drawn."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from browser_wait import wait_for

pytestmark = pytest.mark.browser

AXE = Path(__file__).resolve().parents[2] / ".cache" / "npm" / "node_modules" / "axe-core"
PAGES = {
    "/": "() => Number(document.querySelector('#graph-view').dataset.runs || 0) > 0",
    "/embed?preset=lecture-neuron": (
        "() => document.querySelector('[data-player]').dataset.state === 'ready'"
    ),
    "/train": "() => document.readyState === 'complete'",
}


@pytest.fixture
def audited(browser, base_url) -> Iterator[object]:
    """A page that axe's script can be added to (the pages' CSP allows no inline script)."""
    if not (AXE / "axe.min.js").is_file():
        pytest.fail(f"axe-core is not installed at {AXE} (scripts/test.sh installs it)")
    context = browser.new_context(base_url=base_url, bypass_csp=True)
    yield context.new_page()
    context.close()


@pytest.mark.parametrize("theme", ["light", "dark"])
@pytest.mark.parametrize("path", list(PAGES))
def test_no_serious_or_critical_violation(audited, path: str, theme: str) -> None:
    audited.emulate_media(color_scheme=theme)
    audited.goto(path)
    wait_for(audited, PAGES[path])
    audited.add_script_tag(path=str(AXE / "axe.min.js"))
    violations = audited.evaluate(
        """async () => (await axe.run(document)).violations
             .filter((v) => v.impact === 'serious' || v.impact === 'critical')
             .map((v) => `${v.id} (${v.impact}): ${v.nodes.length} × ${v.nodes[0].target}`)"""
    )
    assert violations == []
    assert audited.locator("h1").count() == 1  # a page's heading, hidden in the embed


BOXES_JS = """() => [...document.querySelectorAll('#graph-view g.node.value')].map((g) => {
  const bin = [...g.classList].find((c) => c.startsWith('gbin')) ?? '';
  const box = getComputedStyle(g.querySelector(':scope > polygon'));
  const op = g.querySelector(':scope > text[id$="-op"]');
  return {bin, fill: box.fill, dashes: box.strokeDasharray,
          current: g.classList.contains('current'), op: op ? getComputedStyle(op).fill : null};
})"""


def _luminance(rgb: str) -> float:
    def channel(c: float) -> float:
        return c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4

    r, g, b = (int(x) / 255 for x in rgb[rgb.index("(") + 1 : rgb.index(")")].split(",")[:3])
    return 0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b)


def _contrast(a: str, b: str) -> float:
    high, low = sorted((_luminance(a), _luminance(b)), reverse=True)
    return (high + 0.05) / (low + 0.05)


@pytest.mark.parametrize("theme", ["light", "dark"])
def test_op_symbols_read_on_every_fill_and_the_sign_is_not_hue_alone(audited, theme: str) -> None:
    """As the browser paints them: each op symbol ≥ 4.5:1 on its box (the strongest fills
    too), and a negative grad's box dashed where a positive one's is solid."""
    audited.emulate_media(color_scheme=theme)
    boxes = []
    for query in ("preset=micrograd-readme", "source=a+%3D+Value(1.0)%0Ab+%3D+a+*+-4.0"):
        audited.goto(f"/?{query}")
        wait_for(audited, PAGES["/"])
        boxes += audited.evaluate(BOXES_JS)
    assert {"gbin--3", "gbin-3", "gbin--1", "gbin-1"} <= {b["bin"] for b in boxes}
    for box in boxes:
        if box["op"] is not None:
            assert _contrast(box["op"], box["fill"]) >= 4.5, (theme, box)
        negative = box["bin"].startswith("gbin--")
        if box["bin"] and not box["current"]:  # the step's node has an outline of its own
            assert (box["dashes"] not in ("none", "")) == negative, (theme, box)
