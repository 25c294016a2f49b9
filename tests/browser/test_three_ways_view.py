"""The Three ways view on the page (issue 43, static/three-ways.js): the seed's numbers side by
side, the error plot and the costs, forward mode stepped by its keys, a refusal shown in the
view, the view kept in the URL, and its layout at a laptop's and a phone's size, light and dark."""

from __future__ import annotations

import pytest
from browser_wait import frames, wait_for
from learner_pages import source_of
from stepper_pages import open_page, run_program

pytestmark = pytest.mark.browser

SHOWN_JS = (
    "() => ['shown', 'refused'].includes(document.getElementById('three-ways').dataset.state)"
)


def open_view(page) -> str:
    """Open the view on the program shown; its state once answered."""
    page.click("#three-ways-toggle")
    wait_for(page, SHOWN_JS)
    return str(page.locator("#three-ways").get_attribute("data-state"))


def test_the_seeds_numbers_plot_and_costs_survive_a_reload(page) -> None:
    open_page(page, "?preset=three-ways")
    assert open_view(page) == "shown"
    row = page.locator(".ways-compare tbody tr").inner_text()
    # reverse mode, forward mode, symbolic, then the central difference at h = 1e-7: the seed's
    assert row.split() == ["∂f/∂x", *["1.972602361114157"] * 3, "1.972602359234799"]
    assert "|error| 1.88e−9: roundoff dominates" in page.locator(".ways-numerical").inner_text()
    assert page.locator(".ways-symbolic").inner_text().count("sin(x)·2·x + x²·cos(x)") == 1
    plot = page.locator("svg.error-plot")
    assert plot.locator("path.error-line").count() == 1
    assert "sweet spot h ≈ 3.2e−6" in plot.text_content()  # docs/three-ways.md: near 3e-6
    assert page.locator("svg.cost-bars rect").count() == 4
    ratio = page.locator(".ways-ratio").inner_text()
    assert ratio == "B / F = 12 / 3 = 4.00 ≤ 5: the cheap gradient principle holds"
    assert page.locator(".graph-wrap").is_hidden()
    wait_for(page, "() => location.search.includes('view=three-ways')")
    page.reload()
    wait_for(page, SHOWN_JS)
    assert page.locator("#three-ways-toggle").get_attribute("aria-pressed") == "true"
    assert "1.972602359234799" in page.locator(".ways-compare").inner_text()
    page.click("#phase-backward")  # back to the graph, and out of the URL
    assert page.locator("#three-ways").is_hidden() and page.locator(".graph-wrap").is_visible()
    wait_for(page, "() => !location.search.includes('view=')")


def test_forward_mode_steps_by_its_keys_not_the_graphs(page) -> None:
    open_page(page, "?preset=tangent-passes")
    open_view(page)
    position = page.locator("#position").inner_text()
    steps = page.locator(".ways-steps")
    steps.focus()
    for _ in range(4):
        page.keyboard.press("ArrowRight")
    assert page.locator(".ways-position").inner_text() == "node 5 of 5"
    step = page.locator(".ways-step").inner_text()
    assert "df = ∂f/∂(x+y) · d(x+y) + ∂f/∂sin(x) · d(sin(x)) = 0.9093 + (−2.0807) = −1.1714" in step
    page.keyboard.press("Home")
    assert "dx = 1" in page.locator(".ways-step").inner_text()
    page.select_option(".ways-forward select", "1")  # the pass for y seeds dy = 1, dx = 0
    assert page.locator(".ways-step").inner_text().startswith("dx = 0")
    assert page.locator("#position").inner_text() == position  # the graph's step never moved


def test_a_refusal_is_shown_in_the_view(page) -> None:
    open_page(page)
    run_program(page, source_of("mistakes/order_recursive_right.py"))
    assert open_view(page) == "refused"
    assert "op table" in page.locator("#three-ways .ways-refusal").inner_text()


@pytest.mark.parametrize("theme", ["light", "dark"])
@pytest.mark.parametrize("size", [(1280, 720), (390, 844)], ids=lambda s: f"{s[0]}x{s[1]}")
def test_the_view_fits_the_screen(sized, shot, size, theme) -> None:
    width, height = size
    page = sized(width, height, theme)
    page.goto("/?preset=tangent-passes&view=three-ways")
    wait_for(page, SHOWN_JS)
    frames(page, 2)
    shot(page, f"three-ways-{width}x{height}-{theme}")
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    cards = page.evaluate(
        "() => [...document.querySelectorAll('#three-ways > *')].map((c) => "
        "[c.className, c.getBoundingClientRect().right, c.scrollWidth - c.clientWidth])"
    )
    assert len(cards) == 6
    for name, right, spill in cards:
        assert right <= width and spill <= 0, (name, right, spill)
    # the plot's numbers read from the back of the room: at least 12 px, on a phone too
    tick = page.locator("svg.error-plot .axes text").first.bounding_box()
    assert tick["height"] >= 12, tick


def test_the_embed_shows_the_view_it_is_given(page) -> None:
    page.goto("/embed?preset=tangent-passes&view=three-ways&theme=dark")
    wait_for(page, SHOWN_JS)
    assert page.locator("[data-part='graph']").count() == 0  # the view in place of the stepper
    rows = page.locator(".ways-compare tbody tr").all_inner_texts()
    assert [r.split()[1] for r in rows] == ["−1.17143675591003", "0.9092974268256817"]
    assert page.locator("svg.error-plot").count() == 1
