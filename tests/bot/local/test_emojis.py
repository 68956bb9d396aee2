"""Application emojis: discord.py uploads, lists and deletes them as on Discord; the local
server applies Discord's rules, keeps them across restarts, and the page serves their pictures."""

from __future__ import annotations

import base64
import struct
import zlib
from pathlib import Path

import aiohttp
import discord
import pytest

from bot.local.emojis import MAX_BYTES, ApplicationEmojis, EmojiRefused
from bot.local.page import LocalPage
from bot.local.server import LocalDiscord, running_client
from bot.local.state import StateFile


def png(width: int = 2, height: int = 2) -> bytes:
    """A tiny valid PNG (grey pixels), built by hand: no imaging library needed."""

    def chunk(kind: bytes, data: bytes) -> bytes:
        body = kind + data
        return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body))

    rows = b"".join(b"\x00" + b"\x80" * width for _ in range(height))
    header = struct.pack(">IIBBBBB", width, height, 8, 0, 0, 0, 0)
    return (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", header)
        + chunk(b"IDAT", zlib.compress(rows))
        + chunk(b"IEND", b"")
    )


async def test_a_discord_py_client_uploads_lists_and_deletes_application_emojis(
    fake_discord: LocalDiscord,
) -> None:
    client = discord.Client(intents=discord.Intents.none())
    async with running_client(client):
        created = await client.create_application_emoji(name="card_back", image=png())
        assert created.name == "card_back" and str(created).startswith("<:card_back:")
        with pytest.raises(discord.HTTPException) as taken:
            await client.create_application_emoji(name="card_back", image=png())
        assert taken.value.code == 50035
        listed = await client.fetch_application_emojis()
        assert [e.id for e in listed] == [created.id]
        await created.delete()
        assert await client.fetch_application_emojis() == []


def test_emoji_names_formats_and_sizes_follow_discord_s_rules() -> None:
    emojis = ApplicationEmojis(iter(range(1, 100)).__next__)
    image = "data:image/png;base64," + base64.b64encode(png()).decode()
    for payload, code in (
        ({"name": "x", "image": image}, 50035),  # names are 2-32 characters
        ({"name": "ace-of-spades", "image": image}, 50035),  # letters, digits, _ only
        ({"name": "ace", "image": "data:image/webp;base64,AAAA"}, 50035),
        ({"name": "ace", "image": "data:image/png;base64," + "A" * (MAX_BYTES * 2)}, 50045),
    ):
        with pytest.raises(EmojiRefused) as refused:
            emojis.create(payload)
        assert refused.value.code == code
    assert emojis.create({"name": "ace", "image": image}).id == 1


async def test_the_page_serves_an_emoji_s_picture_and_it_survives_a_restart(
    tmp_path: Path,
) -> None:
    before = LocalDiscord()
    image = "data:image/png;base64," + base64.b64encode(png()).decode()
    emoji = before.emojis.create({"name": "ace", "image": image})
    StateFile(tmp_path / "state.json", before, {}).save()

    after = LocalDiscord()
    StateFile(tmp_path / "state.json", after, {}).load()
    page = LocalPage(after, {})
    await after.start(extend=page.install)
    try:
        async with aiohttp.ClientSession(f"http://127.0.0.1:{after.port}") as session:
            async with session.get(f"/emojis/{emoji.id}.png") as response:
                assert response.status == 200 and response.content_type == "image/png"
                assert await response.read() == png()
            async with session.get("/emojis/42.png") as response:
                assert response.status == 404
    finally:
        await page.close()
        await after.stop()
    assert after.new_id() > emoji.id
