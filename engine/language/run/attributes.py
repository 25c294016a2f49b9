"""Attributes: the only way from one object of a program to another. Each kind of object has
its own short list (a Value's data, grad, label and methods; an instance's own attributes and
its class's methods; a module's names; a list's methods); nothing else is reachable. Setting
one (``self.w = ...``, ``p.data -= ...``) and calling a Value's method are here too."""

from __future__ import annotations

import ast

from engine.errors import GradstepError, Span
from engine.language.library.machine import Machine
from engine.language.objects import containers, strings
from engine.language.objects.array import Array
from engine.language.objects.dunders import OPERATOR_METHODS
from engine.language.objects.kinds import (
    MISSING,
    Args,
    BoundMethod,
    Builtin,
    CallRecord,
    Class,
    Frame,
    Function,
    Ignored,
    Instance,
    Kwargs,
    LookedUp,
    ModuleObject,
    NotProvided,
    Scope,
    Set,
    Site,
    ValueMethod,
    describe,
)
from engine.language.objects.operators import as_float, is_number
from engine.ops import FUNCTIONS
from engine.value import Value

VALUE_METHODS = (*FUNCTIONS, "backward", "zero_grad")
_OWN = (Instance, Class)  # the objects whose operator methods a program may name
_MICROGRAD_INSIDES = {
    "_prev": "its operands",
    "_children": "its operands",
    "_op": "the op that made it",
    "_backward": "its step of the backward pass",
}


def attribute(
    obj: object, name: str, node: ast.Attribute, scope: Scope, call: ast.Call | None = None
) -> object:
    """``obj.name``; ``call``: the call it is the function of, where a refusal points."""
    where = scope.frame.where
    found: object = MISSING
    if name.startswith("__") and (name not in OPERATOR_METHODS or type(obj) not in _OWN):
        found = MISSING  # Python's internals: never looked up, whatever the object
    elif type(obj) is Value:
        found = _value_attribute(obj, name, (node, scope.frame))
    elif type(obj) is Instance:
        found = obj.attrs.get(name, MISSING)
        if found is MISSING:
            found = obj.cls.lookup(name)
            if type(found) is Function:
                found = BoundMethod(obj, found, (node, scope.frame))
    elif type(obj) is Class:
        found = obj.lookup(name)
    elif type(obj) is ModuleObject:
        found = obj.attribute(name)
    elif type(obj) is Ignored:
        return Ignored(f"{obj.name}.{name}")
    elif type(obj) is NotProvided:
        raise obj.error().at(where(node))
    elif type(obj) is list or type(obj) is dict or type(obj) is Set:
        found = containers.method(obj, name)
    elif type(obj) is str:
        found = strings.method(obj, name)
    elif type(obj) is Array and name == "shape":
        return obj.shape
    elif isinstance(obj, int | float) and not isinstance(obj, bool) and name in FUNCTIONS:
        return ValueMethod(obj, name, (node, scope.frame))  # (0.5).tanh(): tanh(0.5), a number
    if found is not MISSING:
        return found
    if isinstance(obj, Function | BoundMethod | Builtin | ValueMethod):
        text, method = _text(node.value, scope), _method_text(obj)
        message = f"{text} is a method: call it first, as in {text}().{name}"
        if method is not None and method != text:  # o = n.tanh, then o.backward()
            message = (
                f"{text} is the method {method}, not the value it gives: did you mean "
                f"{method}() where {text} is assigned?"
            )
        raise GradstepError(message, kind="unsupported", span=where(node.value))
    kind = "name" if isinstance(obj, Instance | Class | ModuleObject) else "unsupported"  # a typo?
    raise GradstepError(_no_attribute(obj, name), kind, where(call or node))


def _value_attribute(v: Value, name: str, looked_up: LookedUp) -> object:
    if name == "data":
        return v.data
    if name == "grad":
        return v.grad
    if name == "label":
        return v.label or ""
    if name in VALUE_METHODS:
        return ValueMethod(v, name, looked_up)
    return MISSING


