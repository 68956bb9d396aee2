"""A whole match through the service: rounds, the end-of-round table, the pause, the end of
the match with stats stored, and a rematch."""

from __future__ import annotations

import random

import pytest

from bot.service import (
    FINISHED,
    LOBBY,
    PLAYING,
    ROUND_OVER,
    FakeClock,
    PublicSnapshot,
    RecordingNotifier,
    TableError,
    TableService,
)
from games.cards import cards
from games.dutch import GAME
from storage import Store
from tests.bot.service.conftest import (
    ANN,
    BOB,
    GUILD,
    click_any,
    end_round_quickly,
    open_dutch,
    user_at,
)


def assert_no_face_down_card_shown(snapshot: PublicSnapshot) -> None:
    view = snapshot.view
    if view is None or view.phase == "over":
        return
    shown_to_all = {(r.seat, r.slot) for r in view.reveals}
    for seat, grid in enumerate(view.grids):
        for slot in grid:
            assert slot.card is None or (seat, slot.slot) in shown_to_all


async def play_match(service: TableService, table_id: int, clock: FakeClock) -> PublicSnapshot:
    rng = random.Random(3)
    for _ in range(5_000):
        snapshot = service.public_snapshot(table_id)
        assert_no_face_down_card_shown(snapshot)
        if snapshot.status == FINISHED:
            return snapshot
        if snapshot.status == ROUND_OVER:
            await clock.advance(service.timers.next_round_seconds)
            continue
        await click_any(service, table_id, rng)
    raise AssertionError("the match did not end")


async def test_a_short_match_ends_with_winners_and_stored_stats(
    service: TableService, store: Store, clock: FakeClock, notifier: RecordingNotifier
) -> None:
    table_id = await open_dutch(service, [ANN, BOB], target=30, start=False)
    await service.seating.add_bot(table_id, ANN.user_id)
    await service.seating.start(table_id, ANN.user_id)
    final = await play_match(service, table_id, clock)
    assert final.winners and max(final.totals) >= 30
    assert final.totals == tuple(s.total for s in final.seats)
    best = min(final.totals)
    assert final.winners == tuple(s for s, t in enumerate(final.totals) if t == best)
    assert final.last_round is not None and final.last_round.totals == final.totals
    rounds = len(notifier.of("round_started"))
    assert rounds == final.round_no + 1  # one store round per match round here
    assert (await store.get_table(table_id)).status == "finished"
    for seat, player in enumerate([ANN, BOB]):
        stats = await store.player_stats(GUILD, player.user_id, "dutch")
        (game_stats,) = stats.games
        assert game_stats.matches == 1 and game_stats.rounds == rounds
        assert game_stats.wins == (1 if seat in final.winners else 0)
        assert game_stats.points == final.totals[seat]
    assert service.tables.table_of_user(GUILD, ANN.user_id) is None  # free to sit elsewhere


async def test_the_end_of_a_round_shows_every_card_and_the_scores(
    service: TableService, clock: FakeClock
) -> None:
    table_id = await open_dutch(service, [ANN, BOB])
    await service.play.act(table_id, ANN.user_id, 0, "peek 3 4")
    await service.play.act(table_id, BOB.user_id, 0, "peek 3 4")
    first = service.public_snapshot(table_id).turn
    assert first is not None
    await service.play.act(table_id, user_at(service.public_snapshot(table_id), first), 0, "dutch")
    other = 1 - first
    await service.play.act(table_id, user_at(service.public_snapshot(table_id), other), 0, "draw")
    result = await service.play.act(
        table_id, user_at(service.public_snapshot(table_id), other), 0, "discard"
    )
    snapshot = service.public_snapshot(table_id)
    if snapshot.status == PLAYING:  # a power to skip
        result = await service.play.act(table_id, user_at(snapshot, other), 0, "skip")
        snapshot = service.public_snapshot(table_id)
    assert result.round_over and not result.match_over
    assert snapshot.status == ROUND_OVER and snapshot.to_act == ()
    end = snapshot.last_round
    assert end is not None and end.round_no == 0
    assert all(slot.card for grid in end.view.grids for slot in grid if not slot.empty)
    assert end.totals == snapshot.totals == end.points
    assert snapshot.next_round_at == clock.now() + service.timers.next_round_seconds
    assert [e.kind for e in snapshot.log][-1] == "round_over"


