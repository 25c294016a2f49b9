"""A live class against what a lecture hall may send it: commands without the key or with a
wrong one, answer floods, malformed and oversized answers, guessed codes, nicknames with markup
or control characters, unknown questions, answers after the end. On both stores."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest
from class_client import STORES, Class, class_client, new_class, student
from fastapi.testclient import TestClient

from app.classroom.codes import ALPHABET, CODE_LENGTH, key_hash
from app.links.ratelimit import TokenBuckets


@pytest.fixture(scope="module", params=STORES)
def client(request: pytest.FixtureRequest) -> Iterator[TestClient]:
    with class_client(request.param) as made:
        yield made


@pytest.fixture
def lesson(client: TestClient) -> Class:
    made = new_class(client)
    assert made.command("/questions", {"node": 0, "kind": "number"}).status_code == 201
    return made


def _state(lesson: Class) -> dict[str, Any]:
    return {"view": lesson.view(), "tally": lesson.tally()}


COMMANDS = [
    ("post", "/position", {"phase": "backward", "step": 1}),
    ("post", "/pause", {"paused": True}),
    ("post", "/roam", {"roam": True}),
    ("post", "/program", {"source": "x = 1.0\ny = x * 2"}),
    ("post", "/questions", {"node": 1, "kind": "sign"}),
    ("post", "/questions/1/reveal", None),
    ("post", "/questions/1/again", None),
    ("get", "/answers", None),
    ("get", "/answers.csv", None),
    ("delete", "", None),
]


@pytest.mark.parametrize(
    "authorization",
    [None, "", "Bearer", "Bearer nope", "Basic abc", "Bearer {other}", "{key}", "Bearer  {key}x"],
)
def test_a_command_without_the_key_is_refused_and_changes_nothing(
    client: TestClient, lesson: Class, authorization: str | None
) -> None:
    other = new_class(client)
    before = _state(lesson)
    for method, path, body in COMMANDS:
        headers = {}
        if authorization is not None:
            headers["authorization"] = authorization.format(key=lesson.key, other=other.key)
        answer = client.request(method, lesson.url(path), json=body, headers=headers)
        assert answer.status_code == 403, (path, answer.text)
        error = answer.json()["error"]
        assert error["kind"] == "forbidden" and "Authorization: Bearer" in error["message"]
    assert _state(lesson) == before


def test_the_key_is_stored_as_a_hash(client: TestClient, lesson: Class) -> None:
    store = client.app.state.classes  # type: ignore[attr-defined]
    portal = client.portal  # type: ignore[attr-defined]
    snapshot = portal.call(store.get, lesson.code)
    assert snapshot.key_hash == key_hash(lesson.key)
    assert lesson.key not in json.dumps(snapshot.state)


def test_a_flood_from_one_student_counts_once(client: TestClient, lesson: Class) -> None:
    statuses = [lesson.answer(student(1), 1, -2.0 + n).status_code for n in range(40)]
    assert statuses[0] == 202
    assert set(statuses[1:20]) == {409}  # answered: the first answer counts
    assert set(statuses[20:]) == {429}  # past the student's bucket
    flooded = lesson.answer(student(1), 1, 5.0)
    assert flooded.status_code == 429 and int(flooded.headers["retry-after"]) >= 1
    assert lesson.answer(student(2), 1, -2.0).status_code == 202  # others are not held up
    answers = lesson.tally()["questions"][0]["rounds"][0]["answers"]
    assert [a["value"] for a in answers] == [-2.0, -2.0]


def test_a_flood_into_one_class_is_throttled(client: TestClient, lesson: Class) -> None:
    state = client.app.state  # type: ignore[attr-defined]
    kept, state.class_answers = state.class_answers, TokenBuckets(5)
    try:
        statuses = [lesson.answer(student(n), 1, 1.0).status_code for n in range(8)]
        other = new_class(client)
        other.command("/questions", {"node": 0, "kind": "sign"})
        assert other.answer(student(1), 1, "+").status_code == 202  # another class is not
    finally:
        state.class_answers = kept
    assert statuses == [202] * 5 + [429] * 3
    assert lesson.tally()["questions"][0]["rounds"][0]["histogram"]["count"] == 5


def test_answers_to_no_question_or_a_closed_one_are_not_charged_to_the_class(
    client: TestClient, lesson: Class
) -> None:
    state = client.app.state  # type: ignore[attr-defined]
    kept, state.class_answers = state.class_answers, TokenBuckets(5)
    try:
        missing = {lesson.answer(student(n), 7, 1.0).status_code for n in range(100, 140)}
        lesson.command("/questions", {"node": 1, "kind": "number"})  # question 1 closes
        closed = {lesson.answer(student(n), 1, 1.0).status_code for n in range(200, 240)}
        counted = [lesson.answer(student(n), 2, 1.0).status_code for n in range(5)]
    finally:
        state.class_answers = kept
    assert (missing, closed) == ({404}, {409})
    assert counted == [202] * 5  # the real students' answers, all counted


def test_one_address_cannot_fill_a_round_and_others_still_answer(
    client: TestClient, lesson: Class
) -> None:
    state = client.app.state  # type: ignore[attr-defined]
    kept, state.address_answers = state.address_answers, TokenBuckets(5)
    try:  # fresh student tokens each time, from one address
        statuses = [lesson.answer(student(n), 1, 1.0).status_code for n in range(8)]
        transport = client._transport  # type: ignore[attr-defined]  # the app's own loop
        here, transport.client = transport.client, ("10.0.0.9", 50000)  # another address
        try:
            other = lesson.answer(student(99), 1, 1.0)
        finally:
            transport.client = here
    finally:
        state.address_answers = kept
    assert statuses == [202] * 5 + [429] * 3
    assert other.status_code == 202, other.text
    assert lesson.tally()["questions"][0]["rounds"][0]["histogram"]["count"] == 6


GOOD = {"student": student(1), "question": 1, "value": -2.0}
MALFORMED = [
    ("value", "1e999", "json"),  # a JSON number too large for a float is infinite
    ("value", "NaN", "json"),
    ("value", "Infinity", "json"),
    ("value", "true", "json"),
    ("value", '"-2"', "json"),
    ("value", '"plus"', "json"),
    ("value", "[1]", "json"),
    ("value", "null", "json"),
    ("question", '"1"', "json"),
    ("question", "0", "json"),
    ("question", "1.5", "json"),
    ("student", '"short"', "json"),
    ("student", '"' + "x" * 65 + '"', "json"),
    ("student", '"student token with spaces"', "json"),
    ("student", '"student-token-0001<"', "json"),
    ("nickname", '"' + "n" * 25 + '"', "json"),
    ("nickname", "3", "json"),
    ("extra", '"field"', "json"),
]


@pytest.mark.parametrize(("field", "raw", "_kind"), MALFORMED)
def test_a_malformed_answer_is_422_and_stores_nothing(
    client: TestClient, lesson: Class, field: str, raw: str, _kind: str
) -> None:
    body = json.dumps({k: v for k, v in GOOD.items() if k != field})[:-1] + f', "{field}": {raw}}}'
    sent = client.post(
        lesson.url("/answers"), content=body, headers={"content-type": "application/json"}
    )
    assert sent.status_code == 422, sent.text
    assert field in sent.json()["error"]["message"] or sent.json()["error"]["kind"] == "json"
    assert lesson.tally()["questions"][0]["rounds"][0]["answers"] == []


def test_an_oversized_answer_is_refused(client: TestClient, lesson: Class) -> None:
    huge = {**GOOD, "nickname": "n" * 300_000}
    assert lesson.client.post(lesson.url("/answers"), json=huge).status_code == 422
    digits = json.dumps({**GOOD, "value": 0}).replace('"value": 0', '"value": 1' + "0" * 5000)
    sent = client.post(
        lesson.url("/answers"), content=digits, headers={"content-type": "application/json"}
    )
    assert sent.status_code == 422
    assert lesson.tally()["questions"][0]["rounds"][0]["answers"] == []


def test_guessing_codes_is_404_then_429_and_a_class_that_exists_is_still_answered(
    client: TestClient, lesson: Class
) -> None:
    state = client.app.state  # type: ignore[attr-defined]
    kept, state.class_misses = state.class_misses, TokenBuckets(3)
    try:
        guesses = [ALPHABET[n] * CODE_LENGTH for n in range(5)]
        statuses = [client.get(f"/api/classes/{code}/events").status_code for code in guesses]
        # the misses' address is a lecture hall's too: its class, its teacher go on
        view = client.get(lesson.url())
        moved = lesson.client.post(
            lesson.url("/position"), json={"phase": "forward", "step": 1}, headers=lesson.auth
        )
        malformed = client.get("/api/classes/not-a-code")
    finally:
        state.class_misses = kept
    assert statuses == [404, 404, 404, 429, 429]
    assert view.status_code == 200 and moved.status_code == 204, (view.text, moved.text)
    assert malformed.status_code == 429 and int(malformed.headers["retry-after"]) >= 1
    assert malformed.json()["error"]["kind"] == "rate_limit"


@pytest.mark.parametrize(
    "nickname", ["<b onclick=x>hi</b>", "Robert'); DROP--", '=HYPERLINK("x")', "Zoë 🦊"]
)
def test_a_nickname_with_markup_is_kept_as_text(
    client: TestClient, lesson: Class, nickname: str
) -> None:
    assert lesson.answer(student(3), 1, -2.0, nickname=nickname).status_code == 202
    answers = lesson.tally()["questions"][0]["rounds"][0]["answers"]
    assert answers[0]["nickname"] == nickname  # JSON text: a page sets it as textContent
    table = client.get(lesson.url("/answers.csv"), headers=lesson.auth).text
    assert nickname not in table  # the CSV leaves nicknames out: no formula reaches a sheet
    with client.stream("GET", lesson.url("/events")) as response:
        for line in response.iter_lines():
            assert nickname not in line and student(3) not in line
            if '"type":"answers"' in line:
                break


@pytest.mark.parametrize("nickname", ["bell\x07", "new\nline", "tab\tbed", "\u202eevil", "\x00"])
def test_a_nickname_with_control_characters_is_refused(lesson: Class, nickname: str) -> None:
    refused = lesson.answer(student(4), 1, -2.0, nickname=nickname)
    assert refused.status_code == 422
    assert "nickname" in refused.json()["error"]["message"]
    assert lesson.tally()["questions"][0]["rounds"][0]["answers"] == []


def test_an_unknown_question_is_404(client: TestClient, lesson: Class) -> None:
    refused = lesson.answer(student(1), 7, -2.0)
    assert refused.status_code == 404 and "no question 7" in refused.json()["error"]["message"]
    assert lesson.command("/questions/7/reveal").status_code == 404
    assert lesson.command("/questions/7/again").status_code == 404
    assert lesson.tally()["questions"][0]["rounds"][0]["answers"] == []


def test_answers_after_the_end_are_refused(client: TestClient, lesson: Class) -> None:
    assert lesson.answer(student(1), 1, -2.0).status_code == 202
    assert client.delete(lesson.url(), headers=lesson.auth).status_code == 204
    for n in range(3):
        gone = lesson.answer(student(n), 1, -2.0)
        assert gone.status_code == 404 and gone.json()["error"]["kind"] == "not_found"
    assert client.get(lesson.url("/events")).status_code == 404
