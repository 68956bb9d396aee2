"""The end of a Dame de Pique match through the service, on stacked decks: equal totals past
the target play another hand; then the winning partners' stats and team ratings are stored."""

from __future__ import annotations

from bot.service import FINISHED, ROUND_OVER, TableService
from storage import Store
from tests.bot.service.conftest import ANN, BOB, CAT, CHANNEL, DAN, GUILD
from tests.games.dame.tie_match import HAND_1, HAND_1_POINTS, HAND_2, TARGET, decks

PLAYERS = (ANN, BOB, CAT, DAN)  # seats 0 to 3: Ann and Cat are partners, Bob and Dan


async def _play(service: TableService, table_id: int, steps: tuple[tuple[int, str], ...]) -> None:
    for seat, notation in steps:
        snapshot = service.public_snapshot(table_id)
        assert snapshot.to_act == (seat,) and snapshot.round_no is not None, (seat, notation)
        await service.play.act(table_id, PLAYERS[seat].user_id, snapshot.round_no, notation)


async def test_equal_totals_past_the_target_play_on_then_partners_win_and_are_rated(
    service: TableService, store: Store
) -> None:
    table = await service.seating.open_table(GUILD, CHANNEL, ANN, "dame", target=TARGET)
    for player in PLAYERS[1:]:
        await service.seating.join(table.table_id, player)
    for deck in decks():
        service.stack_deck(table.table_id, deck)
    await service.seating.start(table.table_id, ANN.user_id)
    assert [s.user_id for s in service.public_snapshot(table.table_id).seats] == [
        p.user_id for p in PLAYERS
    ]

    await _play(service, table.table_id, HAND_1)
    snapshot = service.public_snapshot(table.table_id)
    assert snapshot.status == ROUND_OVER and not snapshot.winners
    assert snapshot.totals == HAND_1_POINTS * 2 and min(snapshot.totals) >= TARGET
    await service.play.next_round(table.table_id, ANN.user_id)

    await _play(service, table.table_id, HAND_2)
    snapshot = service.public_snapshot(table.table_id)
    assert snapshot.status == FINISHED and snapshot.winners == (0, 2)
    assert snapshot.totals[0] == snapshot.totals[2] == 220 > snapshot.totals[1]
    for seat, player in enumerate(PLAYERS):
        stats = await store.player_stats(GUILD, player.user_id, "dame")
        (game,) = stats.games
        assert (game.matches, game.wins, game.rounds) == (1, int(seat in (0, 2)), 2)
    rows = await store.leaderboard(GUILD, "dame", min_matches=1)
    rating = {row.user_id: row.rating for row in rows}
    assert rating[ANN.user_id] == rating[CAT.user_id] > rating[BOB.user_id] == rating[DAN.user_id]
