"""What the browser tests of /embed share: a small program to step through."""

from __future__ import annotations

PRODUCT = "a = Value(2.0)\nb = Value(-3.0)\nc = a * b + b\nc.backward()\n"  # 2 fwd, 3 bwd steps
