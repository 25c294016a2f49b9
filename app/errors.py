"""The one place where errors become HTTP answers, every one in the error shape
``{"error": {message, kind, line, column, end_column}}``: the engine's errors and FastAPI's
validation errors (malformed JSON included) are 422, the server's ``Unavailable`` 503 with
Retry-After, the routes' HTTP errors their own status, and anything else a 500 without a
traceback. ``send_refusal`` answers in the same shape from a middleware (app/middleware/)."""

from __future__ import annotations

import re

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.types import Message, Send

from app.capacity import Unavailable
from engine.errors import GradstepError


def error_body(message: str, kind: str) -> dict[str, dict[str, object]]:
    """The error shape for a refusal that has no place in the source."""
    return {"error": GradstepError(message, kind).to_dict()}


def _gradstep_error(_request: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, GradstepError)
    return JSONResponse({"error": exc.to_dict()}, status_code=422)


# parts of an error's location that are not fields: the body, and which member of a union failed
_UNION_TAG = re.compile(r"body$|\w+\[.*\]$|(str|int|float|bool)$")


def _validation_error(request: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, RequestValidationError)
    first = exc.errors()[0] if exc.errors() else {"msg": "invalid request", "loc": ()}
    where = ".".join(str(part) for part in first.get("loc", ()) if not _UNION_TAG.match(str(part)))
    kind = "json" if first.get("type") == "json_invalid" else "request"
    content_type = request.headers.get("content-type", "").split(";")[0].strip()
    if kind == "json":
        message = "the request body is not valid JSON"
    elif tuple(first.get("loc", ())) == ("body",) and content_type != "application/json":
        # FastAPI reads a body as JSON only when it says it is; otherwise it arrives as bytes
        sent = f"Content-Type {content_type}" if content_type else "no Content-Type"
        message = f"the request body must be a JSON object sent as application/json, not {sent}"
    else:
        message = f"{where or 'request'}: {first['msg']}"
    return JSONResponse(error_body(message, kind), status_code=422)


def _unreadable_body(cause: BaseException | None) -> str:
    """Why FastAPI could not read a JSON body: its decoder raised ``cause``, not a syntax error."""
    if isinstance(cause, RecursionError):
        return "the request body nests too deeply to read; send flat JSON"
    digits = re.search(r"value has (\d+) digits", str(cause))
    if digits:  # valid JSON: an integer longer than Python converts
        return (
            f"a number in the request body has {int(digits[1]):,} digits, more than any "
            "field takes (a float is at most about 1.8e308)"
        )
    if isinstance(cause, UnicodeDecodeError):
        return "the request body is not UTF-8 text"
    return "the request body is not valid JSON"


def _unavailable(_request: Request, exc: Exception) -> JSONResponse:
    """The server's state, not the input's: 503, and Retry-After when waiting may help."""
    assert isinstance(exc, Unavailable)
    headers = None if exc.retry_after is None else {"retry-after": str(exc.retry_after)}
    return JSONResponse(error_body(exc.message, exc.kind), status_code=503, headers=headers)


def _http_error(_request: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, StarletteHTTPException)
    if exc.status_code == 400:  # FastAPI could not decode the body (not UTF-8, ...)
        return JSONResponse(error_body(_unreadable_body(exc.__cause__), "json"), 422)
    body = error_body(str(exc.detail), getattr(exc, "kind", "http"))
    return JSONResponse(body, status_code=exc.status_code, headers=exc.headers)


def _unexpected(_request: Request, exc: Exception) -> JSONResponse:
    """A bug, not bad input: still the one error shape, never a traceback."""
    message = f"internal error ({type(exc).__name__}); please report the program that caused it"
    return JSONResponse(error_body(message, "internal"), status_code=500)


def install_error_handlers(app: FastAPI) -> None:
    app.add_exception_handler(Exception, _unexpected)
    app.add_exception_handler(GradstepError, _gradstep_error)
    app.add_exception_handler(Unavailable, _unavailable)
    app.add_exception_handler(RequestValidationError, _validation_error)
    app.add_exception_handler(StarletteHTTPException, _http_error)


async def send_refusal(
    send: Send, status: int, message: str, kind: str, close: bool, retry_after: int | None = None
) -> None:
    """Answer in the error shape from an ASGI middleware, before the app has seen the request;
    ``close``: the connection is closed after it (the rest of the request is not read)."""
    headers = {"connection": "close"} if close else {}
    if retry_after is not None:
        headers["retry-after"] = str(retry_after)
    response = JSONResponse(error_body(message, kind), status_code=status, headers=headers)
    await response({"type": "http"}, _no_receive, send)


async def _no_receive() -> Message:
    return {"type": "http.disconnect"}
