from __future__ import annotations

from collections import Counter

import pytest

from bot.games.dutch.render import action_labeler, piece_labeler
from bot.render.actions import ButtonSpec, MenuText, SelectSpec, action_menu
from bot.ui.custom_ids import MAX_LENGTH, Kind, parse
from tests.bot.render.snapshots import NAMES

JACKS = [
    f"jack {own} {seat}:{slot}"
    for own in range(1, 5)
    for seat in range(1, 10)
    for slot in range(1, 5)
]
LOOKS = [f"look {seat}:{slot}" for seat in range(10) for slot in range(1, 7)]
NINES = [f"nine drawn {seat}:{slot}" for seat in (1, 2) for slot in (1, 2)] + [
    f"nine {own} {seat}:{slot}" for own in (1, 2) for seat in (1, 2) for slot in (1, 2)
]
CASES = {
    "start": ["dutch", "draw", "take"],
    "drawn": ["swap 1", "swap 2", "swap 3", "swap 4", "discard"],
    "penalties": [f"swap {n}" for n in range(1, 8)] + ["discard", "match 2", "match 5"],
    "queen": [*LOOKS, "skip"],
    "jack": [*JACKS, "skip"],
    "nine": [*NINES, "swap 1", "discard"],
    "peek_choice": [f"peek {a} {b}" for a in range(1, 5) for b in range(a + 1, 5)],
}


def labels(language: str = "en") -> MenuText:
    return MenuText(
        action_label=action_labeler(None, NAMES, language),
        piece_label=piece_labeler(None, NAMES, language),
        choose="Choose…",
        back="Back",
    )


def menu(legal: list[str], prefix: str = "") -> list[ButtonSpec | SelectSpec]:
    return action_menu(legal, prefix, table_id=12, round_no=3, labels=labels())


def explore(legal: list[str]) -> tuple[Counter[str], list[str]]:
    """Every action the menu lets a player play (following selects through their stages),
    and every stage visited on the way."""
    found: Counter[str] = Counter()
    stages, seen = [""], []
    while stages:
        prefix = stages.pop()
        if prefix in seen:
            continue
        seen.append(prefix)
        for spec in menu(legal, prefix):
            component = parse(spec.custom_id)
            if isinstance(spec, ButtonSpec) and component.kind is Kind.PLAY:
                found[component.text] += 1
            elif isinstance(spec, SelectSpec):
                for _, value in spec.options:
                    if value in legal:
                        found[value] += 1
                    else:
                        stages.append(value)
    return found, seen


@pytest.mark.parametrize("case", sorted(CASES))
def test_every_legal_action_is_reachable_and_nothing_else(case: str) -> None:
    legal = CASES[case]
    found, _ = explore(legal)
    assert set(found) == set(legal)


@pytest.mark.parametrize("case", sorted(CASES))
def test_menus_respect_discord_limits(case: str) -> None:
    legal = CASES[case]
    _, stages = explore(legal)
    for prefix in stages:
        specs = menu(legal, prefix)
        assert all(0 <= s.row < 5 for s in specs)
        buttons = Counter(s.row for s in specs if isinstance(s, ButtonSpec))
        assert all(n <= 5 for n in buttons.values())
        selects = {s.row for s in specs if isinstance(s, SelectSpec)}
        assert not selects & set(buttons)  # a select fills its row alone
        for spec in specs:
            assert 1 <= len(spec.custom_id) <= MAX_LENGTH
            parse(spec.custom_id)
            if isinstance(spec, SelectSpec):
                assert 1 <= len(spec.options) <= 25
                assert len({v for _, v in spec.options}) == len(spec.options)
                assert all(len(v) <= 100 for _, v in spec.options)
        assert len({s.custom_id for s in specs}) == len(specs)


def test_short_families_are_rows_of_buttons() -> None:
    specs = menu(CASES["drawn"])
    assert all(isinstance(s, ButtonSpec) for s in specs)
    assert [s.label for s in specs] == [
        "Discard it",
        "Swap into card 1",
        "Swap into card 2",
        "Swap into card 3",
        "Swap into card 4",
    ]


def test_a_jack_among_ten_players_is_chosen_card_then_seat_then_slot() -> None:
    top = menu(CASES["jack"])
    (select,) = [s for s in top if isinstance(s, SelectSpec)]
    assert [label for label, _ in select.options] == [f"Your card {n}" for n in range(1, 5)]
    seats = menu(CASES["jack"], "jack 2")[0]
    assert isinstance(seats, SelectSpec)
    assert seats.options[0] == ("Bob", "jack 2 1:")
    slots = menu(CASES["jack"], "jack 2 1:")[0]
    assert isinstance(slots, SelectSpec)
    assert slots.options == tuple(
        (f"Swap your card 2 with Bob's card {n}", f"jack 2 1:{n}") for n in range(1, 5)
    )


def test_labels_are_translated() -> None:
    label = action_labeler(None, NAMES, "fr")
    assert label("draw") == "Piocher"
    assert label("look 1:3") == "Regarder la carte 3 de Bob"
    assert label("nine drawn 2:1") == "Donner le 9 contre la carte 1 de Chloé"


@pytest.mark.parametrize(
    ("preset", "drawn", "label"),
    [
        ("classic", "QH", "Discard Q♥ — look at a card"),
        ("classic", "JD", "Discard J♦ — swap blind"),
        ("classic", "5S", "Discard 5♠"),
        ("classic", "JK", "Discard Joker"),  # a joker has no power: it is no Jack
        ("house", "JD", "Discard J♦"),  # no Jack power in the house rules
    ],
)
def test_discarding_a_stock_card_says_which_power_it_triggers(
    preset: str, drawn: str, label: str
) -> None:
    from games.dutch import GAME
    from tests.games.dutch.stack import deal

    round_ = deal(preset, ["AS 2S 3S 4S", "5C 6C 7C 8C"], "9S", drawn)
    round_.apply(0, "draw")
    powers = GAME.options(preset).queen_jack_powers
    labeled = action_labeler(round_.view(0), NAMES, "en", queen_jack_powers=powers)
    assert labeled("discard") == label
