"""Practice tables with a coach (issue #40 §1): the `coach` option is kept with the table's
options (and survives a restart), the table's messages say it is a practice table, unrated,
and its finished match changes no rating, leaderboard or season."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from bot.render.table import render_table
from bot.service import ROUND_OVER, FakeClock, RecordingNotifier, TableError, TableService
from bot.snapshots import PlayerRef
from storage import Store
from tests.bot.service.conftest import ANN, BOB, CHANNEL, GUILD, end_round_quickly
from tests.bot.service.test_match import play_match


async def test_a_table_has_no_coach_unless_asked(service: TableService) -> None:
    snapshot = await service.seating.open_table(GUILD, CHANNEL, ANN, "dutch")
    assert not snapshot.coach and not service._table(snapshot.table_id).coach
    assert "unrated" not in render_table(snapshot, "en").embed.title


async def test_the_coach_option_survives_a_restart(
    service: TableService, store: Store, db_path: Path, seeds: Callable[[], int]
) -> None:
    snapshot = await service.seating.open_table(GUILD, CHANNEL, ANN, "dutch", coach=True)
    await service.seating.join(snapshot.table_id, BOB)
    options = service._table(snapshot.table_id).options
    await store.close()
    reopened = await Store.open(db_path, synchronous="NORMAL")
    try:
        again = TableService(reopened, FakeClock(), RecordingNotifier(), seeds)
        await again.restoring.restore()
        table = again._table(snapshot.table_id)
        assert table.coach and table.options == options  # not mixed into the game's options
        assert again.public_snapshot(snapshot.table_id).coach
    finally:
        await again.close()
        await reopened.close()


async def test_a_coached_tables_lobby_and_table_message_say_it_is_unrated(
    service: TableService,
) -> None:
    lobby = await service.seating.open_table(GUILD, CHANNEL, ANN, "euchre", coach=True)
    for language, words in (("en", "(unrated)"), ("fr", "(sans classement)")):
        assert words in render_table(lobby, language).embed.title
    await service.seating.fill_with_bots(lobby.table_id, ANN.user_id)
    await service.seating.start(lobby.table_id, ANN.user_id)
    await service.followup.settle(lobby.table_id)
    playing = service.public_snapshot(lobby.table_id)
    assert "(unrated)" in render_table(playing, "en").embed.title


async def test_a_coached_match_is_kept_for_history_and_changes_no_rating(
    service: TableService, store: Store, clock: FakeClock
) -> None:
    snapshot = await service.seating.open_table(GUILD, CHANNEL, ANN, "dutch", target=30, coach=True)
    await service.seating.join(snapshot.table_id, BOB)
    await service.seating.start(snapshot.table_id, ANN.user_id)
    final = await play_match(service, snapshot.table_id, clock)
    assert final.winners
    assert await store.leaderboard(GUILD, "dutch") == []
    for player in (ANN, BOB):
        assert (await store.player_stats(GUILD, player.user_id, "dutch")).games == []
        (played,) = await store.recent_matches(GUILD, player.user_id)
        assert played.rating_before == played.rating_after


async def coached_euchre(service: TableService) -> int:
    """A coached Euchre table, Ann with three bot players, started, bots settled."""
    lobby = await service.seating.open_table(GUILD, CHANNEL, ANN, "euchre", coach=True)
    await service.seating.fill_with_bots(lobby.table_id, ANN.user_id)
    await service.seating.start(lobby.table_id, ANN.user_id)
    await service.followup.settle(lobby.table_id)
    return lobby.table_id


async def test_a_hint_is_the_strong_bots_move_for_the_players_seat_now(
    service: TableService,
) -> None:
    table_id = await coached_euchre(service)
    public = service.public_snapshot(table_id)
    seat = public.seat_of(ANN.user_id)
    assert seat is not None and public.turn == seat  # the bots wait for Ann
    hinted_seat, hint = await service.hint(table_id, ANN.user_id, public.round_no or 0)
    assert hinted_seat == seat
    round_ = service._table(table_id).round
    assert round_ is not None
    assert hint.move in [str(move) for move in round_.legal_actions(seat)]
    assert hint.reason is not None


@pytest.mark.parametrize(
    ("who", "when", "refusal"),
    [
        (BOB, "now", "not_seated"),
        (ANN, "earlier", "stale_button"),
    ],
)
async def test_a_hint_is_refused_to_someone_not_seated_or_for_an_earlier_round(
    service: TableService, who: PlayerRef, when: str, refusal: str
) -> None:
    table_id = await coached_euchre(service)
    round_no = service.public_snapshot(table_id).round_no or 0
    with pytest.raises(TableError) as refused:
        await service.hint(table_id, who.user_id, round_no + (1 if when == "earlier" else 0))
    assert refused.value.key == refusal


async def test_a_hint_is_refused_when_it_is_not_the_players_turn(service: TableService) -> None:
    snapshot = await service.seating.open_table(GUILD, CHANNEL, ANN, "dutch", coach=True)
    await service.seating.join(snapshot.table_id, BOB)
    await service.seating.start(snapshot.table_id, ANN.user_id)
    await service.play.act(snapshot.table_id, ANN.user_id, 0, "peek 3 4")
    await service.play.act(snapshot.table_id, BOB.user_id, 0, "peek 3 4")
    public = service.public_snapshot(snapshot.table_id)
    waiting = next(p for p in (ANN, BOB) if public.seat_of(p.user_id) != public.turn)
    with pytest.raises(TableError) as refused:
        await service.hint(snapshot.table_id, waiting.user_id, public.round_no or 0)
    assert refused.value.key == "not_your_turn"


async def test_a_table_without_a_coach_gives_no_hint(service: TableService) -> None:
    lobby = await service.seating.open_table(GUILD, CHANNEL, ANN, "euchre")
    await service.seating.fill_with_bots(lobby.table_id, ANN.user_id)
    await service.seating.start(lobby.table_id, ANN.user_id)
    await service.followup.settle(lobby.table_id)
    with pytest.raises(TableError) as refused:
        await service.hint(lobby.table_id, ANN.user_id, 0)
    assert refused.value.key == "coach.not_coached"


@pytest.mark.parametrize("coach", [True, False])
async def test_after_each_hand_a_coached_table_offers_each_player_the_review_of_their_play(
    service: TableService, store: Store, coach: bool
) -> None:
    """The round's end on the table message carries /history's "Review my play" button for
    that hand (each player who clicks it gets the review of their own seat, costly moves
    listed); a table without a coach does not."""
    snapshot = await service.seating.open_table(GUILD, CHANNEL, ANN, "dutch", coach=coach)
    await service.seating.join(snapshot.table_id, BOB)
    await service.seating.start(snapshot.table_id, ANN.user_id)
    await end_round_quickly(service, snapshot.table_id)
    over = service.public_snapshot(snapshot.table_id)
    assert over.status == ROUND_OVER and over.last_round is not None
    buttons = render_table(over, "fr").components
    offered = [b for b in buttons if b.custom_id.startswith("rpr:")]
    if not coach:
        assert not offered
        return
    (button,) = offered
    assert button.custom_id == f"rpr:{snapshot.table_id}:{over.last_round.round_no}"
    assert button.label == "Analyser mon jeu"
    hand = await store.finished_hand(snapshot.table_id, over.last_round.round_no)
    assert hand.record.actions  # the hand the button names is stored, finished
