"""What the browser tests of a learner's own engine share: the learners' programs and the
mistakes' data (tests/engine/learners), pasting a program as a teacher does, and the API's answer
to compare the page with."""

from __future__ import annotations

import sys
from pathlib import Path

import httpx
from browser_wait import wait_for

LEARNERS = Path(__file__).parents[1] / "engine" / "learners"
sys.path.insert(0, str(LEARNERS))
from expected import MISTAKES  # noqa: E402  (data only: the mistakes and their lines)

MICROGRAD = (LEARNERS / "micrograd.py").read_text("utf-8")
WRONG_IDS_JS = (
    "() => [...document.querySelectorAll('#graph-view g.node.value.wrong')].map((g) => g.id)"
)


def mistake(name: str) -> dict:
    return next(m for m in MISTAKES if m["name"] == name)


def source_of(file: str) -> str:
    return (LEARNERS / file).read_text("utf-8")


def runs(page) -> int:
    return int(page.locator("#graph-view").get_attribute("data-runs") or 0)


def drawn(page, before: int) -> None:
    wait_for(
        page, "n => Number(document.querySelector('#graph-view').dataset.runs || 0) > n", before
    )


def paste(page, source: str) -> None:
    """Into the editor, then Ctrl-Enter, as a teacher does."""
    page.goto("/")
    drawn(page, 0)
    before = runs(page)
    editor = page.locator("#source")
    editor.fill("")
    editor.focus()
    page.keyboard.insert_text(source)
    page.keyboard.press("Control+Enter")
    drawn(page, before)
    assert page.locator("#error").is_hidden(), page.locator("#error").inner_text()


def position(page) -> str:
    return page.locator("#position").inner_text()


def title(page) -> str:
    return page.locator("#explanation .step-title").inner_text()


def answer(base_url: str, source: str, engine: str = "auto") -> dict:
    return httpx.post(f"{base_url}/api/graph", json={"source": source, "engine": engine}).json()
