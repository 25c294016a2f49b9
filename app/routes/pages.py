"""The pages: the stepper (``/``), the embeddable player (``/embed``), a live class's page
(``/c/{code}``), the training lab (``/train``), and the generated module of constants they
import (``/static/config.js``). Everything a page shows comes from its URL query and the API,
in the browser."""

from __future__ import annotations

from fastapi import APIRouter, Request, Response
from fastapi.responses import HTMLResponse

from app.classroom.codes import normal_code
from app.classroom.schemas import MAX_NICKNAME
from app.serving import ASSETS_URL, CONFIG_MODULE, IMMUTABLE, STATIC_URL, config_module, templates
from engine.lab.config import DATASETS, LOSSES, SCHEDULES
from engine.nn import ACTIVATIONS

router = APIRouter(tags=["pages"], include_in_schema=False)


@router.get("/", response_class=HTMLResponse)
def index(request: Request) -> HTMLResponse:
    return templates.TemplateResponse(request, "index.html")


@router.get("/embed", response_class=HTMLResponse)
def embed(request: Request) -> HTMLResponse:
    """The player alone, for iframes in slides; any site may frame it (its security headers:
    app/middleware/security.py)."""
    return templates.TemplateResponse(request, "embed.html", {"offline": False})


@router.get("/c/{code}", response_class=HTMLResponse)
def live_class(request: Request, code: str) -> HTMLResponse:
    """A live class's page: a student's (the graph at the teacher's step, the questions); with
    the teacher's key in its fragment (``#key=…``, never sent here) it hands over to the main
    page as the teacher's. Whether the class exists, the page asks the API."""
    shown = normal_code(code) or code[:20]
    return templates.TemplateResponse(
        request, "class.html", {"code": shown, "max_nickname": MAX_NICKNAME}
    )


@router.get("/train", response_class=HTMLResponse)
def train(request: Request) -> HTMLResponse:
    """The training lab; its choices are the engine's own lists (the template names them)."""
    choices = {
        "datasets": DATASETS,
        "activations": tuple(ACTIVATIONS),
        "losses": LOSSES,
        "schedules": SCHEDULES,
    }
    return templates.TemplateResponse(request, "train.html", choices)


@router.get(f"{STATIC_URL}/{CONFIG_MODULE}")
def config() -> Response:
    headers = {"cache-control": "no-cache"}
    return Response(config_module(), media_type="text/javascript", headers=headers)


@router.get(f"{ASSETS_URL}/{CONFIG_MODULE}")
def config_at_this_version() -> Response:
    headers = {"cache-control": IMMUTABLE}
    return Response(config_module(), media_type="text/javascript", headers=headers)
