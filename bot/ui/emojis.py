"""Card pictures as application emojis, uploaded once and reused at every later start.

They are drawn by `bot.pictures.card_faces`; the application keeps them, up to 2,000, usable in
every server without any permission.

Two sets: the two-colour deck's 54 pictures (52 cards, the joker, the back; `ct1_QS`) and the
four-colour deck's 26 pictures that differ from them (♦ blue, ♣ green; `ct4_7D`): 80 emojis,
far within Discord's 2,000 per application.

`load` runs in the background after the bot starts: until it has every card, or when Discord
refuses an upload, cards are written as text. The renderers get the emojis at once, complete
(`bot.render.card_text.use_pictures`), so no message mixes pictures and text. Should only the
four-colour set be refused, players who chose it see the two-colour pictures.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any

import discord

from bot.pictures.card_faces import (
    BACK,
    CARD_NAMES,
    FOUR_COLOUR_NAMES,
    FOUR_COLOURS,
    TWO_COLOURS,
    Deck,
    face_png,
)
from bot.render.card_text import use_pictures

log = logging.getLogger(__name__)

# The version is part of the name: a new drawing style uploads new emojis instead of reusing
# the old pictures.
PREFIX = "ct1_"
FOUR_COLOUR_PREFIX = "ct4_"
PICTURES: tuple[str, ...] = (*CARD_NAMES, BACK)
FOUR_COLOUR_PICTURES: tuple[str, ...] = FOUR_COLOUR_NAMES  # ♦ and ♣: the others are shared
EMOJIS = len(PICTURES) + len(FOUR_COLOUR_PICTURES)  # what the bot keeps in the application
APPLICATION_EMOJIS = 2000  # Discord's limit per application
assert EMOJIS <= APPLICATION_EMOJIS


def emoji_name(picture: str, deck: Deck = TWO_COLOURS) -> str:
    """`QS` -> `ct1_QS`, `back` -> `ct1_back`; four colours: `7D` -> `ct4_7D` (2-32 letters,
    digits or underscores)."""
    return (FOUR_COLOUR_PREFIX if deck == FOUR_COLOURS else PREFIX) + picture


class CardEmojis:
    def __init__(self) -> None:
        self.markup: dict[str, str] = {}  # picture name -> `<:ct1_QS:id>`; empty: text
        self.four_colours: dict[str, str] = {}  # ♦ and ♣ -> `<:ct4_7D:id>`; empty: two-colour
        self.done = asyncio.Event()  # set when `load` is over, with pictures or without

    async def load(self, client: discord.Client) -> bool:
        """Fetch the pictures, upload the missing ones; True when cards now show as pictures."""
        try:
            found = await self._upload_missing(client, PICTURES, TWO_COLOURS)
        except discord.HTTPException as error:
            log.warning("card pictures unavailable, cards stay text: %s", error)
            self.done.set()
            return False
        try:
            four = await self._upload_missing(client, FOUR_COLOUR_PICTURES, FOUR_COLOURS)
        except discord.HTTPException as error:
            log.warning("four-colour card pictures unavailable, two-colour ones shown: %s", error)
            four = {}
        finally:
            self.done.set()
        self.markup.update(found)
        self.four_colours.update(four)
        use_pictures(self.markup, self.four_colours)
        log.info("card pictures ready (%d emojis)", len(found) + len(four))
        return True

    async def _upload_missing(
        self, client: discord.Client, pictures: tuple[str, ...], deck: Deck
    ) -> dict[str, str]:
        existing: dict[str, Any] = {e.name: e for e in await client.fetch_application_emojis()}
        found: dict[str, str] = {}
        for picture in pictures:
            name = emoji_name(picture, deck)
            emoji = existing.get(name)
            if emoji is None:
                image = await asyncio.to_thread(face_png, picture, deck)
                try:
                    emoji = await client.create_application_emoji(name=name, image=image)
                except discord.HTTPException:
                    # Another process of the bot (another shard starting at the same time)
                    # may have uploaded it meanwhile: the name is then taken, and theirs is used.
                    existing = {e.name: e for e in await client.fetch_application_emojis()}
                    emoji = existing.get(name)
                    if emoji is None:
                        raise
            found[picture] = str(emoji)
        return found
