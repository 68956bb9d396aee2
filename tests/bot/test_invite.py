from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from bot.invite import PERMISSIONS, application_id_from_token, invite_url

ROOT = Path(__file__).resolve().parents[2]


def test_the_invite_asks_for_exactly_the_permissions_the_readme_names() -> None:
    assert PERMISSIONS.value == 377957174272
    assert {name for name, on in PERMISSIONS if on} == {
        "read_messages",  # discord.py's name of View Channels
        "send_messages",
        "send_messages_in_threads",
        "embed_links",
        "attach_files",
        "create_public_threads",
        "create_private_threads",
    }
    url = invite_url(1234)
    assert "client_id=1234" in url and "permissions=377957174272" in url
    assert "scope=bot+applications.commands" in url
    assert url in (ROOT / "README.md").read_text().replace("APPLICATION_ID", "1234")


def test_the_application_id_is_read_from_the_token() -> None:
    assert application_id_from_token("MTIzNDU2Nzg5MDEyMzQ1Njc4.abc.def") == 123456789012345678
    assert application_id_from_token("not a token") is None


def test_python_m_bot_invite_prints_the_link(tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items() if k != "DISCORD_TOKEN"}
    env["PYTHONPATH"] = str(ROOT)
    run = [sys.executable, "-m", "bot", "invite"]
    given = subprocess.run([*run, "42"], cwd=tmp_path, env=env, capture_output=True, text=True)
    assert given.stdout.strip() == invite_url(42)
    missing = subprocess.run(run, cwd=tmp_path, env=env, capture_output=True, text=True)
    assert missing.returncode == 2 and "APPLICATION_ID" in missing.stderr


def test_a_unicode_digit_is_no_application_id(tmp_path: Path) -> None:
    """`²` is a digit to str.isdigit() but no number to int(): one sentence, no traceback."""
    assert application_id_from_token("wrI.abc.def") is None  # "wrI" decodes to "²"
    env = {k: v for k, v in os.environ.items() if k != "DISCORD_TOKEN"}
    env["PYTHONPATH"] = str(ROOT)
    for argument in ("²", "٣", "12a"):
        run = [sys.executable, "-m", "bot", "invite", argument]
        answer = subprocess.run(run, cwd=tmp_path, env=env, capture_output=True, text=True)
        assert answer.returncode == 2 and "Traceback" not in answer.stderr
        assert answer.stderr.count("\n") == 1 and "APPLICATION_ID" in answer.stderr
    env["DISCORD_TOKEN"] = "wrI.abc.def"
    run = [sys.executable, "-m", "bot", "invite"]
    answer = subprocess.run(run, cwd=tmp_path, env=env, capture_output=True, text=True)
    assert answer.returncode == 2 and "Traceback" not in answer.stderr
