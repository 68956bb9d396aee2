from __future__ import annotations

import asyncio
import re
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any

import discord
import pytest
from discord import app_commands

from bot.app import CardTableBot
from bot.service import FakeClock, PlayerRef, RecordingNotifier
from bot.ui.custom_ids import Kind, Verb, parse, play_id, verb_id
from storage.models import GuildSettings
from tests.bot.bots import offline_bot
from tests.bot.ui.fakes import FakeInteraction

GUILD, CHANNEL = 1, 10
HOST, GUEST, STRANGER = 101, 102, 103
CARD_TEXT = re.compile(r"(?:10|[2-9AJQK])[♠♥♦♣]")


@pytest.fixture
async def bot(tmp_path: Path) -> AsyncIterator[CardTableBot]:
    seeds = iter(range(1, 1000))
    async with offline_bot(tmp_path, seed_source=lambda: next(seeds)) as made:
        # No Discord here: the service reports to a recorder instead of editing real messages.
        made.service.notifier = RecordingNotifier()
        yield made


async def open_table(bot: CardTableBot) -> int:
    snapshot = await bot.service.seating.open_table(
        GUILD, CHANNEL, PlayerRef(HOST, "Host"), "dutch"
    )
    return snapshot.table_id


async def click(bot: CardTableBot, custom_id: str, user: int, **options: Any) -> FakeInteraction:
    values = options.pop("values", ())
    interaction = FakeInteraction(user, **options)
    await bot.tables.on_component(interaction, custom_id, values)  # type: ignore[arg-type]
    return interaction


async def test_join_answers_by_editing_the_table_message(bot: CardTableBot) -> None:
    table_id = await open_table(bot)
    answer = (await click(bot, verb_id(table_id, 0, Verb.JOIN), GUEST, name="Guest")).only
    assert answer.kind == "edit" and "Guest" in answer.text()
    assert [s.name for s in bot.service.public_snapshot(table_id).seats] == ["Host", "Guest"]


async def test_the_host_adds_a_bot_player_named_in_the_tables_language(bot: CardTableBot) -> None:
    await bot.store.save_guild_settings(GuildSettings(guild_id=GUILD, language="fr"))
    table_id = await open_table(bot)
    for _ in range(2):
        answer = (await click(bot, verb_id(table_id, 0, Verb.ADD_BOT), HOST)).only
        assert answer.kind == "edit"
    seats = bot.service.public_snapshot(table_id).seats
    assert [(s.name, s.is_bot) for s in seats] == [
        ("Host", False),
        ("Robot 1", True),
        ("Robot 2", True),
    ]


async def test_only_the_host_adds_a_bot_and_the_table_is_untouched(bot: CardTableBot) -> None:
    table_id = await open_table(bot)
    await click(bot, verb_id(table_id, 0, Verb.JOIN), GUEST)
    before = bot.service.public_snapshot(table_id)
    refused = await click(
        bot, verb_id(table_id, 0, Verb.ADD_BOT), GUEST, locale=discord.Locale.french
    )
    assert refused.only.kind == "send" and refused.only.ephemeral
    assert refused.only.content == "Seul l'hôte peut faire cela."
    assert bot.service.public_snapshot(table_id).seats == before.seats


@pytest.mark.parametrize("forged", ["ct:1:0:fly", "hello", "ct:1:0:p=draw;;x", "ct:1:0:q=draw"])
async def test_a_forged_custom_id_gets_one_short_sentence(bot: CardTableBot, forged: str) -> None:
    answer = (await click(bot, forged, GUEST)).only
    assert answer.kind == "send" and answer.ephemeral
    assert answer.content == "This button is not one of mine, or it is out of date."


async def test_a_spectator_asking_for_cards_is_told_they_are_not_seated(bot: CardTableBot) -> None:
    table_id = await open_table(bot)
    answer = (await click(bot, verb_id(table_id, 0, Verb.HAND), STRANGER)).only
    assert answer.ephemeral and answer.content == "You are not seated at this table."


async def until(condition: Callable[[], bool], turns: int = 100) -> None:
    """Let the background tasks run until `condition` holds (an event, not a duration)."""
    for _ in range(turns):
        if condition():
            return
        await asyncio.sleep(0)
    raise AssertionError("it never happened")


