"""The Graphviz layout backends present on this machine; the API tests run on each."""

from __future__ import annotations

import os

from app.draw.layout.dot_backend import dot_available
from app.draw.layout.wasm_backend import wasm_available

BACKENDS = [b for b, present in (("dot", dot_available()), ("wasm", wasm_available())) if present]

if os.environ.get("CI") and BACKENDS != ["dot", "wasm"]:
    raise RuntimeError(f"CI must test both layout backends; present: {BACKENDS}")
