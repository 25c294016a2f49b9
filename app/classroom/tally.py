"""The answers to a question's round, counted as a teacher reads them at a glance.

A number question's histogram has ``BINS`` bins of one width centred on the true value (the
middle bin holds it), ``below`` and ``above`` for the answers past them, and the signs of the
answers: a class that knows the size of a gradient but not its direction shows up as a peak in
``-`` where ``+`` was true. The width is a quarter of the true value's size (at least 0.25), so
the middle bin is within an eighth of it either way. ``correct`` counts answers within
``TOLERANCE`` of the true value (rounding a four-decimal value is not a mistake). A sign
question is counted by sign alone.
"""

from __future__ import annotations

import csv
import io
import math
from typing import Any

from app.classroom.model import round_key
from app.classroom.state import Histogram, Question

BINS = 9  # four either side of the true value's
RELATIVE_TOLERANCE = 0.01
ABSOLUTE_TOLERANCE = 0.005  # half the last of the four decimals the page shows, and then some
SIGNS = ("+", "-", "0")


def sign_of(value: float | str) -> str:
    if isinstance(value, str):
        return value
    return "+" if value > 0 else "-" if value < 0 else "0"


def is_correct(value: float | str, true: float) -> bool:
    if isinstance(value, str):
        return value == sign_of(true)
    return math.isclose(value, true, rel_tol=RELATIVE_TOLERANCE, abs_tol=ABSOLUTE_TOLERANCE)


def histogram(kind: str, true: float, values: list[float | str]) -> Histogram:
    """``{"kind", "true", "count", "correct", "signs", "width", "bins", "below", "above"}``:
    ``bins`` are ``{"from", "to", "count"}`` (``from`` included), empty for a sign question."""
    signs = dict.fromkeys(SIGNS, 0)
    for value in values:
        signs[sign_of(value)] += 1
    out: dict[str, Any] = {
        "kind": kind,
        "true": sign_of(true) if kind == "sign" else true,
        "count": len(values),
        "correct": sum(is_correct(value, true) for value in values),
        "signs": signs,
        "width": None,
        "bins": [],
        "below": 0,
        "above": 0,
    }
    if kind == "sign":
        return out
    width = max(abs(true), 1.0) / 4
    half = BINS // 2
    counts = [0] * BINS
    for value in values:
        assert not isinstance(value, str)  # a number question takes numbers alone
        index = math.floor((value - true) / width + 0.5) + half  # the middle bin: true ± width/2
        if index < 0:
            out["below"] += 1
        elif index >= BINS:
            out["above"] += 1
        else:
            counts[index] += 1
    out["width"] = width
    out["bins"] = [
        {"from": true + (i - half - 0.5) * width, "to": true + (i - half + 0.5) * width, "count": n}
        for i, n in enumerate(counts)
    ]
    return out


CSV_COLUMNS = (
    "question",
    "phase",
    "step",
    "node",
    "name",
    "round",
    "true_value",
    "answer",
    "correct",
    "seconds",
)


def round_histogram(
    question: Question, number: int, answers: dict[str, list[dict[str, Any]]]
) -> Histogram:
    """Round ``number`` of ``question`` counted from the class's ``answers`` (by round key)."""
    values = [record["value"] for record in answers.get(round_key(question["id"], number), [])]
    return histogram(question["kind"], question["true"], values)


def answers_csv(questions: list[Question], answers: dict[str, list[dict[str, Any]]]) -> str:
    """One row per answer: where the class was, which node and round, the true value, the
    answer and how long after the round opened it came. No student token, no nickname."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(CSV_COLUMNS)
    for question in questions:
        true = question["true"]
        for number, opened in enumerate(question["rounds"], 1):
            for record in answers.get(round_key(question["id"], number), []):
                value = record["value"]
                writer.writerow(
                    (
                        question["id"],
                        question["phase"],
                        question["step"],
                        question["node"],
                        question["name"],
                        number,
                        sign_of(true) if question["kind"] == "sign" else repr(true),
                        value if isinstance(value, str) else repr(value),
                        int(is_correct(value, true)),
                        f"{max(0.0, record['at'] - opened['opened']):.1f}",
                    )
                )
    return out.getvalue()
