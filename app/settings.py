"""The server's settings: one ``Settings``, read from ``GRADSTEP_*`` environment variables once
at start-up (``create_app``, the command line) and passed from there to what uses each one:
the layout, the short links' store and rate limit, the public address, and ``gradstep serve``.

A bad value stops the start with a message that names its variable. The table of settings in
docs/deploy.md lists these fields (tests/api/test_settings.py compares the two).
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Annotated, Literal
from urllib.parse import urlsplit

from pydantic import BeforeValidator, Field, ValidationError, ValidationInfo
from pydantic_settings import BaseSettings, SettingsConfigDict

from app.capacity import default_layout_slots
from app.draw.layout.limits import (
    DEFAULT_CACHE_ENTRIES,
    DEFAULT_CACHE_MB,
    DEFAULT_TIMEOUT_S,
    LayoutSettings,
    cache_share,
)
from app.links.ratelimit import DEFAULT_PER_MINUTE
from app.numbers import ascii_digits

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


Backend = Annotated[Literal["dot", "wasm"] | None, BeforeValidator(_backend)]
Seconds = Annotated[float, BeforeValidator(_seconds)]
Count = Annotated[int, BeforeValidator(_count)]
AtLeastOne = Annotated[int, BeforeValidator(_at_least_one)]
Waiting = Annotated[int | None, BeforeValidator(_waiting)]
Port = Annotated[int, BeforeValidator(_port)]
Directory = Annotated[Path, BeforeValidator(_directory)]
Url = Annotated[str | None, BeforeValidator(_empty_is_unset)]
Address = Annotated[str | None, BeforeValidator(_address)]


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
        default_factory=default_layout_slots,
        description="layouts that run at once (unset: the number of cores, at least 2)",
    )
    layout_queue: Waiting = Field(
        default=None,
        description="layouts that wait for a slot, beyond which a new one is a 503 "
        "(unset: twice the slots)",
    )
    links_per_minute: AtLeastOne = Field(
        default=DEFAULT_PER_MINUTE,
        description="new short links a minute per client address; past it, 429",
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
    public_url: Address = Field(
        default=None,
        description="the server's public address, which absolute links in answers start with "
        "(unset: the request's own address; oEmbed and the pages' oEmbed links then answer "
        "on localhost only)",
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
        description="open connections per worker before uvicorn answers 503 (bounds every queue)",
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
