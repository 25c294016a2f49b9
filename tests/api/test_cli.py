"""The command line: render to a file, errors as a message and exit status 2."""

from __future__ import annotations

import re
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from app.cli import main

ROOT = Path(__file__).resolve().parents[2]


def test_render_writes_a_standalone_svg_of_a_step(tmp_path: Path) -> None:
    out = tmp_path / "graph.svg"
    status = main(["render", "a = 3.0\nb = a + a", "-o", str(out), "--step", "1"])
    assert status == 0
    root = ET.parse(out).getroot()
    texts = {el.get("id"): el.text for el in root.iter() if el.get("id")}
    assert texts["n0-grad"] == "2.0000"
    assert root.get("class") == "gradstep-graph theme-light"


def test_render_reads_a_file_and_values(tmp_path: Path) -> None:
    program = tmp_path / "p.txt"
    program.write_text("x = 1.0\ny = x * 4\n")
    out = tmp_path / "g.svg"
    assert main(["render", f"@{program}", "-o", str(out), "--values", "x=2"]) == 0
    assert "8.0000" in out.read_text()


def test_render_error_is_a_message_not_a_traceback(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["render", "y = log(0.0 * 1)", "-o", str(tmp_path / "x.svg")]) == 2
    err = capsys.readouterr().err
    assert err.startswith("gradstep: ") and "Traceback" not in err
    assert not (tmp_path / "x.svg").exists()


def test_module_entry_point_runs(tmp_path: Path) -> None:
    out = tmp_path / "g.svg"
    done = subprocess.run(
        [sys.executable, "-m", "app.cli", "render", "a = 2.0; b = a * a", "-o", str(out)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    assert "4.0000" in out.read_text()


def test_a_missing_program_file_or_output_folder_is_a_message(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Both printed tracebacks."""
    missing = tmp_path / "missing.py"
    assert main(["render", f"@{missing}", "-o", str(tmp_path / "x.svg")]) == 2
    err = capsys.readouterr().err
    assert err == f"gradstep: cannot read the program {missing}: No such file or directory\n"
    nowhere = tmp_path / "no" / "such" / "dir" / "x.svg"
    assert main(["render", "a = 2.0\nb = a * a", "-o", str(nowhere)]) == 2
    err = capsys.readouterr().err
    assert err == f"gradstep: cannot write {nowhere}: No such file or directory\n"
    binary = tmp_path / "binary.py"
    binary.write_bytes(b"\xff\xfe\x00")
    assert main(["render", f"@{binary}", "-o", str(tmp_path / "x.svg")]) == 2
    assert "is not UTF-8 text" in capsys.readouterr().err


@pytest.mark.parametrize(
    ("source", "said"),
    [
        ("a = 1.0 +* (2 3", "gradstep: line 1, column 10: SyntaxError: invalid syntax\n"),
        (
            "a = Value(2.0)\nb = a * x",
            "gradstep: line 2, column 9: NameError: name 'x' is not defined\n",
        ),
    ],
)
def test_an_error_says_where_once(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], source: str, said: str
) -> None:
    """A syntax error said "invalid syntax (line 1) (line 1, column 17)"; CPython's errors are
    said once too, at the learner's line."""
    assert main(["render", source, "-o", str(tmp_path / "x.svg")]) == 2
    err = capsys.readouterr().err
    assert err.startswith(said) and err.count("line ") == 1, err


@pytest.mark.parametrize(
    ("trusted", "believed"), [("", None), ("10.0.0.5,10.1.0.0/16", ["10.0.0.5", "10.1.0.0/16"])]
)
def test_serve_believes_forwarded_headers_from_the_trusted_proxies_alone(
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    trusted: str,
    believed: list[str] | None,
) -> None:
    """uvicorn believes X-Forwarded-For from FORWARDED_ALLOW_IPS, else 127.0.0.1; gradstep serve
    from GRADSTEP_TRUSTED_PROXIES alone, and says so when the other is set instead."""
    import uvicorn

    ran: dict[str, object] = {}
    monkeypatch.setattr(uvicorn, "run", lambda app, **options: ran.update(options))
    monkeypatch.setenv("FORWARDED_ALLOW_IPS", "127.0.0.1")
    monkeypatch.setenv("GRADSTEP_TRUSTED_PROXIES", trusted)
    assert main(["serve"]) == 0
    assert ran["proxy_headers"] is (believed is not None)
    assert ran["forwarded_allow_ips"] == (believed or [])
    warned = "FORWARDED_ALLOW_IPS is not read; name the proxies in GRADSTEP_TRUSTED_PROXIES"
    assert (warned in capsys.readouterr().err) is (believed is None)


def test_version(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exited:
        main(["--version"])
    assert exited.value.code == 0
    assert re.fullmatch(r"gradstep \d+\.\d+\.\d+\S*\n", capsys.readouterr().out)
