"""A game nobody else maintains, plugged in by the route of every game (its own folders and
nothing shared: tests/plugged), is offered, played end to end through the real clicks against
the fake Discord, stored and explained like the real ones."""

from __future__ import annotations

import json

from bot.snapshots import FINISHED
from bot.ui.custom_ids import Verb
from tests.bot.e2e.harness import BotUnderTest, players


async def test_a_game_only_the_tests_know_is_played_to_the_end(
    toy: str, harness: BotUnderTest
) -> None:
    alice, bob, _ = players(harness.fake)
    async with harness.running():
        table_id = await harness.open_table(alice, game=toy, preset="short")
        harness.stack_decks(table_id, range(1, 30))
        await harness.press(bob, table_id, Verb.JOIN.value)
        await harness.press(alice, table_id, Verb.START.value)
        await harness.play_to_the_end(table_id, as_the_bot=True)
        snapshot = harness.live.service.public_snapshot(table_id)
        assert snapshot.status == FINISHED and snapshot.game == toy
        assert snapshot.winners
        shown = json.dumps(harness.table_message(table_id), ensure_ascii=False)
        assert "Toy" in shown and "short match" in shown
        stats = await harness.live.store.leaderboard(harness.fake.guild_id, toy)
        assert {row.user_id for row in stats} == {alice.id, bob.id}


async def test_its_commands_help_and_rules_come_from_its_own_texts(
    toy: str, harness: BotUnderTest
) -> None:
    alice, _, _ = players(harness.fake)
    async with harness.running():
        _, help_message = await harness.ask(alice, "help")
        words = json.dumps(help_message, ensure_ascii=False)
        assert "/toy start" in words and "Open a Toy table in this channel" in words
        _, rules = await harness.ask(alice, "toy rules", preset="short")
        assert "As the standard rules, to 10 points." in json.dumps(rules, ensure_ascii=False)
