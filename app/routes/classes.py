"""Live classes (issue 29): a teacher's commands move every student's screen and ask
questions; students listen to the class's event stream and answer. The class's rules are
app/classroom's (``commands``, ``answering``, ``views``): a route here parses, authorises, calls
them and answers, a refusal with its status. Every route is ``async`` (the store is asyncio);
running a program goes to the threadpool.

A class is named by its code; its teacher's commands carry its key (``Authorization: Bearer``);
a student is a random token the page chose. A code that is not a class costs the client a token
of a bucket (``CLASS_MISSES_PER_MINUTE``): guessing is throttled, opening a class is not.
"""

from __future__ import annotations

import functools
import time
from collections.abc import Iterator
from contextlib import AsyncExitStack, contextmanager
from dataclasses import dataclass
from typing import Annotated, Any

from fastapi import APIRouter, Depends, Header, Query, Request, Response
from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException

from app.capacity import Unavailable
from app.classroom import commands, views
from app.classroom.answering import answer_round, check_outcome
from app.classroom.codes import key_hash, key_matches, new_code, new_key, normal_code
from app.classroom.commands import Asking, Refusal
from app.classroom.model import Outcome, Snapshot
from app.classroom.program import class_program, given_values, true_gradient
from app.classroom.protocol import ClassStore, Command, StoreUnavailable
from app.classroom.schemas import (
    MAX_NICKNAME,
    STUDENT_PATTERN,
    AnswerRequest,
    AnswerTaken,
    ClassCreated,
    ClassRequest,
    ClassView,
    PauseRequest,
    PositionRequest,
    ProgramRequest,
    QuestionCreated,
    QuestionRequest,
    RoamRequest,
    Roster,
    Tally,
    plain_nickname,
)
from app.classroom.state import ClassProgram, new_state
from app.classroom.stream import ClassStream, class_events, note_gone, note_present
from app.classroom.tally import answers_csv, round_histogram
from app.deps import (
    AddressAnswersDep,
    ClassAnswersDep,
    ClassBucketsDep,
    ClassMissesDep,
    ClassStoreDep,
    ClassStreamsDep,
    ClientAddress,
    LinkStoreDep,
    PipelineDep,
    StudentAnswersDep,
)
from app.draw.qr import qr_svg
from app.links.ratelimit import TokenBuckets
from app.links.state import is_link_id
from app.links.store import LinkStore, StoreError
from app.pipeline import Pipeline
from app.responses import EventStream
from app.schemas import ErrorResponse
from app.serving import public_base
from engine.errors import GradstepError

router = APIRouter(tags=["classes"])

RETRY_AFTER_BROKER_S = 5
RETRY_AFTER_STREAMS_S = 10
CLASSES_PER_MINUTE = 10  # new classes per client address: a teacher makes one a lecture
ANSWERS_PER_STUDENT_PER_MINUTE = 20  # a student answers each round once; a few retries
ANSWERS_PER_ADDRESS_PER_MINUTE = 600  # a hall of 300 behind one NAT address, twice a minute
ANSWERS_PER_CLASS_PER_MINUTE = 3_000  # a lecture hall of 1,000 answering within seconds, thrice
# the class's refusals (app.classroom.commands.Refusal), by kind
REFUSAL_STATUS = {"not_found": 404, "changed": 409, "closed": 409, "answered": 409, "full": 409}

_ERRORS: dict[int | str, dict[str, Any]] = {
    403: {"model": ErrorResponse, "description": "no teacher key, or not this class's"},
    404: {"model": ErrorResponse, "description": "no such class (closed, expired, never made)"},
    422: {"model": ErrorResponse, "description": "bad input"},
    429: {"model": ErrorResponse, "description": "too many codes that are not classes"},
    503: {"model": ErrorResponse, "description": "the broker cannot be reached"},
}


class Refused(HTTPException):
    """A refusal in the error shape: its status, its kind, a message saying what works."""

    def __init__(
        self, status: int, kind: str, message: str, headers: dict[str, str] | None = None
    ) -> None:
        super().__init__(status, message, headers=headers)
        self.kind = kind


@contextmanager
def _refusals() -> Iterator[None]:
    """The class's refusals answered in the error shape, with their status."""
    try:
        yield
    except Refusal as refusal:
        raise Refused(REFUSAL_STATUS[refusal.kind], refusal.kind, refusal.message) from None


