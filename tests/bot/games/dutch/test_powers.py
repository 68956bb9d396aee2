"""Dutch's Queen, Jack and 9 powers on "My cards": each card a button, a row per player, so a
Queen's look is one click and a Jack's or a 9's swap two ("Swap your card N…", then the other
card); when the rows do not fit a message, the shared menu's selects stay."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from bot.pictures.card_faces import BACK
from bot.render.actions import MAX_ROWS, ButtonSpec, SelectSpec
from bot.render.card_text import card_emoji
from bot.render.private import render_private
from bot.ui.custom_ids import Kind, parse
from games.contract import RoundSetup
from games.dutch import GAME
from tests.bot.render.pictures import MARKUP, card_pictures
from tests.bot.render.snapshots import NAMES, private, public


def _power(rank: str, n_seats: int, preset: str = "classic") -> tuple[Any, Any, Any]:
    """Every peek done, the first player drew a `rank` from the stock and (classic rules, a
    Queen or a Jack) discarded it; its power is pending. Returns the round, that player's
    view, the table."""
    options = GAME.options(preset)
    deck = list(GAME.deck(options))
    stock_top = 4 * n_seats + 1  # after the grids and the discard's first card
    wanted = next(i for i, card in enumerate(deck) if str(card) == f"{rank}S")
    deck[stock_top], deck[wanted] = deck[wanted], deck[stock_top]
    round_ = GAME.new_round(options, RoundSetup(n_seats=n_seats), deck=deck)
    for seat in range(n_seats):
        round_.apply(seat, round_.legal_actions(seat)[0])  # the start peek
    seat = round_.to_act()[0]
    round_.apply(seat, "draw")
    if preset == "classic":
        round_.apply(seat, "discard")
    snapshot = replace(public(round_, n_seats=n_seats), preset=preset, options=options.model_dump())
    return round_, private(round_, seat), snapshot


def _played(components: Any) -> list[str]:
    return [
        parse(c.custom_id).text
        for c in components
        if isinstance(c, ButtonSpec) and parse(c.custom_id).kind is Kind.PLAY
    ]


@pytest.mark.parametrize("language", ["en", "fr"])
def test_a_queens_look_is_one_button_per_card_a_row_per_player(language: str) -> None:
    round_, mine, table = _power("Q", 4)
    assert mine.view.phase == "power" and mine.view.power == "queen"
    with card_pictures():
        rendered = render_private(mine, table, language)
    components = rendered.components
    assert not any(isinstance(c, SelectSpec) for c in components)
    looks = [a for a in mine.legal if a.startswith("look ")]
    beside = {parse(s.button.custom_id).text: s for s in rendered.sections}
    mine_looks = [a for a in looks if a.startswith(f"look {mine.seat}:")]
    assert list(beside) == mine_looks  # the player's own cards beside their looks
    assert len(looks) == 16
    others_looks = [a for a in looks if a not in mine_looks]
    assert sorted(_played(components)) == sorted([*others_looks, "skip"])
    buttons = {parse(c.custom_id).text: c for c in components if isinstance(c, ButtonSpec)}
    others = sorted({int(a.split()[1].split(":")[0]) for a in looks} - {mine.seat})
    for look in looks:
        seat, slot = (int(n) for n in look.split()[1].split(":"))
        if seat == mine.seat:  # a card the player does not know: its back beside its look
            assert beside[look].text == f"**{slot}** {MARKUP[BACK]}"
        else:  # the skip's row, then one row per other player
            assert buttons[look].row == 1 + others.index(seat)
            assert buttons[look].emoji == MARKUP[BACK]  # a card the player does not know
    own = f"look {mine.seat}:2"
    assert beside[own].button.label == {"en": "Look", "fr": "Regarder"}[language]
    assert max(c.row for c in components) < MAX_ROWS
    # the click plays the power: the card is shown to the player
    round_.apply(mine.seat, parse(beside[own].button.custom_id).text)
    assert [r for r in round_.view(mine.seat).reveals if r.slot == 2]


def test_a_jacks_swap_is_your_card_then_the_other_card_two_buttons() -> None:
    round_, mine, table = _power("J", 4)
    assert mine.view.power == "jack"
    with card_pictures():
        rendered = render_private(mine, table, "en")
        top = rendered.components
        steps = [s.button for s in rendered.sections]  # each own card beside its first step
        assert all(parse(c.custom_id).kind is Kind.NAVIGATE for c in steps)
        own = [parse(c.custom_id).text for c in steps]
        assert own == ["jack 1", "jack 2", "jack 3", "jack 4"]
        assert [c.label for c in steps] == ["Swap unseen…"] * 4
        assert [s.text for s in rendered.sections] == [
            f"**{n}** {MARKUP[BACK]}" for n in range(1, 5)
        ]
        assert _played(top) == ["skip"] and not any(isinstance(c, SelectSpec) for c in top)
        stage = render_private(mine, table, "en", prefix="jack 2").components
    swaps = [a for a in mine.legal if a.startswith("jack 2 ")]
    assert len(swaps) == 12 and _played(stage) == swaps
    others = {int(a.split()[2].split(":")[0]) for a in swaps}
    assert len({c.row for c in stage if parse(c.custom_id).kind is Kind.PLAY}) == len(others)
    target = next(c for c in stage if isinstance(c, ButtonSpec) and c.custom_id.endswith(swaps[0]))
    seat, slot = swaps[0].split()[2].split(":")
    assert target.label == f"Swap your card 2 with {NAMES[int(seat)]}'s card {slot}"
    back = stage[-1]
    assert isinstance(back, ButtonSpec) and parse(back.custom_id).kind is Kind.NAVIGATE
    assert parse(back.custom_id).text == ""
    # the click plays the whole swap: the turn passes
    before = round_.to_act()
    round_.apply(mine.seat, parse(target.custom_id).text)
    assert round_.to_act() != before and round_.view(mine.seat).phase == "start"


def test_when_the_players_rows_do_not_fit_the_shared_selects_stay() -> None:
    """Five players: a skip row and five rows of looks are more than a message's five rows;
    six: five rows of other players' cards and the back button too."""
    _, queen, table = _power("Q", 5)
    components = render_private(queen, table, "en").components
    assert _played(components) == ["skip"]
    (select,) = [c for c in components if isinstance(c, SelectSpec)]
    assert [value for _, value in select.options] == [a for a in queen.legal if a != "skip"]
    _, jack, table = _power("J", 6)
    stage = render_private(jack, table, "en", prefix="jack 1").components
    (select,) = [c for c in stage if isinstance(c, SelectSpec)]  # 20 other cards: the select
    assert [value for _, value in select.options] == [
        a for a in jack.legal if a.startswith("jack 1 ")
    ]
    top = render_private(jack, table, "en").sections
    assert [parse(s.button.custom_id).text for s in top] == [
        f"jack {n}" for n in range(1, 5)
    ]  # your own card still a button, beside the card


