"""What the admin reads in the console of the local table: only what is true."""

from __future__ import annotations

from pathlib import Path

from tests.bot.local.browser import LocalTable


def test_the_local_table_without_a_token_prints_no_discord_py_login_line(tmp_path: Path) -> None:
    """`make run` without a token says "No DISCORD_TOKEN: playing locally": discord.py's
    "logging in using static token" just before it would say otherwise (the token is the
    local server's own)."""
    table = LocalTable(tmp_path, arguments=("--local-without-token",), log_level="INFO")
    table.start()
    table.stop()
    console = "".join(table.output)
    assert "No DISCORD_TOKEN: playing locally at http://127.0.0.1:" in console
    assert "static token" not in console, console
    assert table.returncode == 0 and not table.errors(), console
