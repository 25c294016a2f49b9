"""Binding a call's arguments to a definition's parameters, as Python binds them (``*args``,
keyword-only parameters and ``**kwargs`` included), with the error a student can act on: for the
program's own functions (``bind``) and for every builtin, method and module function that takes
arguments by name (``bind_arguments``)."""

from __future__ import annotations

from engine.errors import GradstepError
from engine.language.objects.kinds import Function, Kwargs


def bind(
    fn: Function, name: str, args: list[object], kwargs: Kwargs, shown: int
) -> dict[str, object]:
    """The call's locals: ``fn``'s parameters bound as Python binds them (``shown``: how many
    leading parameters, such as self, the user does not pass)."""
    params = fn.params
    extra = fn.extra
    if extra is None:
        if not kwargs and len(args) == len(params):
            return dict(zip(params, args, strict=True))
        values = bind_arguments(name, params, _defaults(fn), args, kwargs, shown)
        return dict(zip(params, values, strict=True))
    rest = args[len(params) :]
    if rest and extra.varargs is None:
        bind_arguments(name, params, {}, args, {}, shown)  # raises: too many arguments
    named = {k: v for k, v in kwargs.items() if k in params}
    values = bind_arguments(name, params, _defaults(fn), args[: len(params)], named, shown)
    local = dict(zip(params, values, strict=True))
    if extra.varargs is not None:
        local[extra.varargs] = tuple(rest)
    others: dict[str, object] = {}
    for key, value in kwargs.items():
        if key in extra.kwonly:
            local[key] = value
        elif key not in params:
            others[key] = value
    for key in extra.kwonly:
        if key not in local:
            if key not in extra.kwdefaults:
                raise GradstepError(f"{name}() needs a value for {key}", kind="arity")
            local[key] = extra.kwdefaults[key]
    if extra.kwargs is not None:
        local[extra.kwargs] = others
    elif others:
        raise GradstepError(f"{name}() has no parameter named {next(iter(others))}", "arity")
    return local


def _defaults(fn: Function) -> dict[str, object]:
    params = fn.params
    return dict(zip(params[len(params) - len(fn.defaults) :], fn.defaults, strict=True))


def bind_arguments(
    name: str,
    params: tuple[str, ...],
    defaults: dict[str, object],
    args: list[object],
    kwargs: dict[str, object],
    shown: int = 0,
) -> list[object]:
    """Python's binding of a call's arguments to ``params`` (``shown``: how many leading
    parameters, such as ``self``, the user does not pass), with the error a student can act on."""
    if not kwargs and len(args) == len(params):
        return args
    if len(args) > len(params):
        listed = ", ".join(params[shown:])
        raise GradstepError(
            f"{name}() takes {_count(len(params) - shown)} ({listed}), not {len(args) - shown}",
            kind="arity",
        )
    bound: dict[str, object] = dict(zip(params, args, strict=False))
    for key, value in kwargs.items():
        if key not in params or params.index(key) < shown:
            raise GradstepError(f"{name}() has no parameter named {key}", kind="arity")
        if key in bound:
            raise GradstepError(f"{name}() got two values for {key}", kind="arity")
        bound[key] = value
    for param in params:
        if param not in bound:
            if param not in defaults:
                raise GradstepError(f"{name}() needs a value for {param}", kind="arity")
            bound[param] = defaults[param]
    return [bound[p] for p in params]


def _count(n: int) -> str:
    return {0: "no arguments", 1: "one argument"}.get(n, f"{n} arguments")