async def started(bot: CardTableBot) -> tuple[int, int]:
    table_id = await open_table(bot)
    await click(bot, verb_id(table_id, 0, Verb.JOIN), GUEST, name="Guest")
    start = await click(bot, verb_id(table_id, 0, Verb.START), HOST)
    assert start.only.kind == "defer"  # the notifier re-posts the table message
    round_no = bot.service.public_snapshot(table_id).round_no
    assert round_no is not None
    return table_id, round_no


async def test_play_buttons_are_refused_on_a_public_message(bot: CardTableBot) -> None:
    table_id, round_no = await started(bot)
    answer = (await click(bot, play_id(table_id, round_no, "peek 3 4"), HOST)).only
    assert answer.ephemeral and "not one of mine" in (answer.content or "")
    assert not bot.service.public_snapshot(table_id).view.peeked[0]


async def test_my_cards_then_peek_shows_the_cards_once_and_hides_them_later(
    bot: CardTableBot,
) -> None:
    table_id, round_no = await started(bot)
    hand = (await click(bot, verb_id(table_id, round_no, Verb.HAND), HOST)).only
    assert hand.kind == "send" and hand.ephemeral
    assert "Pick two cards to look at." in hand.text() and "Your turn" not in hand.text()
    assert hand.view is not None
    (select,) = [c for c in hand.components() if c["type"] == discord.ComponentType.select.value]
    assert select["placeholder"] == "Pick two cards to look at."
    assert [o["value"] for o in select["options"]] == [
        f"peek {a} {b}" for a in range(1, 5) for b in range(a + 1, 5)
    ]
    assert parse(select["custom_id"]).kind is Kind.SELECT

    peek_id = play_id(table_id, round_no, "peek 3 4")
    peek = await click(bot, peek_id, HOST, ephemeral_message=True)
    shown = peek.only
    assert shown.kind == "edit"
    cards = set(CARD_TEXT.findall(shown.text()))
    assert len(cards) >= 1  # the two peeked cards (a joker shows as "Joker")

    clock: FakeClock = bot.clock  # type: ignore[assignment]
    await asyncio.sleep(0)  # the hiding task arms its timer
    await clock.advance(7)
    assert len(peek.answers) == 1  # still shown before the guild's reveal delay (8 s)
    await clock.advance(1)
    await until(lambda: len(peek.answers) == 2)  # redrawn by the follower, in the background
    hidden = peek.answers[-1]
    assert hidden.kind == "edit_original"
    assert not cards & set(CARD_TEXT.findall(hidden.text()))

    again = (await click(bot, verb_id(table_id, round_no, Verb.HAND), HOST)).only
    assert not cards & set(CARD_TEXT.findall(again.text()))


async def test_double_clicks_and_old_rounds_get_one_sentence_and_change_nothing(
    bot: CardTableBot,
) -> None:
    table_id, round_no = await started(bot)
    custom_id = play_id(table_id, round_no, "peek 3 4")
    first = await click(bot, custom_id, GUEST, ephemeral_message=True)
    assert first.answers[0].kind == "edit"
    version = bot.service.public_snapshot(table_id).version
    second = (await click(bot, custom_id, GUEST, ephemeral_message=True)).only
    assert second.ephemeral and second.kind == "send"
    stale = (
        await click(bot, play_id(table_id, round_no + 5, "draw"), HOST, ephemeral_message=True)
    ).only
    assert stale.content == "This button is from an earlier round: press My cards again."
    assert bot.service.public_snapshot(table_id).version == version


async def test_a_select_value_that_is_a_piece_opens_the_next_step(bot: CardTableBot) -> None:
    table_id, round_no = await started(bot)
    select = f"ct:{table_id}:{round_no}:s="
    answer = (await click(bot, select, HOST, ephemeral_message=True, values=("peek",))).only
    assert answer.kind == "edit"
    ids = [parse(c) for c in answer.custom_ids()]
    assert ids[-1].kind is Kind.NAVIGATE  # a way back to the whole menu


async def test_an_unexpected_failure_still_gets_one_sentence(
    bot: CardTableBot, monkeypatch: pytest.MonkeyPatch
) -> None:
    table_id = await open_table(bot)

    async def broken(*args: object) -> None:
        raise RuntimeError("a bug")

    monkeypatch.setattr(bot.service.seating, "join", broken)
    answer = (await click(bot, verb_id(table_id, 0, Verb.JOIN), GUEST)).only
    assert answer.ephemeral and answer.content == "That did not work. Please try again."


