"""A class's rules without HTTP: each teacher command's new state, open round and events, each
refusal, a student's answer's round and outcome, the read routes' views, and the class's program
(its steps counted without a layout). Every command is checked to leave the snapshot it was
given as it was (the memory store shares states between snapshots)."""

from __future__ import annotations

import copy
from collections.abc import Callable

import pytest
from class_client import PROGRAM

from app.classroom import commands, redis_store
from app.classroom.answering import answer_round, check_outcome
from app.classroom.commands import MAX_QUESTIONS, MAX_ROUNDS, Asking, Refusal
from app.classroom.model import Change, Outcome, Snapshot
from app.classroom.program import class_program, true_gradient
from app.classroom.state import STATE_JSON, ClassProgram, ClassState, Position, new_state
from app.classroom.tally import histogram
from app.classroom.views import class_view, roster, screen_round
from app.pipeline import Pipeline
from engine.errors import GradstepError

PROGRAM_KEPT: ClassProgram = {
    "source": PROGRAM,
    "values": {},
    "digest": "d1",
    "steps": {"forward": 4, "backward": 5, "update": 0},
    "iterations": 0,
}
AT_START: Position = {"phase": "forward", "step": 0, "folded": [], "values": {}, "iteration": None}
BACK_2: Position = {**AT_START, "phase": "backward", "step": 2}


def _snapshot(state: ClassState | None = None, open_round: str = "") -> Snapshot:
    return Snapshot("hash", 7, open_round, state or new_state(PROGRAM_KEPT))


def _run(command: Callable[[Snapshot], Change], snapshot: Snapshot) -> Change:
    """The command's change, after checking that it left ``snapshot`` as it was."""
    before = copy.deepcopy(snapshot)
    change = command(snapshot)
    assert snapshot == before, "a command changed the snapshot it was given"
    return change


def _asking(position: Position = AT_START, digest: str = "d1") -> Asking:
    return Asking(0, "number", "a.grad", -2.0, digest, position)


def _asked(position: Position = AT_START, kind: str = "number") -> Snapshot:
    """A class whose question 1 was asked at ``position``, its round open."""
    at = _snapshot({**new_state(PROGRAM_KEPT), "position": position})
    asking = Asking(0, "sign" if kind == "sign" else "number", "a.grad", -2.0, "d1", position)
    change = commands.ask(at, asking, now=100.0)
    return Snapshot("hash", 8, change.open, change.state)


def _position_event(state: ClassState) -> dict[str, object]:
    return {
        "type": "position",
        **state["position"],
        "program": "d1",
        "paused": state["paused"],
        "roam": state["roam"],
        "roam_ahead": state["roam_ahead"],
    }


# ── moving ────────────────────────────────────────────────────────────────────────────────────


def test_a_move_sends_the_position_and_keeps_the_round_open_at_its_step() -> None:
    snapshot = _asked(BACK_2)
    to: Position = {**BACK_2, "folded": [1], "values": {"a": 3.0}}
    change = _run(lambda s: commands.move(s, to), snapshot)
    assert change.state["position"] == to and change.open == "1:1"
    assert change.events == [_position_event(change.state)]


def test_a_move_off_the_questions_step_locks_its_round() -> None:
    change = _run(lambda s: commands.move(s, AT_START), _asked(BACK_2))
    assert change.open == ""
    locked = {"type": "locked", "question": 1, "round": 1}
    assert change.events == [_position_event(change.state), locked]


@pytest.mark.parametrize(
    ("to", "message"),
    [
        ({**AT_START, "step": 4}, "step: forward step 4 does not exist (steps: 0 to 3)"),
        ({**AT_START, "phase": "backward", "step": 5}, "step: backward step 5 does not exist"),
        ({**AT_START, "phase": "update"}, "step: update step 0 does not exist (steps: none"),
        ({**AT_START, "iteration": 1}, "iteration: the program's loop ran 0 iterations (0 to 0)"),
    ],
)
def test_a_move_to_a_step_or_iteration_the_program_has_not_is_refused(
    to: Position, message: str
) -> None:
    with pytest.raises(GradstepError) as refused:
        _run(lambda s: commands.move(s, to), _snapshot())
    assert str(refused.value).startswith(message) and refused.value.kind == "request"


