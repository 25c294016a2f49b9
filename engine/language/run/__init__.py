"""Pass 2: running the program. ``evaluator`` holds the state of one run and its core (blocks,
calls, and ``HANDLERS``, the one table from a syntax-tree node's type to what it does); each kind
of node is one ``on_<node>`` function in ``statements``, ``definitions`` (def, lambda, class and
import), ``expressions``, ``literals`` (lists, dicts and sets, subscripts, comprehensions) or
``formatting`` (f-strings). The evaluator's operators are ``operations`` (a base class of
``Evaluator``), the attributes a program can reach ``attributes``, and a call that nests deep runs
on a thread of its own (``calls``).

The handlers name the ``Evaluator`` in annotations only: at run time the imports go one way,
from ``evaluator`` to them.
"""
