"""Strings as the program sees them: ``str()`` and ``repr()`` of every object it can hold (its
own objects through their ``__str__``/``__repr__``, gradstep's values as engine.value prints
them), format specs (f-strings, ``format``), ``%`` formatting, ``+`` and ``*`` on strings, and
the console ``print`` writes to. Every string is charged to the budget before it is built, and
a format spec's width and precision are bounded, so no string can grow past MAX_TEXT_CHARS."""

from __future__ import annotations

import ast
import re
from typing import TYPE_CHECKING

from engine.errors import GradstepError
from engine.language.objects.array import Array
from engine.language.objects.kinds import (
    MISSING,
    BoundMethod,
    Builtin,
    Class,
    Function,
    Instance,
    Lazy,
    ModuleObject,
    Set,
    Site,
    describe,
)
from engine.limits import MAX_CONSOLE_CHARS
from engine.value import Value

if TYPE_CHECKING:
    from engine.language.library.machine import Machine

MAX_WIDTH = 1_000  # of a format spec: f"{x:>1000}"
MAX_PRECISION = 100  # digits after the point: f"{x:.100f}"
MAX_NESTING = 100  # lists in lists printed
_SPEC = re.compile(
    r"(?:(?P<fill>.)?(?P<align>[<>=^]))?(?P<sign>[-+ ])?z?#?0?(?P<width>\d+)?[_,]?"
    r"(?:\.(?P<precision>\d+))?(?P<type>[bcdeEfFgGnosxX%])?",
    re.DOTALL,
)
_PERCENT = re.compile(r"%([-+ #0]*)(\d+)?(?:\.(\d+))?([diouxXeEfFgGcrsa%])")


def to_str(m: Machine, obj: object, site: Site) -> str:
    """``str(obj)``: a string itself, an instance's ``__str__`` (else its ``__repr__``)."""
    if type(obj) is str:
        return obj
    if type(obj) is Instance:
        return _own(m, obj, site, ("__str__", "__repr__"))
    return to_repr(m, obj, site)


def to_repr(m: Machine, obj: object, site: Site, depth: int = 0) -> str:
    """``repr(obj)``, as CPython writes it (floats' shortest repr, lists of their items)."""
    if obj is None or isinstance(obj, bool | int | float | str | range):
        text = repr(obj)
        if isinstance(obj, int | float) and not isinstance(obj, bool):
            text = (float if isinstance(obj, float) else int).__repr__(obj)  # not a subclass's
        m.budget.chars(len(text))
        return text
    if isinstance(obj, Value):
        return repr(obj)
    if type(obj) is Instance:
        return _own(m, obj, site, ("__repr__",))
    if depth > MAX_NESTING:
        raise GradstepError(f"this is nested more than {MAX_NESTING} deep to print", "limit")
    if isinstance(obj, list | tuple | Set | dict | Array):
        return _container(m, obj, site, depth)
    return _other(obj)


def _container(
    m: Machine, obj: list[object] | tuple[object, ...] | Set | dict[object, object] | Array,
    site: Site, depth: int,
) -> str:  # fmt: skip
    if isinstance(obj, dict):
        parts = [
            f"{to_repr(m, k, site, depth + 1)}: {to_repr(m, v, site, depth + 1)}"
            for k, v in list(obj.items())
        ]
        return _joined(m, "{", parts, "}")
    if isinstance(obj, Set):
        if not obj.items:
            return "set()"
        return _joined(m, "{", [to_repr(m, x, site, depth + 1) for x in list(obj.items)], "}")
    items = list(obj.items if isinstance(obj, Array) else obj)
    m.budget.bulk(len(items))
    parts = [to_repr(m, x, site, depth + 1) for x in items]
    if isinstance(obj, Array):
        return _joined(m, "array([", parts, "])")
    if isinstance(obj, tuple):
        return _joined(m, "(", parts, ",)" if len(parts) == 1 else ")")
    return _joined(m, "[", parts, "]")


def _joined(m: Machine, start: str, parts: list[str], end: str) -> str:
    m.budget.chars(len(start) + len(end) + sum(len(p) + 2 for p in parts))
    return start + ", ".join(parts) + end


def _other(obj: object) -> str:
    if isinstance(obj, Function):
        return f"<function {obj.name}>"
    if isinstance(obj, BoundMethod):
        return f"<bound method {obj.instance.cls.name}.{obj.function.name}>"
    if isinstance(obj, Class):
        return f"<class '__main__.{obj.name}'>"
    if isinstance(obj, Builtin):
        return f"<built-in function {obj.name}>"
    if isinstance(obj, ModuleObject):
        return f"<module '{obj.name}'>"
    if isinstance(obj, Lazy):
        return f"<{obj.kind} object>"
    if obj is NotImplemented:
        return "NotImplemented"
    return f"<{describe(obj)}>"