async def test_a_failed_command_gets_one_sentence_in_the_users_language(bot: CardTableBot) -> None:
    interaction = FakeInteraction(GUEST, locale=discord.Locale.french)
    error = app_commands.MissingPermissions(["manage_guild"])
    await bot.tree.on_error(interaction, error)  # type: ignore[arg-type]
    assert interaction.only.content == (
        "Seuls les membres qui ont la permission Gérer le serveur peuvent changer les réglages."
    )


async def test_public_texts_default_to_the_guilds_discord_locale(bot: CardTableBot) -> None:
    table_id = await open_table(bot)
    join = verb_id(table_id, 0, Verb.JOIN)
    answer = (await click(bot, join, GUEST, guild_locale=discord.Locale.french)).only
    assert answer.view is not None
    labels = [item["label"] for item in answer.components()]
    assert labels[0] == "Rejoindre"


async def test_leave_during_a_match_asks_first_and_a_bot_takes_the_seat_when_confirmed(
    bot: CardTableBot,
) -> None:
    table_id, round_no = await started(bot)
    ask = (await click(bot, verb_id(table_id, round_no, Verb.LEAVE), GUEST)).only
    assert ask.kind == "send" and ask.ephemeral and "A bot will play your seat" in ask.text()
    assert not bot.service.public_snapshot(table_id).seats[1].left  # nothing lost yet
    (sure,) = ask.custom_ids()
    assert parse(sure).verb is Verb.LEAVE_SURE
    done = (await click(bot, sure, GUEST, ephemeral_message=True)).only
    assert done.kind == "edit" and done.content == f"You left table #{table_id}."
    seat = bot.service.public_snapshot(table_id).seats[1]
    assert seat.left


async def test_leaving_a_lobby_needs_no_confirmation(bot: CardTableBot) -> None:
    table_id = await open_table(bot)
    await click(bot, verb_id(table_id, 0, Verb.JOIN), GUEST, name="Guest")
    answer = (await click(bot, verb_id(table_id, 0, Verb.LEAVE), GUEST)).only
    assert answer.kind == "edit"
    assert [s.name for s in bot.service.public_snapshot(table_id).seats] == ["Host"]


async def test_a_click_of_two_moves_plays_both_or_leaves_out_one_no_longer_offered(
    bot: CardTableBot,
) -> None:
    """`p=discard;end`: under classic rules the discard ends the turn by itself, so `end` is
    no longer offered and is left out, without a refusal; the click answers with the hand."""
    table_id, round_no = await started(bot)
    for user in (HOST, GUEST):
        await click(bot, play_id(table_id, round_no, "peek 3 4"), user, ephemeral_message=True)
    first = bot.service.public_snapshot(table_id).to_act[0]
    user = (HOST, GUEST)[first]
    await click(bot, play_id(table_id, round_no, "draw"), user, ephemeral_message=True)
    played = bot.service.public_snapshot(table_id).version
    answer = (
        await click(bot, play_id(table_id, round_no, "discard;end"), user, ephemeral_message=True)
    ).only
    assert answer.kind == "edit" and not answer.content
    snapshot = bot.service.public_snapshot(table_id)
    assert snapshot.to_act == (1 - first,) and snapshot.version > played


@pytest.mark.parametrize(
    ("forged", "english", "french"),
    [
        ("draw;drop", "That move is not allowed now.", "Ce coup n'est pas permis maintenant."),
        (
            "draw;draw",
            "That move does not fit this moment of the turn.",
            "Ce coup ne correspond pas à ce moment du tour.",
        ),
        ("draw;swap 9", "There is no such card.", "Cette carte n'existe pas."),
    ],
)
async def test_a_button_s_moves_are_played_whole_or_refused_whole_with_nothing_stored(
    bot: CardTableBot, forged: str, english: str, french: str
) -> None:
    """A forged `p=draw;drop`: the draw is legal, the rest cannot follow it, so the click is
    refused in one sentence and the round stays as it was (the draw neither played nor
    stored)."""
    table_id, round_no = await started(bot)
    for user in (HOST, GUEST):
        await click(bot, play_id(table_id, round_no, "peek 3 4"), user, ephemeral_message=True)
    before = bot.service.public_snapshot(table_id)
    user = (HOST, GUEST)[before.to_act[0]]
    stored = len((await bot.service.store.load_round(table_id, round_no)).actions)
    languages = ((discord.Locale.american_english, english), (discord.Locale.french, french))
    forged_id = play_id(table_id, round_no, forged)
    for locale, sentence in languages:
        answer = (await click(bot, forged_id, user, ephemeral_message=True, locale=locale)).only
        assert answer.ephemeral and answer.content == sentence
    after = bot.service.public_snapshot(table_id)
    assert after.version == before.version and after.view == before.view
    assert "draw" in (await bot.service.play.private_view(table_id, user)).legal
    assert len((await bot.service.store.load_round(table_id, round_no)).actions) == stored


