"""Reading a QR code off a screenshot, as a phone held up to the projector would."""

from __future__ import annotations

import shutil
import subprocess
import tempfile

from conftest import _unavailable


def decode_qr(png: bytes) -> str:
    """The text of the one QR code in a PNG, read by zbar (Debian's zbar-tools)."""
    if shutil.which("zbarimg") is None:
        _unavailable("zbarimg was not found (Debian: apt-get install zbar-tools)")
    with tempfile.NamedTemporaryFile(suffix=".png") as image:
        image.write(png)
        image.flush()
        read = subprocess.run(
            ["zbarimg", "--quiet", "--raw", image.name], capture_output=True, text=True
        )
    assert read.returncode == 0, read.stderr
    return read.stdout.strip()
