"""The training lab: the /train page, and training jobs streamed as Server-Sent Events.

``POST /api/train`` answers with ``text/event-stream``: ``start``, one ``epoch`` per epoch, a
``boundary`` (with the model it was drawn from) every few epochs, then ``done`` (or ``error``).
The stream is the job: when the client closes it (Stop, a closed tab) the job is cancelled and
its worker process ends.
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from dataclasses import asdict, replace
from typing import Annotated, Any
from urllib.parse import urlencode

from fastapi import APIRouter, Query, Response
from pydantic import BaseModel

from app.deps import TrainingJobsDep
from app.errors import error_body
from app.numbers import ascii_digits
from app.responses import EventStream
from app.schemas import (
    ErrorResponse,
    TrainBoundaryEvent,
    TrainDoneEvent,
    TrainEpochEvent,
    TrainInspectRequest,
    TrainInspectResponse,
    TrainJobOut,
    TrainOptionsOut,
    TrainParametersOut,
    TrainRequest,
    TrainStartEvent,
)
from app.training.jobs import MAX_TRAINING_JOBS, Job
from engine.errors import GradstepError
from engine.lab.config import PRESETS, TrainConfig, check, parameter_count
from engine.lab.point_program import point_program
from engine.lab.train import batching, boundary_every, load_parameters, prepare

MAX_TRAIN_POINTS = 1_000
MAX_TRAIN_PARAMETERS = 2_000
MAX_TRAIN_EPOCHS = 1_000
# A job's work: its parameters × epochs × (points + STEP_POINTS × steps per epoch). A step costs
# as much as STEP_POINTS points besides its points (measured, replayed with numpy, 1,000 points:
# 7.2 µs a parameter for a step of one point and 0.068 µs a parameter a point for 337
# parameters; 9.5 and 0.078 µs for 1,801), so batch 1 is charged for its 1,000 steps an epoch.
# Counting points alone let a batch-1 job of 1,975 parameters × 10 epochs × 1,000 points in at
# 20 M, which ran 170 s (466 s on a slower machine). MAX_TRAIN_WORK is about 8 s of one core
# there at any batch size, 13× micrograd's demo (337 × 100 × (100 + 120) = 7.4 M).
STEP_POINTS = 120
MAX_TRAIN_WORK = 100_000_000
MAX_TRAIN_NOISE = 10.0  # the datasets lie within about ±2: more noise only hides them

router = APIRouter(
    tags=["training"], responses={422: {"model": ErrorResponse, "description": "bad input"}}
)

TrainEvent = TrainStartEvent | TrainEpochEvent | TrainBoundaryEvent | TrainDoneEvent | ErrorResponse
EVENTS: dict[str, type[BaseModel]] = {
    "start": TrainStartEvent,
    "epoch": TrainEpochEvent,
    "boundary": TrainBoundaryEvent,
    "done": TrainDoneEvent,
    "error": ErrorResponse,
}
_STREAM_DOC: dict[int | str, dict[str, Any]] = {
    200: {
        "model": TrainEvent,  # registers the events' schemas; event_stream_openapi places them
        "description": "an event stream: start, epoch…, boundary every few epochs, done | error",
    },
    422: {"model": ErrorResponse, "description": "bad input"},
    503: {"model": ErrorResponse, "description": "every job slot is busy (see Retry-After)"},
}


def event_stream_openapi(schema: dict[str, Any]) -> dict[str, Any]:
    """``POST /api/train`` as it answers: FastAPI gives every response the route's media type
    and writes the events' union as the schema of the stream's text ("type": "string" with an
    anyOf of objects, which nothing validates). Here the 200 is a string of Server-Sent Events,
    each event's data described per event name in ``x-itemSchema`` (OpenAPI 3.2's
    ``itemSchema`` for text/event-stream), and the 422 and 503 are JSON in the error shape."""
    responses = schema["paths"]["/api/train"]["post"]["responses"]
    for status in ("422", "503"):
        content = responses[status]["content"]
        if "text/event-stream" in content:
            content["application/json"] = content.pop("text/event-stream")
    stream = responses["200"]["content"]["text/event-stream"]
    stream["schema"] = {
        "type": "string",
        "description": "Server-Sent Events (event: name, data: one line of JSON)",
    }
    ref = "#/components/schemas/{}".format
    stream["x-itemSchema"] = {
        "oneOf": [
            {
                "type": "object",
                "required": ["event", "data"],
                "properties": {
                    "event": {"const": name},
                    "data": {
                        "type": "string",
                        "contentMediaType": "application/json",
                        "contentSchema": {"$ref": ref(model.__name__)},
                    },
                },
            }
            for name, model in EVENTS.items()
        ]
    }
    return schema


class JobStream(EventStream):
    """A job's events, and its end: a response that ends before its last event (done or error)
    cancels the job, even if the client went before the events' generator started."""

    def __init__(self, events: AsyncIterator[str], job: Job, headers: dict[str, str]) -> None:
        super().__init__(events, headers=headers)
        self.job = job
        self.finished = False

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        try:
            await super().__call__(scope, receive, send)
        finally:
            if not self.finished:
                self.job.cancel("disconnect")


