"""A player's only legal move played for them (Euchre's last card, a lone card of the led suit)
after a short, visible moment, stored first as every move, unless they turned it off; and the
Dame de Pique knock announced for a player who chose it, before their discard, when their hand
could go out next turn (`/deck auto_play`, `/deck auto_knock`)."""

from __future__ import annotations

import random
from collections.abc import Callable
from pathlib import Path

from bot.service import PLAYING, FakeClock, RecordingNotifier, TableService
from bot.service.timers import AUTO_PLAY_SECONDS
from storage import PlayerPreferences, Store
from tests.bot.service.conftest import ANN, CHANNEL, GUILD
from tests.games.dame.stacking import stacked_deck


async def _euchre_with_bots(service: TableService) -> int:
    """Ann (N) and three bot players, the hand started and the bots' moves played."""
    table = await service.seating.open_table(GUILD, CHANNEL, ANN, "euchre", target=50)
    for _ in range(3):
        await service.seating.add_bot(table.table_id, ANN.user_id)
    await service.seating.start(table.table_id, ANN.user_id)
    await service.followup.settle(table.table_id)
    return table.table_id


async def _to_anns_forced_play(service: TableService, table_id: int) -> str:
    """Ann plays a choice (the first offered) until her only legal move is a card; returns it."""
    for _ in range(200):
        await service.followup.settle(table_id)
        snapshot = service.public_snapshot(table_id)
        assert snapshot.status == PLAYING and snapshot.to_act == (0,)
        mine = await service.play.private_view(table_id, ANN.user_id)
        if len(mine.legal) == 1:
            return mine.legal[0]
        assert snapshot.round_no is not None
        await service.play.act(table_id, ANN.user_id, snapshot.round_no, mine.legal[0])
    raise AssertionError("Ann never had a single legal move")


async def test_an_only_legal_card_plays_by_itself_after_a_visible_moment_stored_first(
    service: TableService, store: Store, clock: FakeClock
) -> None:
    table_id = await _euchre_with_bots(service)
    forced = await _to_anns_forced_play(service, table_id)
    assert forced.startswith("play ")
    mine = await service.play.private_view(table_id, ANN.user_id)
    assert mine.auto_play == forced and mine.auto_play_at == clock.now() + AUTO_PLAY_SECONDS
    round_no = service.public_snapshot(table_id).round_no
    assert round_no is not None
    played_before = len((await store.load_round(table_id, round_no)).actions)
    await clock.advance(AUTO_PLAY_SECONDS - 0.5)
    assert service.public_snapshot(table_id).to_act == (0,)  # shown, not yet played
    await clock.advance(0.5)
    actions = (await store.load_round(table_id, round_no)).actions
    assert actions[played_before] == (0, forced)  # stored, in its place
    log = service.public_snapshot(table_id).log
    assert not [e for e in log if e.kind in ("timeout", "away")]  # neither timed out nor away


async def test_a_player_who_turned_auto_play_off_clicks_their_only_card(
    service: TableService, store: Store, clock: FakeClock
) -> None:
    service.choices.chose(PlayerPreferences(user_id=ANN.user_id, auto_play=False))
    table_id = await _euchre_with_bots(service)
    forced = await _to_anns_forced_play(service, table_id)
    mine = await service.play.private_view(table_id, ANN.user_id)
    assert mine.auto_play is None and mine.auto_play_at is None
    await clock.advance(AUTO_PLAY_SECONDS * 5)
    assert service.public_snapshot(table_id).to_act == (0,)  # still waits for her click
    round_no = service.public_snapshot(table_id).round_no
    assert round_no is not None
    result = await service.play.act(table_id, ANN.user_id, round_no, forced)
    assert result.notation == forced


async def test_clicking_the_only_card_first_plays_it_once(
    service: TableService, store: Store, clock: FakeClock
) -> None:
    table_id = await _euchre_with_bots(service)
    forced = await _to_anns_forced_play(service, table_id)
    round_no = service.public_snapshot(table_id).round_no
    assert round_no is not None
    before = len((await store.load_round(table_id, round_no)).actions)
    await service.play.act(table_id, ANN.user_id, round_no, forced)
    await service.followup.settle(table_id)
    after = (await store.load_round(table_id, round_no)).actions
    await clock.advance(AUTO_PLAY_SECONDS)  # the timer armed for it finds nothing to play
    await service.followup.settle(table_id)
    assert after[before] == (0, forced)
    stored = (await store.load_round(table_id, round_no)).actions
    assert stored.count((0, forced)) == 1  # a card is played once in a hand


async def test_a_whole_hand_of_forced_last_cards_needs_no_click_for_them(
    service: TableService, store: Store, clock: FakeClock
) -> None:
    """Ann clicks only where she has a choice: every forced card, the last one of the hand
    included, is played for her, and the hand ends."""
    table_id = await _euchre_with_bots(service)
    rng = random.Random(3)
    for _ in range(200):
        await service.followup.settle(table_id)
        snapshot = service.public_snapshot(table_id)
        if snapshot.status != PLAYING:
            break
        mine = await service.play.private_view(table_id, ANN.user_id)
        if mine.auto_play is not None:
            await clock.advance(AUTO_PLAY_SECONDS)
            continue
        assert snapshot.round_no is not None
        assert len(mine.legal) > 1  # a single legal card would be on its way by itself
        await service.play.act(table_id, ANN.user_id, snapshot.round_no, rng.choice(mine.legal))
    assert service.public_snapshot(table_id).status != PLAYING  # the hand is over


