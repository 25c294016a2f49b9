"""A wheel built from the repository serves pages: it carries static/ and templates/ inside app/
(a wheel has no project root), where app/serving.py finds them."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def test_the_wheel_carries_every_page_and_browser_file(tmp_path: Path) -> None:
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "-w", str(tmp_path), str(ROOT)],
        check=True,
        capture_output=True,
    )
    (wheel,) = tmp_path.glob("gradstep-*.whl")
    names = set(zipfile.ZipFile(wheel).namelist())
    for folder in ("static", "templates"):
        files = [p for p in (ROOT / folder).rglob("*") if p.is_file()]
        assert files
        for path in files:
            assert f"app/{path.relative_to(ROOT).as_posix()}" in names
    assert "app/serving.py" in names and "engine/ops.py" in names


FAKE_PYTHON = """#!/bin/sh
if [ "$1" = "-c" ] && [ "$2" = "import ensurepip" ]; then exit {ensurepip}; fi
exit 3  # python3 -m venv: the script stops here, nothing is created
"""


@pytest.mark.parametrize(("ensurepip", "installed"), [(1, True), (0, False)])
def test_the_test_script_installs_python3_venv_when_ensurepip_is_missing(
    tmp_path: Path, ensurepip: int, installed: bool
) -> None:
    """On a fresh Debian 12, ``python3 -m venv`` fails: ensurepip is in python3-venv. The
    script's own commands run against stand-ins that record what apt-get is asked for."""
    (tmp_path / "scripts").mkdir()
    shutil.copy(ROOT / "scripts" / "test.sh", tmp_path / "scripts" / "test.sh")
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    log = tmp_path / "apt.log"
    fakes = {
        "python3": FAKE_PYTHON.format(ensurepip=ensurepip),
        "apt-get": f'#!/bin/sh\necho "$@" >> "{log}"\n',
        "id": "#!/bin/sh\necho 0\n",  # root: no sudo
        **dict.fromkeys(("dot", "chromium", "zbarimg", "dirname"), "#!/bin/sh\n"),
    }
    fakes["dirname"] = "#!/bin/sh\necho scripts\n"
    for name, body in fakes.items():
        (bin_dir / name).write_text(body)
        (bin_dir / name).chmod(0o755)
    done = subprocess.run(
        ["/bin/bash", "scripts/test.sh"],
        cwd=tmp_path,
        env={"PATH": str(bin_dir)},
        capture_output=True,
        text=True,
    )
    assert done.returncode == 3, done.stderr  # stopped at python3 -m venv, as arranged
    asked = log.read_text() if log.exists() else ""
    assert ("python3-venv" in asked) is installed, asked
    if installed:
        assert asked.startswith("update"), asked
    readme = (ROOT / "README.md").read_text()
    assert readme.index("apt-get install -y python3-venv") < readme.index("<!-- start-command -->")


def test_the_docs_reveal_snippet_is_the_one_the_share_dialog_writes() -> None:
    # one deck script: the docs show the Share dialog's (static/share-links.js), which goes to a
    # fragment's step by number, not the old one that stepped next/prev and lost the step
    script = re.search(
        r"export const REVEAL_SCRIPT = `(.*?)`;", (ROOT / "static" / "share-links.js").read_text(),
        re.S,
    )  # fmt: skip
    assert script is not None
    assert script[1] in (ROOT / "docs" / "classroom.md").read_text()
