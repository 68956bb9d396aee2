"""`/deck [colours] [auto_play] [auto_knock]`: a player's own choices.

They are the same in every server and kept across restarts: the deck their own messages draw
cards in, two colours (♥ ♦ red, ♠ ♣ black) or four (♦ blue, ♣ green too); whether a card that is
their only legal move is played for them after a moment (`auto_play`, on by default, in a game
that allows it); whether the knock is made for them before their discard when their hand could
go out next turn (`auto_knock`, off by default). Without an option it says what they chose.
Answered to the player alone, in their language.

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
from bot.pictures.card_faces import FOUR_COLOURS, TWO_COLOURS, Deck
from bot.render.card_text import in_deck, shown
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
        ),
        auto_play=command_text(
            "A card that is your only legal play is played for you after 2 seconds",
            "cmd.deck.auto_play",
        ),
        auto_knock=command_text(
            "The knock made for you before your discard when your hand could go out next turn",
            "cmd.deck.auto_knock",
        ),
    )
    @app_commands.rename(
        colours=command_text("colours", "cmd.param.colours"),
        auto_play=command_text("auto_play", "cmd.param.auto_play"),
        auto_knock=command_text("auto_knock", "cmd.param.auto_knock"),
    )
    @app_commands.choices(colours=DECK_CHOICES)
    async def deck(
        self,
        interaction: discord.Interaction,
        colours: str | None = None,
        auto_play: bool | None = None,
        auto_knock: bool | None = None,
    ) -> None:
        language = user_language(interaction)
        user_id = interaction.user.id
        before = self.bot.choices.of(user_id).model_copy(
            update={"deck": self.bot.decks.of(user_id)}
        )
        if colours is None and auto_play is None and auto_knock is None:
            await say(interaction, choices_text(language, "deck.shown", before))
            return
        changes: dict[str, object] = {}
        if colours is not None:
            # the command tree answers any other value before this runs (one of the choices)
            changes["deck"] = FOUR_COLOURS if colours == FOUR_COLOURS else TWO_COLOURS
        if auto_play is not None:
            changes["auto_play"] = auto_play
        if auto_knock is not None:
            changes["auto_knock"] = auto_knock
        chosen = PlayerPreferences.model_validate(before.model_dump() | changes)
        try:
            await self.bot.store.save_player_preferences(chosen)
        except StoreError:
            log.exception("saving a player's choices failed")
            await say(interaction, text(language, "error.unknown"))
            return
        self.bot.decks.chose(user_id, chosen.deck)
        self.bot.choices.chose(chosen)
        key = "deck.chosen" if colours is not None else "deck.shown"
        await say(interaction, choices_text(language, key, chosen))


def choices_text(language: str, key: str, chosen: PlayerPreferences) -> str:
    """The deck's sentence (`key`) with its aces, then the play choices."""

    def on_off(value: bool) -> str:
        return text(language, "deck.on" if value else "deck.off")

    play = text(
        language,
        "deck.play_choices",
        auto_play=on_off(chosen.auto_play),
        auto_knock=on_off(chosen.auto_knock),
    )
    return f"{deck_line(language, key, chosen.deck)}\n{play}"
