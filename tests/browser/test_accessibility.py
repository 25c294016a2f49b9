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
