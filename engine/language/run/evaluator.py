"""The evaluator: gradstep's own interpreter of a Python subset, run straight from the syntax
tree. It never hands user text to eval, exec, compile or an import; the shape check
(``check.shape``) has refused what it cannot run, and the budget bounds what it runs.

One class, ``Evaluator``, holds the state of one run and its core: blocks and statements,
expressions, calls, and the operators that make graph nodes. What each kind of syntax-tree
node does is one function (``on_<node>``) in ``statements`` or ``expressions``;
``HANDLERS`` maps every node type the language runs to its function: the one dispatch table,
built here and nowhere else. Those two modules name the Evaluator in annotations only, so at
run time the imports go one way: from here to them.
"""

from __future__ import annotations

import ast
from collections.abc import Callable
from typing import Any

from engine.errors import GradstepError
from engine.language.budget import Budget
from engine.language.check.messages import REFUSED, ignored_call, refusal
from engine.language.library.modules import Modules
from engine.language.objects.arguments import bind
from engine.language.objects.kinds import (
    BREAK,
    CONTINUE,
    RETURN,
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
    NotProvided,
    Scope,
    Site,
    ValueMethod,
    describe,
)
from engine.language.objects.text import Console
from engine.language.record.learner import Learner
from engine.language.record.recorder import Recorder
from engine.language.record.watch import Watch
from engine.language.run import definitions, expressions, formatting, literals, statements
from engine.language.run.attributes import call_value_method
from engine.language.run.calls import SHALLOW, on_thread, stack_is_deep
from engine.language.run.operations import Operations
from engine.language.source import Unit

NOTHING = object()  # no expression or assignment has run yet
Handler = Callable[["Evaluator", Any, Scope], object]  # (evaluator, its node, scope) -> result

HANDLERS: dict[type[ast.AST], Handler] = {
    # Statements: each returns how the block it is in goes on (None: the next statement).
    ast.Expr: statements.on_expr,
    ast.Assign: statements.on_assign,
    ast.AugAssign: statements.on_augassign,
    ast.For: statements.on_for,
    ast.If: statements.on_if,
    ast.Return: statements.on_return,
    ast.FunctionDef: definitions.on_functiondef,
    ast.ClassDef: definitions.on_classdef,
    ast.Import: definitions.on_import,
    ast.ImportFrom: definitions.on_importfrom,
    ast.While: statements.on_while,
    ast.Assert: statements.on_assert,
    ast.Raise: statements.on_raise,
    ast.Pass: lambda ev, stmt, scope: None,
    ast.Global: lambda ev, stmt, scope: None,  # read when the def is made: Function.declared
    ast.Nonlocal: lambda ev, stmt, scope: None,
    ast.Break: lambda ev, stmt, scope: BREAK,
    ast.Continue: lambda ev, stmt, scope: CONTINUE,
    # Expressions: each returns its value.
    ast.Constant: expressions.on_constant,
    ast.Name: expressions.on_name,
    ast.BinOp: expressions.on_binop,
    ast.UnaryOp: expressions.on_unaryop,
    ast.BoolOp: expressions.on_boolop,
    ast.Compare: expressions.on_compare,
    ast.IfExp: expressions.on_ifexp,
    ast.Call: expressions.on_call,
    ast.Attribute: expressions.on_attribute,
    ast.Subscript: literals.on_subscript,
    ast.Slice: literals.on_slice,
    ast.List: literals.on_list,
    ast.Tuple: literals.on_tuple,
    ast.ListComp: literals.on_listcomp,
    ast.GeneratorExp: literals.on_genexp,
    ast.SetComp: literals.on_setcomp,
    ast.DictComp: literals.on_dictcomp,
    ast.Set: literals.on_set,
    ast.Dict: literals.on_dict,
    ast.Lambda: definitions.on_lambda,
    ast.JoinedStr: formatting.on_joinedstr,
    ast.FormattedValue: formatting.on_formattedvalue,
}


def refuse(ev: Evaluator, node: ast.AST, scope: Scope) -> object:
    """What the shape check refuses never runs; this is the same refusal, in case."""
    raise refusal(scope.frame.where(node), *REFUSED.get(type(node), ("this", "remove it")))


