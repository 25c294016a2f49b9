"""The app's middleware, all pure ASGI (streamed answers, such as the training lab's events, pass
through untouched): security headers on every answer, HEAD answered like GET, and the request's
size limits, refused in the error shape (app/errors.py) before any route sees the request."""

from __future__ import annotations

from fastapi import FastAPI

from app.capacity import GZIP_LEVEL
from app.middleware.gzip import WeighedGZip
from app.middleware.head import HeadLikeGet
from app.middleware.inflight import InFlight
from app.middleware.limits import (
    HEAD_REFUSALS,
    MAX_BODY_BYTES,
    MAX_HEADER_BYTES,
    MAX_HEADERS,
    MAX_REQUEST_HEAD_BYTES,
    MAX_URL_BYTES,
    BodySizeLimit,
    RequestHeadLimits,
)
from app.middleware.security import SecurityHeaders

__all__ = [
    "HEAD_REFUSALS",
    "MAX_BODY_BYTES",
    "MAX_HEADERS",
    "MAX_HEADER_BYTES",
    "MAX_REQUEST_HEAD_BYTES",
    "MAX_URL_BYTES",
    "BodySizeLimit",
    "HeadLikeGet",
    "InFlight",
    "RequestHeadLimits",
    "SecurityHeaders",
    "install_middleware",
]


def install_middleware(app: FastAPI, limit_concurrency: int) -> None:
    """Every middleware, the last added outermost: security headers see every answer, refusals
    included; the requests in progress are counted before anything else is done for one; the
    head limits refuse before HEAD becomes GET; gzip is innermost."""
    # Answers over 1 KB are gzipped at level 1 for the clients that take gzip: the MLP's graph
    # JSON, 2.4 MB, becomes 0.45 MB in ~30 ms (level 9: 0.35 MB in ~180 ms). Starlette passes
    # event streams, ZIP, GIF and PNG through as they are, chunk by chunk.
    app.add_middleware(WeighedGZip, minimum_size=1024, compresslevel=GZIP_LEVEL)
    app.add_middleware(BodySizeLimit)
    app.add_middleware(HeadLikeGet)
    app.add_middleware(RequestHeadLimits)
    app.add_middleware(InFlight, limit=limit_concurrency)
    app.add_middleware(SecurityHeaders)
