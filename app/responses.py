"""The kinds of answer several routes give: an answer kept in ``Answers`` (sent gzipped as kept
when the client takes gzip), and a stream of Server-Sent Events."""

from __future__ import annotations

import gzip
from collections.abc import Callable

from fastapi import Request, Response
from fastapi.responses import StreamingResponse

from app.capacity import Answers


def answered(
    request: Request,
    answers: Answers,
    key: str,
    compute: Callable[[], bytes],
    media_type: str,
    headers: dict[str, str] | None = None,
    gzipped: bool = True,
) -> Response:
    """The answer to the request ``key`` names, from ``answers`` or ``compute``'s; ``gzipped``
    (kept so), sent as kept when the client takes gzip (the gzip middleware leaves an encoded
    body alone)."""
    body = answers.get(key, compute, gzipped)
    headers = headers or {}
    if not gzipped:
        return Response(body, media_type=media_type, headers=headers)
    if "gzip" in request.headers.get("accept-encoding", ""):
        encoded = {**headers, "content-encoding": "gzip", "vary": "Accept-Encoding"}
        return Response(body, media_type=media_type, headers=encoded)
    return Response(gzip.decompress(body), media_type=media_type, headers=headers)


class EventStream(StreamingResponse):
    """Server-Sent Events (a training job's, a live class's)."""

    media_type = "text/event-stream"