def _limited(buckets: TokenBuckets, key: str, what: str) -> None:
    wait = buckets.take(key)
    if wait:
        raise Refused(
            429,
            "rate_limit",
            f"more than {buckets.per_minute} {what} in a minute: try again in {wait} s",
            {"retry-after": str(wait)},
        )


def _no_class(code: str) -> Refused:
    return Refused(
        404,
        "not_found",
        f"there is no class {code}: it has closed, or expired (12 hours after its teacher's "
        "last command), or the code is mistyped; check it against the slide",
    )


async def _reachable(pending: Any) -> Any:
    try:
        return await pending
    except StoreUnavailable as error:
        raise Unavailable(
            f"live classes are unavailable: {error}", "store_unavailable", RETRY_AFTER_BROKER_S
        ) from None


def _teacher(snapshot: Snapshot, authorization: str | None) -> None:
    scheme, _, key = (authorization or "").partition(" ")
    if scheme.lower() != "bearer" or not key_matches(key.strip(), snapshot.key_hash):
        raise Refused(
            403,
            "forbidden",
            "this command is the class's teacher's: send its teacher key as the header "
            "Authorization: Bearer <teacher_key> (the key after #key= in the teacher's link)",
        )


@dataclass(frozen=True, slots=True)
class Classes:
    """The classes as one request reaches them: its client misses codes at a cost."""

    store: ClassStore
    misses: TokenBuckets  # codes that are not classes, per client address
    client: str

    async def find(self, text: str) -> tuple[str, Snapshot]:
        """The class ``text`` names and its snapshot; 404 when there is none, 429 for a client
        that has asked for too many codes that are not classes."""
        code = normal_code(text)
        snapshot = None if code is None else await _reachable(self.store.get(code))
        if code is not None and snapshot is not None:  # never refused for misses: codes are not
            return code, snapshot  # guessed (31¹⁰ of them), and a lecture hall shares an address
        wait = self.misses.take(self.client)
        if wait:
            raise Refused(
                429,
                "rate_limit",
                f"more than {self.misses.per_minute} class codes that are not classes asked for "
                f"in a minute from your address: try again in {wait} s, and check the code's "
                "letters",
                {"retry-after": str(wait)},
            )
        raise _no_class(text[:20] if code is None else code)

    async def taught(self, text: str, authorization: str | None) -> tuple[str, Snapshot]:
        """``find``'s class, for its teacher alone (403 without its key)."""
        code, snapshot = await self.find(text)
        _teacher(snapshot, authorization)
        return code, snapshot

    async def command(self, text: str, command: Command, authorization: str | None) -> Snapshot:
        """Run a teacher's command on the class (whose key ``authorization`` must carry)."""
        code, _snapshot = await self.taught(text, authorization)
        with _refusals():
            after = await _reachable(self.store.update(code, command))
        if after is None:  # closed or expired since it was looked up
            raise _no_class(code)
        assert isinstance(after, Snapshot)
        return after


def _classes(store: ClassStoreDep, misses: ClassMissesDep, client: ClientAddress) -> Classes:
    return Classes(store, misses, client)


ClassesDep = Annotated[Classes, Depends(_classes)]
Authorization = Annotated[str | None, Header(description="Bearer <teacher_key>")]


def _urls(request: Request, code: str, key: str) -> dict[str, str]:
    base = public_base(request)
    return {
        "student_url": f"{base}/c/{code}",
        "teacher_url": f"{base}/c/{code}#key={key}",
        "qr_svg_url": f"{base}/api/classes/{code}/qr.svg",
    }


# ── the teacher ───────────────────────────────────────────────────────────────────────────────


async def _program(pipeline: Pipeline, source: str, values: Any) -> ClassProgram:
    return await run_in_threadpool(class_program, pipeline, source, given_values(values))


def _link_program(links: LinkStore, link: str) -> tuple[str, str | None]:
    """A short link's program and values (as its URL writes them)."""
    link_id = link.lower()
    state = None
    if is_link_id(link_id):
        try:
            state = links.get(link_id)
        except StoreError as error:
            raise Unavailable(
                f"short links are unavailable ({error})", "store_unavailable", RETRY_AFTER_BROKER_S
            ) from None
    if state is None or not state.get("source"):
        raise GradstepError(f"link: there is no short link {link_id[:60]!r}", "request")
    return state["source"], state.get("values")


