"""A live class, end to end through the API, on each store: in memory, and in a real Redis
server (tests/api/redis_server.py). The same tests run on both."""

from __future__ import annotations

import csv
import io
import time
from collections.abc import Iterator
from typing import Any
from urllib.parse import urlencode

import pytest
from backends import BACKENDS
from class_client import PROGRAM, STORES, Class, Events, class_client, new_class, student
from fastapi.testclient import TestClient
from served import free_port

from app.classroom.codes import ALPHABET, CODE_LENGTH
from app.main import create_app
from app.settings import Settings


@pytest.fixture(scope="module", params=STORES)
def client(request: pytest.FixtureRequest) -> Iterator[TestClient]:
    with class_client(request.param) as made:
        yield made


def test_a_class_is_made_with_its_links(client: TestClient) -> None:
    made = client.post("/api/classes", json={"source": PROGRAM, "values": {"a": 3}})
    assert made.status_code == 201, made.text
    body = made.json()
    code, key = body["code"], body["teacher_key"]
    assert len(code) == CODE_LENGTH and set(code) <= set(ALPHABET)
    assert len(key) >= 43
    assert body["student_url"] == f"http://testserver/c/{code}"
    assert body["teacher_url"] == f"http://testserver/c/{code}#key={key}"
    qr = client.get(f"/api/classes/{code}/qr.svg")
    assert qr.status_code == 200 and qr.headers["content-type"] == "image/svg+xml"
    assert f"/c/{code}</text>" in qr.text
    view = client.get(f"/api/classes/{code.upper()}").json()  # read off a slide in capitals
    assert view["program"]["source"] == PROGRAM and view["program"]["values"] == {"a": 3.0}
    assert view["position"]["phase"] == "forward" and view["position"]["step"] == 0
    assert key not in str(view)


def test_a_program_that_does_not_run_makes_no_class(client: TestClient) -> None:
    refused = client.post("/api/classes", json={"source": "a = 2.0\nb = a *"})
    assert refused.status_code == 422
    assert refused.json()["error"]["kind"] == "syntax"
    unknown = client.post("/api/classes", json={"link": "aaaaaaaa"})
    assert unknown.status_code == 422 and "no short link" in unknown.json()["error"]["message"]
    both = client.post("/api/classes", json={"source": PROGRAM, "link": "aaaaaaaa"})
    assert both.status_code == 422


def test_a_short_link_makes_a_class(client: TestClient) -> None:
    link = client.post("/api/links", json={"source": PROGRAM, "values": "b=4"}).json()["id"]
    made = client.post("/api/classes", json={"link": link})
    assert made.status_code == 201, made.text
    view = client.get(f"/api/classes/{made.json()['code']}").json()
    assert view["program"]["source"] == PROGRAM and view["program"]["values"] == {"b": 4.0}


def test_a_step_reaches_a_listener(client: TestClient) -> None:
    lesson = new_class(client)
    with client.stream("GET", lesson.url("/events")) as response:
        events = Events(response)
        first_id, first = events.next()
        assert first["type"] == "position" and first["step"] == 0
        moved = lesson.command("/position", {"phase": "backward", "step": 2, "folded": [0]})
        assert moved.status_code == 204, moved.text
        event_id, event = events.next()
        assert event_id > first_id
        assert event == {
            "type": "position",
            "phase": "backward",
            "step": 2,
            "folded": [0],
            "values": {},
            "iteration": None,
            "program": lesson.view()["program"]["digest"],
            "paused": False,
            "roam": False,
            "roam_ahead": False,
        }


def test_a_reconnecting_listener_is_sent_the_position_first(client: TestClient) -> None:
    lesson = new_class(client)
    for step in range(3):
        assert lesson.command("/position", {"phase": "backward", "step": step}).status_code == 204
    assert lesson.command("/questions", {"node": 1, "kind": "number"}).status_code == 201
    headers = {"last-event-id": "1"}
    with client.stream("GET", lesson.url("/events"), headers=headers) as response:
        events = Events(response)
        (position_id, position), (_, question), (_, count) = [events.next() for _ in range(3)]
    assert position["type"] == "position" and position["step"] == 2
    assert position_id == 4  # three steps, then the question
    assert question["type"] == "question" and question["node"] == 1 and "true" not in question
    assert count == {"type": "answers", "question": 1, "round": 1, "count": 0}


