"""The settings: docs/deploy.md's table lists exactly the ``Settings`` fields under their variables,
a bad value is refused naming its variable, and ``gradstep serve``'s flags are settings."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from pydantic import ValidationError

from app.cli import SERVE_FLAGS
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
