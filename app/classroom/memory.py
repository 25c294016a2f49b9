"""Classes in this process's memory: ``gradstep serve`` with one worker, nothing else to run.

Every method runs on the event loop without awaiting in between its reads and writes, so each
is atomic. An expired class is deleted when it is next looked at, and each new class sweeps out
the expired ones; ``MAX_CLASSES`` bounds the rest.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass, field, replace
from typing import Any

from app.classroom.hub import Hub, Item
from app.classroom.model import (
    Outcome,
    Snapshot,
    closed_event,
    count_event,
    event_json,
    roster_row,
    round_of,
)
from app.classroom.protocol import MAX_ANSWERS_PER_ROUND, MAX_ROSTER, Command, StoreUnavailable
from app.classroom.state import ClassState

MAX_CLASSES = 10_000  # a few KB to a program's 20,000 characters each, plus answers


@dataclass(slots=True)
class _Class:
    snapshot: Snapshot
    expires: float
    answers: dict[str, dict[str, dict[str, Any]]] = field(default_factory=dict)  # round → student
    students: dict[str, dict[str, Any]] = field(default_factory=dict)  # {nickname, streams, till}


class MemoryStore:
    kind = "memory"

    def __init__(self, ttl_s: float, clock: Callable[[], float] = time.monotonic) -> None:
        self.ttl_s = ttl_s
        self.clock = clock
        self.hub = Hub()
        self._classes: dict[str, _Class] = {}

    def _live(self, code: str) -> _Class | None:
        held = self._classes.get(code)
        if held is not None and held.expires <= self.clock():
            del self._classes[code]
            return None
        return held

    async def create(self, code: str, key_hash: str, state: ClassState) -> bool:
        now = self.clock()
        for gone in [c for c, held in self._classes.items() if held.expires <= now]:
            del self._classes[gone]
        if code in self._classes:
            return False
        if len(self._classes) >= MAX_CLASSES:
            raise StoreUnavailable(f"this server holds {MAX_CLASSES:,} classes, its most")
        self._classes[code] = _Class(Snapshot(key_hash, 0, "", state), now + self.ttl_s)
        return True

    async def get(self, code: str) -> Snapshot | None:
        held = self._live(code)
        return None if held is None else held.snapshot

    async def update(self, code: str, command: Command) -> Snapshot | None:
        held = self._live(code)
        if held is None:
            return None
        change = command(held.snapshot)
        seq = held.snapshot.seq
        datas = [event_json(event) for event in change.events]
        held.snapshot = replace(
            held.snapshot, seq=seq + len(datas), open=change.open, state=change.state
        )
        held.expires = self.clock() + self.ttl_s
        for offset, data in enumerate(datas, 1):
            self.hub.deliver(code, seq + offset, data)
        return held.snapshot

    async def answer(
        self, code: str, round_key: str, student: str, record: dict[str, Any]
    ) -> tuple[Outcome, int]:
        held = self._live(code)
        if held is None:
            return Outcome.GONE, 0
        snapshot = held.snapshot
        count = snapshot.counts.get(round_key, 0)
        if snapshot.open != round_key:
            return Outcome.NOT_OPEN, count
        answers = held.answers.setdefault(round_key, {})
        if student in answers:
            return Outcome.ANSWERED, count
        if count >= MAX_ANSWERS_PER_ROUND:
            return Outcome.FULL, count
        answers[student] = record
        count += 1
        seq = snapshot.seq + 1
        held.snapshot = replace(snapshot, seq=seq, counts={**snapshot.counts, round_key: count})
        question, number = round_of(round_key)
        self.hub.deliver(code, seq, event_json(count_event(question, number, count)))
        return Outcome.COUNTED, count

    async def answers(self, code: str) -> dict[str, list[dict[str, Any]]]:
        held = self._live(code)
        if held is None:
            return {}
        return {key: list(by.values()) for key, by in held.answers.items()}

    async def present(
        self, code: str, student: str, nickname: str | None, opened: int, seconds: float
    ) -> None:
        held = self._live(code)
        if held is None:
            return
        seen = held.students.get(student)
        if seen is None:
            if len(held.students) >= MAX_ROSTER:
                return
            seen = held.students[student] = {"nickname": None, "streams": 0, "till": 0.0}
        if nickname is not None:
            seen["nickname"] = nickname
        # a stream heard from is open, if the note of its opening was lost (a broker's blip)
        seen["streams"] = max(0 if opened else 1, seen["streams"] + opened)
        if opened >= 0:
            seen["till"] = self.clock() + seconds

    async def roster(self, code: str, round_key: str) -> list[dict[str, Any]]:
        held = self._live(code)
        if held is None:
            return []
        now = self.clock()
        answered = held.answers.get(round_key, {})
        return [roster_row(seen, answered.get(s), now) for s, seen in held.students.items()]

    async def close(self, code: str, reason: str) -> bool:
        held = self._live(code)
        if held is None:
            return False
        del self._classes[code]
        seq = held.snapshot.seq + 1
        self.hub.deliver(code, seq, event_json(closed_event(reason)))
        return True

    @asynccontextmanager
    async def listen(self, code: str) -> AsyncIterator[asyncio.Queue[Item]]:
        queue, _first = self.hub.add(code)
        try:
            yield queue
        finally:
            self.hub.remove(code, queue)

    async def reachable(self) -> bool:
        return True

    async def aclose(self) -> None:
        self.hub.shutdown()
