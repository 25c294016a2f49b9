"""The app factory: the app's state (made in its lifespan), the routers, the error handlers
and /static."""

from __future__ import annotations

import threading
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

from fastapi import FastAPI

from app import __version__
from app.draw import png
from app.draw.layout import Layout, LayoutSettings
from app.errors import install_error_handlers
from app.links.ratelimit import TokenBuckets
from app.links.store import open_store
from app.middleware import HEAD_REFUSALS, install_middleware
from app.public import public_url_from_env
from app.routes import exports, graph, links, oembed, pages, training
from app.serving import mount_static
from app.training.jobs import TrainingJobs
from app.training.shutdown import stop_multiprocessing_helpers, stop_training_on_exit


def create_app(settings: LayoutSettings | None = None) -> FastAPI:
    """A gradstep app; layout settings default to the environment (GRADSTEP_LAYOUT...)."""

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        app.state.links = store = open_store()  # short links; migrated before any request
        app.state.link_buckets = TokenBuckets.from_env()
        app.state.layout = layout = Layout(settings)
        app.state.training = jobs = TrainingJobs()
        warming = threading.Thread(target=layout.warm, daemon=True)  # wasm: compile in advance
        warming.start()
        threading.Thread(target=jobs.warm, daemon=True).start()  # the training workers' fork server
        try:
            async with stop_training_on_exit(jobs):  # SIGTERM stops jobs; waits for workers
                yield
        finally:  # no child process outlives the app: each is ended and waited for
            warming.join()
            layout.close()
            png.shutdown()
            store.close()
            stop_multiprocessing_helpers()

    app = FastAPI(
        title="gradstep",
        summary="Backpropagation on a scalar autograd graph, drawn and stepped node by node.",
        version=__version__,
        lifespan=lifespan,
        responses=HEAD_REFUSALS,
    )
    app.state.public_url = public_url_from_env()  # links in answers (oEmbed, short links)
    install_error_handlers(app)
    install_middleware(app)
    for area in (graph, pages, oembed, exports, training, links):
        app.include_router(area.router)
    mount_static(app)

    def openapi() -> dict[str, Any]:
        if app.openapi_schema is None:
            app.openapi_schema = training.event_stream_openapi(FastAPI.openapi(app))
        return app.openapi_schema

    app.openapi = openapi  # type: ignore[method-assign]
    return app
