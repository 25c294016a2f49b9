"""The limits on a program, as named constants the app can show. Each is checked before the
work it protects, so hostile input fails fast with a clear error instead of a crash or a hang.

Before running (the text): ``MAX_SOURCE_CHARS``, ``MAX_DEPTH``, ``MAX_OPERATORS``.

While running (the interpreter's budget, ``engine.language.budget``), each checked at the
statement, loop, call or operation that would pass it, and reported there as a ``limit`` error:

- ``MAX_STATEMENTS``: statements executed, counting every pass through a loop or function body;
- ``MAX_LOOP_ITERATIONS``: passes of one loop (a ``for``, a comprehension, or a builtin such as
  ``sum`` walking its argument); ``MAX_TOTAL_ITERATIONS``: of all loops together, so that nested
  loops cannot multiply the first limit;
- ``MAX_CALL_DEPTH``: calls of functions, methods and classes nested in one another (recursion),
  as deep as CPython's default allows (a deep call runs on a thread of its own: never deeper
  than Python's own limit, which gradstep never raises);
- ``MAX_INSTANCES``: objects of the program's own classes made (its own ``Value`` nodes);
- ``MAX_CLASS_WALK``: classes an attribute lookup may look through (a class, its bases, theirs),
  checked where a class is made: a chain of 900 subclasses made every lookup cost 900 for free;
- ``MAX_NODES``: values in one graph, inputs, constants and op results alike, checked on the
  graph each ``backward()`` walks and on the graph drawn; ``MAX_VALUES_MADE``: values made since
  the program began or since a training loop's last iteration (its ``backward()`` on a new
  graph), checked as each is made, so that a runaway loop stops early;
  ``MAX_TOTAL_NODES``: values made by the whole run, every iteration together;
- ``MAX_LIST_SIZE``: items in one list, tuple or array (``[0] * 10**9`` is refused before it is
  made); ``MAX_BULK_ITEMS``: list items copied (``+``, ``*``, slices, ``list()``), compared
  (``==``, ``in``, ``index()``: every item of nested lists, a row shared n times compared once)
  or hashed (a tuple key, every tuple inside it), array numbers computed, and graph nodes walked
  by ``backward()`` and ``zero_grad()``, over the whole program;
- ``MAX_TEXT_CHARS``: characters of one string (``"=" * 10**9`` is refused before it is made);
  ``MAX_TEXT_BUILT``: characters of all the strings the program builds (f-strings, ``+``,
  ``join``, ``%``, ``str()``), over the whole program;
- ``MAX_CONSOLE_CHARS``: characters ``print`` shows; past it, one line says the rest was cut;
- ``MAX_RUN_S``: the wall-clock time of a run, checked every few hundred statements and loop
  passes (no single operation runs long: each is charged for its work above). A request's runs
  share one deadline (``engine.language.budget.time_limit``): an own engine's program is run
  again to find its true derivatives, within the same seconds;
- ``MAX_INT_BITS``: the size of a whole number. Python's ints grow without bound, so
  ``10**10**10`` is refused from the sizes of its operands, before it is computed. The bound is
  the range of a float, so this one is reported as ``overflow``, as every other number too large
  for a float is.

``DEFAULT_SEED`` seeds ``random`` (and numpy's ``np.random``) when a program does not: the same
program always builds the same graph.
"""

from __future__ import annotations

MAX_SOURCE_CHARS = 20_000  # characters of source text, checked before anything else
MAX_DEPTH = 100  # brackets nested inside one another: ((…)), f(g(h(…)))
MAX_OPERATORS = 500  # operators in one statement (a chain of 500 `+` nests 500 deep in the AST)
MAX_NODES = 5_000  # values in one graph (one training iteration's): inputs, constants, op results
MAX_VALUES_MADE = 4 * MAX_NODES  # values made in one iteration (the demo: 6,900 before its first)
MAX_TOTAL_NODES = 400_000  # values made by the whole run: micrograd's demo, 100 iterations, 331,000
MAX_CHECK_EVALUATIONS = 100_000  # op re-evaluations the numerical gradient check may spend
MAX_TRUTH_RUNS = 40  # runs of a learner's program to find derivatives gradstep's ops do not know

MAX_STATEMENTS = 200_000  # statements executed, loop and function bodies counted each time
MAX_LOOP_ITERATIONS = 50_000  # passes of one loop or comprehension
MAX_TOTAL_ITERATIONS = 1_000_000  # passes of all loops together
MAX_CALL_DEPTH = 1_000  # calls nested in one another: recursion (CPython's default limit)
MAX_CLASS_WALK = 100  # classes an attribute lookup may look through: a class, its bases, theirs
MAX_INSTANCES = 20_000  # objects of the program's own classes: its Value nodes, neurons...
MAX_TEXT_CHARS = 100_000  # characters in one string
MAX_TEXT_BUILT = 2_000_000  # characters of all the strings the program builds
MAX_CONSOLE_CHARS = 50_000  # characters print() shows; the rest is cut, with a line saying so
MAX_LIST_SIZE = 100_000  # items in one list, tuple or array
MAX_BULK_ITEMS = 1_000_000  # list items copied plus graph nodes walked by backward()
# micrograd's demo (100 iterations of a 337-parameter MLP) runs in 6.5 s on a 2-core machine: it
# fits, with room for a loaded server
MAX_RUN_S = 10.0
MAX_INT_BITS = 1_024  # bits of a whole number: the range of a float (2**1024 overflows one)
DEFAULT_SEED = 0  # random.seed() when the program gives none
