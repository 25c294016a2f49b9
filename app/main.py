"""The app factory: assembles the routers, the error handlers and /static."""

from __future__ import annotations

import threading
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from fastapi import FastAPI
from fastapi.staticfiles import StaticFiles

from app import api, embed, export_api, pages, training
from app.errors import BodySizeLimit, install_error_handlers
from app.layout import Layout, LayoutSettings
from app.paths import STATIC_DIR
from app.security import SecurityHeaders


def create_app(settings: LayoutSettings | None = None) -> FastAPI:
    """A gradstep app; layout settings default to the environment (GRADSTEP_LAYOUT...)."""
    layout = Layout(settings)

    @asynccontextmanager
    async def lifespan(_app: FastAPI) -> AsyncIterator[None]:
        threading.Thread(target=layout.warm, daemon=True).start()  # wasm: compile in advance
        yield
        layout.close()

    app = FastAPI(
        title="gradstep",
        summary="Backpropagation on a scalar autograd graph, drawn and stepped node by node.",
        version="0.1.0",
        lifespan=lifespan,
    )
    app.state.layout = layout
    install_error_handlers(app)
    app.add_middleware(BodySizeLimit)
    app.add_middleware(SecurityHeaders)  # outermost: every answer, refusals included
    app.include_router(api.router)
    app.include_router(pages.router)
    app.include_router(embed.router)
    app.include_router(export_api.router)
    app.include_router(training.router)
    app.mount("/static", StaticFiles(directory=STATIC_DIR, check_dir=False), name="static")
    return app