def test_a_loops_iterations_bound_a_move() -> None:
    looped = new_state({**PROGRAM_KEPT, "iterations": 3})
    change = _run(lambda s: commands.move(s, {**AT_START, "iteration": 2}), _snapshot(looped))
    assert change.state["position"]["iteration"] == 2
    with pytest.raises(GradstepError, match="ran 3 iterations \\(0 to 2\\)"):
        commands.move(_snapshot(looped), {**AT_START, "iteration": 3})


# ── pause, roam, program ──────────────────────────────────────────────────────────────────────


def test_pause_sends_paused_and_keeps_the_round() -> None:
    change = _run(lambda s: commands.pause(s, True), _asked())
    assert change.state["paused"] is True and change.open == "1:1"
    assert change.events == [{"type": "paused", "paused": True}]


@pytest.mark.parametrize(
    ("roaming", "ahead", "roam_ahead"),
    [(True, True, True), (True, False, False), (False, True, False)],
)
def test_roam_goes_ahead_only_while_roaming(roaming: bool, ahead: bool, roam_ahead: bool) -> None:
    change = _run(lambda s: commands.roam(s, roaming, ahead), _snapshot())
    assert (change.state["roam"], change.state["roam_ahead"]) == (roaming, roam_ahead)
    assert change.events == [_position_event(change.state)]


def test_another_program_starts_at_its_first_step_and_puts_the_question_away() -> None:
    other: ClassProgram = {**PROGRAM_KEPT, "source": "x = 1.0", "digest": "d2"}
    change = _run(lambda s: commands.change_program(s, other), _asked(BACK_2))
    state = change.state
    assert state["program"] == other and state["position"] == {**AT_START}
    assert state["question"] is None and len(state["questions"]) == 1  # kept for the tally
    assert change.open == ""
    program_event = {"type": "program", "source": "x = 1.0", "values": {}, "digest": "d2"}
    assert change.events == [program_event, {**_position_event(state), "program": "d2"}]


# ── questions ─────────────────────────────────────────────────────────────────────────────────


def test_a_question_opens_its_first_round() -> None:
    change = _run(lambda s: commands.ask(s, _asking(BACK_2), now=50.0), _asked(BACK_2))
    question = change.state["questions"][1]
    assert question["id"] == 2 and question["rounds"] == [{"opened": 50.0, "histogram": None}]
    assert (question["phase"], question["step"], question["iteration"]) == ("backward", 2, None)
    assert change.state["question"] == 2 and change.open == "2:1"
    event = {"type": "question", "question": 2, "node": 0, "name": "a.grad", "kind": "number",
             "round": 1, "phase": "backward", "step": 2, "iteration": None}  # fmt: skip
    assert change.events == [event]


@pytest.mark.parametrize("asking", [_asking(BACK_2), _asking(digest="d0")])
def test_a_question_is_refused_when_the_class_moved_while_it_was_asked(asking: Asking) -> None:
    with pytest.raises(Refusal) as refused:
        _run(lambda s: commands.ask(s, asking, now=50.0), _snapshot())
    assert refused.value.kind == "changed"
    assert refused.value.message == "the class moved while the question was being asked"


def test_a_class_asks_its_most_questions() -> None:
    state = _asked().state
    full: ClassState = {**state, "questions": state["questions"] * MAX_QUESTIONS}
    with pytest.raises(GradstepError, match=f"{MAX_QUESTIONS} questions at most") as refused:
        commands.check_room(full)
    assert refused.value.kind == "limit"
    with pytest.raises(GradstepError, match="questions at most"):
        commands.ask(_snapshot(full), _asking(), now=1.0)