PACKS_AND_A_NINE = "3S 3H 3D 4S 4H 4D 5S 5H 5D 6S 6H 6D 9C"
TWO_PACKS_AND_CLUBS = "3S 3H 3D 4S 4H 4D 7C 8C 9C 10C JC KC AC"


async def _dame_with_bots(service: TableService, hand: str) -> tuple[int, int]:
    """Ann (seat 0, who plays fourth) holding `hand`, and three bot players; returns the
    table and its round once it is Ann's turn."""
    table = await service.seating.open_table(GUILD, CHANNEL, ANN, "dame", target=5000)
    for _ in range(3):
        await service.seating.add_bot(table.table_id, ANN.user_id)
    service.stack_deck(table.table_id, stacked_deck({0: hand}))
    await service.seating.start(table.table_id, ANN.user_id)
    await service.followup.settle(table.table_id)
    snapshot = service.public_snapshot(table.table_id)
    assert snapshot.to_act == (0,) and snapshot.round_no is not None
    return table.table_id, snapshot.round_no


async def _lay_and_discard(
    service: TableService, table_id: int, round_no: int, ranks: str, discard: str | None
) -> str:
    """Ann draws, lays her three cards of each of `ranks` (a new pack, or onto her partner's)
    and discards `discard` (None: the card she drew); returns the discard played."""
    await service.play.act(table_id, ANN.user_id, round_no, "draw")
    for rank in ranks.split():
        mine = await service.play.private_view(table_id, ANN.user_id)
        laid = " ".join(f"{rank}{suit}" for suit in "SHD")
        on_pack = mine.view.legal is not None and rank in mine.view.legal.add_ranks
        move = f"add {rank} {laid}" if on_pack else f"meld {laid}"
        await service.play.act(table_id, ANN.user_id, round_no, move)
    if discard is None:
        mine = await service.play.private_view(table_id, ANN.user_id)
        (drawn,) = [code for code in mine.view.hand if code != "9C"]
        discard = drawn.split("#")[0]
    result = await service.play.act(table_id, ANN.user_id, round_no, f"discard {discard}")
    return result.notation


async def test_the_knock_is_made_before_the_discard_of_a_player_who_chose_it(
    service: TableService, store: Store
) -> None:
    service.choices.chose(PlayerPreferences(user_id=ANN.user_id, auto_knock=True))
    table_id, round_no = await _dame_with_bots(service, PACKS_AND_A_NINE)
    discard = await _lay_and_discard(service, table_id, round_no, "3 4 5 6", None)
    # she keeps the 9♣: a 3 to 6 or a wild card drawn next turn goes on a pack, the 9 is
    # discarded, and she is out
    actions = (await store.load_round(table_id, round_no)).actions
    ann = [notation for seat, notation in actions if seat == 0]
    assert ann[-2:] == ["announce", discard]
    snapshot = service.public_snapshot(table_id)
    assert snapshot.view is not None and snapshot.view.announced[0]
    assert any(e.kind == "announce" and e.seat == 0 for e in snapshot.log)


async def test_no_knock_is_made_for_a_player_who_did_not_choose_it(
    service: TableService, store: Store
) -> None:
    table_id, round_no = await _dame_with_bots(service, PACKS_AND_A_NINE)
    await _lay_and_discard(service, table_id, round_no, "3 4 5 6", None)
    actions = (await store.load_round(table_id, round_no)).actions
    assert "announce" not in [notation for seat, notation in actions if seat == 0]


async def test_no_knock_is_made_when_the_hand_kept_could_not_go_out_next_turn(
    service: TableService, store: Store
) -> None:
    service.choices.chose(PlayerPreferences(user_id=ANN.user_id, auto_knock=True))
    table_id, round_no = await _dame_with_bots(service, TWO_PACKS_AND_CLUBS)
    await _lay_and_discard(service, table_id, round_no, "3 4", "AC")  # six lone clubs kept
    actions = (await store.load_round(table_id, round_no)).actions
    assert [notation for seat, notation in actions if seat == 0][-1] == "discard AC"
    assert "announce" not in [notation for seat, notation in actions if seat == 0]


async def test_a_forced_card_pending_at_a_restart_plays_by_itself_after_it(
    service: TableService, store: Store, db_path: Path, seeds: Callable[[], int]
) -> None:
    table_id = await _euchre_with_bots(service)
    forced = await _to_anns_forced_play(service, table_id)
    round_no = service.public_snapshot(table_id).round_no
    assert round_no is not None
    played = len((await store.load_round(table_id, round_no)).actions)
    await service.close()
    await store.close()

    again_store = await Store.open(db_path, synchronous="NORMAL")
    clock = FakeClock(start=2_000_000_000.0)
    again = TableService(again_store, clock, RecordingNotifier(), seeds)
    try:
        await again.restoring.restore()
        mine = await again.play.private_view(table_id, ANN.user_id)
        assert mine.auto_play == forced and mine.auto_play_at == clock.now() + AUTO_PLAY_SECONDS
        await clock.advance(AUTO_PLAY_SECONDS)
        await again.followup.settle(table_id)
        actions = (await again_store.load_round(table_id, round_no)).actions
        assert actions[played] == (0, forced)
    finally:
        await again.close()
        await again_store.close()
