"""A class's state, typed: what its teacher's commands change (app.classroom.commands) and both
stores keep, as JSON in Redis.

The types are ``TypedDict``s: the state is JSON as it stands (a test reads it with
``json.dumps``), mypy checks every key a command reads or writes, and ``STATE_JSON`` checks a
state read back from Redis. A command never changes the state it is given: it builds a new one
(the memory store keeps a command's state as it is, shared with snapshots still being read).
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import TypeAdapter
from typing_extensions import TypedDict  # pydantic reads typing's only from Python 3.12

from engine.steps import Phase

Kind = Literal["number", "sign"]  # a question's: its gradient's value, or its sign
Histogram = dict[str, Any]  # app.classroom.tally.histogram's


class Position(TypedDict):
    """The step every following student's screen shows, and how."""

    phase: Phase
    step: int
    folded: list[int]  # the calls drawn as boxes
    values: dict[str, float]  # input values moved on the teacher's sliders
    iteration: int | None  # a training loop's (None: the first)


class ClassProgram(TypedDict):
    """The class's program, and what a position is checked against."""

    source: str
    values: dict[str, float]  # the input values given, as applied
    digest: str  # names the program: a student's page that holds another asks for it again
    steps: dict[Phase, int]  # each phase's steps
    iterations: int  # a training loop's (0: no loop)


class Round(TypedDict):
    opened: float  # Unix seconds
    histogram: Histogram | None  # once revealed: its answers then, kept


class Question(TypedDict):
    """A question asked: the node, the kind, the step it was asked at, the true value, and its
    rounds (Peer Instruction's second vote is a second round of the same question)."""

    id: int  # from 1, in the order asked
    node: int
    name: str  # how the node's gradient is written (``x1.grad``)
    kind: Kind
    phase: Phase
    step: int
    iteration: int | None
    true: float
    rounds: list[Round]


class ClassState(TypedDict):
    program: ClassProgram
    position: Position
    paused: bool
    roam: bool  # students step on their own
    roam_ahead: bool  # roaming, students may step past the teacher's step
    question: int | None  # the id of the question on screen
    questions: list[Question]


STATE_JSON: TypeAdapter[ClassState] = TypeAdapter(ClassState)  # the Redis store's reader, writer


def start_position() -> Position:
    """The first forward step, unfolded, at the program's own values and first iteration."""
    return {"phase": "forward", "step": 0, "folded": [], "values": {}, "iteration": None}


def new_state(program: ClassProgram) -> ClassState:
    return {
        "program": program,
        "position": start_position(),
        "paused": False,
        "roam": False,
        "roam_ahead": False,
        "question": None,
        "questions": [],
    }


def question_of(state: ClassState, question: int) -> Question | None:
    questions = state["questions"]
    return questions[question - 1] if 1 <= question <= len(questions) else None


def at_question(position: Position, question: Question) -> bool:
    """Whether ``position`` shows the step ``question`` was asked at."""
    return (position["phase"], position["step"], position["iteration"]) == (
        question["phase"],
        question["step"],
        question["iteration"],
    )
