"""Settings read from the environment: durations and the backup folder."""

from __future__ import annotations

from pathlib import Path

import pytest
from pydantic import ValidationError

from bot.settings import Settings, parse_duration


@pytest.mark.parametrize(
    ("text", "seconds"),
    [("30m", 1800.0), ("12h", 43200.0), ("1d", 86400.0), ("90s", 90.0), (" 1.5H ", 5400.0)],
)
def test_a_duration_reads_with_its_unit(text: str, seconds: float) -> None:
    assert parse_duration(text) == seconds


@pytest.mark.parametrize("text", ["off", "0", "never", "OFF"])
def test_off_turns_a_schedule_off(text: str) -> None:
    assert parse_duration(text) is None


@pytest.mark.parametrize("text", ["12", "soon", "10x", "5s"])
def test_a_duration_without_unit_or_too_short_is_refused_in_one_sentence(text: str) -> None:
    with pytest.raises(ValidationError) as caught:
        Settings(_env_file=None, BACKUP_EVERY=text)  # type: ignore[call-arg]
    assert "BACKUP_EVERY" in str(caught.value) or "backup_every" in str(caught.value)


def test_backups_default_to_daily_beside_the_database(tmp_path: Path) -> None:
    settings = Settings(_env_file=None, DATABASE_PATH=tmp_path / "db.sqlite3")  # type: ignore[call-arg]
    assert settings.backup_every == 86400.0 and settings.backup_keep == 7
    assert settings.backup_folder == tmp_path / "backups"
    chosen = Settings(_env_file=None, BACKUP_DIR=tmp_path / "b", BACKUP_EVERY="off")  # type: ignore[call-arg]
    assert chosen.backup_folder == tmp_path / "b" and chosen.backup_every is None


def test_owner_ids_read_as_a_comma_separated_list() -> None:
    settings = Settings(_env_file=None, OWNER_IDS="12, 34")  # type: ignore[call-arg]
    assert settings.owner_ids == frozenset({12, 34})
    assert Settings(_env_file=None).owner_ids == frozenset()  # type: ignore[call-arg]
    with pytest.raises(ValidationError, match="not a list of user ids"):
        Settings(_env_file=None, OWNER_IDS="me")  # type: ignore[call-arg]


def test_the_activity_is_off_by_default() -> None:
    settings = Settings(_env_file=None)  # type: ignore[call-arg]
    assert not settings.activity_enabled
    assert settings.activity_public_url is None and settings.discord_client_secret is None


def test_the_activity_public_url_must_be_https() -> None:
    with pytest.raises(ValidationError) as caught:
        Settings(_env_file=None, ACTIVITY_PUBLIC_URL="http://cards.example.org")  # type: ignore[call-arg]
    assert "https://" in str(caught.value)
    settings = Settings(_env_file=None, ACTIVITY_PUBLIC_URL="https://cards.example.org/")  # type: ignore[call-arg]
    assert settings.activity_public_url == "https://cards.example.org"


def test_the_activity_with_discord_needs_the_client_secret() -> None:
    with pytest.raises(ValidationError) as caught:
        Settings(_env_file=None, ACTIVITY_ENABLED="true", DISCORD_TOKEN="x")  # type: ignore[call-arg]
    assert "DISCORD_CLIENT_SECRET" in str(caught.value)
    settings = Settings(  # type: ignore[call-arg]
        _env_file=None, ACTIVITY_ENABLED="true", DISCORD_TOKEN="x", DISCORD_CLIENT_SECRET="s"
    )
    assert settings.activity_enabled
