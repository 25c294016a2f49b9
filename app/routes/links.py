"""Short links: ``POST /api/links`` stores a view and names it; ``/s/{id}`` (and ``/embed``,
``.png``, ``.svg``) redirect (303) to the long URL. A link whose long URL is too long for a
Location header is answered in place instead: the page with the link's query in it (the page
reads it there, not from its address), or the picture drawn here. Every handler may wait on the
store, so each is a plain ``def`` (threadpool)."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Annotated, Any, get_args

from fastapi import APIRouter, Depends, Request, Response
from fastapi.responses import HTMLResponse, RedirectResponse
from starlette.exceptions import HTTPException

from app.capacity import Unavailable
from app.deps import (
    AnswersDep,
    ClientAddress,
    LayoutDep,
    LinkBucketsDep,
    LinkMissesDep,
    LinkStoreDep,
    PipelineDep,
    SettingsDep,
)
from app.draw.dot import Direction
from app.draw.svg import Theme
from app.links.state import (
    IMAGE_KEYS,
    MAX_LINK_BYTES,
    PAGE_KEYS,
    State,
    is_link_id,
    link_state,
    pack,
    target,
)
from app.links.store import MB, StoreError, save
from app.numbers import ascii_digits
from app.pictures import png_answer, svg_answer
from app.query import GraphQuery, StepQuery, graph_query, step_query
from app.schemas import ErrorResponse, LinkRequest, LinkResponse
from app.serving import public_base, templates
from engine.runner import Engine
from engine.steps import Phase

router = APIRouter(tags=["links"])

RETRY_AFTER_STORE_S = 5
REDIRECT_CACHE = "max-age=86400"  # a link never changes what it points to
# The longest Location sent: nginx keeps a proxied answer's headers in one 4 KB page by default
# (the other headers take about 400 bytes), and some clients refuse far less than gradstep's own
# 192 KiB. The longest preset's long URL has 1,911 characters; a longer one is answered in place.
MAX_REDIRECT_CHARS = 3_000
_OPENED: dict[int | str, dict[str, Any]] = {
    303: {"description": "to the long URL"},
    404: {"content": {"text/html": {}}, "description": "no such link"},
    429: {"model": ErrorResponse, "description": "too many links that do not exist asked for"},
}


def _in_place(media_type: str) -> dict[int | str, dict[str, Any]]:
    """``_OPENED`` with the 200 of a link too long to redirect to: the page or picture itself."""
    ok = {"content": {media_type: {}}, "description": "itself, its URL too long to redirect to"}
    return {200: ok, **_OPENED}


_CREATED: dict[int | str, dict[str, Any]] = {
    200: {"model": LinkResponse, "description": "this view was stored before: the same id"},
    413: {"model": ErrorResponse, "description": f"a view over {MAX_LINK_BYTES:,} bytes packed"},
    422: {"model": ErrorResponse, "description": "bad input"},
    429: {"model": ErrorResponse, "description": "too many new links from this address"},
    503: {"model": ErrorResponse, "description": "the link store is unavailable"},
}


class TooManyLinks(HTTPException):
    kind = "rate_limit"

    def __init__(self, per_minute: int, retry_after: int) -> None:
        super().__init__(
            429,
            f"more than {per_minute} new links a minute from your address: "
            f"try again in {retry_after} s",
            headers={"retry-after": str(retry_after)},
        )


class LinkTooLarge(HTTPException):
    kind = "limit"

    def __init__(self, size: int) -> None:
        super().__init__(
            413,
            f"this view takes {size:,} bytes stored (compressed), more than the "
            f"{MAX_LINK_BYTES:,} a short link may hold: shorten the program (long comments and "
            "strings take the most room), or share its full link or offline page instead",
        )


class TooManyMisses(HTTPException):
    kind = "rate_limit"

    def __init__(self, per_minute: int, retry_after: int) -> None:
        super().__init__(
            429,
            f"more than {per_minute} short links that do not exist asked for in a minute from "
            f"your address: try again in {retry_after} s, and check the link's letters (a–z "
            "and 2–7) against where you read it",
            headers={"retry-after": str(retry_after)},
        )


@contextmanager
def _store_available() -> Iterator[None]:
    try:
        yield
    except StoreError as error:
        raise Unavailable(
            f"short links are unavailable ({error}); the long link still works",
            "store_unavailable",
            RETRY_AFTER_STORE_S,
        ) from None


@router.post("/api/links", status_code=201, response_model=LinkResponse, responses=_CREATED)
def post_link(
    body: LinkRequest,
    request: Request,
    response: Response,
    store: LinkStoreDep,
    buckets: LinkBucketsDep,
    client: ClientAddress,
    settings: SettingsDep,
    pipeline: PipelineDep,
) -> LinkResponse:
    """Store a view and answer its short link: 201 when new, 200 (same id) when stored before."""
    wait = buckets.take(client)
    if wait:
        raise TooManyLinks(buckets.per_minute, wait)
    state = link_state(body, pipeline)
    size = len(pack(state))
    if size > MAX_LINK_BYTES:
        raise LinkTooLarge(size)
    with _store_available():
        link_id, created = save(store, state)
        if created:  # past the cap, links never opened go first; this one stays
            store.trim(settings.links_store_mb * MB, link_id)
    response.status_code = 201 if created else 200
    response.headers["location"] = f"/s/{link_id}"
    return LinkResponse(id=link_id, url=f"{public_base(request)}/s/{link_id}")


class _Opening:
    """What opening a link takes besides its id: the store, the buckets of links asked for that
    do not exist, and the client's address (a dependency: FastAPI gives each)."""

    def __init__(self, store: LinkStoreDep, misses: LinkMissesDep, client: ClientAddress) -> None:
        self.store = store
        self.misses = misses
        self.client = client

    def answer(
        self,
        request: Request,
        link_id: str,
        path: str,
        keys: tuple[str, ...],
        in_place: Callable[[State], Response],
    ) -> Response:
        """A redirect to the link's long URL at ``path``; ``in_place``'s answer when that URL
        is too long for a Location header; the missing link's page."""
        link_id = link_id.lower()  # base32 reads the same in capitals, as on a slide
        state: State | None = None
        if is_link_id(link_id):  # anything else is not a link: the store is not asked
            misses = self.misses
            wait = misses.wait(self.client)  # a link that exists is not told from one that does not
            if wait:
                raise TooManyMisses(misses.per_minute, wait)
            with _store_available():
                state = self.store.visit(link_id)
            if state is None:
                misses.take(self.client)
        if state is None:
            return templates.TemplateResponse(
                request,
                "link_missing.html",
                {"link_id": link_id, "well_formed": is_link_id(link_id)},
                status_code=404,
                headers={"cache-control": "no-store"},  # the same view may be shared later
            )
        url = target(state, path, keys)
        if len(url) > MAX_REDIRECT_CHARS:
            return in_place(state)
        return RedirectResponse(url, status_code=303, headers={"cache-control": REDIRECT_CACHE})


