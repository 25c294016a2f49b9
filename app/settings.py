"""The server's settings: one ``Settings``, read from ``GRADSTEP_*`` environment variables once
at start-up (``create_app``, the command line) and passed from there to what uses each one:
the layout, the short links' store and rate limit, the public address, and ``gradstep serve``.

Each field's type is its rule, in pydantic's own types and bounds; a whole number is also
written in digits 0–9 alone (``DIGITS``). A bad value stops the start with a message that names
its variable (``Settings._named``). The table of settings in docs/deploy.md lists these fields
(tests/api/test_settings.py compares the two).

This module is where the server reads its environment: the variables below, and
``XDG_DATA_HOME`` for the data directory's default (``XDG_CACHE_HOME`` in engine/runner/build.py
for the sandbox's). The one exception is glibc's own ``MALLOC_ARENA_MAX`` (app/allocator.py).
"""

from __future__ import annotations

import os
from collections.abc import Callable
from functools import cached_property
from ipaddress import IPv4Interface, IPv6Interface
from pathlib import Path
from typing import Annotated, Any, Literal

from pydantic import (
    AfterValidator,
    AnyUrl,
    BeforeValidator,
    Field,
    GetPydanticSchema,
    HttpUrl,
    IPvAnyInterface,
    NonNegativeInt,
    PositiveFloat,
    PositiveInt,
    UrlConstraints,
    ValidationError,
    ValidationInfo,
    ValidatorFunctionWrapHandler,
    WrapValidator,
    model_validator,
)
from pydantic_core import ErrorDetails, InitErrorDetails, PydanticCustomError, core_schema
from pydantic_settings import BaseSettings, SettingsConfigDict

from app.capacity import RUN_QUEUE_PER_SLOT, RUN_WAIT_S, default_slots
from app.draw.layout.limits import (
    DEFAULT_CACHE_ENTRIES,
    DEFAULT_CACHE_MB,
    DEFAULT_TIMEOUT_S,
    LAYOUT_MEMORY_MB,
    LayoutSettings,
    cache_share,
)
from app.links.ratelimit import DEFAULT_MISSES_PER_MINUTE, DEFAULT_PER_MINUTE
from app.links.store import DEFAULT_STORE_MB
from app.numbers import ascii_digits
from engine.limits import RUN_FUEL, RUN_MEMORY_MB
from engine.runner.build import default_cache

ENV_PREFIX = "GRADSTEP_"
DEFAULT_CONCURRENCY = 512  # per worker: a lecture hall's tabs, with room; beyond, 503 at once
MAX_PORT = 65_535


def env_name(field: str) -> str:
    """The environment variable of a setting: ``layout_timeout`` → ``GRADSTEP_LAYOUT_TIMEOUT``."""
    return ENV_PREFIX + field.upper()


def default_data_dir() -> Path:
    """$XDG_DATA_HOME/gradstep, else ~/.local/share/gradstep."""
    base = os.environ.get("XDG_DATA_HOME") or Path.home() / ".local" / "share"
    return Path(base) / "gradstep"


# ── the rules pydantic's types leave to us ────────────────────────────────────────────────────


def _digits(raw: object) -> object:
    """pydantic's int also takes "+5", " 5", "1_000" and "5.0": a whole number in the
    environment is written in digits 0–9 alone, as it always was."""
    if isinstance(raw, str) and not ascii_digits(raw):
        raise PydanticCustomError("digits", "Input should be written in digits 0-9")
    return raw


def _blank_is_unset(raw: object, info: ValidationInfo) -> object:
    """An empty variable is one not set: the setting's default."""
    if not (isinstance(raw, str) and not raw.strip()):
        return raw
    return Settings.model_fields[str(info.field_name)].get_default(call_default_factory=True)


def _as_text(kind: Any, write: Callable[[Any], str] = str) -> GetPydanticSchema:
    """Checked as pydantic's type ``kind``, kept as the text ``write`` makes of it: the stores,
    the pages and uvicorn take text."""
    return GetPydanticSchema(
        lambda _source, handler: core_schema.no_info_after_validator_function(
            write, handler.generate_schema(kind)
        )
    )


def _site(url: HttpUrl) -> str:
    """The address that links start with: no query or fragment to come after a link's path,
    no trailing slash."""
    if url.query or url.fragment:
        raise PydanticCustomError("site", "Input should have no query or fragment")
    return str(url).rstrip("/")


def _proxy(proxy: IPv4Interface | IPv6Interface) -> str:
    """An address alone, a network from its first address: uvicorn takes 10.1.0.1/16 for a name
    that no client has, trusting nothing, silently."""
    whole = proxy.network.prefixlen == proxy.max_prefixlen
    return str(proxy.ip if whole else proxy.network)


def _any_or_each(raw: object, check: ValidatorFunctionWrapHandler) -> object:
    """``*`` trusts every client; else addresses and networks separated by commas."""
    if not isinstance(raw, str):
        return check(raw)
    if raw.strip() == "*":
        return "*"
    return check([item.strip() for item in raw.split(",") if item.strip()])


