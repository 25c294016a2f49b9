"""The notebook widget in the front ends it is tested in: Notebook 7 as in JupyterLab (real
servers on 127.0.0.1, tests/browser/jupyter_servers.py). In Notebook 7 the widget's keys step it
and none reaches the notebook (↑ ↓ 0 0 a d d b m x change nothing) until Esc gives them back; in
both, a step set from Python in the cell after the widget's holds through Run All; in JupyterLab
the widget follows a theme switched while it is shown."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from browser_wait import wait_for
from conftest import SCREENSHOTS
from jupyter_servers import POSITIONS, FrontEnd, jupyter_server, open_and_run_all
from notebook_env import NOTEBOOK, STEP_FIRST

pytestmark = pytest.mark.browser

_CELLS = """() => { const cells = [...document.querySelectorAll('.jp-Notebook .jp-Cell')];
  const active = cells.findIndex((c) => c.classList.contains('jp-mod-active'));
  return { count: cells.length, active, dialogs: document.querySelectorAll('.jp-Dialog').length };
}"""
_OUTPUT = """(i) => document.querySelectorAll('.jp-Notebook .jp-Cell')[i]
  .querySelector('.jp-OutputArea-output')?.textContent.trim()"""


@pytest.fixture(scope="module")
def notebook7(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[FrontEnd, str]]:
    with jupyter_server("notebook", tmp_path_factory.mktemp("nb7"), [NOTEBOOK, STEP_FIRST]) as url:
        yield "notebook", url


@pytest.fixture(scope="module")
def lab(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[FrontEnd, str]]:
    with jupyter_server("jupyterlab", tmp_path_factory.mktemp("lab"), [STEP_FIRST]) as url:
        yield "jupyterlab", url


def test_notebook_7_gives_the_widget_its_keys_and_the_notebook_none(browser, notebook7) -> None:  # type: ignore[no-untyped-def]
    """(JupyterLab's keys: tests/browser/test_notebook.py.)"""
    context, page, errors = open_and_run_all(browser, notebook7, NOTEBOOK, 3)
    try:
        page.evaluate(  # what reaches the document, where a notebook's shortcuts listen
            "() => { window.leaked = [];"
            " document.addEventListener('keydown', (e) => window.leaked.push(e.key)); }"
        )
        widget = page.locator(".gradstep-nb").first
        widget.locator('[data-part="graph"]').click(position={"x": 20, "y": 20})
        before = page.evaluate(_CELLS)  # the widget's cell is the active one now
        page.keyboard.press("Home")
        assert page.evaluate(POSITIONS)[0] == "forward 1/5"
        for _ in range(3):
            page.keyboard.press("ArrowRight")
        assert page.evaluate(POSITIONS)[0] == "forward 4/5"
        page.keyboard.press("ArrowDown")
        assert page.evaluate(POSITIONS)[0] == "forward 5/5"
        page.keyboard.press("ArrowUp")
        for key in ["0", "0", "a", "d", "d", "b", "m", "x"]:  # command mode's, each a change
            page.keyboard.press(key)
        page.wait_for_timeout(300)  # a leaked key would have acted by now
        assert page.evaluate(POSITIONS)[0] == "forward 4/5"
        assert page.evaluate(_CELLS) == before  # no cell added, cut or moved; no dialog
        assert page.evaluate("() => window.leaked") == []
        hint = widget.evaluate("(w) => getComputedStyle(w, '::after').content")
        assert "Esc" in hint  # the widget says whose the keys are, while they are its
        widget.scroll_into_view_if_needed()
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(SCREENSHOTS / "notebook7-keys.png"))

        page.keyboard.press("Escape")  # the keys are the notebook's again: ↓ moves a cell on
        assert page.evaluate("() => window.leaked") == []
        page.keyboard.press("ArrowDown")
        after = page.evaluate(_CELLS)
        assert after["active"] == before["active"] + 1, (before, after)
        assert page.evaluate(POSITIONS)[0] == "forward 4/5"
    finally:
        context.close()
    assert errors == [], errors


