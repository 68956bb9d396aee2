"""The coach's Hint button on a coached table's "My cards".

It answers in a fresh private message with the strong bot's move now and why, and the hand's
picture with the cards it uses set apart.

The hint is found by a bot worker (`TableService.hint`); every refusal (not seated, no coach
here, an earlier round's button, not the player's turn, the game moved on meanwhile, the
workers too busy) is one sentence."""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any

import discord

from bot.i18n import language_of
from bot.render.hint import render_hint
from bot.runtime.pool_terms import ChoreFailed
from bot.service.errors import TableError
from bot.ui.custom_ids import ComponentId
from bot.ui.layout import shown_as
from bot.ui.timing import within_deadline

if TYPE_CHECKING:
    from bot.ui.controller import TableController

log = logging.getLogger(__name__)


async def answer_hint(
    controller: TableController, interaction: discord.Interaction[Any], component: ComponentId
) -> None:
    """Answer a Hint click (a `TableError` raised here is the controller's one sentence)."""
    service, bot = controller.service, controller.bot
    table_id, user_id = component.table_id, interaction.user.id
    try:
        _seat, hint = await within_deadline(
            service.hint(table_id, user_id, component.round_no),
            lambda: interaction.response.defer(ephemeral=True, thinking=True),
        )
    except ChoreFailed as failure:
        log.warning("a hint at table %s was not found: %s", table_id, failure.reason)
        raise TableError("coach.busy") from failure
    private = await service.play.follow_view(table_id, user_id)
    if private is None:
        raise TableError("not_seated")
    language = language_of(interaction.locale)
    public = service.public_snapshot(table_id)
    rendered = render_hint(private, public, hint, language, bot.decks.of(user_id))
    pictures = bot.pictures
    cards = pictures.answer(None, rendered)  # the hand's picture now if drawn, else after
    files = cards.attachments or []
    shown = shown_as(rendered, cards.embed)  # a Components V2 message, as "My cards"
    if interaction.response.is_done():
        sent = await interaction.followup.send(**shown, ephemeral=True, wait=True, files=files)
        key = sent.id
    else:
        response = await interaction.response.send_message(**shown, ephemeral=True, files=files)
        key = response.message_id or interaction.id
    pictures.posted(key, rendered, cards)
    controller._picture_after(interaction, key, cards)
