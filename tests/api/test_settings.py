"""The settings: docs/deploy.md's table lists exactly the ``Settings`` fields under their variables,
a bad value is refused naming its variable, and ``gradstep serve``'s flags are settings."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from pydantic import ValidationError

from app.cli import SERVE_FLAGS
from app.draw.layout.limits import LAYOUT_MEMORY_MB
from app.settings import Settings, env_name, problems
from engine.limits import RUN_FUEL, RUN_MEMORY_MB

DEPLOY = Path(__file__).resolve().parents[2] / "docs" / "deploy.md"
ROW = re.compile(r"^\| `(GRADSTEP_\w+)` \| `(\w+)` \|", re.M)


def test_the_deploy_table_lists_every_setting_under_its_variable() -> None:
    text = DEPLOY.read_text(encoding="utf-8")
    section = text[text.index("\n## Settings\n") :]
    section = section[: section.index("\n#", 1)]
    listed = ROW.findall(section)
    assert listed == [(env_name(name), name) for name in Settings.model_fields]


def test_every_setting_is_described() -> None:
    for name, field in Settings.model_fields.items():
        assert field.description, name


@pytest.mark.parametrize(
    ("name", "value"),
    [
        ("GRADSTEP_LAYOUT_SLOTS", "0"),
        ("GRADSTEP_LAYOUT_SLOTS", "²"),
        ("GRADSTEP_LAYOUT_QUEUE", "-1"),
        ("GRADSTEP_LAYOUT_QUEUE", ""),
        ("GRADSTEP_LINKS_PER_MINUTE", "0"),
        ("GRADSTEP_LAYOUT_CACHE", "1.5"),
        ("GRADSTEP_PORT", "70000"),
        ("GRADSTEP_WORKERS", "many"),
        ("GRADSTEP_TRUSTED_PROXIES", "proxy.example.org"),
        ("GRADSTEP_TRUSTED_PROXIES", "10.0.0.1,*"),
        ("GRADSTEP_BROKER_URL", "http://user:secret@redis.example.org"),
        ("GRADSTEP_BROKER_URL", "localhost:6379"),
        ("GRADSTEP_RUN_FUEL", "0"),
        ("GRADSTEP_RUN_FUEL", "5e9"),
        ("GRADSTEP_RUN_MEMORY_MB", "-64"),
        ("GRADSTEP_LAYOUT_MEMORY_MB", "16"),  # less than the presets take
        ("GRADSTEP_LAYOUT_MEMORY_MB", "64.5"),
    ],
)
def test_a_bad_value_is_refused_naming_its_variable(
    monkeypatch: pytest.MonkeyPatch, name: str, value: str
) -> None:
    monkeypatch.setenv(name, value)
    with pytest.raises(ValueError, match=name):
        Settings()


def test_unset_and_empty_values_take_the_defaults(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    for name in (
        "GRADSTEP_LAYOUT",
        "GRADSTEP_DATABASE_URL",
        "GRADSTEP_PUBLIC_URL",
        "GRADSTEP_BROKER_URL",
    ):
        monkeypatch.setenv(name, "")
    monkeypatch.delenv("GRADSTEP_LAYOUT_QUEUE", raising=False)
    monkeypatch.setenv("GRADSTEP_LAYOUT_SLOTS", "3")
    monkeypatch.setenv("GRADSTEP_LAYOUT_CACHE", "0")
    monkeypatch.setenv("GRADSTEP_DATA", str(tmp_path))
    settings = Settings()
    assert settings.layout is None and settings.public_url is None
    assert settings.broker_url is None
    assert settings.links_url() == f"sqlite:///{tmp_path / 'links.sqlite3'}"
    layout = settings.layout_settings()
    assert (layout.slots, layout.queue, layout.cache_entries) == (3, None, 1)


def test_trusted_proxies_are_written_one_way(monkeypatch: pytest.MonkeyPatch) -> None:
    """uvicorn takes a network with host bits (10.1.0.1/16) as a name no client has: trusting
    nothing, silently. The setting writes each one as uvicorn reads it; unset trusts none."""
    assert Settings().trusted_proxies == ""
    monkeypatch.setenv("GRADSTEP_TRUSTED_PROXIES", " 10.0.0.5, 10.1.0.1/16,::1 ")
    assert Settings().trusted_proxies == "10.0.0.5,10.1.0.0/16,::1"


def test_a_broker_address_is_never_repeated_in_a_refusal(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GRADSTEP_BROKER_URL", "http://user:secret@redis.example.org")
    with pytest.raises(ValidationError) as refused:
        Settings()
    said = problems(refused.value)  # what gradstep prints
    assert said and "GRADSTEP_BROKER_URL" in said[0] and "secret" not in str(said)
    assert "secret" not in repr(Settings(broker_url="redis://user:secret@localhost:6379/0"))


def test_the_serve_flags_are_settings() -> None:
    assert set(SERVE_FLAGS) <= set(Settings.model_fields)
    settings = Settings(port=9000, workers=2)
    assert (settings.port, settings.workers) == (9000, 2)


def test_a_runs_limits_and_the_sandboxs_directory_are_settings(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    for name in ("GRADSTEP_RUN_FUEL", "GRADSTEP_RUN_MEMORY_MB", "GRADSTEP_SANDBOX"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    settings = Settings()
    assert (settings.run_fuel, settings.run_memory_mb) == (RUN_FUEL, RUN_MEMORY_MB)
    assert settings.sandbox == tmp_path / "cache" / "gradstep"
    monkeypatch.setenv("GRADSTEP_RUN_FUEL", "2000000000")
    monkeypatch.setenv("GRADSTEP_RUN_MEMORY_MB", "128")
    monkeypatch.setenv("GRADSTEP_SANDBOX", str(tmp_path / "sandbox"))
    settings = Settings()
    assert (settings.run_fuel, settings.run_memory_mb) == (2_000_000_000, 128)
    assert settings.sandbox == tmp_path / "sandbox"


def test_a_layouts_memory_limit_is_a_setting(monkeypatch: pytest.MonkeyPatch) -> None:
    """What a layout stopped at it says: tests/api/test_layout_memory.py, with both backends."""
    monkeypatch.delenv("GRADSTEP_LAYOUT_MEMORY_MB", raising=False)
    assert Settings().layout_settings().memory_mb == LAYOUT_MEMORY_MB
    monkeypatch.setenv("GRADSTEP_LAYOUT_MEMORY_MB", "96")
    assert Settings().layout_settings().memory_mb == 96


@pytest.mark.parametrize("value", ["+5", " 5", "1_000", "5.0", "١٢", "²"])
def test_a_whole_number_is_written_in_digits_alone(
    monkeypatch: pytest.MonkeyPatch, value: str
) -> None:
    """pydantic's int takes all but the last two; the environment's numbers are digits 0–9."""
    monkeypatch.setenv("GRADSTEP_RUN_SLOTS", value)
    with pytest.raises(ValidationError) as refused:
        Settings()
    assert problems(refused.value) == [f"GRADSTEP_RUN_SLOTS must be a whole number, not {value!r}"]


@pytest.mark.parametrize(
    ("name", "value", "said"),
    [
        ("GRADSTEP_PORT", "70000", "GRADSTEP_PORT must be at most 65535, not '70000'"),
        (
            "GRADSTEP_LINKS_PER_MINUTE",
            "0",
            "GRADSTEP_LINKS_PER_MINUTE must be more than 0, not '0'",
        ),
        (
            "GRADSTEP_LAYOUT_TIMEOUT",
            "nan",
            "GRADSTEP_LAYOUT_TIMEOUT must be more than 0, not 'nan'",
        ),
        ("GRADSTEP_LAYOUT", "neato", "GRADSTEP_LAYOUT must be 'dot' or 'wasm', not 'neato'"),
    ],
)
def test_a_refusal_says_the_variable_the_rule_and_the_value(
    monkeypatch: pytest.MonkeyPatch, name: str, value: str, said: str
) -> None:
    monkeypatch.setenv(name, value)
    with pytest.raises(ValidationError) as refused:
        Settings()
    assert problems(refused.value) == [said]


@pytest.mark.parametrize(
    "url",
    [
        "redis://user:secret@redis.example.org:6379/0",
        "rediss://cache:6380/1",
        "unix:///run/redis.sock",
    ],
)
def test_a_broker_of_each_redis_scheme_is_taken_as_written(
    monkeypatch: pytest.MonkeyPatch, url: str
) -> None:
    monkeypatch.setenv("GRADSTEP_BROKER_URL", url)
    assert Settings().broker_url == url


def test_the_public_address_loses_its_last_slash_and_may_not_have_a_query(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("GRADSTEP_PUBLIC_URL", " https://example.org/gradstep/ ")
    assert Settings().public_url == "https://example.org/gradstep"
    for refused in (
        "https://example.org/?lecture=1",
        "https://example.org/#top",
        "ftp://example.org",
    ):
        monkeypatch.setenv("GRADSTEP_PUBLIC_URL", refused)
        with pytest.raises(ValueError, match="GRADSTEP_PUBLIC_URL must be an http"):
            Settings()


def test_an_empty_directory_is_its_default_and_a_tilde_is_home(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """An empty GRADSTEP_SANDBOX was taken as the data directory, not the sandbox's own."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    monkeypatch.setenv("GRADSTEP_SANDBOX", "")
    monkeypatch.setenv("GRADSTEP_DATA", "")
    settings = Settings()
    assert settings.sandbox == tmp_path / "cache" / "gradstep"
    assert settings.data == tmp_path / "data" / "gradstep"
    monkeypatch.setenv("GRADSTEP_DATA", "~/links")
    assert Settings().data == Path.home() / "links"


def test_a_database_address_is_kept_as_written_and_not_shown(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    url = "postgresql://gradstep:p@ss@db.example.org/links"
    monkeypatch.setenv("GRADSTEP_DATABASE_URL", url)
    settings = Settings()
    assert settings.links_url() == url and "p@ss" not in repr(settings)
