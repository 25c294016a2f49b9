"""``Machine``: what a builtin, a list method or a module may ask of the running program, so
that none of them depends on the evaluator (which is one)."""

from __future__ import annotations

import ast
from typing import TYPE_CHECKING, Protocol

if TYPE_CHECKING:
    from engine.language.budget import Budget
    from engine.language.objects.kinds import Args, Kwargs, Scope, Site
    from engine.language.objects.text import Console
    from engine.language.record.learner import Learner
    from engine.language.record.recorder import Recorder
    from engine.language.record.watch import Watch


class Machine(Protocol):
    """What a builtin, a list method or a module may ask of the running program: the budget
    its work counts against, the recorder that makes its values, the watch and the learner's
    bookkeeping of its own objects, the console print writes to, and the evaluator's own call,
    ``+``, one-operand op, truth and ``<`` (so that map(), sum(), tanh() and sorted() do what
    the program's own calls and operators do), and a block to run (the prelude's)."""

    budget: Budget
    recorder: Recorder
    ids: dict[int, tuple[object, int]]  # id(): Python's id of an object -> the run's number
    watch: Watch
    learner: Learner
    console: Console

    def call(self, func: object, args: Args, kwargs: Kwargs, site: Site) -> object: ...
    def truth(self, x: object, site: Site) -> bool: ...
    def less(self, a: object, b: object, site: Site) -> bool: ...
    def arith(
        self, op: type[ast.operator], a: object, b: object, scope: Scope, node: ast.AST
    ) -> object: ...
    def unary(self, name: str, x: object, node: ast.AST, scope: Scope) -> object: ...
    def block(self, body: list[ast.stmt], scope: Scope) -> object: ...
