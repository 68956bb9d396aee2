"""Each player's deck in memory: read from the store's rows at start, changed by a choice,
back to two colours when the player is forgotten."""

from __future__ import annotations

from bot.ui.decks import PlayerDecks
from storage.models import PlayerPreferences


def test_the_kept_choices_are_read_once_and_a_new_choice_or_a_forget_changes_one_player() -> None:
    decks = PlayerDecks()
    assert decks.of(1) == "two"  # nobody chose: two colours
    decks.load([PlayerPreferences(user_id=1, deck="four"), PlayerPreferences(user_id=2)])
    assert (decks.of(1), decks.of(2), decks.of(3)) == ("four", "two", "two")
    decks.chose(3, "four")
    decks.chose(1, "two")
    assert (decks.of(1), decks.of(3)) == ("two", "four")
    decks.forget(3)
    assert decks.of(3) == "two"
