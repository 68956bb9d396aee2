"""Game messages as Components V2: every table message and every "My cards" of whole matches
of each game (ten Dutch seats, Dame's thirteen-card hands, in both languages) keeps Discord's
limits (40 components counting nested ones, 4,000 characters across text displays, no content
nor embeds), as the local server checks them; and the layout shows what the embed showed."""

from __future__ import annotations

import json
import random
from collections.abc import AsyncIterator, Callable, Iterator
from pathlib import Path
from typing import Any

import discord
import pytest
from discord.utils import MISSING
from discord.webhook.async_ import interaction_message_response_params

from bot.custom_ids import THEN, Kind, parse
from bot.local.layout import SECTION, is_v2, v2_message_errors
from bot.local.limits import message_errors
from bot.local.records import iter_components
from bot.render.actions import ButtonSpec, SectionSpec
from bot.render.hint import render_hint
from bot.render.private import render_private
from bot.render.table import RenderedMessage, render_table
from bot.render.watching import render_watcher
from bot.service import FINISHED, ROUND_OVER, FakeClock, PlayerRef, RecordingNotifier, TableService
from bot.snapshots import Reveal
from bot.ui.layout import layout_components, layout_message, layout_view, shown_as
from games.coach import Hint
from games.registry import game_names, get_game
from storage import Store

BUTTON, SELECT = 2, 3

TARGETS = {"dutch": 60, "euchre": 10, "dame": 1000}
LANGUAGES = ("en", "fr")
EPHEMERAL = 1 << 6
SEND, UPDATE = 4, 7  # interaction callbacks: a new message, an edit of the clicked one
MENU_STEPS = 40  # menu steps walked at most from the top of one "My cards"


@pytest.fixture
async def service(tmp_path: Path) -> AsyncIterator[TableService]:
    store = await Store.open(tmp_path / "tables.sqlite3", synchronous="NORMAL")
    seeds: Iterator[int] = iter(range(11, 10_000))
    opened = TableService(store, FakeClock(), RecordingNotifier(), lambda: next(seeds))
    yield opened
    await opened.close()
    await store.close()


def sent(rendered: RenderedMessage, *, ephemeral: bool, kind: int = SEND) -> dict[str, Any]:
    """The message's data as discord.py writes it for Discord (an interaction's answer: a new
    message, ephemeral or not, or an edit), from what the bot hands it (`shown_as`)."""
    flags = discord.MessageFlags(ephemeral=True) if ephemeral else MISSING
    params = interaction_message_response_params(type=kind, flags=flags, **shown_as(rendered))
    assert params.payload is not None
    return dict(params.payload["data"])


def offered(rendered: RenderedMessage) -> list[str]:
    """The custom ids of every button and menu the renderer offers (in rows or sections)."""
    specs = [*rendered.components, *(section.button for section in rendered.sections)]
    return sorted(spec.custom_id for spec in specs)


def sent_ids(data: dict[str, Any]) -> list[str]:
    return sorted(
        str(c["custom_id"]) for c in iter_components(data) if c.get("type") in (BUTTON, SELECT)
    )


def assert_within_limits(rendered: RenderedMessage, where: str, *, ephemeral: bool = False) -> None:
    """Sent (and edited) as Discord takes it: a V2 message (the flag set, the ephemeral one
    kept, no content nor embed) within 40 components and 4,000 characters, every move the
    renderer offers still offered."""
    assert rendered.v2, where
    for kind in (SEND, UPDATE):
        data = sent(rendered, ephemeral=ephemeral and kind == SEND, kind=kind)
        assert is_v2(data.get("flags")), where
        if kind == SEND:
            assert bool(int(data["flags"]) & EPHEMERAL) == ephemeral, where
        assert v2_message_errors(data) == [], where
        assert message_errors(data, creating=kind == SEND) == [], where
        shown = sent_ids(data)
        seats = sorted(seat.button.custom_id for seat in rendered.seats)
        # every move, and the seats' buttons all or none (their lines stay either way)
        assert shown in (offered(rendered), sorted(offered(rendered) + seats)), where
        for seat in rendered.seats:
            assert seat.text in json.dumps(data, ensure_ascii=False), where


def menu_steps(
    render: Callable[[str], RenderedMessage], legal: tuple[str, ...]
) -> Iterator[tuple[str, RenderedMessage]]:
    """ "My cards" at the top of its menu and at each step a click opens from there (a
    family's button, a select's option that is a step: sub-menus, group prefixes)."""
    queue, seen = [""], {""}
    while queue and len(seen) <= MENU_STEPS:
        prefix = queue.pop(0)
        rendered = render(prefix)
        yield prefix, rendered
        for spec in [*rendered.components, *(s.button for s in rendered.sections)]:
            component = parse(spec.custom_id)
            if isinstance(spec, ButtonSpec):
                steps = [component.text] if component.kind is Kind.NAVIGATE else []
            elif component.kind is Kind.PICK:
                steps = []
            else:
                steps = [v for _, v in spec.options if THEN not in v and v not in legal]
            for step in steps:
                if step and step not in seen:
                    seen.add(step)
                    queue.append(step)