def _own(m: Machine, obj: Instance, site: Site, methods: tuple[str, ...]) -> str:
    """An instance as its class prints it; without ``__repr__``, as CPython does but with no
    address (the same on every run)."""
    for name in methods:
        method = obj.cls.lookup(name)
        if method is not MISSING:
            bound = BoundMethod(obj, method) if isinstance(method, Function) else method
            text = m.call(bound, [] if isinstance(method, Function) else [obj], {}, site)
            if not isinstance(text, str):
                raise GradstepError(
                    f"{obj.cls.name}.{name} returned {describe(text)}, not a string", "type"
                )
            return text
    return f"<__main__.{obj.cls.name} object>"


# Format specs --------------------------------------------------------------------------------


def format_value(m: Machine, obj: object, spec: str, site: Site) -> str:
    """``format(obj, spec)``: Python's own formatting of numbers and strings, after checking the
    spec (its width and precision bounded); anything else only with an empty spec."""
    if not spec:
        return to_str(m, obj, site)
    found = _SPEC.fullmatch(spec)
    if found is None:
        raise GradstepError(f"invalid format spec {spec!r}", "type")
    width, precision = found["width"], found["precision"]
    if width is not None and int(width) > MAX_WIDTH:
        raise GradstepError(f"a format width of at most {MAX_WIDTH:,}, not {width}", "limit")
    if precision is not None and int(precision) > MAX_PRECISION:
        raise GradstepError(f"a precision of at most {MAX_PRECISION}, not {precision}", "limit")
    if not isinstance(obj, int | float | str):
        raise GradstepError(
            f"the format spec {spec!r} is for numbers and strings, not {describe(obj)}"
            + (": format its .data" if isinstance(obj, Value | Instance) else ""),
            kind="type",
        )
    try:
        text = format(obj, spec)
    except (ValueError, TypeError, OverflowError) as e:
        raise GradstepError(f"format spec {spec!r}: {e}", "type") from None
    m.budget.chars(len(text))
    return text


def percent(m: Machine, template: str, args: object, site: Site) -> str:
    """``template % args``: %s, %r, %d, %f, %e, %g... with flags, width and precision."""
    items = list(args) if isinstance(args, tuple) else [args]
    out: list[str] = []
    start = used = 0
    for found in _PERCENT.finditer(template):
        out.append(template[start : found.start()])
        start = found.end()
        flags, width, precision, kind = found.groups()
        if kind == "%":
            out.append("%")
            continue
        if used >= len(items):
            raise GradstepError("not enough arguments for the % format", "arity")
        x = items[used]
        used += 1
        for n, limit in ((width, MAX_WIDTH), (precision, MAX_PRECISION)):
            if n is not None and int(n) > limit:
                raise GradstepError(f"a % format of at most {limit:,} characters", "limit")
        if kind in "sra":
            text = to_str(m, x, site) if kind == "s" else to_repr(m, x, site)
            out.append(f"%{flags}{width or ''}{'.' + precision if precision else ''}s" % text)
        elif isinstance(x, int | float):
            try:
                out.append(found.group() % x)
            except (TypeError, ValueError, OverflowError) as e:
                raise GradstepError(f"% format: {e}", "type") from None
        else:
            raise GradstepError(f"%{kind} takes a number, not {describe(x)}", "type")
        m.budget.chars(len(out[-1]))
    if used < len(items):
        raise GradstepError("not all arguments converted during % formatting", "arity")
    out.append(template[start:])
    m.budget.chars(sum(len(p) for p in out))
    return "".join(out)


def string_op(m: Machine, op: type[ast.operator], a: object, b: object, site: Site) -> str:
    """``+`` of two strings, ``*`` of a string and a whole number, ``%`` formatting."""
    if op is ast.Mod and isinstance(a, str):
        return percent(m, a, b, site)
    if op is ast.Add and isinstance(a, str) and isinstance(b, str):
        m.budget.chars(len(a) + len(b))
        return a + b
    if op is ast.Mult:
        text, n = (a, b) if isinstance(a, str) else (b, a)
        if isinstance(text, str) and isinstance(n, int) and not isinstance(n, bool):
            m.budget.chars(len(text) * max(n, 0))
            return text * n
    symbol = {ast.Add: "+", ast.Mult: "*", ast.Mod: "%"}.get(op, "this operator")
    raise GradstepError(f"{symbol} cannot combine {describe(a)} and {describe(b)}", "type")


class Console:
    """What the program printed: its lines, each with the line of the print that ended it."""

    __slots__ = ("chars", "cut", "lines", "pending", "pending_line")

    def __init__(self) -> None:
        self.lines: list[tuple[int, str]] = []
        self.pending = ""  # a line not ended yet (print(..., end=""))
        self.pending_line = 0
        self.chars = 0
        self.cut = False

    def write(self, text: str, line: int) -> None:
        if self.cut:
            return
        self.chars += len(text)
        if self.chars > MAX_CONSOLE_CHARS:
            self.close()
            self.lines.append(
                (line, f"… the rest of the output was cut: {MAX_CONSOLE_CHARS:,} characters shown")
            )
            self.cut = True
            return
        parts = (self.pending + text).split("\n")
        self.lines.extend((line, part) for part in parts[:-1])
        self.pending, self.pending_line = parts[-1], line

    def close(self) -> tuple[tuple[int, str], ...]:
        if self.pending:
            self.lines.append((self.pending_line, self.pending))
            self.pending = ""
        return tuple(self.lines)
