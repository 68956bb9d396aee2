"""A player's only legal move played for them (Euchre's last card, a lone card of the led suit)
after a short, visible moment, stored first as every move, unless they turned it off; and the
Dame de Pique knock announced for a player who chose it, before their discard, when their hand
could go out next turn (`/deck auto_play`, `/deck auto_knock`)."""

from __future__ import annotations

import random

from bot.service import PLAYING, FakeClock, TableService
from bot.service.timers import AUTO_PLAY_SECONDS
from storage import PlayerPreferences, Store
from tests.bot.service.conftest import ANN, CHANNEL, GUILD


async def _euchre_with_bots(service: TableService) -> int:
    """Ann (N) and three bot players, the hand started and the bots' moves played."""
    table = await service.open_table(GUILD, CHANNEL, ANN, "euchre", target=50)
    for _ in range(3):
        await service.add_bot(table.table_id, ANN.user_id)
    await service.start(table.table_id, ANN.user_id)
    await service.settle(table.table_id)
    return table.table_id


async def _to_anns_forced_play(service: TableService, table_id: int) -> str:
    """Ann plays a choice (the first offered) until her only legal move is a card; returns it."""
    for _ in range(200):
        await service.settle(table_id)
        snapshot = service.public_snapshot(table_id)
        assert snapshot.status == PLAYING and snapshot.to_act == (0,)
        mine = await service.private_view(table_id, ANN.user_id)
        if len(mine.legal) == 1:
            return mine.legal[0]
        assert snapshot.round_no is not None
        await service.act(table_id, ANN.user_id, snapshot.round_no, mine.legal[0])
    raise AssertionError("Ann never had a single legal move")


async def test_an_only_legal_card_plays_by_itself_after_a_visible_moment_stored_first(
    service: TableService, store: Store, clock: FakeClock
) -> None:
    table_id = await _euchre_with_bots(service)
    forced = await _to_anns_forced_play(service, table_id)
    assert forced.startswith("play ")
    mine = await service.private_view(table_id, ANN.user_id)
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
    mine = await service.private_view(table_id, ANN.user_id)
    assert mine.auto_play is None and mine.auto_play_at is None
    await clock.advance(AUTO_PLAY_SECONDS * 5)
    assert service.public_snapshot(table_id).to_act == (0,)  # still waits for her click
    round_no = service.public_snapshot(table_id).round_no
    assert round_no is not None
    result = await service.act(table_id, ANN.user_id, round_no, forced)
    assert result.notation == forced


async def test_clicking_the_only_card_first_plays_it_once(
    service: TableService, store: Store, clock: FakeClock
) -> None:
    table_id = await _euchre_with_bots(service)
    forced = await _to_anns_forced_play(service, table_id)
    round_no = service.public_snapshot(table_id).round_no
    assert round_no is not None
    before = len((await store.load_round(table_id, round_no)).actions)
    await service.act(table_id, ANN.user_id, round_no, forced)
    await service.settle(table_id)
    after = (await store.load_round(table_id, round_no)).actions
    await clock.advance(AUTO_PLAY_SECONDS)  # the timer armed for it finds nothing to play
    await service.settle(table_id)
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
        await service.settle(table_id)
        snapshot = service.public_snapshot(table_id)
        if snapshot.status != PLAYING:
            break
        mine = await service.private_view(table_id, ANN.user_id)
        if mine.auto_play is not None:
            await clock.advance(AUTO_PLAY_SECONDS)
            continue
        assert snapshot.round_no is not None
        assert len(mine.legal) > 1  # a single legal card would be on its way by itself
        await service.act(table_id, ANN.user_id, snapshot.round_no, rng.choice(mine.legal))
    assert service.public_snapshot(table_id).status != PLAYING  # the hand is over