@router.post("/api/classes", status_code=201, response_model=ClassCreated, responses=_ERRORS)
async def create_class(
    body: ClassRequest,
    request: Request,
    store: ClassStoreDep,
    buckets: ClassBucketsDep,
    client: ClientAddress,
    links: LinkStoreDep,
    pipeline: PipelineDep,
) -> dict[str, str]:
    """Start a class on a program (checked as ``POST /api/graph`` checks it): its code, its
    teacher's key (shown this once) and the students' and teacher's links."""
    _limited(buckets, client, "new classes from your address")
    if (body.source is None) == (body.link is None):
        raise GradstepError("give the class a program: source (and values), or a link", "request")
    if body.link is not None:
        if body.values is not None:
            raise GradstepError("values: a link brings its own values", "request")
        source, values = await run_in_threadpool(_link_program, links, body.link)
    else:
        source, values = (body.source or ""), body.values  # type: ignore[assignment]
    program = await _program(pipeline, source, values)
    key = new_key()
    while True:  # a code already taken (1 in 10**14 per class) draws another
        code = new_code()
        if await _reachable(store.create(code, key_hash(key), new_state(program))):
            break
    return {"code": code, "teacher_key": key, **_urls(request, code, key)}


@router.post("/api/classes/{code}/position", status_code=204, responses=_ERRORS)
async def move(
    code: str, body: PositionRequest, classes: ClassesDep, authorization: Authorization = None
) -> Response:
    """Move every following student's screen to a step (and its folds, values, iteration)."""
    move = functools.partial(commands.move, to=body.position())
    await classes.command(code, move, authorization)
    return Response(status_code=204)


@router.post("/api/classes/{code}/pause", status_code=204, responses=_ERRORS)
async def pause(
    code: str, body: PauseRequest, classes: ClassesDep, authorization: Authorization = None
) -> Response:
    """Pause every student's screen (true), or let it go on (false)."""
    pause = functools.partial(commands.pause, paused=body.paused)
    await classes.command(code, pause, authorization)
    return Response(status_code=204)


@router.post("/api/classes/{code}/roam", status_code=204, responses=_ERRORS)
async def roam(
    code: str, body: RoamRequest, classes: ClassesDep, authorization: Authorization = None
) -> Response:
    """Let students step on their own (true), up to the teacher's step unless ``ahead``, or have
    them follow the teacher again (false)."""
    roam = functools.partial(commands.roam, roaming=body.roam, ahead=body.ahead)
    await classes.command(code, roam, authorization)
    return Response(status_code=204)


@router.post("/api/classes/{code}/program", status_code=204, responses=_ERRORS)
async def change_program(
    code: str,
    body: ProgramRequest,
    classes: ClassesDep,
    pipeline: PipelineDep,
    authorization: Authorization = None,
) -> Response:
    """Give the class another program: students are sent it, and the first forward step; the
    question on screen is put away (its answers are kept for the tally)."""
    code, _snapshot = await classes.taught(code, authorization)  # before the program runs: a
    program = await _program(pipeline, body.source, body.values)  # stranger's costs nothing
    change = functools.partial(commands.change_program, program=program)
    await classes.command(code, change, authorization)
    return Response(status_code=204)


@router.post(
    "/api/classes/{code}/questions",
    status_code=201,
    response_model=QuestionCreated,
    responses=_ERRORS,
)
async def ask(
    code: str,
    body: QuestionRequest,
    classes: ClassesDep,
    pipeline: PipelineDep,
    authorization: Authorization = None,
) -> dict[str, int]:
    """Ask the class for a node's gradient (its value, or its sign) at the position on screen;
    the question open before stops taking answers."""
    code, snapshot = await classes.taught(code, authorization)
    state = snapshot.state
    commands.check_room(state)  # before the program runs
    program, position = state["program"], state["position"]
    true, name = await run_in_threadpool(true_gradient, pipeline, program, position, body.node)
    asking = Asking(body.node, body.kind, name, true, program["digest"], position)
    ask = functools.partial(commands.ask, asking=asking, now=time.time())
    after = await classes.command(code, ask, authorization)
    return {"question": len(after.state["questions"]), "round": 1}  # the last asked


@router.post(
    "/api/classes/{code}/questions/{question}/again",
    status_code=201,
    response_model=QuestionCreated,
    responses=_ERRORS,
)
async def ask_again(
    code: str, question: int, classes: ClassesDep, authorization: Authorization = None
) -> dict[str, int]:
    """A new round of the same question (Peer Instruction's second vote, after discussion):
    each round is counted and kept apart."""
    again = functools.partial(commands.ask_again, question=question, now=time.time())
    after = await classes.command(code, again, authorization)
    rounds = len(commands.asked(after.state, question)["rounds"])
    return {"question": question, "round": rounds}


