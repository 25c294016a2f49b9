"""Where the pages find static/: ``/static/<digest of its files>/``, which a browser may keep for
good (a new release is a new address), and plain ``/static/`` for links made elsewhere."""

from __future__ import annotations

import hashlib

from starlette.responses import Response
from starlette.staticfiles import StaticFiles
from starlette.types import Scope

from app.browser_config import config_module
from app.paths import STATIC_DIR

STATIC_URL = "/static"
IMMUTABLE = "public, max-age=31536000, immutable"


def _version() -> str:
    """A digest of every file under static/ and of the generated config.js. A file edited while
    the server runs keeps the old address until the server restarts."""
    digest = hashlib.sha256(config_module().encode())
    for path in sorted(p for p in STATIC_DIR.rglob("*") if p.is_file()):
        digest.update(path.relative_to(STATIC_DIR).as_posix().encode() + b"\0")
        digest.update(path.read_bytes())
    return digest.hexdigest()[:12]


ASSETS_URL = f"{STATIC_URL}/{_version()}"


class ImmutableFiles(StaticFiles):
    """static/ at ASSETS_URL: each answer may be kept for a year without asking again (a repeat
    visit then loads the page's ~25 files from the browser's cache, not over ~25 requests)."""

    async def get_response(self, path: str, scope: Scope) -> Response:
        response = await super().get_response(path, scope)
        if response.status_code == 200:
            response.headers["cache-control"] = IMMUTABLE
        return response
