"""Stacked Dutch decks for scenario tests: name each seat's grid, the discard and the stock top."""

from __future__ import annotations

from typing import Any

from games.cards import Card, cards
from games.contract import RoundSetup
from games.dutch import GAME, DutchRound


def stacked_deck(preset: str, grids: list[str], discard: str, stock: str = "") -> list[Card]:
    """Seat s gets grids[s] (slots 1-4), then the discard's first card, then the stock top
    first; the remaining cards of the deck follow in their usual order."""
    chosen = [c for grid in grids for c in cards(grid)] + cards(discard) + cards(stock)
    used = set(chosen)
    assert len(used) == len(chosen), "a card is stacked twice"
    return chosen + [c for c in GAME.deck(GAME.options(preset)) if c not in used]


def deal(
    preset: str,
    grids: list[str],
    discard: str,
    stock: str = "",
    *,
    dealer: int | None = None,
    totals: tuple[int, ...] = (),
    round_no: int = 0,
    peek: bool = True,
    **changes: Any,
) -> DutchRound:
    """A round from a stacked deck; the dealer defaults to the last seat so seat 0 starts.
    With `peek`, every seat does its default peek first."""
    n = len(grids)
    options = GAME.options(preset, **changes)
    setup = RoundSetup(
        n_seats=n, dealer=n - 1 if dealer is None else dealer, round_no=round_no, totals=totals
    )
    round_ = GAME.new_round(options, setup, deck=stacked_deck(preset, grids, discard, stock))
    assert isinstance(round_, DutchRound)
    if peek:
        for seat in range(n):
            round_.apply(seat, "peek 3 4")
    return round_


def play(round_: DutchRound, *moves: str) -> None:
    """Apply `seat:notation`-free moves for whoever's turn it is."""
    for move in moves:
        round_.apply(round_.to_act()[0], move)


def slot_cards(round_: DutchRound, seat: int) -> list[str | None]:
    """The engine's true cards of a seat (for assertions; never what a player sees)."""
    return [c.name if c is not None else None for c in round_.grids[seat]]
