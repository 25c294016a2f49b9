"""Calling the program's functions: binding a call's arguments to a definition's parameters
(``*args``, keyword-only parameters and ``**kwargs`` included), and running a call that nests
deep on a thread of its own.

Deep calls: the program may nest calls as deep as CPython allows (MAX_CALL_DEPTH, 1,000: a
learner's recursive ``build_topo`` over a long chain), but each of its calls takes a dozen of
the interpreter's own Python frames, and Python's recursion limit is the server's, shared by
every thread, never raised. So when the interpreter's stack is deep (``HEADROOM`` frames short
of the limit), the next call runs on a new thread, which has its own recursion counter and C
stack, while the caller waits for it; whatever the thread raises is raised again in the
caller. Only deep calls pay for a thread (about 0.1 ms each), and a call chain of depth 1,000
takes a few dozen of them.
"""

from __future__ import annotations

import sys
import threading
from collections.abc import Callable

from engine.errors import GradstepError
from engine.language.objects import Function, Kwargs

HEADROOM = 400  # Python frames kept free below the recursion limit on every thread
SHALLOW = 8  # calls of the program nested less deep than this never check the stack


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


def stack_is_deep() -> bool:
    """True when fewer than HEADROOM frames are left below Python's recursion limit."""
    try:
        sys._getframe(max(sys.getrecursionlimit() - HEADROOM, 50))
    except ValueError:
        return False
    return True


def on_thread(run: Callable[[], object]) -> object:
    """``run()`` on a fresh thread, the caller waiting; its exception is raised here."""
    outcome: list[object] = []
    failure: list[BaseException] = []

    def target() -> None:
        try:
            outcome.append(run())
        except BaseException as e:  # handed to the caller, which raises it
            failure.append(e)

    thread = threading.Thread(target=target, name="gradstep-deep-call", daemon=True)
    thread.start()
    thread.join()
    if failure:
        raise failure[0]
    return outcome[0]


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