async def play_a_long_match(
    service: TableService, game: str, seats: int, preset: str, target: int
) -> int:
    """A match played by the bots' choices to its end, every message of it checked in both
    languages: the table message in each state, every player's "My cards" (the one to act at
    every menu step, with the cards its last move revealed), a watcher's message (hands
    shown) and the hint. The messages checked."""
    players = [PlayerRef(500 + i, f"Player {i} with a long name") for i in range(seats)]
    opened = await service.seating.open_table(
        1, 10, players[0], game, preset=preset, target=target, spectators="hands"
    )
    table_id = opened.table_id
    for language in LANGUAGES:
        assert_within_limits(render_table(opened, language), f"{game} lobby")
    for player in players[1:]:
        await service.seating.join(table_id, player)
    await service.seating.start(table_id, players[0].user_id)
    watcher = 999
    watched = await service.watching.watch(table_id, watcher)
    rng = random.Random(5)
    reveals: dict[int, tuple[Reveal, ...]] = {}
    checked = 0
    for step in range(20_000):
        await service.followup.settle(table_id)
        public = service.public_snapshot(table_id)
        language = LANGUAGES[step % 2]
        where = f"{game} {preset} step {step}"
        assert_within_limits(render_table(public, language), f"{where}: table")
        seen = await service.watching.watcher_view(table_id, watcher)
        watched = seen or watched
        assert_within_limits(render_watcher(watched, language), f"{where}: watcher", ephemeral=True)
        checked += 2
        if public.status == FINISHED:
            break
        if public.status == ROUND_OVER:
            for player in players:
                private = await service.play.private_view(table_id, player.user_id)
                mine = render_private(private, public, language)
                assert_within_limits(mine, f"{where}: round over", ephemeral=True)
            await service.play.next_round(table_id, players[0].user_id)
            reveals.clear()
            continue
        user_id = public.seats[public.to_act[0]].user_id
        assert user_id is not None
        private = await service.play.private_view(table_id, user_id)
        shown = reveals.pop(user_id, ())

        def render(prefix: str) -> RenderedMessage:
            return render_private(private, public, language, reveals=shown, prefix=prefix)  # noqa: B023

        for prefix, mine in menu_steps(render, private.legal):
            assert_within_limits(mine, f"{where}: my cards at {prefix!r}", ephemeral=True)
            checked += 1
        choice = service.bot_choice(table_id, user_id, rng)
        assert choice is not None and public.round_no is not None
        hint = render_hint(private, public, Hint(choice, None), language)
        assert_within_limits(hint, f"{where}: hint", ephemeral=True)
        result = await service.play.act(table_id, user_id, public.round_no, choice)
        if result.reveals:
            reveals[user_id] = result.reveals
    assert public.status == FINISHED
    return checked


@pytest.mark.parametrize(
    ("game", "seats", "preset"),
    [
        ("dutch", 10, "classic"),
        ("dutch", 2, "classic"),
        ("dutch", 4, "house"),
        ("euchre", 4, "standard"),
        ("euchre", 4, "cards4net"),
        ("euchre", 4, "farmers"),
        ("euchre", 4, "no_stick"),
        ("dame", 4, "standard"),
    ],
)
async def test_every_message_of_a_whole_match_keeps_discords_v2_limits(
    service: TableService, game: str, seats: int, preset: str
) -> None:
    assert await play_a_long_match(service, game, seats, preset, TARGETS[game]) > 0


def test_every_preset_of_every_game_is_played_by_the_limits_test() -> None:
    marks = test_every_message_of_a_whole_match_keeps_discords_v2_limits.pytestmark  # type: ignore[attr-defined]
    played = {(game, preset) for game, _seats, preset in marks[0].args[1]}
    assert played == {(name, preset) for name in game_names() for preset in get_game(name).presets}


def test_sections_past_40_components_give_their_buttons_back_to_rows() -> None:
    """A plug-in laying 20 moves beside their lines: those that fit stay sections, the others'
    buttons go back to rows, and every move is still offered, within 40 components."""
    embed = discord.Embed(title="My cards", description="Your turn", color=0x2E7D32)
    embed.set_image(url="attachment://hand.png")
    embed.set_footer(text="Hides in 5 s")
    rows = (
        ButtonSpec("ct:7:1:n=", "Back", "secondary", 0),
        ButtonSpec("ct:7:1:v=hint", "Hint", "success", 0),
    )
    sections = tuple(
        SectionSpec(f"Pack {i}", ButtonSpec(f"ct:7:1:p=lay {i}", f"Lay {i}", "primary"))
        for i in range(20)
    )
    rendered = RenderedMessage(embed, rows, v2=True, sections=sections)
    data = sent(rendered, ephemeral=True)
    assert v2_message_errors(data) == []
    assert sent_ids(data) == offered(rendered)
    laid = [c for c in iter_components(data) if c.get("type") == SECTION]
    assert 0 < len(laid) < 20  # some beside their lines, the others in rows
    assert [c["accessory"]["custom_id"] for c in laid] == [
        f"ct:7:1:p=lay {i}" for i in range(len(laid))
    ]  # the first sections stay, in order


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
