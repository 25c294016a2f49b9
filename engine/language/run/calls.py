"""Running a call of the program's functions that nests deep on a thread of its own.

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

HEADROOM = 400  # Python frames kept free below the recursion limit on every thread
SHALLOW = 8  # calls of the program nested less deep than this never check the stack


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