def config_of(body: TrainRequest) -> TrainConfig:
    """The preset changed by the request's fields, checked against the engine and the limits."""
    if body.preset not in PRESETS:
        raise GradstepError(
            f"preset: unknown preset {body.preset!r}: choose one of {', '.join(PRESETS)}",
            kind="value",
        )
    changes = body.model_dump(exclude={"preset"}, exclude_none=True)
    if "hidden" in changes:
        changes["hidden"] = tuple(changes["hidden"])
    config = replace(PRESETS[body.preset][1], **changes)
    check(config)
    _limit("size", config.size, MAX_TRAIN_POINTS, "MAX_TRAIN_POINTS", "points")
    _limit("epochs", config.epochs, MAX_TRAIN_EPOCHS, "MAX_TRAIN_EPOCHS", "epochs")
    params = parameter_count(config)
    _limit("hidden", params, MAX_TRAIN_PARAMETERS, "MAX_TRAIN_PARAMETERS", "parameters")
    if (work := train_work(config)) > MAX_TRAIN_WORK:
        batch = f"batches of {config.batch_size}" if config.batch_size else "the full batch"
        raise GradstepError(
            f"this run is {work:,} units of work, over the limit of {MAX_TRAIN_WORK:,} "
            f"(MAX_TRAIN_WORK: parameters × epochs × (points + {STEP_POINTS} a step)): "
            f"{params:,} parameters × {config.epochs:,} epochs × ({config.size:,} points + "
            f"{STEP_POINTS} × {steps_per_epoch(config):,} steps of {batch}); use larger "
            "batches, fewer epochs, fewer points or a smaller model",
            kind="limit",
        )
    if config.noise > MAX_TRAIN_NOISE:  # 1e308 made the points infinite: "a smaller learning rate"
        raise GradstepError(
            f"noise: {config.noise:g} is over the limit of {MAX_TRAIN_NOISE:g} (MAX_TRAIN_NOISE): "
            "the points lie within about ±2, so more noise only hides them",
            kind="limit",
        )
    return config


def steps_per_epoch(config: TrainConfig) -> int:
    return batching(config.size, config.batch_size)[1]


def train_work(config: TrainConfig) -> int:
    """What a run costs, in points' worth of work on each parameter (MAX_TRAIN_WORK)."""
    per_epoch = config.size + STEP_POINTS * steps_per_epoch(config)
    return parameter_count(config) * config.epochs * per_epoch


def _limit(field: str, value: int, limit: int, name: str, unit: str) -> None:
    if value > limit:
        raise GradstepError(
            f"{field}: {value:,} {unit} is over the limit of {limit:,} ({name})", kind="limit"
        )


def config_out(config: TrainConfig) -> dict[str, Any]:
    out = asdict(config)
    out["hidden"] = list(config.hidden)
    out["boundary_every"] = boundary_every(config)
    return out