@pytest.mark.parametrize("server", ["notebook7", "lab"])
def test_a_step_set_from_python_before_the_view_holds_through_run_all(
    browser, server, request
) -> None:  # type: ignore[no-untyped-def]
    """``w = show(o); w``, then ``w.step = 3`` in the next cell: the view opens at backward
    step 4 of 6 (0-based 3), and Python still reads 3 after the view has drawn."""
    front_end = request.getfixturevalue(server)
    context, page, errors = open_and_run_all(browser, front_end, STEP_FIRST, 1)
    try:
        wait_for(page, f"() => ({POSITIONS})()[0] === 'backward 4/6'", timeout=20)
        assert page.evaluate(_OUTPUT, 2) == "backward 3"  # printed during Run All
        page.wait_for_timeout(1500)  # the view has long reported where it opened
        assert page.evaluate(POSITIONS)[0] == "backward 4/6"
        page.locator(".jp-Notebook .jp-Cell").nth(2).locator(".jp-InputArea-editor").click()
        page.keyboard.press("Shift+Enter")  # ask Python again
        wait_for(page, f"() => ({_OUTPUT})(2) === 'backward 3' && ({_CELLS})().active !== 2")
        page.wait_for_timeout(500)
        assert page.evaluate(_OUTPUT, 2) == "backward 3"
    finally:
        context.close()
    assert errors == [], errors


def test_the_widget_follows_a_theme_switched_while_it_is_shown(browser, lab) -> None:  # type: ignore[no-untyped-def]
    context, page, errors = open_and_run_all(browser, lab, STEP_FIRST, 1)
    background = """() => { const w = document.querySelector('.gradstep-nb');
      return [w.dataset.theme, getComputedStyle(w).backgroundColor]; }"""
    try:
        theme, light = page.evaluate(background)
        assert theme == "light"
        page.get_by_text("Settings", exact=True).first.click()
        page.get_by_text("Theme", exact=True).first.hover()
        page.get_by_text("JupyterLab Dark", exact=True).click()
        wait_for(page, "() => document.body.dataset.jpThemeLight === 'false'")
        wait_for(page, f"() => ({background})()[0] === 'dark'")
        wait_for(page, "() => !document.querySelector('#jupyterlab-splash')")  # the switch's
        theme, dark = page.evaluate(background)
        assert dark != light
        channels = [int(c) for c in dark.split("(")[1].rstrip(")").split(",")[:3]]
        assert max(channels) < 80, dark  # a dark ground, not the light one left behind
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(SCREENSHOTS / "notebook-dark.png"))
    finally:
        context.close()
    assert errors == [], errors


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_draw_dot_takes_the_colour_scheme_of_where_it_is_shown(browser, scheme: str) -> None:  # type: ignore[no-untyped-def]
    """A notebook shows draw_dot's SVG as an image: by default it has no theme of its own and
    is drawn light or dark as the page around it is, not a white block in a dark notebook."""
    import base64

    from app.notebook import draw_dot

    svg = draw_dot("a = 2.0\nb = a * a").svg
    assert "data-theme" not in svg.split(">", 2)[1]  # the root <svg> (after the declaration)
    data = base64.b64encode(svg.encode()).decode()
    page = browser.new_page(color_scheme=scheme)
    try:
        page.set_content(f'<body style="margin:0"><img src="data:image/svg+xml;base64,{data}">')
        page.wait_for_timeout(200)
        pixel = page.screenshot(clip={"x": 1, "y": 1, "width": 1, "height": 1})
    finally:
        page.close()
    from io import BytesIO

    from PIL import Image

    r, g, b = Image.open(BytesIO(pixel)).convert("RGB").getpixel((0, 0))
    assert (r + g + b > 600) == (scheme == "light"), (scheme, (r, g, b))
