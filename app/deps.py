"""What the routes are given, through FastAPI's ``Depends``: the settings, and the process's
state that the app's lifespan makes from them (app/main.py) and keeps in ``app.state``. Only
this module reads ``app.state``: a route names what it needs as a parameter typed with one of
the ``Annotated`` aliases below (``layout: LayoutDep``), and a test may put another object in
``app.state`` for the routes to be given. A function that is not a route may call a provider
with the request (``link_store(request)``)."""

from __future__ import annotations

from typing import Annotated

from fastapi import Depends, Request

from app.capacity import Answers
from app.classroom.protocol import ClassStore
from app.classroom.stream import StreamCounts
from app.draw.layout import Layout
from app.links.ratelimit import TokenBuckets
from app.links.store import LinkStore
from app.pipeline import Pipeline
from app.settings import Settings
from app.training.jobs import TrainingJobs


def client_of(request: Request) -> str:
    """The client's address: the connection's, or a trusted proxy's X-Forwarded-For."""
    return request.client.host if request.client else ""


def settings(request: Request) -> Settings:
    made: Settings = request.app.state.settings
    return made


def layout(request: Request) -> Layout:
    """The layout backend (Graphviz in its own processes)."""
    made: Layout = request.app.state.layout
    return made


def pipeline(request: Request) -> Pipeline:
    """What every drawing shares: the runs' gate and limits, the structures kept."""
    made: Pipeline = request.app.state.pipeline
    return made


def answers(request: Request) -> Answers:
    """The answers kept by the request that asked for them."""
    made: Answers = request.app.state.answers
    return made


# ── short links ──────────────────────────────────────────────────────────────────────────────


def link_store(request: Request) -> LinkStore:
    made: LinkStore = request.app.state.links
    return made


def link_buckets(request: Request) -> TokenBuckets:
    """New links per minute, per address."""
    made: TokenBuckets = request.app.state.link_buckets
    return made


def link_misses(request: Request) -> TokenBuckets:
    """Links that do not exist asked for per minute, per address."""
    made: TokenBuckets = request.app.state.link_misses
    return made


# ── training ─────────────────────────────────────────────────────────────────────────────────


def training_jobs(request: Request) -> TrainingJobs:
    made: TrainingJobs = request.app.state.training
    return made


# ── live classes ─────────────────────────────────────────────────────────────────────────────


def class_store(request: Request) -> ClassStore:
    """The classes: in memory, or shared through the broker."""
    made: ClassStore = request.app.state.classes
    return made


def class_buckets(request: Request) -> TokenBuckets:
    """New classes per minute, per address."""
    made: TokenBuckets = request.app.state.class_buckets
    return made


def class_misses(request: Request) -> TokenBuckets:
    """Classes that do not exist asked for per minute, per address."""
    made: TokenBuckets = request.app.state.class_misses
    return made


def class_streams(request: Request) -> StreamCounts:
    """The class pages' open event streams, per address and per class."""
    made: StreamCounts = request.app.state.class_streams
    return made


def class_answers(request: Request) -> TokenBuckets:
    """Answers per minute, per class."""
    made: TokenBuckets = request.app.state.class_answers
    return made


def student_answers(request: Request) -> TokenBuckets:
    """Answers per minute, per student."""
    made: TokenBuckets = request.app.state.student_answers
    return made


def address_answers(request: Request) -> TokenBuckets:
    """Answers per minute to one class, per address."""
    made: TokenBuckets = request.app.state.address_answers
    return made


ClientAddress = Annotated[str, Depends(client_of)]
SettingsDep = Annotated[Settings, Depends(settings)]
LayoutDep = Annotated[Layout, Depends(layout)]
PipelineDep = Annotated[Pipeline, Depends(pipeline)]
AnswersDep = Annotated[Answers, Depends(answers)]
LinkStoreDep = Annotated[LinkStore, Depends(link_store)]
LinkBucketsDep = Annotated[TokenBuckets, Depends(link_buckets)]
LinkMissesDep = Annotated[TokenBuckets, Depends(link_misses)]
TrainingJobsDep = Annotated[TrainingJobs, Depends(training_jobs)]
ClassStoreDep = Annotated[ClassStore, Depends(class_store)]
ClassBucketsDep = Annotated[TokenBuckets, Depends(class_buckets)]
ClassMissesDep = Annotated[TokenBuckets, Depends(class_misses)]
ClassStreamsDep = Annotated[StreamCounts, Depends(class_streams)]
ClassAnswersDep = Annotated[TokenBuckets, Depends(class_answers)]
StudentAnswersDep = Annotated[TokenBuckets, Depends(student_answers)]
AddressAnswersDep = Annotated[TokenBuckets, Depends(address_answers)]
