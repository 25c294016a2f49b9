"""The server's settings: one ``Settings``, read from ``GRADSTEP_*`` environment variables once
at start-up (``create_app``, the command line) and passed from there to what uses each one:
the layout, the short links' store and rate limit, the public address, and ``gradstep serve``.

A bad value stops the start with a message that names its variable. The table of settings in
docs/deploy.md lists these fields (tests/api/test_settings.py compares the two).
"""

from __future__ import annotations

import ipaddress
import os
from pathlib import Path
from typing import Annotated, Literal
from urllib.parse import urlsplit

from pydantic import BeforeValidator, Field, ValidationError, ValidationInfo
from pydantic_settings import BaseSettings, SettingsConfigDict

from app.capacity import RUN_QUEUE_PER_SLOT, RUN_WAIT_S, default_slots
from app.draw.layout.limits import (
    DEFAULT_CACHE_ENTRIES,
    DEFAULT_CACHE_MB,
    DEFAULT_TIMEOUT_S,
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


# ── the rules of the values: each refusal names the variable ─────────────────────────────────


def _name(info: ValidationInfo) -> str:
    return env_name(str(info.field_name))


def _digits(raw: object) -> int | None:
    """``raw`` as a whole number when it is written in digits 0–9 only (or is an int ≥ 0)."""
    text = str(raw) if isinstance(raw, int) and not isinstance(raw, bool) else raw
    return int(text) if isinstance(text, str) and ascii_digits(text) else None


def _whole(raw: object, info: ValidationInfo, least: int) -> int:
    value = _digits(raw)
    if value is None or value < least:
        raise ValueError(f"{_name(info)} must be a whole number of at least {least}, not {raw!r}")
    return value


def _at_least_one(raw: object, info: ValidationInfo) -> int:
    return _whole(raw, info, 1)


def _waiting(raw: object, info: ValidationInfo) -> int | None:
    return None if raw is None else _whole(raw, info, 0)


def _port(raw: object, info: ValidationInfo) -> int:
    port = _whole(raw, info, 0)
    if port > MAX_PORT:
        raise ValueError(f"{_name(info)} must be at most {MAX_PORT}, not {raw!r}")
    return port


def _count(raw: object, info: ValidationInfo) -> int:
    """A count in digits; 0 is taken as 1."""
    value = _digits(raw)
    if value is None:
        raise ValueError(f"{_name(info)} must be a count, not {raw!r}")
    return max(value, 1)


def _seconds(raw: object, info: ValidationInfo) -> float:
    try:
        value = float(raw)  # type: ignore[arg-type]  # refused below when not a number
    except (TypeError, ValueError):
        raise ValueError(f"{_name(info)} must be a number of seconds, not {raw!r}") from None
    if isinstance(raw, bool) or not value > 0:
        raise ValueError(f"{_name(info)} must be positive, not {raw!r}")
    return value


def _backend(raw: object, info: ValidationInfo) -> object:
    if raw is None or raw == "":
        return None
    if raw not in ("dot", "wasm"):
        raise ValueError(f"{_name(info)} must be dot or wasm, not {raw!r}")
    return raw


def _directory(raw: object) -> object:
    if raw is None or raw == "":
        return default_data_dir()
    return Path(raw).expanduser() if isinstance(raw, str | Path) else raw


def _empty_is_unset(raw: object) -> object:
    return None if raw == "" else raw


BROKER_SCHEMES = ("redis://", "rediss://", "unix://")


def _broker(raw: object, info: ValidationInfo) -> object:
    """A Redis address (blank: unset); another scheme is refused at start, not at the first
    class."""
    if not isinstance(raw, str) or not raw.strip():
        return None if raw == "" else raw
    if not raw.startswith(BROKER_SCHEMES):
        scheme = raw.split("://", 1)[0] if "://" in raw else "no scheme"
        raise ValueError(
            f"{_name(info)} must be a Redis address, redis://host:6379/0 (or rediss://, unix://),"
            f" not one with {scheme}"  # the address may hold a password: not repeated
        )
    return raw


def _address(raw: object, info: ValidationInfo) -> object:
    """An http(s) address without a trailing slash (blank: unset); one without a scheme or
    with a query or a fragment is refused."""
    if not isinstance(raw, str):
        return raw
    text = raw.strip()
    if not text:
        return None
    parts = urlsplit(text)
    address = parts.scheme in ("http", "https") and parts.netloc
    if not address or parts.query or parts.fragment:
        raise ValueError(
            f"{_name(info)} must be an http(s) address such as https://example.org, not {text!r}"
        )
    return text.rstrip("/")


def _proxies(raw: object, info: ValidationInfo) -> object:
    """Addresses and networks, separated by commas, written one way (uvicorn would take a
    malformed one as a name that no client has); ``*`` trusts every client; blank: none."""
    if not isinstance(raw, str):
        return raw
    items = [item.strip() for item in raw.split(",") if item.strip()]
    if items == ["*"]:
        return "*"
    written = []
    for item in items:
        try:
            written.append(
                str(ipaddress.ip_network(item, strict=False))
                if "/" in item
                else str(ipaddress.ip_address(item))
            )
        except ValueError:
            raise ValueError(
                f"{_name(info)} must be the proxies' addresses or networks separated by commas "
                f"(10.0.0.5,10.1.0.0/16), or * for any, not {item!r}"
            ) from None
    return ",".join(written)


Backend = Annotated[Literal["dot", "wasm"] | None, BeforeValidator(_backend)]
Seconds = Annotated[float, BeforeValidator(_seconds)]
Count = Annotated[int, BeforeValidator(_count)]
AtLeastOne = Annotated[int, BeforeValidator(_at_least_one)]
Waiting = Annotated[int | None, BeforeValidator(_waiting)]
Port = Annotated[int, BeforeValidator(_port)]
Directory = Annotated[Path, BeforeValidator(_directory)]
Url = Annotated[str | None, BeforeValidator(_empty_is_unset)]
Broker = Annotated[str | None, BeforeValidator(_broker)]
Address = Annotated[str | None, BeforeValidator(_address)]
Proxies = Annotated[str, BeforeValidator(_proxies)]


# ── the settings ──────────────────────────────────────────────────────────────────────────────


class Settings(BaseSettings):
    """Every setting of the server; each is also the environment variable ``GRADSTEP_<NAME>``."""

    model_config = SettingsConfigDict(env_prefix=ENV_PREFIX)

    layout: Backend = Field(
        default=None,
        description="the layout backend, dot or wasm (unset: dot when it is on PATH, else wasm)",
    )
    layout_timeout: Seconds = Field(
        default=DEFAULT_TIMEOUT_S,
        description="seconds a layout may take before it is killed and the graph refused (422)",
    )
    layout_cache: Count = Field(
        default=DEFAULT_CACHE_ENTRIES,
        description="graph shapes whose layouts are kept (an LRU; 0 is taken as 1)",
    )
    cache_mb: AtLeastOne = Field(
        default=DEFAULT_CACHE_MB,
        description="megabytes of memory a worker keeps answers in: half for answers to "
        "requests asked again, a quarter for layouts, a quarter for traces' structures",
    )
    layout_slots: AtLeastOne = Field(
        default_factory=default_slots,
        description="layouts that run at once (unset: the number of cores, at least 2)",
    )
    layout_queue: Waiting = Field(
        default=None,
        description="layouts that wait for a slot, beyond which a new one is a 503 "
        "(unset: twice the slots)",
    )
    run_slots: AtLeastOne = Field(
        default_factory=default_slots,
        description="programs that run at once (unset: the number of cores, at least 2)",
    )
    run_queue: Waiting = Field(
        default=None,
        description=f"programs that wait for a slot, each for {RUN_WAIT_S:g} s at most, beyond "
        f"which a new one is a 503 (unset: {RUN_QUEUE_PER_SLOT} for each slot)",
    )
    run_fuel: AtLeastOne = Field(
        default=RUN_FUEL,
        description="units of work (WebAssembly fuel) one run of a program may do: the same "
        "program always uses the same; the default is about 10 s of a training loop on a "
        "2-core machine",
    )
    run_memory_mb: AtLeastOne = Field(
        default=RUN_MEMORY_MB,
        description="megabytes of memory one run of a program may use (past it, a MemoryError "
        "in the program)",
    )
    sandbox: Directory = Field(
        default_factory=default_cache,
        description="the directory the sandbox (CPython compiled to WebAssembly, with gradstep's "
        "harness) is built and compiled into, once (unset: $XDG_CACHE_HOME/gradstep, else "
        "~/.cache/gradstep)",
    )
    links_per_minute: AtLeastOne = Field(
        default=DEFAULT_PER_MINUTE,
        description="new short links a minute per client address; past it, 429",
    )
    link_misses_per_minute: AtLeastOne = Field(
        default=DEFAULT_MISSES_PER_MINUTE,
        description="short links that do not exist a client may ask for a minute; past it, "
        "each /s/ request of that client is 429 until a minute's share has passed",
    )
    links_store_mb: AtLeastOne = Field(
        default=DEFAULT_STORE_MB,
        description="megabytes of short links (as stored, compressed) the store keeps; each new "
        "link deletes the oldest links never opened, then those opened least recently, past it",
    )
    data: Directory = Field(
        default_factory=default_data_dir,
        description="the directory of links.sqlite3, the short links' SQLite store "
        "(unset: $XDG_DATA_HOME/gradstep, else ~/.local/share/gradstep)",
    )
    database_url: Url = Field(
        default=None,
        repr=False,  # it may hold a password
        description="the short links' store, postgresql://… or sqlite:///path "
        "(unset: the SQLite file in the data directory)",
    )
    broker_url: Broker = Field(
        default=None,
        repr=False,  # it may hold a password
        description="the live classes' broker, redis://… (rediss://, unix://), which every "
        "worker and server shares (unset: classes live in the memory of a single process)",
    )
    class_misses_per_minute: AtLeastOne = Field(
        default=30,
        description="class codes that are not classes a client address may ask for a minute; "
        "past it, each further miss is a 429 (a class that exists is always answered)",
    )
    class_streams_per_address: AtLeastOne = Field(
        default=500,
        description="a class's event streams one client address may hold open in a worker (a "
        "lecture hall behind one NAT address holds one per phone); past it, 429",
    )
    class_streams_per_class: AtLeastOne = Field(
        default=2000,
        description="event streams one class may have open in a worker; past it, 429",
    )
    public_url: Address = Field(
        default=None,
        description="the server's public address, which absolute links in answers start with "
        "(unset: the request's own address; oEmbed and the pages' oEmbed links then answer "
        "on localhost only)",
    )
    trusted_proxies: Proxies = Field(
        default="",
        description="the reverse proxies whose X-Forwarded-For and X-Forwarded-Proto gradstep "
        "serve believes: addresses or networks separated by commas, or * for any (unset: none, "
        "so a client's address is the one it connects from)",
    )
    host: str = Field(default="127.0.0.1", description="the address gradstep serve listens on")
    port: Port = Field(default=8000, description="the port gradstep serve listens on")
    workers: AtLeastOne = Field(
        default=1,
        description="worker processes of gradstep serve (uvicorn's own); about one per core "
        "serves a lecture hall",
    )
    limit_concurrency: AtLeastOne = Field(
        default=DEFAULT_CONCURRENCY,
        description="requests a worker works on at once (event streams and idle connections "
        "not counted) before it answers 503 (bounds every queue)",
    )

    def layout_settings(self) -> LayoutSettings:
        """What the layout stage takes: backend, time limit, cache size, slots and queue."""
        return LayoutSettings(
            backend=self.layout,
            timeout=self.layout_timeout,
            cache_entries=self.layout_cache,
            cache_bytes=cache_share(self.cache_mb, "layouts"),
            slots=self.layout_slots,
            queue=self.layout_queue,
        )

    def links_url(self) -> str:
        """The short links' store: ``database_url``, else the SQLite file in ``data``."""
        return self.database_url or f"sqlite:///{self.data / 'links.sqlite3'}"


def problems(error: ValidationError) -> list[str]:
    """What was wrong with the settings, one line each, each naming its variable."""
    lines = []
    for problem in error.errors():
        message = str(problem["msg"]).removeprefix("Value error, ")
        field = ".".join(str(part) for part in problem["loc"])
        name = env_name(field)
        lines.append(message if name in message else f"{name}: {message}")
    return lines
