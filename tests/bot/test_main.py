from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest


def test_python_m_bot_without_token_says_what_is_missing(tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items() if k != "DISCORD_TOKEN"}
    root = Path(__file__).resolve().parents[2]
    env["PYTHONPATH"] = str(root)
    proc = subprocess.run(
        [sys.executable, "-m", "bot"], cwd=tmp_path, env=env, capture_output=True, text=True
    )
    assert proc.returncode != 0
    assert "DISCORD_TOKEN" in proc.stderr and ".env.example" in proc.stderr
    assert "--local" in proc.stderr  # the way to play without Discord
    assert "Traceback" not in proc.stderr
    assert len(proc.stderr.strip().splitlines()) == 1


def test_env_example_copied_with_only_a_token_loads(tmp_path: Path, monkeypatch) -> None:
    from bot.settings import load_settings

    root = Path(__file__).resolve().parents[2]
    example = (root / ".env.example").read_text()
    (tmp_path / ".env").write_text(example.replace("DISCORD_TOKEN=\n", "DISCORD_TOKEN=abc\n"))
    monkeypatch.chdir(tmp_path)
    for name in ("DISCORD_TOKEN", "DATABASE_PATH", "DATABASE_URL", "DEV_GUILD_ID", "LOG_LEVEL"):
        monkeypatch.delenv(name, raising=False)
    settings = load_settings()
    assert settings.token == "abc"
    assert settings.dev_guild_id is None
    assert str(settings.database_path) == "data/cardtable.sqlite3"
    assert settings.database == settings.database_path  # no DATABASE_URL: SQLite


def test_database_url_selects_postgresql_and_a_wrong_scheme_is_refused(monkeypatch) -> None:
    from pydantic import ValidationError

    from bot.settings import Settings

    url = "postgresql://bot:secret@db.example:5432/cards"
    assert Settings(_env_file=None, DATABASE_URL=url).database == url
    assert "secret" not in repr(Settings(_env_file=None, DATABASE_URL=url))
    with pytest.raises(ValidationError, match="must start with postgresql://"):
        Settings(_env_file=None, DATABASE_URL="mysql://bot@db/cards")
    for broken in ("postgresql://u@[::1", "postgresql://u:pw@host:99999/db"):
        with pytest.raises(ValidationError, match="is not a valid URL") as caught:
            Settings(_env_file=None, DATABASE_URL=broken)
        assert "pw@" not in str(caught.value)


def test_python_m_bot_with_a_broken_database_url_answers_one_sentence(tmp_path: Path) -> None:
    env = {**os.environ, "DATABASE_URL": "postgresql://u@[::1", "DISCORD_TOKEN": "x"}
    env["PYTHONPATH"] = str(Path(__file__).resolve().parents[2])
    run = [sys.executable, "-m", "bot"]
    answer = subprocess.run(run, cwd=tmp_path, env=env, capture_output=True, text=True)
    assert answer.returncode == 2 and "Traceback" not in answer.stderr
    assert answer.stderr.strip().startswith("Invalid setting DATABASE_URL: DATABASE_URL is not")
    assert answer.stderr.count("\n") == 1


def test_every_setting_is_listed_in_env_example() -> None:
    from bot.settings import Settings

    root = Path(__file__).resolve().parents[2]
    example = (root / ".env.example").read_text()
    for field in Settings.model_fields.values():
        assert f"\n{field.alias}=" in f"\n{example}"


def test_a_token_pasted_with_its_bot_prefix_works(monkeypatch) -> None:
    from bot.settings import Settings

    monkeypatch.setenv("DISCORD_TOKEN", "  Bot abc.def.ghi ")
    assert Settings(_env_file=None).token == "abc.def.ghi"  # type: ignore[call-arg]


def test_an_invalid_log_level_is_refused_in_one_clear_line(tmp_path: Path) -> None:
    env = {**os.environ, "DISCORD_TOKEN": "abc", "LOG_LEVEL": "verbose"}
    env["PYTHONPATH"] = str(Path(__file__).resolve().parents[2])
    proc = subprocess.run(
        [sys.executable, "-m", "bot"], cwd=tmp_path, env=env, capture_output=True, text=True
    )
    assert proc.returncode == 2
    assert proc.stderr.strip().splitlines() == [
        "Invalid setting LOG_LEVEL: 'verbose' is not a log level: use one of DEBUG, INFO, "
        "WARNING, ERROR, CRITICAL (see .env.example)."
    ]