def test_a_step_that_the_program_does_not_have_is_refused(client: TestClient) -> None:
    lesson = new_class(client)
    refused = lesson.command("/position", {"phase": "backward", "step": 99})
    assert refused.status_code == 422 and "does not exist" in refused.json()["error"]["message"]
    assert lesson.view()["position"]["step"] == 0


def test_a_question_two_rounds_and_their_tally(client: TestClient) -> None:
    lesson = new_class(client)
    lesson.command("/position", {"phase": "backward", "step": 1})
    with client.stream("GET", lesson.url("/events")) as response:
        events = Events(response)
        events.next()
        asked = lesson.command("/questions", {"node": 0, "kind": "number"})
        assert asked.status_code == 201 and asked.json() == {"question": 1, "round": 1}
        _, question = events.next()
        assert question == {
            "type": "question",
            "question": 1,
            "node": 0,
            "name": "a.grad",
            "kind": "number",
            "round": 1,
            "phase": "backward",
            "step": 1,
            "iteration": None,
        }
        for n, value in enumerate([-2.0, -2.0001, 2.0, 0.5]):
            taken = lesson.answer(student(n), 1, value, nickname=f"s{n}")
            assert taken.status_code == 202, taken.text
            assert taken.json() == {"question": 1, "round": 1, "count": n + 1}
        counts = [events.next()[1]]  # the first at once; those within 0.2 s as the last
        while counts[-1]["count"] < 4:
            counts.append(events.next()[1])
        numbers = [c["count"] for c in counts]
        assert numbers == sorted(set(numbers)) and numbers[0] == 1 and numbers[-1] == 4
        assert all(set(c) == {"type", "question", "round", "count"} for c in counts)  # no values
        shown = lesson.command("/questions/1/reveal")
        assert shown.status_code == 200, shown.text
        _, reveal = events.next()
        assert reveal["type"] == "reveal" and reveal["histogram"] == shown.json()["histogram"]
        histogram = reveal["histogram"]
        assert histogram["true"] == -2.0 and histogram["count"] == 4 and histogram["correct"] == 2
        assert histogram["signs"] == {"+": 2, "-": 2, "0": 0}
        middle = histogram["bins"][len(histogram["bins"]) // 2]
        assert middle["from"] < -2.0 < middle["to"] and middle["count"] == 2
        assert (
            sum(b["count"] for b in histogram["bins"]) + histogram["below"] + histogram["above"]
            == 4
        )
        late = lesson.answer(student(9), 1, -2.0)
        assert late.status_code == 409 and late.json()["error"]["kind"] == "closed"
        again = lesson.command("/questions/1/again")
        assert again.status_code == 201 and again.json() == {"question": 1, "round": 2}
        assert events.next()[1]["round"] == 2
        for n in range(3):  # the same students vote again, after discussing
            assert lesson.answer(student(n), 1, -2.0).status_code == 202
    tally = lesson.tally()["questions"]
    assert len(tally) == 1
    first, second = tally[0]["rounds"]
    assert tally[0]["true"] == -2.0 and tally[0]["name"] == "a.grad"
    assert (tally[0]["phase"], tally[0]["step"]) == ("backward", 1)
    assert first["revealed"] and not first["open"] and first["histogram"]["count"] == 4
    assert second["open"] and not second["revealed"] and second["histogram"]["correct"] == 3
    assert [a["value"] for a in first["answers"]] == [-2.0, -2.0001, 2.0, 0.5]
    assert [a["nickname"] for a in first["answers"]] == ["s0", "s1", "s2", "s3"]
    assert student(0) not in str(tally)
    table = client.get(lesson.url("/answers.csv"), headers=lesson.auth)
    assert table.status_code == 200 and table.headers["content-type"].startswith("text/csv")
    rows = list(csv.DictReader(io.StringIO(table.text)))
    assert len(rows) == 7
    assert rows[0]["node"] == "0" and rows[0]["round"] == "1" and rows[0]["step"] == "1"
    assert float(rows[0]["true_value"]) == -2.0 and float(rows[1]["answer"]) == -2.0001
    assert [r["round"] for r in rows] == ["1"] * 4 + ["2"] * 3
    assert all(float(r["seconds"]) >= 0 for r in rows)
    assert "s0" not in table.text and student(0) not in table.text


def test_paging_past_a_question_stops_its_answers_and_the_reveal_goes_back_to_it(
    client: TestClient,
) -> None:
    """Issue 42, item 1: the next step's picture shows the grad asked for, so moving on locks
    the round (an answer after that is never counted); the reveal brings the class back to
    the question's step, so its histogram is shown with its own step."""
    lesson = new_class(client)
    lesson.command("/position", {"phase": "backward", "step": 1})
    with client.stream("GET", lesson.url("/events")) as response:
        events = Events(response)
        events.next()
        assert lesson.command("/questions", {"node": 0, "kind": "number"}).status_code == 201
        events.until("question")
        assert lesson.answer(student(0), 1, -2.0).status_code == 202
        events.until("answers")
        assert lesson.command("/position", {"phase": "backward", "step": 2}).status_code == 204
        (_, moved), (_, locked) = events.next(), events.next()
        assert moved["type"] == "position" and moved["step"] == 2
        assert locked == {"type": "locked", "question": 1, "round": 1}
        late = lesson.answer(student(1), 1, -2.0)
        assert late.status_code == 409 and late.json()["error"]["kind"] == "closed"
        assert lesson.command("/position", {"phase": "backward", "step": 1}).status_code == 204
        events.until("position")  # back at its step: still locked
        assert lesson.answer(student(2), 1, -2.0).status_code == 409
        assert lesson.command("/position", {"phase": "forward", "step": 0}).status_code == 204
        assert events.until("position")[-1][1]["phase"] == "forward"
        # a late joiner is told the round is locked (and its count), not asked to answer
        with client.stream("GET", lesson.url("/events")) as joined:
            joiner = Events(joined)
            opening = [joiner.next()[1] for _ in range(4)]
        assert [e["type"] for e in opening] == ["position", "question", "answers", "locked"]
        assert opening[2]["count"] == 1
        shown = lesson.command("/questions/1/reveal")
        assert shown.status_code == 200 and shown.json()["histogram"]["count"] == 1
        back = events.until("reveal")
        positions = [e for _, e in back if e["type"] == "position"]
        assert positions[-1]["phase"] == "backward" and positions[-1]["step"] == 1
        assert lesson.view()["position"]["step"] == 1


def test_a_round_locked_before_its_reveal(client: TestClient) -> None:
    """Issue 42, item 4: the teacher stops the answers to let the class talk it over, and
    reveals later; a lock is idempotent, and a second round can be asked and locked alike."""
    lesson = new_class(client)
    lesson.command("/position", {"phase": "backward", "step": 1})
    assert lesson.command("/questions", {"node": 0, "kind": "number"}).status_code == 201
    assert lesson.answer(student(0), 1, -2.0).status_code == 202
    with client.stream("GET", lesson.url("/events")) as response:
        events = Events(response)
        events.until("answers")
        locked = lesson.command("/questions/1/lock")
        assert locked.status_code == 200 and locked.json() == {"question": 1, "round": 1}
        assert events.next()[1] == {"type": "locked", "question": 1, "round": 1}
        assert lesson.command("/questions/1/lock").status_code == 200  # again: nothing new
        assert lesson.answer(student(1), 1, -2.0).status_code == 409
        assert lesson.command("/questions/1/reveal").json()["histogram"]["count"] == 1
        assert events.next()[1]["type"] == "reveal"
    assert lesson.command("/questions/1/again").json() == {"question": 1, "round": 2}
    assert lesson.command("/questions/1/lock").json() == {"question": 1, "round": 2}
    assert lesson.answer(student(0), 1, -2.0).status_code == 409
    stranger = client.post(lesson.url("/questions/1/lock"))
    assert stranger.status_code == 403
    assert lesson.command("/questions/9/lock").status_code == 404


def test_a_sign_question(client: TestClient) -> None:
    lesson = new_class(client)
    assert lesson.command("/questions", {"node": 1, "kind": "sign"}).status_code == 201
    for n, sign in enumerate(["+", "+", "-", "0"]):
        assert lesson.answer(student(n), 1, sign).status_code == 202
    wrong_kind = lesson.answer(student(8), 1, 2.0)
    assert wrong_kind.status_code == 422 and "+, - or 0" in wrong_kind.json()["error"]["message"]
    histogram = lesson.command("/questions/1/reveal").json()["histogram"]
    assert histogram["true"] == "+" and histogram["correct"] == 2 and histogram["bins"] == []
    assert histogram["signs"] == {"+": 2, "-": 1, "0": 1}


def test_a_question_about_a_constant_is_refused(client: TestClient) -> None:
    lesson = new_class(client, "a = 2.0\nb = a * 3")  # 3 is a constant, node 1
    refused = lesson.command("/questions", {"node": 1, "kind": "number"})
    assert refused.status_code == 422 and "constant" in refused.json()["error"]["message"]
    missing = lesson.command("/questions", {"node": 50, "kind": "number"})
    assert missing.status_code == 422 and "no node 50" in missing.json()["error"]["message"]
    assert lesson.tally() == {"questions": []}


def test_the_true_value_follows_the_teachers_sliders(client: TestClient) -> None:
    lesson = new_class(client)
    lesson.command("/position", {"phase": "backward", "step": 0, "values": {"b": 5.0}})
    lesson.command("/questions", {"node": 0, "kind": "number"})
    assert lesson.tally()["questions"][0]["true"] == 6.0  # b + 1


def test_pause_and_roam(client: TestClient) -> None:
    lesson = new_class(client)
    with client.stream("GET", lesson.url("/events")) as response:
        events = Events(response)
        events.next()
        assert lesson.command("/pause", {"paused": True}).status_code == 204
        assert events.next()[1] == {"type": "paused", "paused": True}
        assert lesson.command("/roam", {"roam": True}).status_code == 204
        _, position = events.next()
        assert position["type"] == "position" and position["roam"] and position["paused"]
        assert not position["roam_ahead"]  # up to the teacher's step unless asked
        assert lesson.command("/roam", {"roam": True, "ahead": True}).status_code == 204
        assert events.next()[1]["roam_ahead"]
        assert lesson.command("/roam", {"roam": False, "ahead": True}).status_code == 204
        assert not events.next()[1]["roam_ahead"]  # following: nowhere ahead
        assert lesson.command("/roam", {"roam": True, "ahead": True}).status_code == 204
    view = lesson.view()["position"]
    assert view["paused"] and view["roam"] and view["roam_ahead"]


def roster(lesson: Class) -> dict[str, Any]:
    got = lesson.client.get(lesson.url("/students"), headers=lesson.auth)
    assert got.status_code == 200, got.text
    result: dict[str, Any] = got.json()
    return result


def test_the_teacher_sees_who_follows_and_who_answered(client: TestClient) -> None:
    """Issue 42, item 4: a per-student view for the teacher alone: each student page that
    follows the class (its stream names it), first seen first, with the nickname it gave and
    whether it answered the round on screen; never a token, never to a stranger."""
    lesson = new_class(client)
    assert roster(lesson) == {"students": [], "present": 0, "answered": None}
    assert client.get(lesson.url("/students")).status_code == 403
    one = f"{lesson.url('/events')}?student={student(1)}&nickname=Ada"
    two = f"{lesson.url('/events')}?student={student(2)}"
    with client.stream("GET", one) as first:
        following = [Events(first)]  # kept: a reader let go closes its stream
        following[0].next()
        with client.stream("GET", two) as second:
            following.append(Events(second))
            following[1].next()
            listed = roster(lesson)
            assert listed["students"] == [
                {"nickname": "Ada", "present": True, "answered": False},
                {"nickname": None, "present": True, "answered": False},
            ]
            assert listed["present"] == 2 and listed["answered"] is None
            assert lesson.command("/questions", {"node": 0, "kind": "number"}).status_code == 201
            assert lesson.answer(student(2), 1, 5.0, nickname="Bo").status_code == 202
            listed = roster(lesson)
            assert [s["nickname"] for s in listed["students"]] == ["Ada", "Bo"]
            assert [s["answered"] for s in listed["students"]] == [False, True]
            assert listed["answered"] == 1
            assert student(2) not in str(listed)
        for _ in range(100):  # the second page went: its stream's end notes it gone
            if not roster(lesson)["students"][1]["present"]:
                break
            time.sleep(0.05)
        listed = roster(lesson)
        assert [s["present"] for s in listed["students"]] == [True, False]
        assert listed["present"] == 1


def test_a_page_that_reconnects_stays_present_when_its_old_stream_ends(client: TestClient) -> None:
    # a nickname changed, a network back: the new stream opens before the old one is known to
    # have ended, and the old one's end does not mark the page gone
    lesson = new_class(client)
    url = f"{lesson.url('/events')}?student={student(3)}"
    with client.stream("GET", url) as new:
        kept = Events(new)
        kept.next()
        with client.stream("GET", url + "&nickname=Cy") as old:
            Events(old).next()
        for _ in range(100):  # the old stream's end is noted
            time.sleep(0.05)
            if client.app.state.class_streams.by_class.get(lesson.code, 0) == 1:  # type: ignore[attr-defined]
                break
        time.sleep(0.1)
        assert roster(lesson)["students"] == [
            {"nickname": "Cy", "present": True, "answered": False}
        ]


def test_a_stream_that_names_itself_badly_is_refused_or_not_named(client: TestClient) -> None:
    lesson = new_class(client)
    assert client.get(f"{lesson.url('/events')}?student=short").status_code == 422
    # a nickname that is not plain text (or too long) is not shown, and the page still follows
    # (a page refused would ask again every 2 s, for ever)
    for n, name in enumerate(("x" * 25, "Ev\u202eil", "tab\there")):
        url = f"{lesson.url('/events')}?{urlencode({'student': student(n), 'nickname': name})}"
        with client.stream("GET", url) as stream:
            Events(stream).next()
    assert [s["nickname"] for s in roster(lesson)["students"]] == [None, None, None]


def test_a_new_program(client: TestClient) -> None:
    lesson = new_class(client)
    lesson.command("/questions", {"node": 0, "kind": "number"})
    with client.stream("GET", lesson.url("/events")) as response:
        events = Events(response)
        events.until("answers")
        source = "x = 1.5\ny = x * x"
        changed = lesson.command("/program", {"source": source, "values": "x=2"})
        assert changed.status_code == 204, changed.text
        _, program = events.next()
        _, position = events.next()
    assert program["type"] == "program" and program["source"] == source
    assert program["values"] == {"x": 2.0}
    assert position["program"] == program["digest"] and position["step"] == 0
    assert lesson.view()["question"] is None
    assert lesson.answer(student(1), 1, -2.0).status_code == 409  # put away with its program
    bad = lesson.command("/program", {"source": "y = x *"})
    assert bad.status_code == 422 and lesson.view()["program"]["source"] == source


def test_a_class_expires_after_its_teachers_last_command(client: TestClient) -> None:
    lesson = new_class(client)
    lesson.command("/questions", {"node": 0, "kind": "number"})
    lesson.answer(student(1), 1, -2.0)
    store = client.app.state.classes  # type: ignore[attr-defined]
    ttl = store.ttl_s
    store.ttl_s = 0.5
    try:
        with client.stream("GET", lesson.url("/events")) as response:
            events = Events(response)
            events.until("answers")
            assert lesson.command("/pause", {"paused": False}).status_code == 204  # 0.5 s now
            started = time.monotonic()
            assert events.next()[1]["type"] == "paused"
            _, closed = events.next()  # seen by the next keep-alive's look
            assert time.monotonic() - started < 3
            assert closed == {"type": "closed", "reason": "expired"} and events.ended()
    finally:
        store.ttl_s = ttl
    assert client.get(lesson.url()).status_code == 404
    assert lesson.command("/pause", {"paused": True}).status_code == 404
    assert lesson.answer(student(2), 1, -2.0).status_code == 404


def test_a_closed_class_is_gone(client: TestClient) -> None:
    lesson = new_class(client)
    lesson.command("/questions", {"node": 0, "kind": "number"})
    lesson.answer(student(1), 1, -2.0)
    with client.stream("GET", lesson.url("/events")) as response:
        events = Events(response)
        events.until("answers")
        assert client.delete(lesson.url(), headers=lesson.auth).status_code == 204
        assert events.next()[1] == {"type": "closed", "reason": "closed"}
        assert events.ended()
    assert client.get(lesson.url()).status_code == 404
    after = lesson.answer(student(2), 1, -2.0)
    assert after.status_code == 404 and after.json()["error"]["kind"] == "not_found"
    assert client.get(lesson.url("/answers"), headers=lesson.auth).status_code == 404
    assert client.delete(lesson.url(), headers=lesson.auth).status_code == 404


def test_a_broker_that_cannot_be_reached_costs_the_classes_alone() -> None:
    url = f"redis://user:secret@127.0.0.1:{free_port()}/0"  # nothing listens there
    with TestClient(create_app(Settings(layout=BACKENDS[0], broker_url=url))) as client:
        refused = client.post("/api/classes", json={"source": PROGRAM})
        assert refused.status_code == 503 and refused.headers["retry-after"] == "5"
        error = refused.json()["error"]
        assert error["kind"] == "store_unavailable" and "secret" not in error["message"]
        assert client.get("/api/classes/abcdefghjk/events").status_code == 503
        assert client.post("/api/graph", json={"source": PROGRAM}).status_code == 200