def test_a_question_asked_again_opens_a_round_at_its_own_step() -> None:
    moved = _run(lambda s: commands.move(s, AT_START), _asked(BACK_2))
    snapshot = Snapshot("hash", 9, moved.open, moved.state)
    change = _run(lambda s: commands.ask_again(s, 1, now=200.0), snapshot)
    question = change.state["questions"][0]
    assert [r["opened"] for r in question["rounds"]] == [100.0, 200.0]
    assert change.open == "1:2" and change.state["position"] == BACK_2
    assert [e["type"] for e in change.events] == ["position", "question"]
    assert change.events[1]["round"] == 2


def test_a_question_asked_again_at_its_step_sends_the_question_alone() -> None:
    change = _run(lambda s: commands.ask_again(s, 1, now=200.0), _asked())
    assert [e["type"] for e in change.events] == ["question"]


def test_a_question_has_its_most_rounds() -> None:
    snapshot = _asked()
    for n in range(MAX_ROUNDS - 1):
        change = commands.ask_again(snapshot, 1, now=float(n))
        snapshot = Snapshot("hash", 9, change.open, change.state)
    with pytest.raises(GradstepError, match=f"{MAX_ROUNDS} rounds at most"):
        commands.ask_again(snapshot, 1, now=9.0)


@pytest.mark.parametrize(
    "command",
    [
        lambda s: commands.ask_again(s, 2, now=1.0),
        lambda s: commands.close_round(s, 2, told=True),
        lambda s: commands.show(s, 2, 1, histogram("number", 1.0, [])),
    ],
)
def test_a_question_the_class_has_not_is_not_found(
    command: Callable[[Snapshot], Change],
) -> None:
    with pytest.raises(Refusal) as refused:
        command(_asked())
    assert refused.value.kind == "not_found"
    assert refused.value.message == "there is no question 2 (this class has questions 1 to 1)"
    with pytest.raises(Refusal, match="this class has no questions yet"):
        command(_snapshot())


@pytest.mark.parametrize(("told", "events"), [(True, [{"type": "locked", "question": 1,
                         "round": 1}]), (False, [])])  # fmt: skip
def test_closing_a_round_stops_its_answers(told: bool, events: list[object]) -> None:
    change = _run(lambda s: commands.close_round(s, 1, told), _asked())
    assert change.open == "" and change.events == events
    closed = Snapshot("hash", 9, "", change.state)
    again = _run(lambda s: commands.close_round(s, 1, told), closed)
    assert again.open == "" and again.events == []  # closed already: nothing to tell


def test_a_round_shown_keeps_its_histogram_and_is_shown_at_its_step() -> None:
    shown = histogram("number", -2.0, [-2.0, 1.0])
    closed = commands.close_round(_asked(), 1, told=False)
    snapshot = Snapshot("hash", 9, closed.open, closed.state)
    change = _run(lambda s: commands.show(s, 1, 1, shown), snapshot)
    assert change.state["questions"][0]["rounds"][0]["histogram"] == shown
    assert change.events == [{"type": "reveal", "question": 1, "round": 1, "histogram": shown}]


def test_a_round_shown_from_elsewhere_brings_its_step_and_question_first() -> None:
    asked = _asked(BACK_2)
    second = commands.ask(asked, _asking(BACK_2), now=150.0)
    moved = commands.move(Snapshot("hash", 9, second.open, second.state), AT_START)
    snapshot = Snapshot("hash", 10, moved.open, moved.state)
    change = _run(lambda s: commands.show(s, 1, 1, histogram("number", -2.0, [])), snapshot)
    assert [e["type"] for e in change.events] == ["position", "question", "reveal"]
    assert change.state["position"] == BACK_2 and change.state["question"] == 1


# ── answers ───────────────────────────────────────────────────────────────────────────────────


def test_an_answer_goes_to_the_open_round_of_its_kind() -> None:
    assert answer_round(_asked(), 1, -2.0) == ("1:1", 1)
    assert answer_round(_asked(kind="sign"), 1, "-") == ("1:1", 1)
    with pytest.raises(GradstepError, match="value: question 1 takes a number"):
        answer_round(_asked(), 1, "+")
    with pytest.raises(GradstepError, match=r"value: question 1 takes \+, - or 0"):
        answer_round(_asked(kind="sign"), 1, 1.0)


