"""The program's own classes, watched: each class the program defines is instrumented as it is
made (``builtins.__build_class__``), so that the recorder sees its objects made, the numbers
written to their attributes, the functions they keep called, and their ``backward()``.

What the program sees is unchanged but for one thing: a function stored in an object's
attribute (``out._backward = _backward``) is stored as a wrapper of the same name that tells
the recorder when it runs. An object's ``__dict__``, its class's methods and every value are
the program's own.
"""

from __future__ import annotations

import builtins
import functools
from collections.abc import Callable
from types import CodeType, FunctionType, MethodType
from typing import Any

from engine.guest.places import TRACKED, getframe
from engine.guest.recorder import DATA, GRAD, Info, Recorder, field, is_number
from engine.guest.source import OPERATORS

MARK = "__gradstep_watched__"  # set on a class once its objects are watched
_original_build_class = builtins.__build_class__
_set = object.__setattr__
WATCHED = frozenset(DATA + GRAD)  # the numbers a write is logged for
KEPT = (FunctionType, MethodType)  # what an object keeps to call later (out._backward)


def install(recorder: Recorder) -> None:
    """Watch every class the program (or gradstep's micrograd.nn) defines from now on."""

    def build_class(func: Callable[..., Any], name: str, *bases: Any, **kwargs: Any) -> Any:
        cls = _original_build_class(func, name, *bases, **kwargs)
        code = getattr(func, "__code__", None)
        if code is not None and code.co_filename in TRACKED and isinstance(cls, type):
            try:
                watch(recorder, cls)
            except (TypeError, AttributeError):  # a class whose attributes cannot be set
                pass
        return cls

    builtins.__build_class__ = build_class  # type: ignore[assignment]


def uninstall() -> None:
    builtins.__build_class__ = _original_build_class


def watch(recorder: Recorder, cls: type) -> None:
    if any(op in k.__dict__ for k in cls.__mro__ for op in OPERATORS):  # an autograd engine
        codes = _codes(cls.__dict__.values())
        recorder.places.codes.extend(codes)  # kept: their ids stand for them
        recorder.places.engine.update(id(c) for c in codes)
    recorder.classes.add(cls)
    recorder.nameable.add(cls)
    inherited = any(getattr(base, MARK, False) for base in cls.__mro__[1:])
    setattr(cls, MARK, True)
    if "__init__" in cls.__dict__:
        _wrap_init(recorder, cls, cls.__dict__["__init__"])
    if "backward" in cls.__dict__ and callable(cls.__dict__["backward"]):
        _wrap_backward(recorder, cls, cls.__dict__["backward"])
    if not inherited or "__setattr__" in cls.__dict__:
        original = cls.__dict__.get("__setattr__")
        hooked = _setattr_hook(recorder, cls, cls.__setattr__)
        recorder.hooks.append((cls, original, hooked))
        if recorder.hooking:
            type.__setattr__(cls, "__setattr__", hooked)


def _codes(members: Any) -> list[CodeType]:
    """The code of a class's methods, and of every function written inside them."""
    out: list[CodeType] = []
    for m in members:
        if isinstance(m, staticmethod | classmethod):
            m = m.__func__
        elif isinstance(m, property):
            m = m.fget
        code = getattr(m, "__code__", None)
        stack = [code] if isinstance(code, CodeType) else []
        while stack:
            c = stack.pop()
            out.append(c)
            stack.extend(k for k in c.co_consts if isinstance(k, CodeType))
    return out


def set_hooks(recorder: Recorder, on: bool) -> None:
    """Writes to the program's objects watched, or not. Until the program's first backward()
    they always are (a lecture's cells seed and call _backward by hand); after it, only while
    a backward() runs: a training loop's forward passes run at the program's own speed."""
    for cls, original, hooked in recorder.hooks:
        if on:
            type.__setattr__(cls, "__setattr__", hooked)
        elif original is None:
            if "__setattr__" in cls.__dict__:
                type.__delattr__(cls, "__setattr__")
        else:
            type.__setattr__(cls, "__setattr__", original)


def _wrap_init(recorder: Recorder, cls: type, init: Callable[..., Any]) -> None:
    @functools.wraps(init)
    def __init__(self: Any, *args: Any, **kwargs: Any) -> Any:
        if not recorder.watching:
            return init(self, *args, **kwargs)
        mine = recorder.info(self) is None
        info = recorder.register(self) if mine else None
        out = init(self, *args, **kwargs)
        if info is not None:
            nudge = recorder.nudge
            if nudge is not None and nudge[0] == info.index:
                attr = data_attribute(self)
                if attr is not None:
                    _set(self, attr, getattr(self, attr) + nudge[1])
        return out

    type.__setattr__(cls, "__init__", __init__)


