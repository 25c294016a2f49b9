"""The live classroom's request and response models (strict, as every model of the API: a
number is a number, a field not declared is refused). The answer's nickname is plain text:
at most ``MAX_NICKNAME`` characters, none of them a control character or a bidirectional
override (which could make one name read as another)."""

from __future__ import annotations

import unicodedata
from typing import Annotated, Any, Literal

from pydantic import Field, FiniteFloat, field_validator

from app.classroom.state import Position
from app.schemas import Strict, Values
from engine.limits import MAX_ITERATIONS, MAX_NODES, MAX_SOURCE_CHARS
from engine.steps import Phase

MAX_NICKNAME = 24
STUDENT_PATTERN = r"^[A-Za-z0-9_-]{16,64}$"  # what a page's crypto.getRandomValues writes
_BIDI = frozenset("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069\u200e\u200f")

Sign = Literal["+", "-", "0"]


class ClassRequest(Strict):
    """A class's program: ``source`` (and ``values``), or a short link's id (its program and
    values are taken)."""

    source: str | None = Field(
        None, max_length=MAX_SOURCE_CHARS, description="the program, micrograd style"
    )
    values: Values = Field(None, description="input values: an object, or a URL's values text")
    link: str | None = Field(None, max_length=60, description="a short link's id, for no source")


class ClassCreated(Strict):
    code: str = Field(description="10 characters: the class's name in every address")
    teacher_key: str = Field(description="the key of the teacher's commands (Bearer); shown once")
    student_url: str = Field(description="the students' page, /c/{code}")
    teacher_url: str = Field(
        description="the teacher's page, /c/{code}#key=…: the key in the fragment, which "
        "browsers never send to a server"
    )
    qr_svg_url: str = Field(description="a QR code of student_url, for the slide")


class ProgramOut(Strict):
    source: str
    values: dict[str, float]
    digest: str = Field(description="names the program: a position's program field")


class PositionRequest(Strict):
    phase: Phase
    step: int = Field(ge=0, le=2 * MAX_NODES, description="a step of the phase, from 0")
    folded: list[Annotated[int, Field(ge=0, le=MAX_NODES)]] = Field(
        default_factory=list, max_length=MAX_NODES, description="the calls drawn as boxes"
    )
    values: dict[str, FiniteFloat] = Field(
        default_factory=dict, description="input values moved on the teacher's sliders"
    )
    iteration: int | None = Field(
        None, ge=0, le=MAX_ITERATIONS, description="a training loop's (omit: the first)"
    )

    def position(self) -> Position:
        return {
            "phase": self.phase,
            "step": self.step,
            "folded": self.folded,
            "values": self.values,
            "iteration": self.iteration,
        }


class PositionOut(Strict):
    phase: Phase
    step: int
    folded: list[int]
    values: dict[str, float]
    iteration: int | None
    program: str = Field(description="the program's digest")
    paused: bool
    roam: bool
    roam_ahead: bool = Field(description="roaming, students may step past the teacher's step")


class PauseRequest(Strict):
    paused: bool


class RoamRequest(Strict):
    roam: bool = Field(description="true: students step on their own; false: they follow")
    ahead: bool = Field(
        False,
        description="roaming, students may step past the teacher's step (false: up to it, so "
        "no screen shows a step the class has not reached)",
    )


class ProgramRequest(Strict):
    source: str = Field(max_length=MAX_SOURCE_CHARS)
    values: Values = None


class QuestionRequest(Strict):
    node: int = Field(ge=0, le=MAX_NODES, description="a node id of the program's structure")
    kind: Literal["number", "sign"] = Field(
        description="number: its gradient's value; sign: +, - or 0"
    )


class QuestionCreated(Strict):
    question: int
    round: int


def plain_nickname(nickname: str | None) -> str | None:
    """A nickname as the teacher is shown it: plain text (no control or direction character:
    a ValueError), stripped, None when empty."""
    if nickname is None:
        return None
    for char in nickname:
        if unicodedata.category(char) == "Cc" or char in _BIDI:
            raise ValueError(
                f"a nickname is plain text: U+{ord(char):04X} (a control or direction "
                "character) is not allowed"
            )
    return nickname.strip() or None


class AnswerRequest(Strict):
    student: str = Field(
        pattern=STUDENT_PATTERN, description="a random token the student's page chose and keeps"
    )
    question: int = Field(ge=1, le=1_000_000)
    value: FiniteFloat | Sign = Field(description="a number, or +, - or 0 for a sign question")
    nickname: str | None = Field(
        None, max_length=MAX_NICKNAME, description="shown to the teacher alone, as plain text"
    )

    @field_validator("nickname")
    @classmethod
    def _plain_text(cls, nickname: str | None) -> str | None:
        return plain_nickname(nickname)


class AnswerTaken(Strict):
    question: int
    round: int
    count: int = Field(description="answers counted in this round so far")


class ClassView(Strict):
    """What a student's page needs to start: the program to draw and where the class is."""

    code: str
    program: ProgramOut
    position: PositionOut
    question: dict[str, Any] | None = Field(description="the question on screen, as its event")


class AnswerOut(Strict):
    value: float | str
    nickname: str | None
    seconds: float = Field(description="after the round opened")


class RoundOut(Strict):
    round: int
    open: bool = Field(description="taking answers now")
    revealed: bool
    histogram: dict[str, Any] = Field(description="app/classroom/tally.py: bins, signs, correct")
    answers: list[AnswerOut] = Field(description="in the order they came; no student tokens")


class QuestionOut(Strict):
    question: int
    node: int
    name: str
    kind: Literal["number", "sign"]
    phase: Phase
    step: int
    iteration: int | None
    true: float = Field(description="the node's gradient after the backward pass")
    rounds: list[RoundOut]


class Tally(Strict):
    questions: list[QuestionOut]


class StudentOut(Strict):
    nickname: str | None = Field(description="as the student gave it, for the teacher's eyes")
    present: bool = Field(description="its page follows the class now")
    answered: bool = Field(description="has answered the round on screen")


class Roster(Strict):
    students: list[StudentOut] = Field(description="first seen first; no student tokens")
    present: int
    answered: int | None = Field(description="answers to the round on screen (none: no question)")
