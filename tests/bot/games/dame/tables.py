"""A Dame de Pique table of four users on stacked decks, opened through the bot as players do."""

from __future__ import annotations

from collections.abc import Sequence

from bot.local.records import LocalUser
from games.cards import Card
from tests.bot.e2e.harness import EIGHT, BotUnderTest


async def four_at_a_stacked_table(
    harness: BotUnderTest, decks: Sequence[list[Card]], *, target: int = 2_000
) -> tuple[int, dict[int, LocalUser]]:
    """Four users open a Dame table, join and start it, its hands dealt from `decks` in turn:
    the table's id and the user at each seat."""
    users = [harness.fake.user(name) for name in EIGHT[:4]]
    table_id = await harness.seat_players(
        users[0], users[1:], game="dame", decks=decks, target=target
    )
    return table_id, {s: harness.user_of_seat(table_id, s) for s in range(4)}