def _wrap_backward(recorder: Recorder, cls: type, method: Callable[..., Any]) -> None:
    @functools.wraps(method)
    def backward(self: Any, *args: Any, **kwargs: Any) -> Any:
        if recorder.depth == 0:
            _begin_pass(recorder, self)
        recorder.depth += 1
        try:
            return method(self, *args, **kwargs)
        finally:
            recorder.depth -= 1
            if recorder.depth == 0:
                _end_pass(recorder, self, getframe(1))

    cls.backward = backward  # type: ignore[attr-defined]


def _begin_pass(recorder: Recorder, root: object) -> None:
    """A backward() of the program's objects begins: its writes are watched, and the functions
    its graph's nodes keep are bracketed (kept since the forward pass, unwatched)."""
    if recorder.hooking or not recorder.watching:
        return
    set_hooks(recorder, True)
    from engine.guest.snapshot import Unreadable, own_nodes

    try:
        nodes, _ = own_nodes(recorder, root)
    except Unreadable:
        return
    for node, info in nodes:
        d = getattr(node, "__dict__", None)
        if d is None:
            continue
        kept = [(k, f) for k, f in d.items() if type(f) in KEPT]
        for k, f in kept:
            d[k] = _kept(recorder, info, k, f)


def _end_pass(recorder: Recorder, root: object, caller: Any) -> None:
    recorder.pass_ended(root, caller)
    recorder.hooking = False
    set_hooks(recorder, False)


def backward_function(recorder: Recorder, function: Callable[..., Any]) -> Callable[..., Any]:
    """A top-level ``def backward(root)``: its calls are passes, as a method's are."""
    if not isinstance(function, FunctionType):
        return function

    @functools.wraps(function)
    def backward(*args: Any, **kwargs: Any) -> Any:
        mine = recorder.depth == 0 and args and type(args[0]) in recorder.classes
        if mine:
            _begin_pass(recorder, args[0])
        recorder.depth += 1
        try:
            return function(*args, **kwargs)
        finally:
            recorder.depth -= 1
            if mine:
                _end_pass(recorder, args[0], getframe(1))

    return backward


def _setattr_hook(recorder: Recorder, cls: type, original: Callable[..., Any]) -> Any:
    def __setattr__(self: Any, name: str, value: Any) -> None:
        kind = type(value)
        if name in WATCHED:
            if kind is float or kind is int or (kind is not bool and is_number(value)):
                info = recorder.info(self) or recorder.register(self)
                recorder.wrote(info, name, _current(self, name), value, getframe(1))
        elif kind is FunctionType or kind is MethodType:
            value = _kept(recorder, recorder.info(self) or recorder.register(self), name, value)
        else:
            recorder.name_attribute(value, name)
        original(self, name, value)

    __setattr__.__qualname__ = f"{cls.__qualname__}.__setattr__"
    return __setattr__


def _current(obj: object, name: str) -> object:
    d = getattr(obj, "__dict__", None)
    if d is not None and name in d:
        return d[name]
    try:
        return object.__getattribute__(obj, name)
    except AttributeError:
        return None


def _kept(recorder: Recorder, owner: Info, attr: str, function: Callable[..., Any]) -> Any:
    """``function`` as stored in ``attr`` of an object: the same call, bracketed."""
    if getattr(function, "__gradstep_kept__", False):
        return function

    def kept(*args: Any, **kwargs: Any) -> Any:
        index = recorder.call_began(owner, attr, function, getframe(1))
        try:
            return function(*args, **kwargs)
        finally:
            recorder.call_ended(index)

    for name in ("__name__", "__qualname__", "__doc__", "__module__"):
        try:
            setattr(kept, name, getattr(function, name))
        except (AttributeError, TypeError):
            pass
    kept.__gradstep_kept__ = True  # type: ignore[attr-defined]
    kept.__wrapped__ = function  # type: ignore[attr-defined]
    return kept


def data_attribute(obj: object) -> str | None:
    """The attribute holding an object's number, by the names tutorials use."""
    return field(obj, DATA, is_number)


def set_data(obj: object, x: float) -> None:
    """An input's given value, set where the program made it (no write is logged: it stands for
    the number the program passed to its constructor)."""
    attr = data_attribute(obj)
    if attr is not None:
        _set(obj, attr, x)
