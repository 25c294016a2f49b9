"""Whole numbers read from text that a client, a command line or the environment wrote."""

from __future__ import annotations


def ascii_digits(text: str) -> bool:
    """Whether ``text`` is digits 0–9 only: ``str.isdigit`` alone also takes ``²`` and ``٣``,
    which ``int`` then refuses (``?hidden=²`` was a 500)."""
    return text.isascii() and text.isdigit()
