"""Fixtures for the browser tests: a live uvicorn on 127.0.0.1 and Debian's Chromium.

Outside CI these tests skip when Playwright or Chromium is missing; in CI (``CI`` set) they
fail instead, so a broken browser set-up can never pass as a green run.
"""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from chromium import CHROMIUM, CHROMIUM_ARGS, SERVE_ARGS, wait_until_up

ROOT = Path(__file__).resolve().parents[2]
SCREENSHOTS = ROOT / "artifacts" / "screenshots"


def _unavailable(reason: str) -> None:
    if os.environ.get("CI"):
        pytest.fail(f"browser tests cannot run in CI: {reason}", pytrace=False)
    pytest.skip(reason)


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.fixture(scope="session")
def base_url() -> Iterator[str]:
    """A real uvicorn serving the app factory, stopped when the session ends."""
    port = _free_port()
    proc = subprocess.Popen(
        [sys.executable, "-m", "uvicorn", "app.main:create_app", *SERVE_ARGS, str(port)],
        cwd=ROOT,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    url = f"http://127.0.0.1:{port}"
    if not wait_until_up(proc, f"{url}/healthz", 30):
        proc.kill()
        err = proc.stderr.read().decode(errors="replace") if proc.stderr else ""
        pytest.fail(f"uvicorn did not become healthy on {url}:\n{err}", pytrace=False)
    yield url
    proc.terminate()
    try:
        proc.wait(timeout=10)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()
    if proc.stderr:
        proc.stderr.close()


@pytest.fixture(scope="session")
def browser() -> Iterator[object]:
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        _unavailable("Playwright for Python is not installed")
    if not (Path(CHROMIUM).exists() or shutil.which(CHROMIUM)):
        _unavailable(f"Chromium was not found at {CHROMIUM}")
    with sync_playwright() as p:
        chromium = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield chromium
        chromium.close()


@pytest.fixture
def page(browser, base_url: str) -> Iterator[object]:
    """A fresh desktop page (1440×900); the test fails on any uncaught script error."""
    context = browser.new_context(viewport={"width": 1440, "height": 900}, base_url=base_url)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    # a 422 for a bad program is the API working; the browser logs it, the page handles it
    page.on(
        "console",
        lambda m: (
            errors.append(m.text)
            if m.type == "error" and "Failed to load resource" not in m.text
            else None
        ),
    )
    yield page
    context.close()
    assert errors == [], f"script errors on the page: {errors}"


@pytest.fixture
def watched(browser) -> Iterator[object]:
    """A context whose pages fail the test on any script error or CSP refusal."""
    context = browser.new_context(viewport={"width": 1000, "height": 700})
    errors: list[str] = []

    def on_console(message) -> None:
        if message.type == "error":
            errors.append(message.text)

    context.on("weberror", lambda e: errors.append(str(e.error)))
    context.on("console", on_console)
    yield context
    context.close()
    assert errors == [], f"errors in the page or its frames: {errors}"


@pytest.fixture
def sized(browser, base_url: str) -> Iterator[Callable[..., Any]]:
    """Pages of a given size and colour scheme, ``sized(1280, 720, "dark")``, closed after the
    test, which fails on any uncaught script error in them."""
    made: list[Any] = []
    errors: list[str] = []

    def new(width: int, height: int, theme: str = "light") -> Any:
        viewport = {"width": width, "height": height}
        context = browser.new_context(viewport=viewport, base_url=base_url, color_scheme=theme)
        made.append(context)
        page = context.new_page()
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        return page

    yield new
    for context in made:
        context.close()
    assert errors == [], f"script errors on the page: {errors}"


@pytest.fixture
def shot():
    """Save a screenshot of a page under artifacts/screenshots/ (for people to look at)."""
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)

    def save(page, name: str) -> None:
        page.screenshot(path=str(SCREENSHOTS / f"{name}.png"))

    return save
