"""The app factory: the settings (read once, here, unless given), the app's state made from them
in its lifespan, the middleware, the error handlers, the routers and /static."""

from __future__ import annotations

import threading
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

from fastapi import FastAPI

from app import __version__
from app.allocator import limit_heaps
from app.capacity import Answers
from app.classroom.store import open_store
from app.classroom.stream import StreamCounts, end_streams_on_exit
from app.draw import png
from app.draw.layout import Layout
from app.draw.layout.limits import cache_share
from app.errors import install_error_handlers
from app.links.ratelimit import TokenBuckets
from app.links.reopening import ReopeningStore
from app.middleware import HEAD_REFUSALS, install_middleware
from app.pipeline import Pipeline
from app.routes import classes, exports, graph, links, oembed, pages, three_ways, training
from app.serving import mount_static
from app.settings import Settings
from app.training.jobs import TrainingJobs
from app.training.shutdown import stop_multiprocessing_helpers, stop_training_on_exit
from engine import runner


def create_app(settings: Settings | None = None) -> FastAPI:
    """A gradstep app with ``settings``, by default read from the environment (GRADSTEP_...);
    a bad value raises ValueError (pydantic's ValidationError) naming its variable."""
    settings = Settings() if settings is None else settings

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        limit_heaps()  # before the request threads are made: they share the heaps
        png.start()
        # short links; migrated before any request
        app.state.links = store = ReopeningStore(settings.links_url())  # broken: links 503
        app.state.link_buckets = TokenBuckets(settings.links_per_minute)
        app.state.link_misses = TokenBuckets(settings.link_misses_per_minute)
        app.state.layout = layout = Layout(settings.layout_settings())
        app.state.answers = Answers(cache_share(settings.cache_mb, "answers"), layout.busy)
        app.state.pipeline = Pipeline.of(settings)  # the runs' gate and limits, structures kept
        # the process's sandbox, built and compiled once (a minute), then loaded in ms
        runner.sandbox(settings.sandbox).load()
        app.state.training = jobs = TrainingJobs()
        # live classes: in memory, or shared through the broker (connected when first used)
        app.state.classes = class_store = open_store(settings.broker_url)
        app.state.class_buckets = TokenBuckets(classes.CLASSES_PER_MINUTE)
        app.state.class_misses = TokenBuckets(settings.class_misses_per_minute)
        app.state.class_streams = StreamCounts(
            settings.class_streams_per_address, settings.class_streams_per_class
        )
        app.state.class_answers = TokenBuckets(classes.ANSWERS_PER_CLASS_PER_MINUTE)
        app.state.student_answers = TokenBuckets(classes.ANSWERS_PER_STUDENT_PER_MINUTE)
        app.state.address_answers = TokenBuckets(classes.ANSWERS_PER_ADDRESS_PER_MINUTE)
        warming = threading.Thread(target=layout.warm, daemon=True)  # wasm: compile in advance
        warming.start()
        threading.Thread(target=jobs.warm, daemon=True).start()  # the training workers' fork server
        try:
            # SIGTERM stops jobs and waits for their workers; it ends class streams at once
            async with stop_training_on_exit(jobs), end_streams_on_exit(class_store.hub):
                yield
        finally:
            await (
                class_store.aclose()
            )  # no child process outlives the app: each is ended and waited for
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
    app.state.settings = settings  # public_url: links in answers (app/serving.py's public_base)
    install_error_handlers(app)
    install_middleware(app, settings.limit_concurrency)
    for area in (graph, pages, oembed, exports, training, links, classes, three_ways):
        app.include_router(area.router)
    mount_static(app)

    def openapi() -> dict[str, Any]:
        if app.openapi_schema is None:
            schema = training.event_stream_openapi(FastAPI.openapi(app))
            app.openapi_schema = classes.class_events_openapi(schema)
        return app.openapi_schema

    app.openapi = openapi  # type: ignore[method-assign]
    return app
