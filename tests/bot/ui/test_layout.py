"""Game messages as Components V2: every table message and every "My cards" of whole matches
of each game (ten Dutch seats, Dame's thirteen-card hands, in both languages) keeps Discord's
limits (40 components counting nested ones, 4,000 characters across text displays, no content
nor embeds), as the local server checks them; and the layout shows what the embed showed."""

from __future__ import annotations

import random
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any

import discord
import pytest

from bot.local.layout import IS_COMPONENTS_V2
from bot.local.limits import message_errors
from bot.render.actions import ButtonSpec
from bot.render.private import render_private
from bot.render.table import RenderedMessage, render_table
from bot.service import FINISHED, ROUND_OVER, FakeClock, PlayerRef, RecordingNotifier, TableService
from bot.ui.layout import layout_components, layout_message, layout_view
from storage import Store

TARGETS = {"dutch": 30, "euchre": 5, "dame": 500}
LANGUAGES = ("en", "fr")


@pytest.fixture
async def service(tmp_path: Path) -> AsyncIterator[TableService]:
    store = await Store.open(tmp_path / "tables.sqlite3", synchronous="NORMAL")
    seeds: Iterator[int] = iter(range(11, 10_000))
    opened = TableService(store, FakeClock(), RecordingNotifier(), lambda: next(seeds))
    yield opened
    await opened.close()
    await store.close()


def v2_payload(rendered: RenderedMessage) -> dict[str, Any]:
    """What discord.py sends for the message shown as V2 (a send: flags, components)."""
    view = layout_view(rendered.embed, rendered.components)
    assert view.has_components_v2()
    return {"flags": IS_COMPONENTS_V2, "components": view.to_components()}


def assert_within_limits(rendered: RenderedMessage, where: str) -> None:
    assert message_errors(v2_payload(rendered), creating=True) == [], where


@pytest.mark.parametrize(
    ("game", "seats"), [("dutch", 10), ("dutch", 2), ("euchre", 4), ("dame", 4)]
)
async def test_every_message_of_a_whole_match_keeps_discords_v2_limits(
    service: TableService, game: str, seats: int
) -> None:
    players = [PlayerRef(500 + i, f"Player {i} with a long name") for i in range(seats)]
    opened = await service.seating.open_table(1, 10, players[0], game, target=TARGETS[game])
    table_id = opened.table_id
    for language in LANGUAGES:
        assert_within_limits(render_table(opened, language), f"{game} lobby")
    for player in players[1:]:
        await service.seating.join(table_id, player)
    await service.seating.start(table_id, players[0].user_id)
    rng = random.Random(5)
    checked = 0
    for step in range(20_000):
        await service.followup.settle(table_id)
        public = service.public_snapshot(table_id)
        language = LANGUAGES[step % 2]
        assert_within_limits(render_table(public, language), f"{game} table, step {step}")
        if public.status == FINISHED:
            break
        if public.status == ROUND_OVER:
            await service.play.next_round(table_id, players[0].user_id)
            continue
        user_id = public.seats[public.to_act[0]].user_id
        assert user_id is not None
        private = await service.play.private_view(table_id, user_id)
        rendered = render_private(private, public, language)
        assert_within_limits(rendered, f"{game} my cards, step {step}")
        checked += 1
        choice = service.bot_choice(table_id, user_id, rng)
        assert choice is not None and public.round_no is not None
        await service.play.act(table_id, user_id, public.round_no, choice)
    assert public.status == FINISHED and checked > 0


def test_the_layout_shows_the_embeds_texts_picture_and_buttons_in_one_container() -> None:
    embed = discord.Embed(title="Dutch · table 7", description="Alice to play", color=0x2E7D32)
    embed.add_field(name="Log", value="Bob swapped a card.")
    embed.set_image(url="attachment://table-1.png")
    embed.set_footer(text="2 watching")
    buttons = (ButtonSpec("ct:7:1:hand", "My cards", "primary"),)
    (container,) = layout_components(dict(embed.to_dict()), [])
    assert container["accent_color"] == 0x2E7D32
    (shown,) = layout_view(embed, buttons).to_components()
    kinds = [c["type"] for c in shown["components"]]
    assert kinds == [10, 12, 10, 10, 14, 1]
    head, gallery, body, small, _, row = shown["components"]
    assert head["content"] == "### Dutch · table 7\nAlice to play"
    assert gallery["items"] == [{"media": {"url": "attachment://table-1.png"}}]
    assert body["content"] == "**Log**\nBob swapped a card."
    assert small["content"] == "-# 2 watching"
    assert row["components"][0]["custom_id"] == "ct:7:1:hand"


def test_texts_past_4000_characters_give_way_from_the_first_fields() -> None:
    embed = discord.Embed(title="t")
    for index in range(5):
        embed.add_field(name=f"f{index}", value=str(index) * 1000)
    (container,) = layout_components(dict(embed.to_dict()), [])
    texts = [c["content"] for c in container["components"] if c["type"] == 10]
    assert sum(len(t) for t in texts) <= 4000
    assert "**f4**" in texts[-1] and "**f0**" not in texts[-1]


def test_an_edit_to_v2_clears_the_embed_an_old_message_had() -> None:
    shown = layout_message(discord.Embed(title="t"), ())
    assert shown["embed"] is None and shown["content"] is None
    assert shown["view"].has_components_v2()
