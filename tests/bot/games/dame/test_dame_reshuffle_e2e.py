"""Dame de Pique end to end: the stock runs out and, at the next draw, the discard pile is
shuffled into a new stock; the table message says so (stock size, pile, a line in the log)
and no payload shows a card of the new stock. The 55 quiet turns before it go through the
service (the call a click makes); the turns around the empty stock are clicks."""

from __future__ import annotations

from bot.games.dame.render import show
from bot.i18n import text
from games.dame.rules import HAND_SIZE, N_SEATS, dame_deck
from tests.bot.e2e.harness import BotUnderTest
from tests.bot.e2e.players import field_value, message_text
from tests.bot.games.dame.tables import four_at_a_stacked_table
from tests.games.dame.stacking import stacked_deck

STOCK = len(dame_deck()) - N_SEATS * HAND_SIZE  # 56 cards after the deal


async def test_the_stock_runs_out_and_the_pile_becomes_the_stock_at_the_next_draw(
    eight_players: BotUnderTest,
) -> None:
    harness = eight_players
    async with harness.running() as bot:
        checker = harness.leak_checker()
        table_id, seat = await four_at_a_stacked_table(harness, [stacked_deck({})])
        service = bot.service
        for _ in range(STOCK - 1):  # every player draws and discards the card drawn
            snapshot = service.public_snapshot(table_id)
            mover = seat[snapshot.to_act[0]]
            assert snapshot.round_no is not None
            drew = await service.play.act(table_id, mover.id, snapshot.round_no, "draw")
            (reveal,) = drew.reveals
            await service.play.act(
                table_id, mover.id, snapshot.round_no, f"discard {reveal.data['card']}"
            )
        await harness.settle()
        stock, pile = text("en", "dame.stock_title"), text("en", "dame.pile_title")
        assert field_value(harness.table_message(table_id), stock) == text(
            "en", "dame.stock", count=1
        )

        # The last card of the stock, by clicks: the stock is empty, nothing is reshuffled yet.
        last = seat[service.public_snapshot(table_id).to_act[0]]
        await harness.play(last, table_id, "draw")
        legal = (await service.play.private_view(table_id, last.id)).legal
        discard = next(a for a in legal if a.startswith("discard "))
        await harness.play(last, table_id, discard)
        table = harness.table_message(table_id)
        assert field_value(table, stock) == text("en", "dame.stock", count=0)
        top = show(service.public_snapshot(table_id).view.discard[-1])
        assert field_value(table, pile) == text("en", "dame.pile", card=top, count=STOCK)
        rebuilt = text("en", "dame.log.reshuffle", count=STOCK)
        assert rebuilt not in message_text(table)

        # The next draw finds the stock empty: the pile of 56 becomes the stock, one is drawn.
        nxt = seat[service.public_snapshot(table_id).to_act[0]]
        await harness.play(nxt, table_id, "draw")
        table = harness.table_message(table_id)
        assert field_value(table, stock) == text("en", "dame.stock", count=STOCK - 1)
        assert field_value(table, pile) == "—"
        assert rebuilt in message_text(table)
        view = service.public_snapshot(table_id).view
        assert view.reshuffles == 1 and view.stock_size == STOCK - 1 and view.discard == ()
        checker.assert_clean()
        assert checker.checked > 20