class Evaluator(Operations):
    """One run of one program. Builtins and modules see it as a ``library.machine.Machine`` (mypy
    checks that it is one where ``Modules`` is given it); its operators are ``Operations``'."""

    def __init__(
        self,
        unit: Unit,
        given: dict[str, float],
        makes_values: bool = False,
        nudge: tuple[int, float] | None = None,
        iteration: int | None = None,
    ) -> None:
        self.budget = Budget()
        self.recorder = Recorder(self.budget, given, iteration)
        self.given = given  # input values by name, for names the program reads but never sets
        self.makes_values = makes_values  # top-level numbers stay numbers until used (Tagged)
        self.watch = Watch()  # what the program's own objects do
        self.learner = Learner(self.budget, given, nudge)
        self.console = Console()
        self.ids: dict[int, tuple[object, int]] = {}  # id(): the run's own numbering
        self.modules = Modules(self)  # each made when the program first imports it
        self.notes: list[str] = []  # what was skipped that the user should know
        self._noted_lines: set[int] = set()  # lines whose skipped calls are noted already
        self.user_globals: dict[str, object] = {}  # the program's top-level names
        self.top = Frame(unit, None, None, top=True)  # where a given name is bound
        self.names_before: dict[str, int] = {}  # the top's name counters as its statement began
        self.last: object = NOTHING  # the value of the last top-level expression or assignment
        self.last_node: ast.expr | None = None
        self.at: tuple[ast.stmt, Scope] | None = None  # the statement running, for a late error

    def run(self, tree: ast.Module) -> None:
        self.block(tree.body, Scope(self.top, self.user_globals, None, self.user_globals))

    def skipped_call(self, node: ast.Call, func: Ignored) -> None:
        """A call of matplotlib or graphviz did nothing: noted once for its line."""
        if node.lineno not in self._noted_lines:
            self._noted_lines.add(node.lineno)
            text = ast.unparse(node.func)[:40]
            self.notes.append(f"line {node.lineno}: {ignored_call(text, func.name)}")

    # Statements and expressions: dispatched on the node's type ------------------------------

    def block(self, body: list[ast.stmt], scope: Scope) -> object:
        """Runs ``body``; returns None, or the BREAK, CONTINUE or RETURN that ended it early."""
        for stmt in body:
            signal = self.statement(stmt, scope)
            if signal is not None:
                return signal
        return None

    def statement(self, stmt: ast.stmt, scope: Scope) -> object:
        frame = scope.frame
        self.at = (stmt, scope)
        if frame.top:
            self.recorder.statement_start = self.recorder.last_serial
            if frame.loops == 0:  # a statement of the module itself: a loop begins here
                self.names_before = dict(frame.counters)
        try:
            self.budget.statement()
            return HANDLERS.get(type(stmt), refuse)(self, stmt, scope)
        except GradstepError as e:
            raise e.at(frame.where(stmt)) from None

    def evaluate(self, node: ast.expr, scope: Scope) -> object:
        return HANDLERS.get(type(node), refuse)(self, node, scope)

    # Calls: every call of a program goes through ``call`` -------------------------------------

    def call(self, func: object, args: Args, kwargs: Kwargs, site: Site) -> object:
        """``func(*args, **kwargs)``, written at ``site``, whatever ``func`` is."""
        if isinstance(func, Function):
            return self.invoke(func, None, args, kwargs, site, func.name)
        if isinstance(func, BoundMethod):
            name, cls = func.function.name, func.instance.cls.name
            shown = cls if name in ("__init__", "__call__") else f"{cls}.{name}"
            return self.invoke(func.function, func.instance, args, kwargs, site, shown)
        if isinstance(func, Class):
            return self._construct(func, args, kwargs, site)
        if isinstance(func, Instance):
            method = func.cls.lookup("__call__")
            if not isinstance(method, Function):
                raise GradstepError(
                    f"{describe(func)} cannot be called: its class has no __call__",
                    kind="type",
                    span=site.span,
                )
            return self.invoke(method, func, args, kwargs, site, func.cls.name)
        try:
            if isinstance(func, Builtin):
                return func.run(self, args, kwargs, site)
            if isinstance(func, ValueMethod):
                return call_value_method(self, func, args, kwargs, site)
            if isinstance(func, NotProvided):
                raise func.error()
        except GradstepError as e:
            raise e.at(site.span) from None
        if isinstance(func, Ignored):
            if isinstance(site.node, ast.Call):
                self.skipped_call(site.node, func)
            return None
        f = site.node.func if isinstance(site.node, ast.Call) else site.node
        where = site.scope.frame.where(f)
        raise GradstepError(f"this is {describe(func)}, not a function", "name", where)

    def invoke(
        self,
        fn: Function,
        instance: Instance | None,
        args: Args,
        kwargs: Kwargs,
        site: Site,
        name: str,
    ) -> object:
        """Runs the body of the program's (or the prelude's) ``fn`` in a frame of its own,
        recorded as a call named ``name``, so the graph can fold the values it made; a call
        nested deep runs on a thread of its own (``calls``)."""
        caller = site.scope.frame
        span = site.span
        if instance is not None:
            args = [instance, *args]
        try:
            local = bind(fn, name, args, kwargs, int(instance is not None))
            self.budget.enter()
        except GradstepError as e:
            raise e.at(span) from None
        try:
            user = fn.unit is self.top.unit
            frame = Frame(fn.unit, CallRecord(name, span, caller.record), None if user else span)
            scope = Scope(frame, local, fn.closure, fn.module, fn.declared)
            if self.budget.depth >= SHALLOW and stack_is_deep():
                return on_thread(lambda: self._body(fn, scope))
            return self._body(fn, scope)
        finally:
            self.budget.leave()

    def _body(self, fn: Function, scope: Scope) -> object:
        body = fn.node.body
        if type(body) is list:
            signal = self.block(body, scope)
            return scope.frame.returned if signal is RETURN else None
        return self.evaluate(body, scope)  # type: ignore[arg-type]  # a lambda's expression

    def _construct(self, cls: Class, args: Args, kwargs: Kwargs, site: Site) -> Instance:
        instance = Instance(cls)
        index = -1
        if cls.own:
            try:
                self.budget.instance()
            except GradstepError as e:
                raise e.at(site.span) from None
            self.watch.instance_made(instance, site.span, site.scope.frame.record)
            index = len(self.watch.made) - 1
        init = cls.lookup("__init__")
        if type(init) is Function:
            self.invoke(init, instance, args, kwargs, site, cls.name)
        elif args or kwargs:
            raise GradstepError(
                f"{cls.name}() takes no arguments: it has no __init__", "arity", site.span
            )
        if index >= 0:
            self.learner.made(index, instance)
        return instance

    def kept_call(
        self, owner: Instance, attr: str, fn: Function, args: Args, kwargs: Kwargs, site: Site
    ) -> object:
        """``owner.attr(...)`` where ``attr`` holds a function of its own (``_backward``):
        watched, with the writes it makes."""
        i = self.watch.call_started(owner, attr, fn, site.span)
        try:
            return self.invoke(fn, None, args, kwargs, site, fn.name)
        finally:
            self.watch.call_ended(i)
