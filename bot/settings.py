"""Settings from the environment and `.env` (see .env.example for every variable)."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Annotated, Literal
from urllib.parse import urlsplit

from pydantic import Field, SecretStr, field_validator, model_validator
from pydantic_settings import BaseSettings, NoDecode, SettingsConfigDict

from storage.errors import StoreError
from storage.partition import Partition

LOG_LEVELS = ("DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL")
_DURATION = re.compile(r"^\s*(\d+(?:\.\d+)?)\s*([smhd])\s*$", re.IGNORECASE)
_UNIT_SECONDS = {"s": 1, "m": 60, "h": 3600, "d": 86400}


def parse_duration(value: str) -> float | None:
    """`30m`, `12h`, `1d`, `3600s` as seconds; `off` or `0` as None (nothing scheduled)."""
    text = value.strip().lower()
    if text in ("off", "0", "none", "never"):
        return None
    match = _DURATION.match(text)
    if match is None:
        raise ValueError(f"{value!r} is not a duration: write it like 30m, 12h or 1d (or off)")
    seconds = float(match.group(1)) * _UNIT_SECONDS[match.group(2)]
    if seconds < 60:
        raise ValueError(f"{value!r} is too short: back up at most once a minute")
    return seconds


class Settings(BaseSettings):
    # env_ignore_empty: `.env.example` copied as-is leaves optional variables empty
    # (`DEV_GUILD_ID=`), which means "not set", not an invalid value.
    # A refused value is never repeated in the error: DATABASE_URL may hold a password.
    model_config = SettingsConfigDict(
        env_file=".env",
        env_file_encoding="utf-8",
        extra="ignore",
        env_ignore_empty=True,
        hide_input_in_errors=True,
    )

    discord_token: SecretStr | None = Field(default=None, alias="DISCORD_TOKEN")
    database_path: Path = Field(default=Path("data/cardtable.sqlite3"), alias="DATABASE_PATH")
    # Set: PostgreSQL at this URL instead of the SQLite file (several processes need it).
    database_url: SecretStr | None = Field(default=None, alias="DATABASE_URL")
    # Several processes: each connects SHARD_IDS (e.g. "0,1") of SHARD_COUNT shards and owns
    # the tables of those shards' guilds. Unset: one process, every guild.
    shard_count: int | None = Field(default=None, alias="SHARD_COUNT")
    shard_ids: Annotated[tuple[int, ...] | None, NoDecode] = Field(default=None, alias="SHARD_IDS")
    # Set: another Discord-compatible API instead of Discord's (a REST proxy that several
    # processes share for the rate limits, or a local Discord); the gateway is the one it names.
    discord_api_url: str | None = Field(default=None, alias="DISCORD_API_URL")
    dev_guild_id: int | None = Field(default=None, alias="DEV_GUILD_ID")
    log_level: str = Field(default="INFO", alias="LOG_LEVEL")
    # `text` (lines for people) or `json` (one object per line, for a log collector).
    log_format: Literal["text", "json"] = Field(default="text", alias="LOG_FORMAT")
    # The local table's page (no token, or `python -m bot --local`): http://127.0.0.1:PORT
    local_port: int = Field(default=8765, ge=1, le=65535, alias="LOCAL_PORT")
    # Optional: more users (Discord ids, comma separated) who may use `/admin status` besides
    # the application's owner or team.
    owner_ids: Annotated[frozenset[int], NoDecode] = Field(default=frozenset(), alias="OWNER_IDS")
    # Optional: Prometheus metrics at http://METRICS_HOST:METRICS_PORT/metrics and a health check
    # at /health (unset: no endpoint). 127.0.0.1 unless told otherwise.
    metrics_port: int | None = Field(default=None, ge=0, le=65535, alias="METRICS_PORT")
    metrics_host: str = Field(default="127.0.0.1", alias="METRICS_HOST")
    # SQLite only: an online backup of the file every BACKUP_EVERY (a duration, or off) into
    # BACKUP_DIR (default: a `backups` folder beside the file), the newest BACKUP_KEEP kept.
    backup_every: Annotated[float | None, NoDecode] = Field(default=86400.0, alias="BACKUP_EVERY")
    backup_keep: int = Field(default=7, ge=1, le=1000, alias="BACKUP_KEEP")
    backup_dir: Path | None = Field(default=None, alias="BACKUP_DIR")

    @field_validator("backup_every", mode="before")
    @classmethod
    def _duration(cls, value: object) -> object:
        return parse_duration(value) if isinstance(value, str) else value

    # Worker processes for the bot players' decisions (each process of the bot has its own).
    # Unset: the cores this process may use, less one for the event loop, at least one.
    bot_workers: int | None = Field(default=None, ge=1, le=256, alias="BOT_WORKERS")
    # The card table as a Discord Activity (off by default; README "The table as a Discord
    # Activity"). Its own web server listens on ACTIVITY_HOST:ACTIVITY_PORT.
    activity_enabled: bool = Field(default=False, alias="ACTIVITY_ENABLED")
    activity_port: int = Field(default=8766, ge=1, le=65535, alias="ACTIVITY_PORT")
    activity_host: str = Field(default="127.0.0.1", alias="ACTIVITY_HOST")
    # The server in a process of its own: the pages' frames are built and sent there, off the
    # thread that answers the clicks (false: in the bot's process).
    activity_own_process: bool = Field(default=True, alias="ACTIVITY_OWN_PROCESS")
    # The HTTPS address of that server behind a reverse proxy: the one the Developer Portal's
    # URL mapping `/` names (Discord's proxy fetches the page from it).
    activity_public_url: str | None = Field(default=None, alias="ACTIVITY_PUBLIC_URL")
    # The Portal's OAuth2 Client Secret: exchanges a player's sign-in code for who they are.
    discord_client_secret: SecretStr | None = Field(
        default=None, alias="DISCORD_CLIENT_SECRET", repr=False
    )
    # Optional: the application's id (the Portal's General Information), the page's OAuth2
    # client id. Unset: the one Discord tells the bot when it logs in (the same, for its token).
    discord_application_id: int | None = Field(default=None, alias="DISCORD_APPLICATION_ID")

    @field_validator("log_level")
    @classmethod
    def _known_level(cls, value: str) -> str:
        level = value.strip().upper()
        if level not in LOG_LEVELS:
            raise ValueError(f"{value!r} is not a log level: use one of {', '.join(LOG_LEVELS)}")
        return level

    @field_validator("log_format", mode="before")
    @classmethod
    def _known_format(cls, value: object) -> object:
        if isinstance(value, str):
            text = value.strip().lower()
            if text not in ("text", "json"):
                raise ValueError(f"{value!r} is not a log format: use text or json")
            return text
        return value

    @field_validator("database_url")
    @classmethod
    def _postgresql_url(cls, value: SecretStr | None) -> SecretStr | None:
        if value is None:
            return value
        url = value.get_secret_value()
        if not url.startswith(("postgresql://", "postgres://")):
            raise ValueError("DATABASE_URL must start with postgresql:// (or leave it empty)")
        try:
            _ = urlsplit(url).port  # an unclosed [IPv6 address or a port out of range raises
        except ValueError:
            raise ValueError(
                "DATABASE_URL is not a valid URL (e.g. postgresql://user:password@host:5432/db; "
                "an IPv6 host goes in brackets: [::1])"
            ) from None
        return value

    @field_validator("discord_api_url")
    @classmethod
    def _http_url(cls, value: str | None) -> str | None:
        if value is not None and not value.startswith(("http://", "https://")):
            raise ValueError(
                "DISCORD_API_URL must start with http:// or https:// (e.g. "
                "http://proxy:8080/api/v10), or leave it empty for Discord's"
            )
        return value.rstrip("/") if value is not None else None

    @field_validator("activity_public_url")
    @classmethod
    def _https_url(cls, value: str | None) -> str | None:
        if value is not None and not value.startswith("https://"):
            raise ValueError(
                "ACTIVITY_PUBLIC_URL must start with https:// (Discord's proxy reaches the "
                "Activity over HTTPS), or leave it empty"
            )
        return value.rstrip("/") if value is not None else None

    @field_validator("owner_ids", mode="before")
    @classmethod
    def _user_ids(cls, value: object) -> object:
        if isinstance(value, str):
            try:
                return frozenset(int(part) for part in value.split(",") if part.strip())
            except ValueError:
                raise ValueError(f"{value!r} is not a list of user ids like 123,456") from None
        return value

    @field_validator("shard_ids", mode="before")
    @classmethod
    def _comma_separated(cls, value: object) -> object:
        if isinstance(value, str):
            try:
                return tuple(int(part) for part in value.split(",") if part.strip())
            except ValueError:
                raise ValueError(f"{value!r} is not a list of shard numbers like 0,1") from None
        return value

    @model_validator(mode="after")
    def _shards_fit(self) -> Settings:
        if self.shard_ids is not None and self.shard_count is None:
            raise ValueError("SHARD_IDS needs SHARD_COUNT (the total number of shards)")
        try:
            partition = self.partition
        except StoreError as error:
            raise ValueError(str(error).rstrip(".")) from None
        if partition is not None and not partition.whole and self.database_url is None:
            raise ValueError(
                f"this process would serve only {partition}: several processes share one "
                "PostgreSQL database, so set DATABASE_URL (an SQLite file serves one process)"
            )
        if self.activity_enabled and self.discord_token and self.discord_client_secret is None:
            raise ValueError(
                "ACTIVITY_ENABLED needs DISCORD_CLIENT_SECRET (the Developer Portal's OAuth2 "
                "page) to know who opens the table"
            )
        return self

    @property
    def partition(self) -> Partition | None:
        """The shards this process serves (None: no SHARD_COUNT, one process, every guild)."""
        if self.shard_count is None:
            return None
        return Partition(self.shard_count, self.shard_ids or tuple(range(self.shard_count)))

    @property
    def database(self) -> str | Path:
        """Where the store lives: the PostgreSQL URL if given, else the SQLite file."""
        if self.database_url is not None:
            return self.database_url.get_secret_value()
        return self.database_path

    @property
    def backup_folder(self) -> Path:
        return self.backup_dir or self.database_path.parent / "backups"

    @property
    def token(self) -> str | None:
        """The token as Discord wants it: the `Bot ` prefix some people paste along is dropped."""
        value = self.discord_token.get_secret_value().strip() if self.discord_token else ""
        if value[:4].lower() == "bot ":
            value = value[4:].strip()
        return value or None


def load_settings() -> Settings:
    return Settings()
