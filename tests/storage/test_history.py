"""A player's history and finished hands, on both backends: only finished hands are listed or
read; a match in play shows its finished hands only."""

from __future__ import annotations

import pytest

from storage import Store, StoreError
from tests.storage.conftest import ToyTable, finished_match

ANN, BEA, CID = 201, 202, 203


async def test_history_lists_finished_matches_newest_first_with_each_hands_points(
    store: Store,
) -> None:
    first = await finished_match(store, (ANN, BEA), seed=1)
    second = await finished_match(store, (CID, ANN), seed=4)
    await finished_match(store, (BEA, CID), seed=7)  # without Ann
    entries = await store.match_history(1, ANN)
    assert [e.table_id for e in entries] == [second.id, first.id]
    newest = entries[0]
    assert newest.finished and newest.seat == 1
    assert newest.players == [f"player {CID}", f"player {ANN}"]
    assert newest.won == (1 in second.match.winners)
    assert [h.points for h in newest.hands] == [list(p) for p in second.match.state().round_points]
    assert await store.match_history(1, ANN, game="toy", limit=1, offset=1) == entries[1:]
    assert await store.match_history(1, ANN, game="dutch") == []
    assert await store.match_history(2, ANN) == []  # another guild


async def test_a_match_in_play_shows_only_its_finished_hands(store: Store) -> None:
    table = await ToyTable.open(store, users=(ANN, BEA), target=1000)
    assert await store.match_history(1, ANN) == []  # no hand finished yet
    await table.play_round(seed=2)
    await table.new_round(seed=3)
    await table.play("draw")  # a hand in progress
    (entry,) = await store.match_history(1, ANN)
    assert not entry.finished and entry.won is None
    assert [h.round_no for h in entry.hands] == [0]
    hand = await store.finished_hand(table.id, 0)
    assert hand.points == list(table.match.state().round_points[0])
    assert hand.record.actions and hand.names == [f"player {ANN}", f"player {BEA}"]
    with pytest.raises(StoreError, match="no finished hand 1"):
        await store.finished_hand(table.id, 1)  # the round in progress is never read
    with pytest.raises(StoreError):
        await store.finished_hand(table.id, 9)
    assert await store.neighbour_hand(table.id, 0, 1) is None
    assert await store.neighbour_hand(table.id, 0, -1) is None


async def test_a_hand_review_is_kept_per_seat_and_a_new_one_replaces_it(store: Store) -> None:
    table = await finished_match(store, (ANN, BEA), seed=1)
    assert await store.hand_review(table.id, 0, 0) is None
    await store.save_hand_review(table.id, 0, 0, '{"accuracy": 50.0}')
    await store.save_hand_review(table.id, 0, 1, '{"accuracy": 75.0}')
    assert await store.hand_review(table.id, 0, 0) == '{"accuracy": 50.0}'
    await store.save_hand_review(table.id, 0, 0, '{"accuracy": 60.0}')
    assert await store.hand_review(table.id, 0, 0) == '{"accuracy": 60.0}'
    assert await store.hand_review(table.id, 0, 1) == '{"accuracy": 75.0}'
