"""Card pictures as application emojis: drawn by `bot.pictures.cards`, uploaded once (the
application keeps them, up to 2,000, usable in every server without any permission) and
reused at every later start.

`load` runs in the background after the bot starts: until it has every card, or when Discord
refuses an upload, cards are written as text. The renderers get the emojis at once, complete
(`bot.render.cards.use_pictures`), so no message mixes pictures and text.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any

import discord

from bot.pictures.cards import BACK, CARD_NAMES, face_png
from bot.render.cards import use_pictures

log = logging.getLogger(__name__)

# The version is part of the name: a new drawing style uploads new emojis instead of reusing
# the old pictures.
PREFIX = "ct1_"
PICTURES: tuple[str, ...] = (*CARD_NAMES, BACK)


def emoji_name(picture: str) -> str:
    """`QS` -> `ct1_QS`, `back` -> `ct1_back` (2-32 letters, digits or underscores)."""
    return PREFIX + picture


class CardEmojis:
    def __init__(self) -> None:
        self.markup: dict[str, str] = {}  # picture name -> `<:ct1_QS:id>`; empty: text
        self.done = asyncio.Event()  # set when `load` is over, with pictures or without

    async def load(self, client: discord.Client) -> bool:
        """Fetch the pictures, upload the missing ones; True when cards now show as pictures."""
        try:
            found = await self._upload_missing(client)
        except discord.HTTPException as error:
            log.warning("card pictures unavailable, cards stay text: %s", error)
            return False
        finally:
            self.done.set()
        self.markup.update(found)
        use_pictures(self.markup)
        log.info("card pictures ready (%d emojis)", len(found))
        return True

    async def _upload_missing(self, client: discord.Client) -> dict[str, str]:
        existing: dict[str, Any] = {e.name: e for e in await client.fetch_application_emojis()}
        found: dict[str, str] = {}
        for picture in PICTURES:
            emoji = existing.get(emoji_name(picture))
            if emoji is None:
                image = await asyncio.to_thread(face_png, picture)
                try:
                    emoji = await client.create_application_emoji(
                        name=emoji_name(picture), image=image
                    )
                except discord.HTTPException:
                    # Another process of the bot (another shard starting at the same time)
                    # may have uploaded it meanwhile: the name is then taken, and theirs is used.
                    existing = {e.name: e for e in await client.fetch_application_emojis()}
                    emoji = existing.get(emoji_name(picture))
                    if emoji is None:
                        raise
            found[picture] = str(emoji)
        return found