DIGITS = BeforeValidator(_digits)
UNSET = BeforeValidator(_blank_is_unset)
Redis = Annotated[AnyUrl, UrlConstraints(allowed_schemes=["redis", "rediss", "unix"])]
Proxy = Annotated[str, _as_text(IPvAnyInterface, _proxy)]
Proxies = Annotated[str, _as_text(list[Proxy], ",".join), WrapValidator(_any_or_each)]
Directory = Annotated[Path, AfterValidator(Path.expanduser), UNSET]
Count = Annotated[NonNegativeInt, AfterValidator(lambda n: max(n, 1)), DIGITS]  # 0 is taken as 1

MUST_BE = {  # the fields whose refusals say what is wanted better than pydantic's reason
    "public_url": "an http(s) address such as https://example.org",
    "broker_url": "a Redis address, redis://host:6379/0 (or rediss://, unix://)",
    "trusted_proxies": "the proxies' addresses or networks separated by commas "
    "(10.0.0.5,10.1.0.0/16), or * for any",
}
REASONS = {  # pydantic's errors, in the words of the project's refusals
    "digits": "a whole number",
    "int_parsing": "a whole number",
    "float_parsing": "a number",
    "greater_than": "more than {gt:g}",
    "greater_than_equal": "at least {ge}",
    "less_than_equal": "at most {le}",
    "literal_error": "{expected}",
}


# ── the settings ──────────────────────────────────────────────────────────────────────────────