async def test_the_next_round_starts_on_the_host_click_or_after_the_pause(
    service: TableService, clock: FakeClock, notifier: RecordingNotifier
) -> None:
    table_id = await open_dutch(service, [ANN, BOB])
    await end_round_quickly(service, table_id)
    with pytest.raises(TableError) as refused:
        await service.play.next_round(table_id, BOB.user_id)
    assert refused.value.key == "not_host"
    snapshot = await service.play.next_round(table_id, ANN.user_id)
    assert snapshot.status == PLAYING and snapshot.round_no == 1
    with pytest.raises(TableError) as refused:
        await service.play.next_round(table_id, ANN.user_id)
    assert refused.value.key == "round_not_over"
    await end_round_quickly(service, table_id)
    await clock.advance(service.timers.next_round_seconds - 1)
    assert service.public_snapshot(table_id).status == ROUND_OVER
    await clock.advance(1)
    assert service.public_snapshot(table_id).round_no == 2
    assert notifier.of("round_started")[-1] == (table_id,)


async def test_a_stacked_deck_deals_the_given_cards(service: TableService) -> None:
    table_id = await open_dutch(service, [ANN, BOB], start=False)
    stacked = cards("2C 3C KH QS")  # seat 0's slots 1 to 4
    rest = [c for c in GAME.deck(GAME.options()) if c not in stacked]
    service.stack_deck(table_id, stacked + rest)
    await service.seating.start(table_id, ANN.user_id)
    result = await service.play.act(table_id, ANN.user_id, 0, "peek 3 4")
    assert [(r.data["slot"], r.data["card"]) for r in result.reveals] == [(3, "KH"), (4, "QS")]


async def test_a_rematch_goes_back_to_the_lobby_with_the_same_players(
    service: TableService, clock: FakeClock
) -> None:
    table_id = await open_dutch(service, [ANN, BOB], target=1)
    await end_round_quickly(service, table_id)
    finished = service.public_snapshot(table_id)
    if finished.status != FINISHED:  # a round of 0 points each: play on
        final = await play_match(service, table_id, clock)
        finished = final
    old_round = finished.round_no
    assert old_round is not None
    with pytest.raises(TableError) as refused:
        await service.play.act(table_id, ANN.user_id, old_round, "draw")
    assert refused.value.key == "round_over"
    lobby = await service.seating.rematch(table_id, BOB.user_id)
    assert lobby.status == LOBBY and [s.user_id for s in lobby.seats] == [ANN.user_id, BOB.user_id]
    assert service.tables.table_of_user(GUILD, BOB.user_id) == table_id
    started = await service.seating.start(table_id, ANN.user_id)
    assert started.round_no == old_round + 1 and started.totals == (0, 0)
    with pytest.raises(TableError) as refused:
        await service.play.act(table_id, ANN.user_id, old_round, "peek 3 4")
    assert refused.value.key == "stale_button"


async def test_a_player_who_leaves_after_the_match_is_not_in_the_rematch(
    service: TableService, clock: FakeClock
) -> None:
    from bot.service import PlayerRef

    cat = PlayerRef(103, "Cat")
    table_id = await open_dutch(service, [ANN, BOB, cat], target=1)
    await play_match(service, table_id, clock)
    await service.seating.leave(table_id, BOB.user_id)
    lobby = await service.seating.rematch(table_id, cat.user_id)
    assert [s.user_id for s in lobby.seats] == [ANN.user_id, cat.user_id]
    assert lobby.host_id == ANN.user_id


async def test_a_finished_table_nobody_rematches_is_closed_for_the_glue_when_it_expires(
    service: TableService, clock: FakeClock, notifier: RecordingNotifier
) -> None:
    table_id = await open_dutch(service, [ANN, BOB], target=1)
    await play_match(service, table_id, clock)
    assert notifier.of("table_closed") == []
    await clock.advance(service.timers.finished_keep_seconds)
    assert notifier.of("table_closed") == [(table_id,)]
    assert not service.has_table(table_id)
    with pytest.raises(TableError, match="no_table"):
        service.public_snapshot(table_id)
