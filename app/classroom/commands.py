"""A teacher's commands, one function each: the class as stored (``Snapshot``) in, the state it
leaves, the round then open and the events it sends out (``Change``). Pure: nothing is changed
in place and nothing is read from outside (the time, and a program's run, are given), so a
store applies a command atomically and may run it again (Redis retries a transaction that an
answer came into).

A command the class refuses raises: ``GradstepError`` for input it cannot take (a 422, as any
input's), ``Refusal`` for a question that is not there or a class that moved meanwhile (the
routes answer each kind with its status). A refused command changes nothing.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from app.classroom.model import (
    Change,
    Event,
    Snapshot,
    locked_event,
    position_event,
    program_event,
    question_event,
    reveal_event,
    round_key,
    round_of,
)
from app.classroom.state import (
    ClassProgram,
    ClassState,
    Histogram,
    Kind,
    Position,
    Question,
    at_question,
    question_of,
    start_position,
)
from engine.errors import GradstepError
from engine.steps import check_count

MAX_QUESTIONS = 200  # a class's questions; each keeps its rounds in the class's state
MAX_ROUNDS = 5  # Peer Instruction votes twice; a third and more are there to be spare

RefusalKind = Literal["not_found", "changed", "closed", "answered", "full"]


class Refusal(Exception):
    """What the class refuses, by ``kind``: ``not_found``, no such question; ``changed``, the
    class moved while a question was being asked; ``closed``, ``answered``, ``full``: an answer
    not taken (app.classroom.answering)."""

    def __init__(self, kind: RefusalKind, message: str) -> None:
        super().__init__(message)
        self.kind: RefusalKind = kind
        self.message = message


@dataclass(frozen=True, slots=True)
class Asking:
    """A question about to be asked: its node and kind, and the node's true gradient as
    computed at the program and position the class had then (it may have moved since)."""

    node: int
    kind: Kind
    name: str  # how the node's gradient is written
    true: float
    digest: str  # the program's
    position: Position


def asked(state: ClassState, question: int) -> Question:
    """Question ``question`` of the class; refused when it has none of that number."""
    found = question_of(state, question)
    if found is None:
        count = len(state["questions"])
        which = f"questions 1 to {count}" if count else "no questions yet"
        raise Refusal("not_found", f"there is no question {question} (this class has {which})")
    return found


def move(snapshot: Snapshot, to: Position) -> Change:
    """Every following screen to ``to``: a step the program has (engine.steps' rule, on the
    counts the class keeps), an iteration its loop ran. A round open at another step stops
    taking answers (the next picture may show its answer)."""
    state = snapshot.state
    program = state["program"]
    try:
        check_count(program["steps"][to["phase"]], to["phase"], to["step"])
    except GradstepError as error:
        raise GradstepError(f"step: {error}", "request") from None
    iterations = program["iterations"]
    if to["iteration"] is not None and to["iteration"] >= max(iterations, 1):
        raise GradstepError(
            f"iteration: the program's loop ran {iterations} iterations (0 to "
            f"{max(iterations - 1, 0)})",
            "request",
        )
    moved: ClassState = {**state, "position": to}
    events = [position_event(moved)]
    if snapshot.open:
        question, number = round_of(snapshot.open)
        if not at_question(to, asked(state, question)):
            return Change(moved, "", [*events, locked_event(question, number)])
    return Change(moved, snapshot.open, events)


def pause(snapshot: Snapshot, paused: bool) -> Change:
    """Every student's screen held (true), or let go on (false)."""
    state: ClassState = {**snapshot.state, "paused": paused}
    return Change(state, snapshot.open, [{"type": "paused", "paused": paused}])


def roam(snapshot: Snapshot, roaming: bool, ahead: bool) -> Change:
    """Students step on their own (up to the teacher's step unless ``ahead``), or follow."""
    state: ClassState = {**snapshot.state, "roam": roaming, "roam_ahead": roaming and ahead}
    return Change(state, snapshot.open, [position_event(state)])


