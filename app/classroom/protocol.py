"""What every store of classes does: the ``ClassStore`` interface, its limits and its error.
Its two implementations (``memory``, ``redis_store``) import this; ``store.open_store``
chooses one. Both pass the same tests (tests/api/test_classes.py).

A class lasts ``CLASS_TTL_S`` after its teacher's last command (an answer does not extend it);
then it is deleted with its answers, as when it is closed.
"""

from __future__ import annotations

from collections.abc import Callable
from contextlib import AbstractAsyncContextManager
from typing import Any, Protocol

from app.classroom.hub import Hub
from app.classroom.model import Change, Outcome, Snapshot
from app.classroom.state import ClassState

CLASS_TTL_S = 12 * 3600  # a day's lectures; a class is rarely wanted the next morning
MAX_ANSWERS_PER_ROUND = 2_000  # the largest lecture hall, twice over
MAX_ROSTER = MAX_ANSWERS_PER_ROUND  # students listed for the teacher; later ones are not
Command = Callable[[Snapshot], Change]  # may raise a refusal: nothing then changes


class StoreUnavailable(Exception):
    """The broker cannot be reached: a 503, the input not at fault."""


class ClassStore(Protocol):
    kind: str  # "memory" or "redis", for messages
    hub: Hub  # this worker's listeners
    ttl_s: float  # a class's lifetime after its teacher's last command

    async def create(self, code: str, key_hash: str, state: ClassState) -> bool:
        """Store a new class; False when ``code`` is taken (the caller draws another)."""
        ...

    async def get(self, code: str) -> Snapshot | None:
        """The class, or None when there is none (never made, closed or expired)."""
        ...

    async def update(self, code: str, command: Command) -> Snapshot | None:
        """Apply ``command`` atomically: its state and open round are stored, its events sent,
        with the next ids, and the class's lifetime starts again. The class as it then is, or
        None when there is no such class (the command is not run)."""
        ...

    async def answer(
        self, code: str, round_key: str, student: str, record: dict[str, Any]
    ) -> tuple[Outcome, int]:
        """Count ``student``'s answer to the round ``round_key`` ("question:round") when that
        round is open and this student has not answered it; the outcome and the round's count.
        A counted answer sends an ``answers`` event with the count."""
        ...

    async def answers(self, code: str) -> dict[str, list[dict[str, Any]]]:
        """Every answer of the class, by round, each ``{"value", "nickname", "at"}``, in the
        order they were counted; no student tokens."""
        ...

    async def present(
        self, code: str, student: str, nickname: str | None, opened: int, seconds: float
    ) -> None:
        """Note ``student``'s page as following the class: a stream of it ``opened`` (1), heard
        from (0) or ended (-1); it counts as following while it has a stream open and one was
        heard from in the last ``seconds`` (a stream that ended unheard, its worker killed). The
        nickname it gave (None keeps the one it had). At most ``MAX_ROSTER`` students are
        noted; nothing when there is no such class."""
        ...

    async def roster(self, code: str, round_key: str) -> list[dict[str, Any]]:
        """The students noted, first seen first, each ``{"nickname", "present", "answered"}``
        (``answered``: the round ``round_key``; the nickname of that answer, else the page's);
        no student tokens."""
        ...

    async def close(self, code: str, reason: str) -> bool:
        """Delete the class, its answers and students, and send ``closed``; False when there
        was none."""
        ...

    def listen(self, code: str) -> AbstractAsyncContextManager[Any]:
        """A queue of the class's events from now on (``hub.Item``), for one listener."""
        ...

    async def reachable(self) -> bool:
        """Whether the classes can be reached now (the broker answers)."""
        ...

    async def aclose(self) -> None: ...