Opening = Annotated[_Opening, Depends()]


def _page(request: Request, template: str) -> Callable[[State], Response]:
    """The page itself with the link's query in it (templates/base.html), for static/page.js
    and static/embed.js to read instead of their address's."""

    def answer(state: State) -> Response:
        query = target(state, "", PAGE_KEYS)
        return templates.TemplateResponse(
            request, template, {"offline": False, "link_query": query}
        )

    return answer


def _number(text: str | None) -> int | None:
    return int(text) if text is not None and ascii_digits(text) else None


def _choice(text: str | None, choices: Any, default: str) -> Any:
    """``text`` when it is one of the ``Literal`` ``choices``, else ``default`` (as the page
    reads a parameter it does not know): an imported link's state is checked only as strings."""
    return text if text in get_args(choices) else default


def _picture(
    picture: Callable[[GraphQuery, StepQuery], Response],
) -> Callable[[State], Response]:
    """The picture drawn here (app/pictures.py), from the link's parameters as the URL has
    them."""

    def answer(state: State) -> Response:
        graph = graph_query(
            source=state.get("source"),
            values=state.get("values"),
            theme=_choice(state.get("theme"), Theme, "light"),
            rankdir=_choice(state.get("rankdir"), Direction, "auto"),
            fold=state.get("fold"),
            engine=_choice(state.get("engine"), Engine, "auto"),
            iteration=_number(state.get("iteration")),
        )
        at = step_query(_number(state.get("step")), _choice(state.get("phase"), Phase, "backward"))
        return picture(graph, at)

    return answer


# the image routes first: "/s/{link_id}" would match "abc.png" as an id
@router.get("/s/{link_id}.png", response_class=Response, responses=_in_place("image/png"))
def open_link_png(
    request: Request,
    link_id: str,
    opening: Opening,
    pipeline: PipelineDep,
    layout: LayoutDep,
    answers: AnswersDep,
) -> Response:
    """The link's step as PNG (``/api/graph.png``)."""
    png = _picture(lambda graph, at: png_answer(request, pipeline, layout, answers, graph, at))
    return opening.answer(request, link_id, "/api/graph.png", IMAGE_KEYS, png)


@router.get("/s/{link_id}.svg", response_class=Response, responses=_in_place("image/svg+xml"))
def open_link_svg(
    request: Request,
    link_id: str,
    opening: Opening,
    pipeline: PipelineDep,
    layout: LayoutDep,
    answers: AnswersDep,
) -> Response:
    """The link's step as a standalone SVG (``/api/graph.svg``)."""
    svg = _picture(lambda graph, at: svg_answer(request, pipeline, layout, answers, graph, at))
    return opening.answer(request, link_id, "/api/graph.svg", IMAGE_KEYS, svg)


@router.get("/s/{link_id}/embed", response_class=HTMLResponse, responses=_in_place("text/html"))
def open_link_embed(request: Request, link_id: str, opening: Opening) -> Response:
    """The link's view in the embeddable player (``/embed``)."""
    return opening.answer(request, link_id, "/embed", PAGE_KEYS, _page(request, "embed.html"))


@router.get(
    "/s/{link_id}",
    response_class=HTMLResponse,
    responses=_in_place("text/html"),
    name="open_link",
)
def open_link(request: Request, link_id: str, opening: Opening) -> Response:
    """The link's view in the stepper (``/``)."""
    return opening.answer(request, link_id, "/", PAGE_KEYS, _page(request, "index.html"))
