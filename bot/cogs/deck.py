"""`/deck [colours]`: the deck a player's own messages draw cards in, two colours (♥ ♦ red,
♠ ♣ black) or four (♦ blue, ♣ green too), the same in every server and kept across restarts.
Without a choice it says which deck the player has. Answered to the player alone, in their
language.

What the player sees privately follows the choice: their "My cards" message (its cards, its
picture, its buttons' emojis, the cards a rule shows them), the replays and reviews they open.
A table message is shared by every player at the table: it stays in two colours.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.app_commands import Choice
from discord.ext import commands

from bot.i18n import text
from bot.i18n.translator import command_text
from bot.pictures.cards import FOUR_COLOURS, TWO_COLOURS, Deck
from bot.render.cards import in_deck, shown
from bot.ui.replies import say, user_language
from storage.errors import StoreError
from storage.models import PlayerPreferences

if TYPE_CHECKING:
    from bot.app import CardTableBot

log = logging.getLogger(__name__)

DECK_CHOICES = [
    Choice(
        name=command_text("Four colours (♦ blue, ♣ green)", "deck.choice.four"),
        value=FOUR_COLOURS,
    ),
    Choice(
        name=command_text("Two colours (♥ ♦ red, ♠ ♣ black)", "deck.choice.two"),
        value=TWO_COLOURS,
    ),
]
SAMPLE = ("AS", "AH", "AD", "AC")  # an ace of each suit, to see the deck's colours


def deck_line(language: str, key: str, deck: Deck) -> str:
    """The sentence, then an ace of each suit shown in that deck."""
    with in_deck(deck):
        sample = " ".join(shown(card) for card in SAMPLE)
    return f"{text(language, key, deck=text(language, f'deck.name.{deck}'))}\n{sample}"


class DeckCog(commands.Cog):
    def __init__(self, bot: CardTableBot) -> None:
        self.bot = bot

    @app_commands.command(
        name=command_text("deck", "cmd.deck"),
        description=command_text(
            "Your cards in two colours or four (♦ blue, ♣ green)", "cmd.deck.desc"
        ),
    )
    @app_commands.describe(
        colours=command_text(
            "Two or four colours (without it: the deck you have)", "cmd.deck.colours"
        )
    )
    @app_commands.rename(colours=command_text("colours", "cmd.param.colours"))
    @app_commands.choices(colours=DECK_CHOICES)
    async def deck(self, interaction: discord.Interaction, colours: str | None = None) -> None:
        language = user_language(interaction)
        user_id = interaction.user.id
        if colours is None:
            await say(interaction, deck_line(language, "deck.shown", self.bot.decks.of(user_id)))
            return
        # the command tree answers any other value before this runs (one of the choices)
        chosen: Deck = FOUR_COLOURS if colours == FOUR_COLOURS else TWO_COLOURS
        try:
            await self.bot.store.save_player_preferences(
                PlayerPreferences(user_id=user_id, deck=chosen)
            )
        except StoreError:
            log.exception("saving a player's deck failed")
            await say(interaction, text(language, "error.unknown"))
            return
        self.bot.decks.chose(user_id, chosen)
        await say(interaction, deck_line(language, "deck.chosen", chosen))