class Settings(BaseSettings):
    """Every setting of the server; each is also the environment variable ``GRADSTEP_<NAME>``."""

    model_config = SettingsConfigDict(env_prefix=ENV_PREFIX, use_attribute_docstrings=True)

    layout: Annotated[Literal["dot", "wasm"] | None, UNSET] = None
    """the layout backend, dot or wasm (unset: dot when it is on PATH, else wasm)"""
    layout_timeout: PositiveFloat = DEFAULT_TIMEOUT_S
    """seconds a layout may take before it is killed and the graph refused (422)"""
    layout_cache: Count = DEFAULT_CACHE_ENTRIES
    """graph shapes whose layouts are kept (an LRU; 0 is taken as 1)"""
    cache_mb: Annotated[PositiveInt, DIGITS] = DEFAULT_CACHE_MB
    """megabytes of memory a worker keeps answers in: half for traces' structures, a quarter for
    answers to requests asked again, a quarter for layouts"""
    layout_slots: Annotated[PositiveInt, DIGITS] = Field(default_factory=default_slots)
    """layouts that run at once (unset: the number of cores, at least 2)"""
    layout_queue: Annotated[NonNegativeInt | None, DIGITS] = None
    """layouts that wait for a slot, beyond which a new one is a 503 (unset: twice the slots)"""
    layout_memory_mb: Annotated[int, Field(ge=32), DIGITS] = LAYOUT_MEMORY_MB
    """megabytes of memory one layout may take (dot's data, the WebAssembly Graphviz's memory;
    the presets take at most 30), beyond which its graph is refused (422) and refused at once
    after"""
    run_slots: Annotated[PositiveInt, DIGITS] = Field(default_factory=default_slots)
    """programs that run at once (unset: the number of cores, at least 2)"""
    run_queue: Annotated[NonNegativeInt | None, DIGITS] = Field(
        default=None,
        description=f"programs that wait for a slot, each for {RUN_WAIT_S:g} s at most, beyond "
        f"which a new one is a 503 (unset: {RUN_QUEUE_PER_SLOT} for each slot)",
    )
    run_fuel: Annotated[PositiveInt, DIGITS] = RUN_FUEL
    """units of work (WebAssembly fuel) one run of a program may do: the same program always
    uses the same; the default is about 10 s of a training loop on a 2-core machine"""
    run_memory_mb: Annotated[PositiveInt, DIGITS] = RUN_MEMORY_MB
    """megabytes of memory one run of a program may use (past it, a MemoryError in the
    program)"""
    sandbox: Directory = Field(default_factory=default_cache)
    """the directory the sandbox (CPython compiled to WebAssembly, with gradstep's harness) is
    built and compiled into, once, and the WebAssembly Graphviz compiled into (unset:
    $XDG_CACHE_HOME/gradstep, else ~/.cache/gradstep)"""
    links_per_minute: Annotated[PositiveInt, DIGITS] = DEFAULT_PER_MINUTE
    """new short links a minute per client address; past it, 429"""
    link_misses_per_minute: Annotated[PositiveInt, DIGITS] = DEFAULT_MISSES_PER_MINUTE
    """short links that do not exist a client may ask for a minute; past it, each /s/ request
    of that client is 429 until a minute's share has passed"""
    links_store_mb: Annotated[PositiveInt, DIGITS] = DEFAULT_STORE_MB
    """megabytes of short links (as stored, compressed) the store keeps; each new link deletes
    the oldest links never opened, then those opened least recently, past it"""
    data: Directory = Field(default_factory=default_data_dir)
    """the directory of links.sqlite3, the short links' SQLite store (unset:
    $XDG_DATA_HOME/gradstep, else ~/.local/share/gradstep)"""
    # any text: open_store (app/links/store.py) refuses, naming no password, what it cannot open
    database_url: Annotated[str | None, UNSET] = Field(default=None, repr=False)  # a password
    """the short links' store, postgresql://… or sqlite:///path (unset: the SQLite file in the
    data directory)"""
    broker_url: Annotated[Annotated[str, _as_text(Redis)] | None, UNSET] = Field(
        default=None,
        repr=False,  # it may hold a password
    )
    """the live classes' broker, redis://… (rediss://, unix://), which every worker and server
    shares (unset: classes live in the memory of a single process)"""
    class_misses_per_minute: Annotated[PositiveInt, DIGITS] = 30
    """class codes that are not classes a client address may ask for a minute; past it, each
    further miss is a 429 (a class that exists is always answered)"""
    class_streams_per_address: Annotated[PositiveInt, DIGITS] = 500
    """a class's event streams one client address may hold open in a worker (a lecture hall
    behind one NAT address holds one per phone); past it, 429"""
    class_streams_per_class: Annotated[PositiveInt, DIGITS] = 2000
    """event streams one class may have open in a worker; past it, 429"""
    public_url: Annotated[Annotated[str, _as_text(HttpUrl, _site)] | None, UNSET] = None
    """the server's public address, which absolute links in answers start with (unset: the
    request's own address; oEmbed and the pages' oEmbed links then answer on localhost only)"""
    trusted_proxies: Proxies = ""
    """the reverse proxies whose X-Forwarded-For and X-Forwarded-Proto gradstep serve believes:
    addresses or networks separated by commas, or * for any (unset: none, so a client's address
    is the one it connects from)"""
    host: str = "127.0.0.1"
    """the address gradstep serve listens on"""
    port: Annotated[int, Field(ge=0, le=MAX_PORT), DIGITS] = 8000
    """the port gradstep serve listens on"""
    workers: Annotated[PositiveInt, DIGITS] = 1
    """worker processes of gradstep serve (uvicorn's own); about one per core serves a lecture
    hall"""
    limit_concurrency: Annotated[PositiveInt, DIGITS] = DEFAULT_CONCURRENCY
    """requests a worker works on at once (event streams and idle connections not counted)
    before it answers 503 (bounds every queue)"""

    @model_validator(mode="wrap")
    @classmethod
    def _named(cls, values: Any, check: ValidatorFunctionWrapHandler) -> Any:
        """Every refusal names its variable, in the project's words (``_refusal``)."""
        try:
            return check(values)
        except ValidationError as error:
            said: list[InitErrorDetails] = [
                {
                    "type": PydanticCustomError("setting", "{text}", {"text": _refusal(problem)}),
                    "loc": problem["loc"],
                    "input": problem["input"],
                }
                for problem in error.errors()
            ]
            raise ValidationError.from_exception_data(error.title, said) from None

    @cached_property
    def uvicorn_proxies(self) -> str:
        """uvicorn's own FORWARDED_ALLOW_IPS, which ``gradstep serve`` does not read (it believes
        ``trusted_proxies`` alone) but names when it is set."""
        return os.environ.get("FORWARDED_ALLOW_IPS", "")

    def layout_settings(self) -> LayoutSettings:
        """What the layout stage takes: backend, time and memory limits, cache size, slots and
        queue, and where its compiled WebAssembly is kept."""
        return LayoutSettings(
            backend=self.layout,
            timeout=self.layout_timeout,
            cache_entries=self.layout_cache,
            cache_bytes=cache_share(self.cache_mb, "layouts"),
            slots=self.layout_slots,
            queue=self.layout_queue,
            memory_mb=self.layout_memory_mb,
            compiled=self.sandbox,  # beside the sandbox's: both are compiled WebAssembly
        )

    def links_url(self) -> str:
        """The short links' store: ``database_url``, else the SQLite file in ``data``."""
        return self.database_url or f"sqlite:///{self.data / 'links.sqlite3'}"


def _refusal(problem: ErrorDetails) -> str:
    """One of pydantic's errors as ``GRADSTEP_PORT must be at most 65535, not '70000'``: the
    value is not repeated when it may hold a password."""
    field = str(problem["loc"][0])
    reason = MUST_BE.get(field) or REASONS.get(problem["type"], "").format(**problem.get("ctx", {}))
    said = (
        f"{env_name(field)} must be {reason}" if reason else f"{env_name(field)}: {problem['msg']}"
    )
    known = Settings.model_fields.get(field)
    return said if known and not known.repr else f"{said}, not {problem['input']!r}"


def problems(error: ValidationError) -> list[str]:
    """What was wrong with the settings, one line each, each naming its variable."""
    return [problem["msg"] for problem in error.errors()]
