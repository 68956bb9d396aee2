"""Dutch's "My cards" while holding a drawn card: with house rules (the turn goes on after the
discard, for a match or a Dutch call) each swap and the discard are one button that also ends
the turn, and the same moves without the end are in a select; classic rules keep the shared
menu (the turn ends with the discard anyway)."""

from __future__ import annotations

from dataclasses import replace

import pytest

from bot.render.actions import ButtonSpec, SelectSpec
from bot.render.private import render_private
from bot.ui.custom_ids import Kind, moves, parse
from games.dutch import GAME
from tests.bot.render.snapshots import new_round, private, public


def _holding(preset: str) -> tuple[object, object]:
    """Seat 1 (after dealer 0) has drawn from the stock, every peek done."""
    round_ = new_round(n_seats=3, preset=preset)
    for seat in range(3):
        round_.apply(seat, round_.legal_actions(seat)[0])  # the start peek
    seat = round_.to_act()[0]
    round_.apply(seat, "draw")
    snapshot = replace(
        public(round_, n_seats=3), preset=preset, options=GAME.options(preset).model_dump()
    )
    return private(round_, seat), snapshot


@pytest.mark.parametrize("language", ["en", "fr"])
def test_with_house_rules_each_swap_and_the_discard_also_end_the_turn_in_one_click(
    language: str,
) -> None:
    mine, table = _holding("house")
    rendered = render_private(mine, table, language)
    beside = [s.button for s in rendered.sections]  # the held card and each slot
    buttons = beside + [c for c in rendered.components if isinstance(c, ButtonSpec)]
    played = [parse(b.custom_id).text for b in buttons if parse(b.custom_id).kind is Kind.PLAY]
    placed = [a for a in mine.legal if a.split()[0] in ("swap", "discard")]
    assert played == [f"{a};end" for a in placed]
    assert [moves(p) for p in played] == [[a, "end"] for a in placed]
    (keep,) = [c for c in rendered.components if isinstance(c, SelectSpec)]
    assert [value for _, value in keep.options] == placed  # then match or call Dutch
    ends = {"en": ", end turn", "fr": ", finir le tour"}[language]
    assert all(b.label.endswith(ends) for b in buttons if parse(b.custom_id).kind is Kind.PLAY)


def test_with_classic_rules_the_discard_ends_the_turn_and_the_shared_menu_stays() -> None:
    mine, table = _holding("classic")
    rendered = render_private(mine, table, "en")
    played = [
        parse(c.custom_id).text
        for c in [*(s.button for s in rendered.sections), *rendered.components]
        if isinstance(c, ButtonSpec) and parse(c.custom_id).kind is Kind.PLAY
    ]
    assert "discard" in played and not any(";" in p for p in played)


@pytest.mark.parametrize("held", ["QH", "JS"])
def test_with_house_rules_a_discard_that_opens_a_power_does_not_also_end_the_turn(
    held: str,
) -> None:
    """House rules with the classic powers: a Queen or Jack drawn from the stock opens its
    power when discarded, and the turn goes on with it, so its button plays the discard alone
    (a button's moves are played whole or not at all); the swaps still end the turn."""
    mine, table = _holding("house")
    table = replace(table, options={**table.options, "queen_jack_powers": True})
    assert mine.view is not None
    mine = replace(mine, view=replace(mine.view, held=held, held_from="stock"))
    rendered = render_private(mine, table, "en")
    played = [
        parse(c.custom_id).text
        for c in [*(s.button for s in rendered.sections), *rendered.components]
        if isinstance(c, ButtonSpec) and parse(c.custom_id).kind is Kind.PLAY
    ]
    swaps = [a for a in mine.legal if a.split()[0] == "swap"]
    assert "discard" in played and "discard;end" not in played
    assert [p for p in played if p.startswith("swap")] == [f"{a};end" for a in swaps]
