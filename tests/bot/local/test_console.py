"""What the admin reads in the console of the local table: only what is true."""

from __future__ import annotations

from http.cookiejar import CookieJar
from pathlib import Path
from urllib.request import HTTPCookieProcessor, build_opener

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


def test_ctrl_c_at_the_local_table_stops_it_quietly_once_its_page_answers(tmp_path: Path) -> None:
    """`make run`, the page opened, the card pictures drawn, then Ctrl-C as a terminal sends
    it (to the bot and every process it started): the table stops with no traceback, no
    `KeyboardInterrupt`, and the console said only what is true."""
    table = LocalTable(
        tmp_path, arguments=("--local-without-token",), log_level="INFO", terminal=True
    )
    table.start()
    try:
        opener = build_opener(HTTPCookieProcessor(CookieJar()))  # the key, then its cookie
        with opener.open(table.entry_url(), timeout=10) as page:
            assert page.status == 200
        table.wait_for_line("card pictures ready")  # the drawing processes have drawn
    finally:
        table.stop()
    console = "".join(table.output)
    assert table.returncode == 0, console
    for untrue in ("Traceback", "KeyboardInterrupt", "static token", "Can't keep up", "ERROR"):
        assert untrue not in console, console
    assert "No DISCORD_TOKEN: playing locally at http://127.0.0.1:" in console
