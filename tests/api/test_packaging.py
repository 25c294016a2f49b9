"""A wheel built from the repository serves pages: it carries static/ and templates/ inside app/
(a wheel has no project root), where app/paths.py finds them."""

from __future__ import annotations

import subprocess
import sys
import zipfile
from pathlib import Path

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
    assert "app/paths.py" in names and "engine/ops.py" in names
