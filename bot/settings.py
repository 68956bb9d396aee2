"""Settings from the environment and `.env` (see .env.example for every variable)."""

from __future__ import annotations

from pathlib import Path

from pydantic import Field, SecretStr
from pydantic_settings import BaseSettings, SettingsConfigDict


class Settings(BaseSettings):
    # env_ignore_empty: `.env.example` copied as-is leaves optional variables empty
    # (`DEV_GUILD_ID=`), which means "not set", not an invalid value.
    model_config = SettingsConfigDict(
        env_file=".env", env_file_encoding="utf-8", extra="ignore", env_ignore_empty=True
    )

    discord_token: SecretStr | None = Field(default=None, alias="DISCORD_TOKEN")
    database_path: Path = Field(default=Path("data/cardtable.sqlite3"), alias="DATABASE_PATH")
    dev_guild_id: int | None = Field(default=None, alias="DEV_GUILD_ID")
    log_level: str = Field(default="INFO", alias="LOG_LEVEL")

    @property
    def token(self) -> str | None:
        value = self.discord_token.get_secret_value().strip() if self.discord_token else ""
        return value or None


def load_settings() -> Settings:
    return Settings()
