"""Practice tables with a coach (issue #40 §1): the `coach` option is kept with the table's
options (and survives a restart), the table's messages say it is a practice table, unrated,
and its finished match changes no rating, leaderboard or season."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from bot.render.table import render_table
from bot.service import FakeClock, RecordingNotifier, TableService
from storage import Store
from tests.bot.service.conftest import ANN, BOB, CHANNEL, GUILD
from tests.bot.service.test_match import play_match


async def test_a_table_has_no_coach_unless_asked(service: TableService) -> None:
    snapshot = await service.open_table(GUILD, CHANNEL, ANN, "dutch")
    assert not snapshot.coach and not service._table(snapshot.table_id).coach
    assert "unrated" not in render_table(snapshot, "en").embed.title


async def test_the_coach_option_survives_a_restart(
    service: TableService, store: Store, db_path: Path, seeds: Callable[[], int]
) -> None:
    snapshot = await service.open_table(GUILD, CHANNEL, ANN, "dutch", coach=True)
    await service.join(snapshot.table_id, BOB)
    options = service._table(snapshot.table_id).options
    await store.close()
    reopened = await Store.open(db_path, synchronous="NORMAL")
    try:
        again = TableService(reopened, FakeClock(), RecordingNotifier(), seeds)
        await again.restore()
        table = again._table(snapshot.table_id)
        assert table.coach and table.options == options  # not mixed into the game's options
        assert again.public_snapshot(snapshot.table_id).coach
    finally:
        await again.close()
        await reopened.close()


async def test_a_coached_tables_lobby_and_table_message_say_it_is_unrated(
    service: TableService,
) -> None:
    lobby = await service.open_table(GUILD, CHANNEL, ANN, "euchre", coach=True)
    for language, words in (("en", "(unrated)"), ("fr", "(sans classement)")):
        assert words in render_table(lobby, language).embed.title
    await service.fill_with_bots(lobby.table_id, ANN.user_id)
    await service.start(lobby.table_id, ANN.user_id)
    await service.settle(lobby.table_id)
    playing = service.public_snapshot(lobby.table_id)
    assert "(unrated)" in render_table(playing, "en").embed.title


async def test_a_coached_match_is_kept_for_history_and_changes_no_rating(
    service: TableService, store: Store, clock: FakeClock
) -> None:
    snapshot = await service.open_table(GUILD, CHANNEL, ANN, "dutch", target=30, coach=True)
    await service.join(snapshot.table_id, BOB)
    await service.start(snapshot.table_id, ANN.user_id)
    final = await play_match(service, snapshot.table_id, clock)
    assert final.winners
    assert await store.leaderboard(GUILD, "dutch") == []
    for player in (ANN, BOB):
        assert (await store.player_stats(GUILD, player.user_id, "dutch")).games == []
        (played,) = await store.recent_matches(GUILD, player.user_id)
        assert played.rating_before == played.rating_after
