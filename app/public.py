"""The server's public address, for the absolute links it writes into answers: oEmbed's
``provider_url`` and iframe ``src``, short links, the pages' oEmbed discovery link.

``GRADSTEP_PUBLIC_URL`` (``https://gradstep.example.org``, or with a path behind a proxy) is
that address when it is set, whatever Host header a client sends. Without it, the request's own
address is used: its scheme comes from ``X-Forwarded-Proto`` only when the proxy is trusted
(uvicorn's ``--proxy-headers``, on in ``gradstep serve``, for the addresses in
``FORWARDED_ALLOW_IPS``, 127.0.0.1 by default), but its host is the Host header as sent.
"""

from __future__ import annotations

import os
from urllib.parse import urlsplit

from fastapi import Request

ENV = "GRADSTEP_PUBLIC_URL"


def public_url_from_env() -> str | None:
    """GRADSTEP_PUBLIC_URL without a trailing slash, checked; None when unset."""
    raw = os.environ.get(ENV, "").strip()
    if not raw:
        return None
    parts = urlsplit(raw)
    if parts.scheme not in ("http", "https") or not parts.netloc or parts.query or parts.fragment:
        raise ValueError(
            f"{ENV} must be an http(s) address such as https://example.org, not {raw!r}"
        )
    return raw.rstrip("/")


def public_base(request: Request) -> str:
    """The address links start with: GRADSTEP_PUBLIC_URL, else the request's (see above)."""
    configured: str | None = getattr(request.app.state, "public_url", None)
    return configured or str(request.base_url).rstrip("/")
