"""In CI the gradients must be checked against PyTorch: its absence fails the run instead of
letting the oracle tests skip (outside CI they skip when torch is not installed)."""

from __future__ import annotations

import importlib.util
import os

if os.environ.get("CI") and importlib.util.find_spec("torch") is None:
    raise RuntimeError("CI must check gradients against PyTorch, and torch is not installed")