async def dame_started(bot: CardTableBot) -> tuple[int, int, int]:
    """A Dame de Pique table of four people, started; the first to act has drawn: (table,
    round, that player's user id)."""
    host = PlayerRef(HOST, "Host")
    snapshot = await bot.service.seating.open_table(GUILD, CHANNEL, host, "dame")
    table_id = snapshot.table_id
    for user in (GUEST, STRANGER, 104):
        await click(bot, verb_id(table_id, 0, Verb.JOIN), user, name=f"P{user}")
    await click(bot, verb_id(table_id, 0, Verb.START), HOST)
    snapshot = bot.service.public_snapshot(table_id)
    assert snapshot.round_no is not None
    user = snapshot.seats[snapshot.to_act[0]].user_id
    assert user is not None
    await click(bot, play_id(table_id, snapshot.round_no, "draw"), user, ephemeral_message=True)
    return table_id, snapshot.round_no, user


async def test_a_knock_and_discard_option_plays_both_moves_in_one_choice(
    bot: CardTableBot,
) -> None:
    """Dame's "Knock and discard 7♥" in a select (`announce;discard 7H`): one interaction
    knocks, then discards, which ends the turn."""
    table_id, round_no, user = await dame_started(bot)
    seat = bot.service.public_snapshot(table_id).to_act[0]
    legal = (await bot.service.play.private_view(table_id, user)).legal
    discard = next(a for a in legal if a.startswith("discard "))
    assert "announce" in legal
    select = f"ct:{table_id}:{round_no}:s=announce"
    values = (f"announce;{discard}",)
    answer = (await click(bot, select, user, ephemeral_message=True, values=values)).only
    assert answer.kind == "edit" and not answer.content
    snapshot = bot.service.public_snapshot(table_id)
    assert snapshot.to_act != (seat,)  # the discard ended the turn
    assert snapshot.view.announced[seat]  # after the knock


@pytest.mark.parametrize(
    ("value", "english", "french"),
    [
        ("announce;fly", "This button is not one of mine", "Ce bouton n'est pas l'un des miens"),
        ("announce;announce", "This button is not one of mine", "Ce bouton n'est pas"),
        ("announce;;discard", "This button is not one of mine", "Ce bouton n'est pas"),
        ("announce;discard ZZ", "This button is not one of mine", "Ce bouton n'est pas"),
        ("announce;discard {absent}", "That choice is gone", "Ce choix n'existe plus"),
        ("announce;draw", "That choice is gone", "Ce choix n'existe plus"),
    ],
)
async def test_a_forged_or_no_longer_offered_pair_of_moves_is_refused_and_nothing_is_played(
    bot: CardTableBot, value: str, english: str, french: str
) -> None:
    table_id, round_no, user = await dame_started(bot)
    legal = (await bot.service.play.private_view(table_id, user)).legal
    absent = next(c for c in ("3S", "3H", "3D", "3C", "4S") if f"discard {c}" not in legal)
    value = value.format(absent=absent)  # a card not in hand
    version = bot.service.public_snapshot(table_id).version
    select = f"ct:{table_id}:{round_no}:s=announce"
    languages = ((discord.Locale.american_english, english), (discord.Locale.french, french))
    for locale, sentence in languages:
        answer = (
            await click(bot, select, user, ephemeral_message=True, values=(value,), locale=locale)
        ).only
        assert answer.ephemeral and (answer.content or "").startswith(sentence)
    assert bot.service.public_snapshot(table_id).version == version