@router.post("/api/classes/{code}/questions/{question}/reveal", responses=_ERRORS)
async def reveal(
    code: str, question: int, classes: ClassesDep, authorization: Authorization = None
) -> dict[str, Any]:
    """Stop the question's last round taking answers and show everyone its histogram:
    ``{"question", "round", "histogram"}``."""
    code = normal_code(code) or code
    close = functools.partial(commands.close_round, question=question, told=False)
    after = await classes.command(code, close, authorization)
    asked = commands.asked(after.state, question)
    number = len(asked["rounds"])
    shown = asked["rounds"][-1]["histogram"]
    if shown is None:  # no answer comes in now: the round is closed
        answers = await _reachable(classes.store.answers(code))
        shown = round_histogram(asked, number, answers)
        show = functools.partial(commands.show, question=question, number=number, histogram=shown)
        await classes.command(code, show, authorization)
    return {"question": question, "round": number, "histogram": shown}


@router.post("/api/classes/{code}/questions/{question}/lock", responses=_ERRORS)
async def lock(
    code: str, question: int, classes: ClassesDep, authorization: Authorization = None
) -> dict[str, int]:
    """Stop the question's last round taking answers without showing them (the class talks it
    over before the reveal): ``{"question", "round"}``. Moving to another step does the same."""
    close = functools.partial(commands.close_round, question=question, told=True)
    after = await classes.command(code, close, authorization)
    return {"question": question, "round": len(commands.asked(after.state, question)["rounds"])}


@router.get("/api/classes/{code}/answers", response_model=Tally, responses=_ERRORS)
async def tally(
    code: str, classes: ClassesDep, authorization: Authorization = None
) -> dict[str, Any]:
    """Every question and round: the true value, the histogram, each answer (no student
    tokens; the nicknames students gave, for the teacher's eyes)."""
    code, snapshot = await classes.taught(code, authorization)
    answers = await _reachable(classes.store.answers(code))
    return views.tally(snapshot, answers)


@router.get("/api/classes/{code}/students", response_model=Roster, responses=_ERRORS)
async def students(
    code: str, classes: ClassesDep, authorization: Authorization = None
) -> dict[str, Any]:
    """Who follows the class (their pages' streams) and who has answered the round on screen:
    for the teacher's eyes alone (nicknames; no student tokens)."""
    code, snapshot = await classes.taught(code, authorization)
    listed = await _reachable(classes.store.roster(code, views.screen_round(snapshot)))
    return views.roster(snapshot, listed)


@router.get(
    "/api/classes/{code}/answers.csv",
    response_class=Response,
    responses={200: {"content": {"text/csv": {}}, "description": "one row per answer"}, **_ERRORS},
)
async def tally_csv(
    code: str, classes: ClassesDep, authorization: Authorization = None
) -> Response:
    """Every answer as CSV: question, phase, step, node, name, round, true value, answer,
    correct (1 or 0), seconds after the round opened. No student tokens, no nicknames."""
    code, snapshot = await classes.taught(code, authorization)
    answers = await _reachable(classes.store.answers(code))
    text = answers_csv(snapshot.state["questions"], answers)
    name = f"gradstep-class-{code}-answers.csv"
    headers = {"content-disposition": f'attachment; filename="{name}"', "cache-control": "no-store"}
    return Response(text, media_type="text/csv; charset=utf-8", headers=headers)


@router.delete("/api/classes/{code}", status_code=204, responses=_ERRORS)
async def close_class(
    code: str, classes: ClassesDep, authorization: Authorization = None
) -> Response:
    """End the class: its listeners are sent ``closed``, and it is deleted with its answers."""
    code, _snapshot = await classes.taught(code, authorization)
    if not await _reachable(classes.store.close(code, "closed")):
        raise _no_class(code)
    return Response(status_code=204)


# ── the students ──────────────────────────────────────────────────────────────────────────────


@router.get("/api/classes/{code}", response_model=ClassView, responses=_ERRORS)
async def view(code: str, classes: ClassesDep) -> dict[str, Any]:
    """What a student's page starts from: the program, the position, the question on screen."""
    code, snapshot = await classes.find(code)
    return views.class_view(code, snapshot)


@router.get(
    "/api/classes/{code}/qr.svg",
    response_class=Response,
    responses={200: {"content": {"image/svg+xml": {}}, "description": "a QR code"}, **_ERRORS},
)
async def class_qr(code: str, request: Request, classes: ClassesDep) -> Response:
    """A QR code of the students' link, with the link printed under it, for the slide."""
    code, _snapshot = await classes.find(code)
    svg = qr_svg(f"{public_base(request)}/c/{code}", size=None, caption=True)
    return Response(svg, media_type="image/svg+xml")


