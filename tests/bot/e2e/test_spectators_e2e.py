"""Watchers through the real click path: the Watch button of a table in play, the watcher's
message following the match, the `spectators` option, and every payload checked for leaks
(the leak checker allows a watcher the public table only, or, at a table shown with its
hands, the cards this test saw held at a change of the seats to act)."""

from __future__ import annotations

import json
import random
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from bot.custom_ids import Verb, verb_id
from bot.i18n import text
from bot.local.records import LocalInteraction
from bot.local.server import running_local_discord
from bot.service.watching import MAX_WATCHERS, Watching
from bot.snapshots import FINISHED, PLAYING, WatcherSnapshot
from tests.bot.e2e.harness import EIGHT, BotUnderTest, assert_one_short_private_sentence, players
from tests.bot.e2e.players import (
    answer_message,
    field_value,
    pick_at_random,
    small_print,
    text_displays,
    use,
    verb_choice,
)

# a short match of each game: (bot players, target)
MATCHES = {"dutch": (2, 10), "euchre": (3, 2), "dame": (3, 60)}
# members of the server beside the players: one more than a table may have watching
WATCHERS = tuple(f"watcher{number}" for number in range(MAX_WATCHERS + 1))


@pytest.fixture
async def harness(tmp_path: Path, no_errors_logged: None) -> AsyncIterator[BotUnderTest]:
    """The bot on a fake Discord whose server has eight players and enough watchers."""
    async with running_local_discord(user_names=EIGHT + WATCHERS) as fake:
        yield BotUnderTest(fake, tmp_path / "cardtable.sqlite3")
        assert not fake.unknown_routes, (
            f"the client called routes the fake lacks: {fake.unknown_routes}"
        )


def _payloads(interaction: LocalInteraction) -> list[str]:
    """Every message payload the interaction's answers sent (the first one and its edits)."""
    return [json.dumps(r.payload, ensure_ascii=False) for r in interaction.requests]


async def _watch(
    harness: BotUnderTest, user: Any, table_id: int, locale: str = "en-US"
) -> LocalInteraction:
    choice = verb_choice(harness.table_message(table_id), Verb.WATCH.value)
    assert choice is not None, "the table message has no Watch button"
    interaction = await harness.fake.click(user, choice.message_id, choice.custom_id, locale=locale)
    await interaction.wait_answered()
    await harness.settle()
    return interaction


@pytest.mark.parametrize("mode", ["public", "hands"])
@pytest.mark.parametrize("game", list(MATCHES))
async def test_a_watcher_follows_a_whole_match_and_sees_nothing_the_option_does_not_allow(
    harness: BotUnderTest, game: str, mode: str
) -> None:
    alice = harness.fake.user("alice")
    erin = harness.fake.user("erin")  # seated nowhere: watches
    bots, target = MATCHES[game]
    rng = random.Random(f"watch-{game}-{mode}")
    harness.choose = lambda offered: pick_at_random(offered, rng, rare=("announce",))
    async with harness.running() as bot:
        checker = harness.leak_checker()
        table_id = await harness.start_with_bots(alice, game, bots, target=target, spectators=mode)
        watching = await _watch(harness, erin, table_id)
        first = answer_message(harness.fake, watching)
        assert first is not None and int(first["flags"]) & 64  # ephemeral: erin's alone
        assert bot.service.public_snapshot(table_id).watchers == 1
        await harness.play_to_the_end(table_id, max_moves=3_000)
        assert bot.service.public_snapshot(table_id).status == FINISHED
        checker.assert_clean()
        shown = _payloads(watching)
        assert len(shown) > 5  # the message followed the match
        hand_label = text("en", "watch.hand_of", name="").strip()
        with_hands = [p for p in shown if hand_label in p]
        if mode == "hands":
            assert with_hands, "the hands were never shown to the watcher"
        else:
            assert not with_hands
            assert any(text("en", "watch.public") in p for p in shown)


async def test_the_table_message_counts_its_watchers_in_the_guild_language(
    harness: BotUnderTest,
) -> None:
    alice, bob, _ = players(harness.fake)
    erin, frank = harness.fake.user("erin"), harness.fake.user("frank")
    async with harness.running():
        table_id = await harness.seat_players(alice, [bob], spectators="hands")
        assert small_print(harness.table_message(table_id)) is None
        await _watch(harness, erin, table_id)
        await harness.settle()
        footer = small_print(harness.table_message(table_id))
        assert footer == text("en", "table.watchers.one", count=1)
        await _watch(harness, frank, table_id, locale="fr")
        await _watch(harness, erin, table_id)  # again: a new message, still one watcher
        await harness.settle()
        footer = small_print(harness.table_message(table_id))
        assert footer == text("en", "table.watchers", count=2)


