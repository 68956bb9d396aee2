"""A card a rule showed a seat, recalled later in the round where that seat knows it lies."""

from __future__ import annotations

from games.contract import Event, RoundSetup
from games.euchre import GAME as EUCHRE
from tests.games.dutch.stack import deal, play

TWO = ["AS 2S 3S 4S", "5S 6S 7S 8S"]


def _seen(events: list[Event]) -> list[Event]:
    return [e for e in events if e.kind == "see"]


def test_a_peeked_card_is_recalled_in_its_slot_while_it_stays_there() -> None:
    round_ = deal("classic", TWO, "9S", "10S JH", peek=False)
    peek = _seen(round_.apply(0, "peek 1 2"))
    round_.apply(1, "peek 3 4")
    play(round_, "draw", "swap 3")  # seat 0 keeps slots 1 and 2
    assert round_.recall(0, peek) == peek


def test_a_peeked_card_swapped_out_is_no_longer_recalled() -> None:
    round_ = deal("classic", TWO, "9S", "10S", peek=False)
    peek = _seen(round_.apply(0, "peek 1 2"))
    round_.apply(1, "peek 3 4")
    play(round_, "draw", "swap 1")  # AS goes to the discard pile
    assert round_.recall(0, peek) == [None, peek[1]]


def test_a_looked_at_card_follows_a_jacks_exchange_to_its_new_grid() -> None:
    round_ = deal("classic", TWO, "9S", "QH JH")
    looked = _seen(
        round_.apply(0, "draw") + round_.apply(0, "discard") + round_.apply(0, "look 0:1")
    )
    play(round_, "draw", "discard", "jack 2 0:1")  # seat 1 takes seat 0's AS into its slot 2
    (recalled,) = round_.recall(0, looked)
    assert recalled is not None and dict(recalled.data) == {
        "seat": 1,
        "slot": 2,
        "card": "AS",
        "by": "look",
    }
    assert round_.recall(1, looked) == [None]  # seat 1 never saw it


def test_games_without_lasting_sights_recall_nothing() -> None:
    round_ = EUCHRE.new_round(EUCHRE.options(), RoundSetup(n_seats=4), seed=1)
    assert round_.recall(0, [Event("see", 0, {"card": "9S"})]) == [None]