@router.get(
    "/api/classes/{code}/events",
    response_class=EventStream,  # described as a stream; the answer is a ClassStream
    responses={
        200: {"content": {"text/event-stream": {}}, "description": "the class's events"},
        **_ERRORS,
    },
)
async def events(
    code: str,
    classes: ClassesDep,
    streams: ClassStreamsDep,
    student: Annotated[
        str | None, Query(pattern=STUDENT_PATTERN, description="a student page's token")
    ] = None,
    nickname: Annotated[
        str | None, Query(max_length=1_000, description="shown if plain text, up to 24 characters")
    ] = None,
) -> Response:
    """The class's events as Server-Sent Events: the class as it is (``position``, then the
    question on screen), then each change; ``closed`` when it ends (docs/api.md). A student's
    page names itself (``student``, ``nickname``): the teacher sees who follows."""
    code, _snapshot = await classes.find(code)
    store, client = classes.store, classes.client
    full = streams.take(client, code)
    if full is not None:
        raise Refused(429, "rate_limit", f"{full}: close some, or try again later",
                      {"retry-after": str(RETRY_AFTER_STREAMS_S)})  # fmt: skip
    held = AsyncExitStack()
    held.callback(streams.release, client, code)
    try:
        queue = await _reachable(held.enter_async_context(store.listen(code)))
        snapshot = await _reachable(store.get(code))  # read after subscribing: nothing is missed
    except BaseException:
        await held.aclose()
        raise
    if snapshot is None:
        await held.aclose()
        raise _no_class(code)
    beat = None
    if student is not None:
        try:  # a name that is not plain text is not shown (a page would be refused forever)
            name = plain_nickname(nickname) if len(nickname or "") <= MAX_NICKNAME else None
        except ValueError:
            name = None  # None: the one noted before is kept
        beat = functools.partial(store.present, code, student, name)
        held.push_async_callback(note_gone, beat)  # first: however the next await ends
        try:
            await note_present(beat)
        except BaseException:
            await held.aclose()
            raise
    return ClassStream(class_events(store, code, snapshot, queue, beat), held)


def class_events_openapi(schema: dict[str, Any]) -> dict[str, Any]:
    """The events route as it answers: its 200 a string of Server-Sent Events (FastAPI gives
    every response the route's media type), its refusals JSON in the error shape."""
    responses = schema["paths"]["/api/classes/{code}/events"]["get"]["responses"]
    for status, response in responses.items():
        content = response.get("content", {})
        if status != "200" and "text/event-stream" in content:
            content["application/json"] = content.pop("text/event-stream")
    responses["200"]["content"]["text/event-stream"]["schema"] = {
        "type": "string",
        "description": "Server-Sent Events (id: the class's event number, data: one line of "
        "JSON with a type: position, question, answers, reveal, paused, program, closed)",
    }
    return schema


@router.post(
    "/api/classes/{code}/answers",
    status_code=202,
    response_model=AnswerTaken,
    responses={
        409: {"model": ErrorResponse, "description": "answered already, or not taking answers"},
        **_ERRORS,
    },
)
async def answer(
    code: str,
    body: AnswerRequest,
    classes: ClassesDep,
    per_student: StudentAnswersDep,
    per_address: AddressAnswersDep,
    per_class: ClassAnswersDep,
) -> dict[str, int]:
    """A student's answer to the question's round now open: the first answer of each student
    counts, a second is refused (409)."""
    code, snapshot = await classes.find(code)
    with _refusals():
        key, number = answer_round(snapshot, body.question, body.value)
    _limited(per_student, f"{code}/{body.student}", "answers from you")
    # one address cannot fill a round (fresh student tokens each time), a hall behind one
    # NAT address still answers: a round holds MAX_ANSWERS_PER_ROUND
    _limited(per_address, f"{code}/{classes.client}", "answers from your address")
    _limited(per_class, code, "answers in this class")
    record = {"value": body.value, "nickname": body.nickname, "at": time.time()}
    outcome, count = await _reachable(classes.store.answer(code, key, body.student, record))
    if outcome is Outcome.GONE:
        raise _no_class(code)
    with _refusals():
        check_outcome(outcome, body.question, number)
    return {"question": body.question, "round": number, "count": count}
