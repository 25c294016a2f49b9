"""A student's answer: which round it goes to, and what became of it. The store counts it
atomically (``ClassStore.answer``); these are the rules around that, refused as
``commands.Refusal`` (or ``GradstepError``, a value of the wrong kind)."""

from __future__ import annotations

from app.classroom.commands import Refusal, asked
from app.classroom.model import Outcome, Snapshot, round_key
from engine.errors import GradstepError


def not_open(question: int) -> Refusal:
    return Refusal(
        "closed",
        f"question {question} is not taking answers now: its answers were shown, or another "
        "question was asked",
    )


def answer_round(snapshot: Snapshot, question: int, value: float | str) -> tuple[str, int]:
    """The round an answer of ``value`` to ``question`` goes to (its key and number): its last,
    when that is open and ``value`` is of its kind (a sign question takes +, - or 0)."""
    found = asked(snapshot.state, question)
    number = len(found["rounds"])
    key = round_key(question, number)
    if snapshot.open != key:  # checked before any answer is charged to the class
        raise not_open(question)
    wants_sign = found["kind"] == "sign"
    if wants_sign != isinstance(value, str):
        wanted = "+, - or 0" if wants_sign else "a number"
        raise GradstepError(f"value: question {question} takes {wanted}", "request")
    return key, number


def check_outcome(outcome: Outcome, question: int, number: int) -> None:
    """Refused unless the store counted the answer (its class there: ``Outcome.GONE`` is the
    caller's, which knows the class's code)."""
    if outcome is Outcome.NOT_OPEN:
        raise not_open(question)
    if outcome is Outcome.ANSWERED:
        raise Refusal(
            "answered",
            f"you have answered round {number} of question {question}: your first answer "
            "is the one counted",
        )
    if outcome is Outcome.FULL:
        raise Refusal("full", f"round {number} of question {question} is full")
