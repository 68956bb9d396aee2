"""What the admin reads in the console of the local table: only what is true."""

from __future__ import annotations

import socket
from http.cookiejar import CookieJar
from pathlib import Path
from urllib.request import HTTPCookieProcessor, build_opener

from tests.bot.local.browser import LocalTable, free_port


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


def test_a_table_given_taken_ports_starts_again_on_free_ones(tmp_path: Path) -> None:
    """The tests' local table given ports another process holds (as another test's server
    can take one between its probe and the table's bind) starts on other ports, its page and
    its Activity both listening."""
    with socket.socket() as page_port, socket.socket() as activity_port:
        for taken in (page_port, activity_port):
            taken.bind(("127.0.0.1", 0))
            taken.listen()
        ports = (page_port.getsockname()[1], activity_port.getsockname()[1])
        for given in ((ports[0], free_port()), (free_port(), ports[1])):
            table = LocalTable(tmp_path / str(given[0]), port=given[0], activity_port=given[1])
            table.folder.mkdir()
            table.start()
            try:
                assert (table.port, table.activity_port) != given
                assert table.port not in ports and table.activity_port not in ports
                opener = build_opener(HTTPCookieProcessor(CookieJar()))
                with opener.open(table.entry_url(), timeout=10) as page:
                    assert page.status == 200
                with socket.create_connection(("127.0.0.1", table.activity_port), timeout=10):
                    pass  # the Activity listens
            finally:
                table.stop()
            assert not table.errors(), "".join(table.output)
