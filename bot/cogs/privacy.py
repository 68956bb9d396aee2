"""`/privacy show` and `/privacy forget`: what the bot keeps about a player, and forgetting them.

`show` gives a summary and a file; `forget` asks for a confirmation first. Answers go to the
player alone.

Discord does not let a command that has subcommands run by itself, so the two are `show` and
`forget` of one group (`/confidentialité voir|oublier` in French)."""

from __future__ import annotations

import io
import json
import logging
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.i18n import text
from bot.i18n.translator import command_text
from bot.pictures.card_faces import DECKS
from bot.ui.replies import say, user_language
from storage.errors import StoreError
from storage.privacy import StillSeated, UserData

if TYPE_CHECKING:
    from bot.app import CardTableBot

log = logging.getLogger(__name__)


def data_file(data: UserData) -> discord.File:
    body = json.dumps(data.model_dump(mode="json"), ensure_ascii=False, indent=2)
    return discord.File(io.BytesIO(body.encode()), filename=f"cardtable-data-{data.user_id}.json")


def summary(language: str, data: UserData) -> str:
    if data.empty:
        return text(language, "privacy.nothing")
    guilds = {s.guild_id for s in data.seats} | {m.guild_id for m in data.matches}
    hands = sum(len(m.round_points) for m in data.matches)
    lines = [
        text(language, "privacy.title"),
        text(
            language,
            "privacy.matches",
            count=len(data.matches),
            hands=hands,
            servers=len(guilds),
            seats=len(data.seats),
        ),
        text(language, "privacy.ratings", count=len(data.ratings)),
        *_season_line(language, data),
        text(language, "privacy.names", names=", ".join(data.names) or "—"),
        *_deck_line(language, data),
        text(language, "privacy.file"),
        text(language, "privacy.how_to_forget"),
    ]
    return "\n".join(lines)


def _season_line(language: str, data: UserData) -> list[str]:
    """Their places on season boards, if the servers they played in run seasons."""
    places = len(data.extra.get("season_stats", []))
    return [text(language, "privacy.season_places", count=places)] if places else []


def _deck_line(language: str, data: UserData) -> list[str]:
    """The player's `/deck` choices (the deck, forced cards, the knock), if they made any."""
    lines = []
    for row in data.extra.get("player_preferences", []):
        if row.get("deck") in DECKS:
            lines.append(
                text(language, "privacy.deck", deck=text(language, f"deck.name.{row['deck']}"))
            )
        lines.append(
            text(
                language,
                "privacy.play_choices",
                auto_play=text(language, "deck.on" if row.get("auto_play", 1) else "deck.off"),
                auto_knock=text(language, "deck.on" if row.get("auto_knock") else "deck.off"),
            )
        )
    return lines


class ForgetButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"privacy:(?P<action>forget|cancel):(?P<user_id>[0-9]{1,20})",
):
    """ "Forget me" or "Cancel" under the confirmation: its meaning is in its custom id, so it
    still answers after a restart, and only for the player who asked."""

    def __init__(self, action: str, user_id: int, label: str = "") -> None:
        style = discord.ButtonStyle.danger if action == "forget" else discord.ButtonStyle.secondary
        super().__init__(
            discord.ui.Button(
                style=style, label=label or action, custom_id=f"privacy:{action}:{user_id}"
            )
        )
        self.action = action
        self.user_id = user_id

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: Any, /
    ) -> ForgetButton:
        return cls(match["action"], int(match["user_id"]))

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        language = user_language(interaction)
        if interaction.user.id != self.user_id:
            await say(interaction, text(language, "privacy.not_yours"))
            return
        cog = interaction.client.get_cog("privacy")
        if self.action == "cancel" or not isinstance(cog, PrivacyCog):
            await interaction.response.edit_message(
                content=text(language, "privacy.forget.cancelled"), view=None
            )
            return
        await cog.forget(interaction)


def confirmation(language: str, user_id: int) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    view.add_item(ForgetButton("forget", user_id, text(language, "privacy.forget.confirm")))
    view.add_item(ForgetButton("cancel", user_id, text(language, "privacy.forget.cancel")))
    return view


class PrivacyCog(
    commands.GroupCog,
    name="privacy",
    group_name=command_text("privacy", "cmd.privacy"),
    group_description=command_text(
        "What the bot keeps about you, and forgetting it", "cmd.privacy.desc"
    ),
):
    def __init__(self, bot: CardTableBot) -> None:
        self.bot = bot
        self._forgetting: set[int] = set()  # users whose forget is running (a double click)
        super().__init__()

    @app_commands.command(
        name=command_text("show", "cmd.privacy.show"),
        description=command_text(
            "See what the bot keeps about you and download it", "cmd.privacy.show.desc"
        ),
    )
    async def show(self, interaction: discord.Interaction) -> None:
        language = user_language(interaction)
        await interaction.response.defer(ephemeral=True, thinking=True)
        try:
            data = await self.bot.store.user_data(interaction.user.id)
        except StoreError:
            log.exception("reading the data of user %s failed", interaction.user.id)
            await say(interaction, text(language, "error.unknown"))
            return
        if data.empty:
            await interaction.followup.send(summary(language, data), ephemeral=True)
            return
        await interaction.followup.send(
            summary(language, data), file=data_file(data), ephemeral=True
        )

    @app_commands.command(
        name=command_text("forget", "cmd.privacy.forget"),
        description=command_text(
            "Remove your name and Discord id from everything the bot keeps",
            "cmd.privacy.forget.desc",
        ),
    )
    async def forget_command(self, interaction: discord.Interaction) -> None:
        language = user_language(interaction)
        await interaction.response.send_message(
            text(language, "privacy.forget.ask"),
            view=confirmation(language, interaction.user.id),
            ephemeral=True,
        )

    async def forget(self, interaction: discord.Interaction[Any]) -> None:
        """Carry out a confirmed forget; the confirmation message says how it went."""
        language = user_language(interaction)
        user_id = interaction.user.id
        if user_id in self._forgetting:
            await say(interaction, text(language, "privacy.forget.already"))
            return
        self._forgetting.add(user_id)
        try:
            kept = await self.bot.store.forget_user(user_id)
        except StillSeated:
            message = text(language, "privacy.forget.seated")
        except StoreError:
            log.exception("forgetting user %s failed", user_id)
            message = text(language, "error.unknown")
        else:
            self.bot.decks.forget(user_id)  # their deck was kept with the rest
            self.bot.choices.forget(user_id)  # and so were their play choices
            log.info("a user was forgotten at their request (%s matches)", len(kept.matches))
            key = "privacy.nothing" if kept.empty else "privacy.forget.done"
            message = text(language, key, count=len(kept.matches))
        finally:
            self._forgetting.discard(user_id)
        await interaction.response.edit_message(content=message, view=None)
