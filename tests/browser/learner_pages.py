"""What the browser tests of a learner's own engine share: the learners' programs and the
mistakes' data (tests/engine/learners) and the API's answer to compare the page with (pasting a
program as a teacher does is stepper_pages.paste)."""

from __future__ import annotations

import sys
from pathlib import Path

import httpx

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


def answer(base_url: str, source: str, engine: str = "auto") -> dict:
    return httpx.post(f"{base_url}/api/graph", json={"source": source, "engine": engine}).json()