def test_an_answer_to_a_closed_or_unknown_question_is_refused() -> None:
    closed = commands.close_round(_asked(), 1, told=True)
    with pytest.raises(Refusal) as refused:
        answer_round(Snapshot("hash", 9, closed.open, closed.state), 1, -2.0)
    assert refused.value.kind == "closed" and "not taking answers now" in refused.value.message
    second = commands.ask(_asked(), _asking(), now=150.0)  # question 2's round open now
    with pytest.raises(Refusal, match="question 1 is not taking answers"):
        answer_round(Snapshot("hash", 9, second.open, second.state), 1, -2.0)
    with pytest.raises(Refusal) as unknown:
        answer_round(_asked(), 7, -2.0)
    assert unknown.value.kind == "not_found"


@pytest.mark.parametrize(
    ("outcome", "kind", "message"),
    [
        (Outcome.NOT_OPEN, "closed", "question 1 is not taking answers now"),
        (Outcome.ANSWERED, "answered", "you have answered round 2 of question 1"),
        (Outcome.FULL, "full", "round 2 of question 1 is full"),
    ],
)
def test_an_answer_not_counted_is_refused_by_its_outcome(
    outcome: Outcome, kind: str, message: str
) -> None:
    with pytest.raises(Refusal) as refused:
        check_outcome(outcome, 1, 2)
    assert refused.value.kind == kind and refused.value.message.startswith(message)


def test_an_answer_counted_is_not_refused() -> None:
    check_outcome(Outcome.COUNTED, 1, 2)


# ── views and storage ─────────────────────────────────────────────────────────────────────────


def test_a_students_view_and_the_teachers_list_read_the_round_on_screen() -> None:
    snapshot = Snapshot("hash", 8, "1:1", _asked().state, {"1:1": 3})
    view = class_view("abcdefghjk", snapshot)
    assert view["program"] == {"source": PROGRAM, "values": {}, "digest": "d1"}
    assert view["question"]["question"] == 1 and "type" not in view["position"]
    assert screen_round(snapshot) == "1:1" and screen_round(_snapshot()) == ""
    listed = [{"nickname": "a", "present": True, "answered": True}]
    assert roster(snapshot, listed) == {"students": listed, "present": 1, "answered": 3}
    assert roster(_snapshot(), [])["answered"] is None


def test_the_state_is_stored_as_json_and_read_back_typed() -> None:
    state = _asked(BACK_2).state
    assert STATE_JSON.validate_json(STATE_JSON.dump_json(state)) == state
    raw = {
        "key": "hash",
        "seq": "3",
        "open": "1:1",
        "state": STATE_JSON.dump_json(state),
        "n:1:1": "2",
    }
    read = redis_store._snapshot(raw)  # type: ignore[arg-type]
    assert read == Snapshot("hash", 3, "1:1", state, {"1:1": 2})
    older = {**raw, "state": '{"program": {}, "position": {}}'}  # a version before this one's
    assert redis_store._snapshot(older) is None  # type: ignore[arg-type]


# ── the class's program ───────────────────────────────────────────────────────────────────────


def test_a_class_counts_its_programs_steps_without_a_layout() -> None:
    pipeline = Pipeline()  # no layout is given: none is made
    kept = class_program(pipeline, PROGRAM, {"b": -1.0})
    assert kept["steps"] == {"forward": 2, "backward": 3, "update": 0}
    assert kept["values"] == {"b": -1.0} and kept["iterations"] == 0
    assert true_gradient(pipeline, kept, AT_START, 0) == (0.0, "a.grad")  # b + 1, b = -1
    moved: Position = {**AT_START, "values": {"b": 2.0}}
    assert true_gradient(pipeline, kept, moved, 0) == (3.0, "a.grad")


def test_a_program_too_large_to_draw_makes_no_class() -> None:
    chain = "x = 1.0\n" + "x = x * 1.0001\n" * 1_100
    with pytest.raises(GradstepError, match="gradstep draws at most") as refused:
        class_program(Pipeline(), chain, {})
    assert refused.value.kind == "limit"
