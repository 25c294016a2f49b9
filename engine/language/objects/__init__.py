"""What a running program holds and what works on it, under the evaluator: the kinds of object
besides numbers, strings, lists and Values, and where the evaluator is (``kinds``: functions,
classes, instances, sets, modules, frames and scopes, with ``describe``); the tiny numpy
(``array``); operators on plain values (``operators``) and on the program's own objects, through
their operator methods (``dunders``); lists, dicts and sets and their methods (``containers``);
str() and repr() of every object, format specs and the console (``text``), and a string's methods
(``strings``); and a call's arguments bound to parameters (``arguments``).

A container's or a string's method is a builtin: it receives the running program as a
``library.machine.Machine``, named here in annotations only.
"""
