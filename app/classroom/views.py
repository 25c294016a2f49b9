"""What the class's read routes answer, made from a snapshot (and the answers a store keeps):
a student's page's start (``ClassView``), the teacher's tally (``Tally``) and list of students
(``Roster``), in app.classroom.schemas' shapes."""

from __future__ import annotations

from typing import Any

from app.classroom.model import Snapshot, opening_events, position_event, program_out, round_key
from app.classroom.state import Question, question_of
from app.classroom.tally import histogram

Answers = dict[str, list[dict[str, Any]]]  # ClassStore.answers: by round key, in order counted


def class_view(code: str, snapshot: Snapshot) -> dict[str, Any]:
    """What a student's page starts from: the program, the position, the question on screen."""
    position = {k: v for k, v in position_event(snapshot.state).items() if k != "type"}
    opening = opening_events(snapshot)
    question = opening[1] if len(opening) > 1 else None
    program = program_out(snapshot.state["program"])
    return {"code": code, "program": program, "position": position, "question": question}


def tally(snapshot: Snapshot, answers: Answers) -> dict[str, Any]:
    """Every question and round: the true value, the histogram (live until revealed), each
    answer with its nickname and seconds after the round opened."""
    questions = [
        {
            "question": q["id"],
            "node": q["node"],
            "name": q["name"],
            "kind": q["kind"],
            "phase": q["phase"],
            "step": q["step"],
            "iteration": q["iteration"],
            "true": q["true"],
            "rounds": _rounds(q, snapshot, answers),
        }
        for q in snapshot.state["questions"]
    ]
    return {"questions": questions}


def _rounds(question: Question, snapshot: Snapshot, answers: Answers) -> list[dict[str, Any]]:
    rounds = []
    for number, kept in enumerate(question["rounds"], 1):
        key = round_key(question["id"], number)
        records = answers.get(key, [])
        shown = kept["histogram"]
        live = histogram(question["kind"], question["true"], [r["value"] for r in records])
        rounds.append(
            {
                "round": number,
                "open": snapshot.open == key,
                "revealed": shown is not None,
                "histogram": shown if shown is not None else live,
                "answers": [
                    {
                        "value": r["value"],
                        "nickname": r["nickname"],
                        "seconds": round(max(0.0, r["at"] - kept["opened"]), 1),
                    }
                    for r in records
                ],
            }
        )
    return rounds


def screen_round(snapshot: Snapshot) -> str:
    """The key of the last round of the question on screen ("" for none): whose answers the
    teacher's list of students shows."""
    question = question_of(snapshot.state, snapshot.state["question"] or 0)
    return round_key(question["id"], len(question["rounds"])) if question else ""


def roster(snapshot: Snapshot, listed: list[dict[str, Any]]) -> dict[str, Any]:
    """The students a store listed (``ClassStore.roster`` of ``screen_round``), how many follow,
    and how many answered the round on screen (None: no question on screen)."""
    key = screen_round(snapshot)
    return {
        "students": listed,
        "present": sum(s["present"] for s in listed),
        "answered": snapshot.counts.get(key, 0) if key else None,
    }
