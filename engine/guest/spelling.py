"""Names that look alike: a program pasted from a PDF or a chat can hold a Cyrillic а where the
learner sees a Latin a, and CPython's NameError alone cannot show the difference."""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable

# letters that look like Latin ones in most fonts (Cyrillic, then Greek), read as those
_HOMOGLYPHS = str.maketrans(
    "аеорсухіјѕԁАВЕКМНОРСТХІЈЅοαικνρτυχΑΒΕΖΗΙΚΜΝΟΡΤΥΧ",
    "aeopcyxijsdABEKMHOPCTXIJSoaikvptuxABEZHIKMNOPTYX",
)


def letters(name: str) -> str:
    """A name's letters outside ASCII, spelled out (at most three)."""
    odd = [ch for ch in name if not ch.isascii()]
    return ", ".join(f"U+{ord(ch):04X} {unicodedata.name(ch, '?')}" for ch in odd[:3])


def lookalike(name: str, names: Iterable[str]) -> str:
    """A hint when one of ``names`` looks the same as ``name`` but is another name ("" if
    none does)."""
    skeleton = name.translate(_HOMOGLYPHS)
    if skeleton == name and name.isascii() and not any(not n.isascii() for n in names):
        return ""  # the common case: nothing outside ASCII on either side
    for other in names:
        if other != name and other.translate(_HOMOGLYPHS) == skeleton:
            theirs = f" (with {letters(other)})" if not other.isascii() else ""
            return (
                f" (it is written with {letters(name) or 'ASCII letters only'}: did you mean "
                f"{other}{theirs}, which looks the same?)"
            )
    return ""