def change_program(snapshot: Snapshot, program: ClassProgram) -> Change:
    """Another program, from its first forward step; the question on screen is put away (its
    answers are kept for the tally) and no round takes answers."""
    state: ClassState = {
        **snapshot.state,
        "program": program,
        "position": start_position(),
        "question": None,
    }
    return Change(state, "", [program_event(program), position_event(state)])


def check_room(state: ClassState) -> None:
    """Refused when the class has asked its most questions (checked before a program runs)."""
    if len(state["questions"]) >= MAX_QUESTIONS:
        raise GradstepError(f"a class asks {MAX_QUESTIONS} questions at most", "limit")


def ask(snapshot: Snapshot, asking: Asking, now: float) -> Change:
    """A new question on screen, its first round open from ``now``; the round open before
    stops taking answers."""
    state = snapshot.state
    check_room(state)
    if state["program"]["digest"] != asking.digest or state["position"] != asking.position:
        raise Refusal("changed", "the class moved while the question was being asked")
    number = len(state["questions"]) + 1
    question: Question = {
        "id": number,
        "node": asking.node,
        "name": asking.name,
        "kind": asking.kind,
        "phase": asking.position["phase"],
        "step": asking.position["step"],
        "iteration": asking.position["iteration"],
        "true": asking.true,
        "rounds": [{"opened": now, "histogram": None}],
    }
    after: ClassState = {**state, "questions": [*state["questions"], question], "question": number}
    return Change(after, round_key(number, 1), [question_event(question)])


def ask_again(snapshot: Snapshot, question: int, now: float) -> Change:
    """A new round of ``question``, open from ``now`` (Peer Instruction's second vote), shown at
    the question's own step."""
    state = snapshot.state
    before = asked(state, question)
    if len(before["rounds"]) >= MAX_ROUNDS:
        raise GradstepError(f"a question has {MAX_ROUNDS} rounds at most", "limit")
    again: Question = {**before, "rounds": [*before["rounds"], {"opened": now, "histogram": None}]}
    after, moved = _to_question({**_replaced(state, again), "question": question}, again)
    key = round_key(question, len(again["rounds"]))
    return Change(after, key, [*moved, question_event(again)])


def close_round(snapshot: Snapshot, question: int, told: bool) -> Change:
    """``question``'s last round stops taking answers (nothing, when it has already);
    ``told``: listeners are sent ``locked`` (a reveal sends its histogram instead)."""
    number = len(asked(snapshot.state, question)["rounds"])
    if snapshot.open != round_key(question, number):
        return Change(snapshot.state, snapshot.open, [])
    return Change(snapshot.state, "", [locked_event(question, number)] if told else [])


def show(snapshot: Snapshot, question: int, number: int, histogram: Histogram) -> Change:
    """Round ``number`` of ``question`` revealed with ``histogram``, on screen at the question's
    own step (the question shown first when another was on screen)."""
    state = snapshot.state
    before = asked(state, question)
    rounds = list(before["rounds"])
    rounds[number - 1] = {**rounds[number - 1], "histogram": histogram}
    revealed: Question = {**before, "rounds": rounds}
    after, moved = _to_question(_replaced(state, revealed), revealed)
    shown_first = [] if state["question"] == question else [question_event(revealed)]
    events = [*moved, *shown_first, reveal_event(revealed)]
    return Change({**after, "question": question}, snapshot.open, events)


def _replaced(state: ClassState, question: Question) -> ClassState:
    questions = list(state["questions"])
    questions[question["id"] - 1] = question
    return {**state, "questions": questions}


def _to_question(state: ClassState, question: Question) -> tuple[ClassState, list[Event]]:
    """The class at the step ``question`` was asked at, if it is elsewhere: its histogram and
    its next round are shown with their own step."""
    if at_question(state["position"], question):
        return state, []
    position: Position = {
        **state["position"],
        "phase": question["phase"],
        "step": question["step"],
        "iteration": question["iteration"],
    }
    moved: ClassState = {**state, "position": position}
    return moved, [position_event(moved)]
