"""A string's methods: ``join``, ``format`` and the few a program prints with (``upper``,
``strip``, ``split``, ``replace``, ``ljust``...), each charged to the budget before it builds
its result. ``format`` reads its template with the standard library's parser (a parser only:
nothing of the template is evaluated) and takes plain fields: ``{}``, ``{0}``, ``{name}``, with
a conversion and a format spec."""

from __future__ import annotations

import string
from typing import TYPE_CHECKING

from engine.errors import GradstepError
from engine.language.objects.containers import Table, bound
from engine.language.objects.kinds import MISSING, Args, Kwargs, Site, describe
from engine.language.objects.operators import collect
from engine.language.objects.text import format_value, to_repr, to_str
from engine.limits import MAX_TEXT_CHARS

if TYPE_CHECKING:
    from engine.language.library.machine import Machine


def str_format(m: Machine, template: str, args: Args, kwargs: Kwargs, site: Site) -> str:
    out: list[str] = []
    auto = 0
    try:
        fields = list(string.Formatter().parse(template))
    except ValueError as e:
        raise GradstepError(f"format(): {e}", "type") from None
    for literal, field, spec, conversion in fields:
        out.append(literal)
        if field is None:
            continue
        if spec and "{" in spec:
            raise GradstepError(
                "format(): a field inside a format spec is not supported", "unsupported"
            )
        if field == "":
            index: int | str = auto
            auto += 1
        elif field.isdigit():
            index = int(field)
        elif field.isidentifier():
            index = field
        else:
            raise GradstepError(
                f"format(): the field {{{field}}} is not supported: use {{}}, {{0}} or {{name}}",
                kind="unsupported",
            )
        if isinstance(index, int):
            if index >= len(args):
                raise GradstepError(f"format(): no argument {index} for this field", "arity")
            x = args[index]
        elif index in kwargs:
            x = kwargs[index]
        else:
            raise GradstepError(f"format(): no keyword argument {index}=", "arity")
        if conversion == "r":
            x = to_repr(m, x, site)
        elif conversion == "s":
            x = to_str(m, x, site)
        out.append(format_value(m, x, spec or "", site))
    m.budget.chars(sum(len(p) for p in out))
    return "".join(out)


def _join(m: Machine, site: Site, sep: str, items: object) -> str:
    parts: list[str] = []
    for i, part in enumerate(collect(items, "join()", m.budget)):
        if not isinstance(part, str):
            raise GradstepError(f"join(): item {i} is {describe(part)}, not a string", "type")
        parts.append(part)
    m.budget.chars(sum(len(p) for p in parts) + len(sep) * max(len(parts) - 1, 0))
    return sep.join(parts)


def _chars(what: str) -> object:
    def check(chars: object) -> str | None:
        if chars is None or isinstance(chars, str):
            return chars
        raise GradstepError(f"{what}() takes a string, not {describe(chars)}", "type")

    return check


def _strip(how: str) -> object:
    check = _chars(how)

    def run(m: Machine, site: Site, s: str, chars: object) -> str:
        return getattr(s, how)(check(chars))  # type: ignore[operator,no-any-return]

    return run


def _split(m: Machine, site: Site, s: str, sep: object, maxsplit: object) -> list[str]:
    if not (sep is None or (isinstance(sep, str) and sep)) or not isinstance(maxsplit, int):
        raise GradstepError("split() takes a string that is not empty and a number", "type")
    m.budget.bulk(len(s))
    return s.split(sep, maxsplit)


def _replace(m: Machine, site: Site, s: str, old: object, new: object, count: object) -> str:
    if not isinstance(old, str) or not isinstance(new, str) or not isinstance(count, int):
        raise GradstepError("replace() takes two strings and a count", "type")
    found = s.count(old) if old else len(s) + 1
    if count >= 0:
        found = min(found, count)
    m.budget.chars(len(s) + found * max(len(new) - len(old), 0))
    return s.replace(old, new, count)


def _pad(how: str) -> object:
    def run(m: Machine, site: Site, s: str, width: object, fill: object) -> str:
        if not isinstance(width, int) or not isinstance(fill, str) or len(fill) != 1:
            raise GradstepError(f"{how}() takes a width and one character", "type")
        if width > MAX_TEXT_CHARS:
            m.budget.chars(width)
        m.budget.chars(max(width, len(s)))
        return getattr(s, how)(width, fill)  # type: ignore[no-any-return]

    return run


def _affix(how: str) -> object:
    def run(m: Machine, site: Site, s: str, affix: object) -> bool:
        if not isinstance(affix, str | tuple):
            raise GradstepError(f"{how}() takes a string, not {describe(affix)}", "type")
        return getattr(s, how)(affix)  # type: ignore[no-any-return]

    return run


def _plain(how: str) -> object:
    def run(m: Machine, site: Site, s: str) -> object:
        m.budget.chars(len(s))
        return getattr(s, how)()

    return run


def _search(how: str) -> object:
    def run(m: Machine, site: Site, s: str, sub: object) -> int:
        if not isinstance(sub, str):
            raise GradstepError(f"{how}() takes a string, not {describe(sub)}", "type")
        return getattr(s, how)(sub)  # type: ignore[no-any-return]

    return run


STR_METHODS: Table = {
    "join": (("iterable",), {}, _join),
    "strip": (("chars",), {"chars": None}, _strip("strip")),  # type: ignore[dict-item]
    "lstrip": (("chars",), {"chars": None}, _strip("lstrip")),  # type: ignore[dict-item]
    "rstrip": (("chars",), {"chars": None}, _strip("rstrip")),  # type: ignore[dict-item]
    "split": (("sep", "maxsplit"), {"sep": None, "maxsplit": -1}, _split),
    "replace": (("old", "new", "count"), {"count": -1}, _replace),
    "ljust": (("width", "fillchar"), {"fillchar": " "}, _pad("ljust")),  # type: ignore[dict-item]
    "rjust": (("width", "fillchar"), {"fillchar": " "}, _pad("rjust")),  # type: ignore[dict-item]
    "center": (("width", "fillchar"), {"fillchar": " "}, _pad("center")),  # type: ignore[dict-item]
    "startswith": (("prefix",), {}, _affix("startswith")),  # type: ignore[dict-item]
    "endswith": (("suffix",), {}, _affix("endswith")),  # type: ignore[dict-item]
    "upper": ((), {}, _plain("upper")),  # type: ignore[dict-item]
    "lower": ((), {}, _plain("lower")),  # type: ignore[dict-item]
    "title": ((), {}, _plain("title")),  # type: ignore[dict-item]
    "capitalize": ((), {}, _plain("capitalize")),  # type: ignore[dict-item]
    "isdigit": ((), {}, _plain("isdigit")),  # type: ignore[dict-item]
    "find": (("sub",), {}, _search("find")),  # type: ignore[dict-item]
    "count": (("sub",), {}, _search("count")),  # type: ignore[dict-item]
}


def method(s: str, name: str) -> object:
    """The string method ``name`` bound to ``s``, or MISSING."""
    if name == "format":
        from engine.language.objects.kinds import Builtin

        return Builtin(
            "str.format", lambda m, args, kwargs, site: str_format(m, s, args, kwargs, site)
        )
    if name not in STR_METHODS:
        return MISSING
    return bound("str", s, name, STR_METHODS)
