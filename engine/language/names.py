"""How errors about names read: a name as the user should see it (look-alike letters spelled
out), a hint when it looks like an assigned one, and what to say for a name that has no value."""

from __future__ import annotations

import builtins
import unicodedata
from collections.abc import Iterable

# Cyrillic and Greek letters drawn like Latin ones: a small stand-in for Unicode's confusables.
_HOMOGLYPHS = str.maketrans(
    "аеорсухіјѕԁАВЕКМНОРСТХІЈЅοαικνρτυχΑΒΕΖΗΙΚΜΝΟΡΤΥΧ",
    "aeopcyxijsdABEKMHOPCTXIJSoaikvptuxABEZHIKMNOPTYX",
)
# Python's own builtins (their names only): a program calling one gets a precise refusal.
PYTHON_BUILTINS = frozenset(dir(builtins))
_RUNS_CODE = frozenset(
    "eval exec compile open input breakpoint globals locals vars getattr setattr delattr "
    "__import__ exit quit help dir type object id memoryview".split()
)


def spelled(name: str) -> str:
    """A name as the user should see it: non-ASCII look-alikes are spelled out."""
    odd = [ch for ch in name if not ch.isascii()]
    if not odd:
        return name
    listed = ", ".join(f"U+{ord(ch):04X} {unicodedata.name(ch, '?')}" for ch in odd[:3])
    return f"{name} (with {listed})"


class LookAlikes:
    """The assigned names indexed by their skeleton (look-alike letters read as Latin), so the
    hint for a name is one lookup: a program with thousands of unknown and assigned names is
    refused in linear time, not after comparing every pair."""

    def __init__(self, assigned: Iterable[str]) -> None:
        self._by_skeleton: dict[str, list[str]] = {}
        for name in assigned:
            self._by_skeleton.setdefault(name.translate(_HOMOGLYPHS), []).append(name)

    def hint(self, name: str) -> str:
        """A hint when an assigned name looks the same as ``name`` (Cyrillic а for Latin a)."""
        for other in self._by_skeleton.get(name.translate(_HOMOGLYPHS), ()):
            if other != name:  # the first other name: at most one step past ``name`` itself
                return f" (did you mean {spelled(other)}, which looks the same?)"
        return ""


def lookalike(name: str, assigned: Iterable[str]) -> str:
    """The hint for one name (see ``LookAlikes``)."""
    return LookAlikes(assigned).hint(name)


MAX_LISTED = 10  # unknown names written out in one refusal; the rest are counted


def no_value(names: list[str], assigned: Iterable[str]) -> str:
    hints = LookAlikes(assigned)
    listed = ", ".join(spelled(n) + hints.hint(n) for n in names[:MAX_LISTED])
    if len(names) > MAX_LISTED:
        listed += f" and {len(names) - MAX_LISTED:,} more"
    plural = "s have" if len(names) > 1 else " has"
    return (
        f"no value for {listed}: the name{plural} never been assigned "
        "(assign a number, as in x = 2.0, or give a value)"
    )


def unknown_function(name: str, functions: Iterable[str]) -> str:
    listed = ", ".join(functions)
    if name in _RUNS_CODE:
        return (
            f"{name} is not available: gradstep interprets the program itself and runs no "
            f"Python code, files or modules of its own; the functions are {listed}"
        )
    if name == "super":
        return "super() is not supported: inherited methods are found without it (self.method())"
    if name in PYTHON_BUILTINS:
        return f"{name}() is not one of gradstep's functions; they are {listed}"
    return f"unknown function {spelled(name)}; the functions are {listed}"