def test_a_nines_swap_under_house_rules_is_your_card_or_the_9_then_the_other_card() -> None:
    round_, mine, table = _power("9", 4, preset="house")
    assert mine.view.phase == "drawn" and mine.view.held == "9S"
    with card_pictures():
        rendered = render_private(mine, table, "en")
        top = rendered.components
        steps = [
            c
            for c in top
            if isinstance(c, ButtonSpec)
            and parse(c.custom_id).kind is Kind.NAVIGATE
            and parse(c.custom_id).text not in ("", "dutch")  # not Refresh nor Call Dutch…
        ]
        assert [parse(c.custom_id).text for c in steps] == [
            "nine drawn",
            *(f"nine {n}" for n in range(1, 5)),
        ]
        assert [c.label for c in steps] == [
            "Give the 9…",
            *(f"Swap your card {n}…" for n in range(1, 5)),
        ]
        assert steps[0].emoji == card_emoji("9S") and steps[1].emoji == MARKUP[BACK]
        assert len({c.row for c in steps}) == 1
        # the usual moves beside the cards they place, above
        assert "swap 1;end" in _played([s.button for s in rendered.sections])
        stage = render_private(mine, table, "en", prefix="nine drawn").components
    given = [a for a in mine.legal if a.startswith("nine drawn ")]
    assert len(given) == 12 and _played(stage) == given
    assert not any(isinstance(c, SelectSpec) for c in stage)
    # the click gives the 9 away: the other card is held instead
    round_.apply(mine.seat, _played(stage)[0])
    assert round_.view(mine.seat).held_from == "nine"
    # six players: five rows of other players' cards and Back do not fit, the select stays
    _, six, table = _power("9", 6, preset="house")
    stage = render_private(six, table, "en", prefix="nine 3").components
    (select,) = [c for c in stage if isinstance(c, SelectSpec)]
    assert [value for _, value in select.options] == [
        a for a in six.legal if a.startswith("nine 3 ")
    ]