async def test_a_watcher_reads_their_message_in_their_own_language(
    harness: BotUnderTest,
) -> None:
    alice, bob, _ = players(harness.fake)
    frank = harness.fake.user("frank")
    async with harness.running():
        table_id = await harness.seat_players(alice, [bob], spectators="hands")
        watching = await _watch(harness, frank, table_id, locale="fr")
        message = answer_message(harness.fake, watching)
        assert message is not None
        assert message["embeds"] == []  # a Components V2 message, as "My cards"
        assert text_displays(message)[0].splitlines()[0] == f"-# {text('fr', 'watch.title')}"
        assert field_value(message, text("fr", "watch.hand_of", name="Bob")) is not None


async def test_a_player_of_the_match_clicking_watch_is_told_their_cards_are_in_my_cards(
    harness: BotUnderTest,
) -> None:
    alice, bob, carol = players(harness.fake)
    async with harness.running() as bot:
        checker = harness.leak_checker()
        table_id = await harness.seat_players(alice, [bob, carol], spectators="hands")
        refused = await _watch(harness, bob, table_id)
        assert assert_one_short_private_sentence(refused) == text("en", "error.watching_own_table")
        await harness.press(carol, table_id, Verb.LEAVE.value)
        sure = verb_choice(answer_message(harness.fake, _last(harness, carol)) or {}, "leave!")
        assert sure is not None
        await use(harness.fake, carol, sure)
        await harness.settle()
        assert bot.service.public_snapshot(table_id).seats[2].left
        refused = await _watch(harness, carol, table_id, locale="fr")
        assert assert_one_short_private_sentence(refused) == text("fr", "error.watching_own_table")
        assert bot.service.public_snapshot(table_id).watchers == 0
        checker.assert_clean()


def _last(harness: BotUnderTest, user: Any) -> LocalInteraction:
    return [i for i in harness.fake.interactions.values() if i.user.id == user.id][-1]


async def test_a_table_has_at_most_its_cap_of_watchers_and_says_so_when_full(
    harness: BotUnderTest,
) -> None:
    alice, bob, _ = players(harness.fake)
    async with harness.running() as bot:
        table_id = await harness.seat_players(alice, [bob])
        for number in range(MAX_WATCHERS):
            watching = await _watch(harness, harness.fake.user(f"watcher{number}"), table_id)
            assert answer_message(harness.fake, watching) is not None
        assert bot.service.public_snapshot(table_id).watchers == MAX_WATCHERS
        refused = await _watch(harness, harness.fake.user(WATCHERS[-1]), table_id)
        assert assert_one_short_private_sentence(refused) == text(
            "en", "error.watchers_full", limit=MAX_WATCHERS
        )
        assert bot.service.public_snapshot(table_id).watchers == MAX_WATCHERS


async def test_a_watcher_who_joins_the_next_match_lobby_stops_watching(
    harness: BotUnderTest,
) -> None:
    alice, bob, _ = players(harness.fake)
    erin = harness.fake.user("erin")
    async with harness.running() as bot:
        checker = harness.leak_checker()
        table_id = await harness.seat_players(alice, [bob], target=10, spectators="hands")
        watching = await _watch(harness, erin, table_id)
        await harness.play_to_the_end(table_id)
        await harness.press(alice, table_id, Verb.REMATCH.value)
        edits_before = len(watching.requests)
        await harness.press(erin, table_id, Verb.JOIN.value)
        snapshot = bot.service.public_snapshot(table_id)
        assert snapshot.watchers == 0 and snapshot.seat_of(erin.id) is not None
        await harness.press(alice, table_id, Verb.START.value)
        assert bot.service.public_snapshot(table_id).status == PLAYING
        refused = await _watch(harness, erin, table_id)
        assert assert_one_short_private_sentence(refused) == text("en", "error.watching_own_table")
        await harness.play_round(table_id)
        assert len(watching.requests) == edits_before  # the watcher's message stopped
        checker.assert_clean()


async def test_the_lobby_says_what_watchers_will_see(harness: BotUnderTest) -> None:
    alice = harness.fake.user("alice")
    async with harness.running():
        table_id = await harness.open_table(alice, game="euchre", spectators="hands")
        shown = field_value(harness.table_message(table_id), text("en", "table.spectators"))
        assert shown == text("en", "table.spectators.hands")
        assert verb_choice(harness.table_message(table_id), Verb.WATCH.value) is None


