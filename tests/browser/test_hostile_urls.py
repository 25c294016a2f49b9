"""Script injection through the URL, in a real browser: every page opened with hostile values in
every query parameter it reads (and in the fragment) shows no dialog, runs no injected script,
inserts no injected element, and throws no script error (the ``page`` fixture checks that)."""

from __future__ import annotations

from urllib.parse import quote, urlencode

import pytest

pytestmark = pytest.mark.browser

PAYLOADS = [
    '"><script>alert(1)</script>',
    "<img src=x onerror=alert(2)>",
    "javascript:alert(3)",
    "</textarea><svg onload=alert(4)>",
    "a = 2.0\nb = a * a  # </script><script>alert(5)</script>",
]
PAGES = ["/", "/embed", "/train"]
PARAMS = ["source", "values", "step", "phase", "theme", "rankdir", "decimals", "controls"]
PROBE = """() => ({
    injected: document.querySelectorAll('img[src="x"], svg[onload], [onerror], [onload]').length,
    inlineScripts: [...document.scripts].filter(s => !s.src).length,
    marker: window.__gradstepInjected === true,
})"""


@pytest.mark.parametrize("path", PAGES)
def test_hostile_urls_run_no_script(page, shot, path: str) -> None:  # type: ignore[no-untyped-def]
    dialogs: list[str] = []
    page.on("dialog", lambda dialog: (dialogs.append(dialog.message), dialog.dismiss()))
    for number, payload in enumerate(PAYLOADS):
        query = urlencode(dict.fromkeys(PARAMS, payload))
        page.goto(f"{path}?{query}#{quote(payload)}")
        page.wait_for_load_state("networkidle")
        found = page.evaluate(PROBE)
        assert found == {"injected": 0, "inlineScripts": 0, "marker": False}, (path, payload)
        if number == 0:
            shot(page, f"hostile-url{path.replace('/', '-') or '-index'}")
    # a payload that would set a marker instead of opening a dialog
    marker = '"><script>window.__gradstepInjected=true</script>'
    page.goto(f"{path}?{urlencode(dict.fromkeys(PARAMS, marker))}")
    page.wait_for_load_state("networkidle")
    assert page.evaluate(PROBE)["marker"] is False
    assert dialogs == []