def test_starting_the_bot_shows_no_voice_library_deprecation(tmp_path: Path) -> None:
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[2])}
    proc = subprocess.run(
        [sys.executable, "-W", "default", "-c", "import bot.app"],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
    )
    assert proc.returncode == 0
    assert "audioop" not in proc.stderr and "Warning" not in proc.stderr


def test_the_run_command_without_a_token_starts_the_local_table(tmp_path: Path) -> None:
    """`make run` with no token: the local table starts, says where, and stops on Ctrl-C."""
    from tests.bot.local.browser import LocalTable

    table = LocalTable(tmp_path, arguments=("--local-without-token",))
    table.start()
    table.stop()
    first = next(line for line in table.output if "playing locally" in line)
    assert first.strip() == (
        f"No DISCORD_TOKEN: playing locally at http://127.0.0.1:{table.port}/?key={table.key} — "
        "put a token "
        "in .env to connect to Discord"
    )
    assert table.returncode == 0 and not table.errors()
    assert (tmp_path / "cardtable.local.json").exists()  # the Discord side was saved


def test_makefile_run_target_uses_the_local_table_when_there_is_no_token() -> None:
    root = Path(__file__).resolve().parents[2]
    assert "python -m bot --local-without-token" in (root / "Makefile").read_text()
    assert (root / "Procfile").read_text().strip() == "worker: python -m bot"


def test_shard_settings_give_the_process_its_partition() -> None:
    from bot.settings import Settings
    from storage.partition import Partition

    url = "postgresql://bot@db/cards"
    assert Settings(_env_file=None).partition is None  # one process, every guild
    both = Settings(_env_file=None, SHARD_COUNT="2", SHARD_IDS="0,1")  # SQLite is fine: all
    assert both.partition == Partition(2, (0, 1))
    one = Settings(_env_file=None, SHARD_COUNT="4", SHARD_IDS=" 3 ", DATABASE_URL=url)
    assert one.partition == Partition(4, (3,))


@pytest.mark.parametrize(
    ("env", "message"),
    [
        ({"SHARD_COUNT": "2", "SHARD_IDS": "1"}, "set DATABASE_URL"),
        ({"SHARD_IDS": "0"}, "SHARD_IDS needs SHARD_COUNT"),
        ({"SHARD_COUNT": "2", "SHARD_IDS": "0,2", "DATABASE_URL": "postgresql://d"}, "below"),
        ({"SHARD_COUNT": "2", "SHARD_IDS": "zero"}, "list of shard numbers"),
    ],
)
def test_bad_shard_settings_say_what_to_fix(env: dict[str, str], message: str) -> None:
    from pydantic import ValidationError

    from bot.settings import Settings

    with pytest.raises(ValidationError, match=message):
        Settings(_env_file=None, **env)


def test_a_sharded_bot_connects_only_its_shards() -> None:
    from discord.ext import commands

    from bot.app import create_bot
    from bot.settings import Settings

    settings = Settings(
        _env_file=None, SHARD_COUNT="3", SHARD_IDS="1,2", DATABASE_URL="postgresql://d"
    )
    bot = create_bot(settings, sync_commands=False)
    assert isinstance(bot, commands.AutoShardedBot)
    assert (bot.shard_count, bot.shard_ids) == (3, [1, 2])
    assert not isinstance(create_bot(Settings(_env_file=None)), commands.AutoShardedBot)


def test_discord_api_url_points_the_bot_elsewhere_and_must_be_http() -> None:
    from pydantic import ValidationError

    from bot.settings import Settings

    proxy = Settings(_env_file=None, DISCORD_API_URL="http://proxy:8080/api/v10/")
    assert proxy.discord_api_url == "http://proxy:8080/api/v10"
    assert Settings(_env_file=None).discord_api_url is None  # Discord's own
    with pytest.raises(ValidationError, match="DISCORD_API_URL must start with http"):
        Settings(_env_file=None, DISCORD_API_URL="proxy:8080")