def _no_attribute(obj: object, name: str) -> str:
    if isinstance(obj, Value):
        if name in _MICROGRAD_INSIDES:
            return (
                f".{name} is micrograd's inside of a value ({_MICROGRAD_INSIDES[name]}): "
                f"gradstep builds, draws and walks the graph itself, so a value has no .{name}"
            )
        methods = ", ".join(f"{m}()" for m in VALUE_METHODS)
        return f"a value has no .{name}: it has .data, .grad, .label and the methods {methods}"
    if name.startswith("__"):
        return f"the attribute .{name} is not supported: it is Python's internals"
    if isinstance(obj, int | float) and name in ("data", "grad"):
        return f"a plain number has no .{name}: only values (Value(2.0)) have .data and .grad"
    if isinstance(obj, Instance | Class | ModuleObject):
        return f"{describe(obj)} has no attribute .{name}"
    return f"the attribute .{name} of {describe(obj)} is not supported"


def _text(node: ast.AST, scope: Scope) -> str:
    """The source text of ``node`` (in the prelude, whose text the user never sees: "this")."""
    return _text_in(node, scope.frame)


def _text_in(node: ast.AST, frame: Frame) -> str:
    if frame.anchor is not None:
        return "this"
    span = frame.where(node)
    return frame.unit.lines[span.line - 1][span.column - 1 : span.end_column - 1]


def _method_text(obj: object) -> str | None:
    """How a method that was not called was written (``n.tanh``), when known."""
    looked_up = obj.looked_up if isinstance(obj, BoundMethod | ValueMethod) else None
    return None if looked_up is None else _text_in(*looked_up)


def call_value_method(
    m: Machine, method: ValueMethod, args: Args, kwargs: Kwargs, site: Site
) -> object:
    """``x.tanh()``: the op on ``x`` (``x.backward()`` runs only as a statement of its own)."""
    if method.name in ("backward", "zero_grad"):
        raise GradstepError(
            f".{method.name}() inside an expression is not supported: call it on a line of its own",
            kind="unsupported",
        )
    if args or kwargs:
        raise GradstepError(
            f".{method.name}() takes no arguments, not {len(args) + len(kwargs)}", "arity"
        )
    return m.unary(method.name, method.value, site.node, site.scope)


def set_attribute(
    m: Machine,
    obj: object,
    name: str,
    value: object,
    statement: Span,
    augmented: bool = False,
    record: CallRecord | None = None,
) -> None:
    """``obj.name = value``: a value's .data (a gradient step), .grad or .label; an attribute
    of an instance (which names a value stored there: self.b, self.w[0]; a number written to
    one of the program's own objects is watched); or of a class (Node.__add__ = add)."""
    recorder = m.recorder
    if type(obj) is Value and not name.startswith("__"):
        if name == "data":
            recorder.set_data(obj, as_float(value, ".data ="), statement)
        elif name == "grad":
            obj.grad = as_float(value, ".grad =")
        elif name == "label":
            if not isinstance(value, str):
                raise GradstepError(f"a label is a string, not {describe(value)}", kind="type")
            recorder.set_label(obj, value)
        else:
            raise GradstepError(
                f"a value's .data, .grad and .label can be set, not .{name}", kind="unsupported"
            )
    elif type(obj) is Instance and not name.startswith("__"):
        attrs = obj.attrs
        before = attrs.get(name)
        attrs[name] = value
        if obj.cls.own:
            if is_number(value) or is_number(before):
                m.watch.wrote(obj, name, before, value, statement, augmented, record)
            m.learner.name_attribute(value, name)
        recorder.name_attribute(value, name)
    elif type(obj) is Class and (not name.startswith("__") or name in OPERATOR_METHODS):
        obj.attrs[name] = value
    elif (method := _method_text(obj)) is not None:  # o = n.tanh, then o.label = 'o'
        raise GradstepError(
            f"{method} is a method, not the value it gives: did you mean {method}()? "
            "(a method's attributes cannot be set)",
            kind="unsupported",
        )
    else:
        raise GradstepError(
            f"attributes of {describe(obj)} cannot be set: set those of your own objects "
            "(self.w = ...) and of values (.data, .grad, .label)",
            kind="unsupported",
        )
