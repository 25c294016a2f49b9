"""The stepper's page: ``/`` renders ``templates/index.html``; the browser code is in static/."""

from __future__ import annotations

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse
from fastapi.templating import Jinja2Templates

from app.paths import TEMPLATES_DIR

templates = Jinja2Templates(directory=TEMPLATES_DIR)

router = APIRouter(tags=["pages"])


@router.get("/", response_class=HTMLResponse, include_in_schema=False)
def index(request: Request) -> HTMLResponse:
    """The stepper. Everything it shows comes from the URL query and the API, in the browser."""
    return templates.TemplateResponse(request, "index.html", {"static_url": "/static"})