async def test_a_watch_click_on_a_lobby_is_told_there_is_no_match_to_watch(
    harness: BotUnderTest,
) -> None:
    """A lobby offers no Watch button; a click that reaches it anyway (a forged id) gets one
    sentence, and nobody watches."""
    alice, erin = harness.fake.user("alice"), harness.fake.user("erin")
    async with harness.running() as bot:
        table_id = await harness.open_table(alice, game="dutch")
        message = harness.table_message(table_id)
        custom_id = verb_id(table_id, 0, Verb.WATCH)
        clicked = await harness.fake.click(erin, int(message["id"]), custom_id, forged=True)
        await clicked.wait_answered()
        assert assert_one_short_private_sentence(clicked) == text("en", "error.watch_not_in_play")
        assert bot.service.public_snapshot(table_id).watchers == 0


@pytest.mark.parametrize("locale", ["en-US", "fr"])
async def test_the_rules_say_what_watchers_see(harness: BotUnderTest, locale: str) -> None:
    alice = harness.fake.user("alice")
    language = "fr" if locale == "fr" else "en"
    async with harness.running():
        asked = await harness.fake.slash(alice, "euchre rules", locale=locale)
        await asked.wait_answered()
        assert text(language, "rules.spectators") in json.dumps(
            answer_message(harness.fake, asked), ensure_ascii=False
        )


async def test_a_spectators_option_that_is_not_offered_is_refused_in_one_sentence(
    harness: BotUnderTest,
) -> None:
    alice = harness.fake.user("alice")
    async with harness.running() as bot:
        asked = await harness.fake.slash(alice, "dutch start", spectators="everything")
        await asked.wait_answered()
        await harness.settle()
        assert_one_short_private_sentence(asked)
        assert bot.service.table_ids() == []


async def test_a_restart_forgets_watchers_keeps_the_option_and_shows_hands_from_the_next_turn(
    harness: BotUnderTest,
) -> None:
    """Watchers live in memory: after a restart they click Watch again. A round rebuilt in
    the middle of a turn (Alice drew) shows no hand until that turn is over: the hands now
    hold the card she drew, and what they were at the turn's start is not kept."""
    alice, erin = harness.fake.user("alice"), harness.fake.user("erin")
    rng = random.Random("restart")
    harness.choose = lambda offered: pick_at_random(offered, rng, rare=("announce",))
    async with harness.running() as bot:
        table_id = await harness.start_with_bots(alice, "dame", 3, target=60, spectators="hands")
        await _watch(harness, erin, table_id)
        assert bot.service.public_snapshot(table_id).watchers == 1
        while 0 not in bot.service.public_snapshot(table_id).to_act:
            await harness.step(table_id)
        await harness.play(alice, table_id, "draw")
        assert 0 in bot.service.public_snapshot(table_id).to_act  # her turn goes on
    async with harness.running() as bot:
        checker = harness.leak_checker()
        snapshot = bot.service.public_snapshot(table_id)
        assert snapshot.spectators == "hands" and snapshot.watchers == 0
        watching = await _watch(harness, erin, table_id, locale="fr")
        (first,) = _payloads(watching)
        assert text("fr", "watch.hands_later") in first
        assert text("fr", "watch.hand_of", name="Alice") not in first
        while 0 in bot.service.public_snapshot(table_id).to_act:
            await harness.step(table_id)
        await harness.settle()
        hand_of_alice = text("fr", "watch.hand_of", name="Alice")
        assert any(hand_of_alice in payload for payload in _payloads(watching))
        checker.assert_clean()


async def test_the_leak_checker_catches_a_watcher_shown_a_card_drawn_during_the_turn(
    harness: BotUnderTest, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The checker itself: a service that showed watchers the hands as they are now (a card
    drawn this turn included) instead of as at the turn's start is caught."""

    def hands_now(table: Any) -> WatcherSnapshot:
        public = table.published
        hands = None
        if table.status == PLAYING and table.round is not None:
            hands = {seat: tuple(cards) for seat, cards in table.round.open_hands().items()}
        return WatcherSnapshot(public=public, hands=hands, version=public.version)

    monkeypatch.setattr(Watching, "_snapshot", staticmethod(hands_now))
    alice, erin = harness.fake.user("alice"), harness.fake.user("erin")
    rng = random.Random("leak")
    harness.choose = lambda offered: pick_at_random(offered, rng, rare=("announce",))
    async with harness.running():
        checker = harness.leak_checker()
        table_id = await harness.start_with_bots(alice, "dame", 3, target=60, spectators="hands")
        await _watch(harness, erin, table_id)
        await harness.play_to_the_end(table_id, max_moves=3_000)
        leaks = [leak for leak in checker.leaks if leak.request.interaction is not None]
        assert leaks and all(leak.request.interaction.user.id == erin.id for leak in leaks)
