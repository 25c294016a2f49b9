"""A real Jupyter server for the notebook tests: JupyterLab or Notebook 7 on a free port of
127.0.0.1, no token, a temporary root holding the given notebooks, no browser, no news or update
checks, and no ``dot`` on its kernels' PATH (notebook_env.kernel_env)."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Literal

import pytest
from browser_wait import wait_for
from chromium import wait_until_up
from conftest import _free_port
from playwright.sync_api import TimeoutError as PlaywrightTimeout

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "notebook"))
from notebook_env import kernel_env, require

FrontEnd = Literal["jupyterlab", "notebook"]
# each gradstep widget's position ("backward 4/6"), or false while it is not drawn yet
POSITIONS = """() => [...document.querySelectorAll('.gradstep-nb [data-player]')].map((p) =>
  p.dataset.state === 'ready' && p.querySelector('[data-part="position"]').textContent)"""

_APP = {"jupyterlab": "LabApp", "notebook": "JupyterNotebookApp"}
# no "would you like news?" toast over the notebook
_SETTINGS = {
    "@jupyterlab/apputils-extension/notification.jupyterlab-settings": {"fetchNews": "false"}
}


@contextmanager
def jupyter_server(front_end: FrontEnd, base: Path, notebooks: list[Path]) -> Iterator[str]:
    """The server's URL while it runs; it is stopped (its kernels with it) at the end."""
    require(front_end)
    require("anywidget")
    root, settings = base / "root", base / "settings"
    root.mkdir()
    for notebook in notebooks:
        shutil.copy(notebook, root / notebook.name)
    for name, value in _SETTINGS.items() if front_end == "jupyterlab" else ():
        (settings / name).parent.mkdir(parents=True, exist_ok=True)
        (settings / name).write_text(json.dumps(value))
    app = _APP[front_end]
    port = _free_port()
    # fmt: off
    args = [
        sys.executable, "-m", front_end, "--no-browser", "--allow-root",
        "--ip=127.0.0.1", f"--port={port}", f"--ServerApp.root_dir={root}",
        "--IdentityProvider.token=", "--ServerApp.password=",
        f"--{app}.user_settings_dir={settings}", f"--{app}.workspaces_dir={base / 'ws'}",
    ]
    if front_end == "jupyterlab":
        args += [
            "--LabApp.news_url=None", "--LabApp.extension_manager=readonly",
            "--LabApp.check_for_updates_class=jupyterlab.NeverCheckForUpdate",
        ]
    # fmt: on
    log_path = base / "server.log"
    log = log_path.open("wb")
    proc = subprocess.Popen(
        args, cwd=root, env=kernel_env(base / "home"), stdout=log, stderr=subprocess.STDOUT
    )
    url = f"http://127.0.0.1:{port}"
    try:
        if not wait_until_up(proc, f"{url}/api/status", 60):
            text = log_path.read_text(errors="replace")
            pytest.fail(f"{front_end} did not start on {url}:\n{text[-3000:]}", pytrace=False)
        yield url
    finally:
        proc.terminate()  # it shuts its kernels down
        try:
            proc.wait(timeout=15)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
        log.close()


def ours(error) -> bool:  # type: ignore[no-untyped-def]
    """Not Notebook 7.6's own start-up error (its settings loader reads a plugin's missing
    schema: "Cannot read properties of undefined (reading 'schema')", with no widget too)."""
    stack = error.stack or ""
    return not ("reading 'schema'" in str(error) and "/static/notebook/notebook_core." in stack)


def open_and_run_all(browser, front_end: tuple[FrontEnd, str], notebook: Path, widgets: int):  # type: ignore[no-untyped-def]
    kind, url = front_end
    context = browser.new_context(viewport={"width": 1280, "height": 1000})
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)) if ours(exc) else None)
    path = "notebooks" if kind == "notebook" else "lab/tree"
    page.goto(f"{url}/{path}/{notebook.name}")
    page.locator(".jp-Notebook .jp-Cell").first.wait_for(timeout=60_000)
    select = page.locator(".jp-Dialog .jp-mod-accept")  # which kernel? the one it names
    try:
        select.wait_for(timeout=4_000)
        select.click()
    except PlaywrightTimeout:
        pass
    page.get_by_text("Run", exact=True).first.click()
    page.get_by_text("Run All Cells", exact=True).click()
    wait_for(page, f"() => ({POSITIONS})().filter(Boolean).length >= {widgets}", timeout=60)
    return context, page, errors
