"""The kinds of answer several routes give: an answer kept in ``Answers`` (sent compressed as
kept, brotli or gzip, to a client that takes either), and a stream of Server-Sent Events."""

from __future__ import annotations

import gzip
import re
from collections.abc import Callable

from fastapi import Request, Response
from fastapi.responses import StreamingResponse

from app.capacity import Answers, Coding

# a weight is 0 to 1 with three decimals at most (RFC 9110, 12.4.2); any other is refused
QVALUE = re.compile(r"0(\.\d{0,3})?|1(\.0{0,3})?")


def coding_weights(accept_encoding: str) -> tuple[float, float]:
    """How much a client whose Accept-Encoding is ``accept_encoding`` (RFC 9110, 12.5.3) weighs
    brotli and gzip (``q``; ``*`` weighs the codings it does not name; 0: not taken)."""
    weights: dict[str, float] = {}
    for item in accept_encoding.split(","):
        name, *parameters = (part.strip() for part in item.split(";"))
        weight = 1.0
        for parameter in parameters:
            key, _, value = parameter.partition("=")
            if key.strip().lower() == "q":
                value = value.strip()
                weight = float(value) if QVALUE.fullmatch(value) else 0.0
        name = name.lower()
        weights["gzip" if name == "x-gzip" else name] = weight  # x-gzip is gzip (12.5.3)
    anything = weights.get("*", 0.0)
    return weights.get("br", anything), weights.get("gzip", anything)


def chosen_coding(accept_encoding: str | None) -> Coding | None:
    """The coding to send to a client whose Accept-Encoding is ``accept_encoding``: of brotli
    and gzip, the one it weighs more, brotli on a tie; None (identity) when it takes neither or
    sends no header."""
    if accept_encoding is None:
        return None
    br, gz = coding_weights(accept_encoding)
    return "br" if br >= gz and br > 0 else "gzip" if gz > 0 else None


def answered(
    request: Request,
    answers: Answers,
    key: str,
    compute: Callable[[], bytes],
    media_type: str,
    headers: dict[str, str] | None = None,
    gzipped: bool = True,
) -> Response:
    """The answer to the request ``key`` names, from ``answers`` or ``compute``'s. ``gzipped``:
    text, kept compressed and sent in the coding ``chosen_coding`` picks for the client (the gzip
    middleware leaves an encoded body alone), or decompressed when it takes none; else (a PNG)
    kept and sent as computed."""
    headers = headers or {}
    if not gzipped:
        return Response(answers.get(key, compute, None), media_type=media_type, headers=headers)
    coding = chosen_coding(request.headers.get("accept-encoding"))
    if coding is None:  # the gzip middleware says Vary: Accept-Encoding, as of all it passes
        body = gzip.decompress(answers.get(key, compute, "gzip"))
        return Response(body, media_type=media_type, headers=headers)
    encoded = {**headers, "content-encoding": coding, "vary": "Accept-Encoding"}
    return Response(answers.get(key, compute, coding), media_type=media_type, headers=encoded)


class EventStream(StreamingResponse):
    """Server-Sent Events (a training job's, a live class's)."""

    media_type = "text/event-stream"