@router.get("/api/train/options", response_model=TrainOptionsOut)
def get_options() -> dict[str, Any]:
    """The presets and the limits a run must keep to."""
    presets = [
        {"id": key, "title": title, "config": config_out(c), "parameters": parameter_count(c)}
        for key, (title, c) in PRESETS.items()
    ]
    limits = {
        "max_points": MAX_TRAIN_POINTS,
        "max_parameters": MAX_TRAIN_PARAMETERS,
        "max_epochs": MAX_TRAIN_EPOCHS,
        "max_work": MAX_TRAIN_WORK,
        "max_jobs": MAX_TRAINING_JOBS,
    }
    return {"presets": presets, "limits": limits}


@router.post("/api/train", response_class=EventStream, responses=_STREAM_DOC)
async def post_train(body: TrainRequest, jobs: TrainingJobsDep) -> Response:
    """Start a training job and stream its progress as Server-Sent Events."""
    config = config_of(body)
    job = jobs.start(config)  # TrainingBusy: 503 with Retry-After (app/errors.py)

    async def events() -> AsyncIterator[str]:
        while (message := await job.queue.get()) is not None:
            kind, payload = message
            if kind == "start":
                payload = {"job": job.id, "config": config_out(config), **payload}
            event = sse(kind, payload)
            stream.finished = event.startswith(("event: error", "event: done"))
            yield event
            if stream.finished:
                return
        code = job.process.exitcode  # the worker ended without a last word
        reason = f"the training worker ended unexpectedly (exit code {code})"
        stream.finished = True
        yield sse("error", error_body(reason, "worker"))

    headers = {"cache-control": "no-store", "x-accel-buffering": "no", "x-training-job": job.id}
    stream = JobStream(events(), job, headers)
    return stream


@router.get("/api/train/parameters", response_model=TrainParametersOut)
def count_parameters(
    hidden: Annotated[str, Query(max_length=200, description="hidden layer sizes: 16,16")],
    dataset: Annotated[str, Query(max_length=20)] = "moons",
    loss: Annotated[str, Query(max_length=20)] = "hinge",
) -> dict[str, int]:
    """The weights and biases of the model a form describes, counted as training will."""
    sizes = [part for part in hidden.replace(",", " ").split() if part]
    if not sizes or not all(ascii_digits(part) and len(part) < 7 for part in sizes):
        raise GradstepError("hidden: write layer sizes such as 16, 16", kind="value")
    changes = {"hidden": tuple(int(p) for p in sizes), "dataset": dataset, "loss": loss}
    config = replace(PRESETS["micrograd-moons"][1], **changes)  # type: ignore[arg-type]
    check(config)
    return {"parameters": parameter_count(config)}


@router.get("/api/train/jobs", response_model=list[TrainJobOut])
async def list_jobs(jobs: TrainingJobsDep) -> list[dict[str, Any]]:
    """The jobs holding a slot now, with their worker process."""
    return [job.describe() for job in jobs.running()]


@router.post("/api/train/inspect", response_model=TrainInspectResponse)
def inspect_point(body: TrainInspectRequest) -> dict[str, Any]:
    """One point's loss as a program for the stepper, with the model's weights as inputs."""
    setup = prepare(config_of(body.config))
    load_parameters(setup, body.parameters)
    program = point_program(setup, body.point)
    query = urlencode({"source": program.source, "phase": "backward", "step": 0})
    return {
        "source": program.source,
        "loss": program.loss,
        "values": program.values,
        "url": f"/?{query}",
    }


def sse(kind: str, payload: dict[str, Any]) -> str:
    """One Server-Sent Event; JSON never holds a raw newline, so one data line suffices."""
    try:
        data = json.dumps(payload, allow_nan=False)
    except ValueError:  # a NaN or infinite number: the data, or a run that diverged
        if kind == "start":
            message = "the data's points are not all finite numbers: use less noise"
        else:
            message = "the loss is no longer a finite number: try a smaller learning rate"
        kind = "error"
        data = json.dumps(error_body(message, "overflow"))
    return f"event: {kind}\ndata: {data}\n\n"
