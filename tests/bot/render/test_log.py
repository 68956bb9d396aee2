"""The public log in words: an entry is worded once per way of writing it and remembered, but
never served in another language, with other names or with its cards written otherwise."""

from __future__ import annotations

import pytest

from bot.games.dame.render import log_lines
from bot.games.dutch import render as dutch
from bot.render import log
from bot.render.log import table_line
from bot.service._live_table import LiveTable
from bot.snapshots import LogEntry
from games.registry import get_game
from tests.bot.render.pictures import MARKUP, card_pictures


def test_a_remembered_entry_is_worded_again_for_another_language_names_or_card_pictures() -> None:
    discard = LogEntry("discard", seat=0, data={"card": "7H"})
    assert log_lines([discard], ("Ann", "Bob"), "en") == ["**Ann**: discarded 7♥"]
    assert log_lines([discard], ("Ann", "Bob"), "en") == ["**Ann**: discarded 7♥"]
    assert log_lines([discard], ("Zoé", "Bob"), "en") == ["**Zoé**: discarded 7♥"]
    assert "7♥" in log_lines([discard], ("Ann", "Bob"), "fr")[0]
    assert log_lines([discard], ("Ann", "Bob"), "fr") != log_lines([discard], ("Ann",), "en")
    with card_pictures():
        assert log_lines([discard], ("Ann", "Bob"), "en") == [f"**Ann**: discarded {MARKUP['7H']}"]
    assert log_lines([discard], ("Ann", "Bob"), "en") == ["**Ann**: discarded 7♥"]


def test_a_remembered_entry_naming_another_seat_follows_its_name() -> None:
    look = LogEntry("look", seat=0, data={"seat": 1, "slot": 2})
    assert dutch.log_lines([look], ("Ann", "Bob"), "en") == ["**Ann**: looked at Bob's card 2"]
    assert dutch.log_lines([look], ("Ann", "Eve"), "en") == ["**Ann**: looked at Eve's card 2"]


def test_the_french_log_says_cards_3_et_4_and_elides_before_a_vowel() -> None:
    """French writes "les cartes 3 et 4" (not "3 & 4") and "la carte 2 d'Ève"."""
    peek = LogEntry("peek", seat=0, data={"slots": [3, 4]})
    assert dutch.log_lines([peek], ("Ann", "Bob"), "en") == ["**Ann**: peeked at cards 3 & 4"]
    assert dutch.log_lines([peek], ("Ann", "Bob"), "fr") == [
        "**Ann** : a regardé les cartes 3 et 4"
    ]
    look = LogEntry("look", seat=0, data={"seat": 1, "slot": 2})
    assert dutch.log_lines([look], ("Ann", "Ève"), "fr") == ["**Ann** : a regardé la carte 2 d'Ève"]


def test_a_remembered_table_event_follows_the_language_and_the_names() -> None:
    timeout = LogEntry("timeout", seat=1, source="table")
    assert table_line(timeout, ("Ann", "Bob"), "en") == "Bob ran out of time."
    assert table_line(timeout, ("Ann", "Eve"), "en") == "Eve ran out of time."
    assert table_line(timeout, ("Ann", "Eve"), "fr") != "Eve ran out of time."
    assert table_line(timeout, ("Ann", "Bob"), "en") == "Bob ran out of time."


def test_the_entries_remembered_are_the_latest_worded_and_no_more(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(log, "WORDED_KEPT", 3)
    entries = [LogEntry("timeout", seat=0, source="table") for _ in range(5)]
    for entry in entries:
        table_line(entry, ("Ann",), "en")
    table_line(entries[2], ("Ann",), "en")  # used again: the last to go
    kept = [found[0] for found in log._worded.values()]
    assert len(kept) == 3 and kept[-1] is entries[2]
    assert all(entry is not entries[0] and entry is not entries[1] for entry in kept)


def test_an_entry_worded_two_ways_is_remembered_both_ways() -> None:
    """The table message and an Activity page word the same entries with their cards written
    two ways, in turn: neither wording evicts the other."""
    entry = LogEntry("discard", seat=0, data={"card": "7H"})
    calls: list[str] = []

    def phrase(entry: LogEntry, names: object, language: str) -> str:
        calls.append(language)
        return language

    for _ in range(3):
        assert log._said(phrase, entry, ("Ann",), "en", "as text") == "en"
        assert log._said(phrase, entry, ("Ann",), "fr", "as marks") == "fr"
    assert calls == ["en", "fr"]


@pytest.mark.parametrize(
    ("winners", "en", "fr"),
    [
        (
            (1, 3),
            "The match is over: Bot 1 and Bot 3 win.",
            "La partie est finie : Bot 1 et Bot 3 gagnent.",
        ),
        ((0,), "The match is over: Ann wins.", "La partie est finie : Ann gagne."),
    ],
)
def test_the_match_over_line_says_the_pair_won_in_the_plural_and_one_winner_in_the_singular(
    winners: tuple[int, ...], en: str, fr: str
) -> None:
    over = LogEntry("match_over", None, {"winners": list(winners)}, "table")
    names = ("Ann", "Bot 1", "Cat", "Bot 3")
    assert table_line(over, names, "en") == en
    assert table_line(over, names, "fr") == fr


def test_a_turn_of_many_clicks_shows_as_one_whole_line_in_last_actions() -> None:
    """A player's turn in several clicks (drew, laid, knocked, discarded) followed by three
    bot players' turns: the log keeps the turn whole, never its tail ("knocked; discarded")."""
    game = get_game("dame")
    table = LiveTable(1, 1, 1, game, None, game.options(), 1, [])
    names = ("Alice", "Bot 1", "Bot 2", "Bot 3")
    turn = [
        ("drew", {}),
        ("meld", {"cards": ["5H", "5S", "5C"]}),
        ("announce", {}),
        ("discard", {"card": "AH"}),
    ]
    for _ in range(5):  # rounds of turns: the log is trimmed at every entry of a turn
        for seat in range(4):
            for kind, data in turn if seat == 0 else turn[:1] + turn[-1:]:
                table.add_log(LogEntry(kind, seat, data))
                lines = log_lines(tuple(table.log), names, "en")
                assert all(line.split(": ", 1)[1].startswith("drew") for line in lines)
    assert "**Alice**: drew; laid 5♥ 5♠ 5♣; knocked; discarded A♥" in lines


def test_the_host_s_swap_names_both_players_and_a_forgotten_one_as_a_former_player() -> None:
    """A kept log scrubbed by /privacy forget holds an empty name where theirs was."""
    swapped = LogEntry("seats_swapped", data={"names": ["Ann", "Bob"]}, source="table")
    assert table_line(swapped, ("Ann", "Bob"), "en") == "The host swapped seats: Ann ↔ Bob."
    scrubbed = LogEntry("seats_swapped", data={"names": ["", "Bob"]}, source="table")
    assert table_line(scrubbed, ("Bob",), "en") == "The host swapped seats: a former player ↔ Bob."
    left = LogEntry("left", seat=0, data={"name": ""}, source="table")
    assert table_line(left, ("Bob",), "en") == "A former player left."
    assert table_line(left, ("Bob",), "fr").startswith("Un ancien joueur")
