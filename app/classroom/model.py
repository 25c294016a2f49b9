"""A class as both stores keep it, and the events made from it.

The state (app.classroom.state) is changed only by its teacher's commands
(app.classroom.commands). Beside it a store keeps ``seq``, the id of the class's last event;
``open``, the round taking answers; and the answers, counted once per student and round. A
command is a function from a ``Snapshot`` to a ``Change``: the new state and the events it
sends, which the store applies atomically.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field
from enum import Enum
from typing import Any

from app.classroom.state import ClassProgram, ClassState, Question, question_of

Event = dict[str, Any]  # JSON, with a "type"


@dataclass(frozen=True, slots=True)
class Snapshot:
    """A class as stored: what its events and commands are made from."""

    key_hash: str  # SHA-256 of the teacher key (app.classroom.codes)
    seq: int  # the id of the class's last event
    open: str  # the round taking answers, "question:round", or ""
    state: ClassState
    counts: dict[str, int] = field(default_factory=dict)  # answers counted, by round


@dataclass(frozen=True, slots=True)
class Change:
    """What a command does: the state it leaves, the round then open, the events it sends."""

    state: ClassState
    open: str
    events: list[Event]


class Outcome(Enum):
    """What became of a student's answer."""

    COUNTED = "counted"
    ANSWERED = "answered"  # this student's first answer to the round counts; this one does not
    NOT_OPEN = "not_open"  # the round is no longer (or not) taking answers
    FULL = "full"  # the round has as many answers as it may hold
    GONE = "gone"  # no such class


def round_key(question: int, round_number: int) -> str:
    return f"{question}:{round_number}"


def round_of(key: str) -> tuple[int, int]:
    """``round_key``'s question and round, read back."""
    question, number = (int(part) for part in key.split(":"))
    return question, number


def roster_row(seen: dict[str, Any], answer: dict[str, Any] | None, now: float) -> dict[str, Any]:
    """A student as the teacher's list shows them, from what a store noted of their page
    (``nickname``, ``streams`` open, heard from ``till``) and their answer to the round on
    screen: the answer's nickname first, following while a stream is open and was heard from."""
    return {
        "nickname": (answer or {}).get("nickname") or seen.get("nickname"),
        "present": seen["streams"] > 0 and seen["till"] > now,
        "answered": answer is not None,
    }


def program_digest(source: str, values: dict[str, float]) -> str:
    """Names a class's program: a student's page that holds another asks for it again."""
    text = json.dumps({"source": source, "values": values}, sort_keys=True)
    return hashlib.blake2b(text.encode(), digest_size=8).hexdigest()


# ── events ────────────────────────────────────────────────────────────────────────────────────


def position_event(state: ClassState) -> Event:
    return {
        "type": "position",
        **state["position"],
        "program": state["program"]["digest"],
        "paused": state["paused"],
        "roam": state["roam"],
        "roam_ahead": state["roam_ahead"],
    }


def question_event(question: Question) -> Event:
    """A question as students see it: which node, which kind, which round, and the step it was
    asked at (its histogram is shown with that step alone); never its answer."""
    return {
        "type": "question",
        "question": question["id"],
        "node": question["node"],
        "name": question["name"],
        "kind": question["kind"],
        "round": len(question["rounds"]),
        "phase": question["phase"],
        "step": question["step"],
        "iteration": question["iteration"],
    }


def locked_event(question: int, round_number: int) -> Event:
    """The round stopped taking answers without being revealed: the teacher moved on from its
    step (whose next picture may show the answer), or locked it to talk it over first."""
    return {"type": "locked", "question": question, "round": round_number}


def count_event(question: int, round_number: int, count: int) -> Event:
    return {"type": "answers", "question": question, "round": round_number, "count": count}


def reveal_event(question: Question) -> Event:
    last = question["rounds"][-1]
    return {
        "type": "reveal",
        "question": question["id"],
        "round": len(question["rounds"]),
        "histogram": last["histogram"],
    }


def closed_event(reason: str) -> Event:
    """The class has ended (``closed`` by its teacher, or ``expired``): the stream ends."""
    return {"type": "closed", "reason": reason}


def program_event(program: ClassProgram) -> Event:
    return {"type": "program", **program_out(program)}


def program_out(program: ClassProgram) -> dict[str, Any]:
    """The program as a student's page is given it: its text, its values, its digest."""
    return {"source": program["source"], "values": program["values"], "digest": program["digest"]}


def opening_events(snapshot: Snapshot) -> list[Event]:
    """What a listener is sent first, on connecting or reconnecting: the position, then the
    question on screen (if any) with its live count (and ``locked`` when its round takes no more
    answers), or its histogram once revealed."""
    state = snapshot.state
    events = [position_event(state)]
    question = question_of(state, state["question"] or 0)
    if question is not None:
        events.append(question_event(question))
        number = len(question["rounds"])
        if question["rounds"][-1]["histogram"] is not None:
            events.append(reveal_event(question))
        else:
            key = round_key(question["id"], number)
            events.append(count_event(question["id"], number, snapshot.counts.get(key, 0)))
            if snapshot.open != key:
                events.append(locked_event(question["id"], number))
    return events


def event_json(event: Event) -> str:
    return json.dumps(event, allow_nan=False, separators=(",", ":"), ensure_ascii=False)
