"""Euchre's "My cards" moves beside what they concern (Components V2 sections), from stacked
deals: each playable card beside its Play button, the turned card beside "Order it up", the
suits to name beside the cards they would make trumps, the dealer's discard; the buttons are
the menu's own (the same custom ids, none lost), and the message stays within Discord's 40
components in every preset."""

from __future__ import annotations

import random
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest

from bot.games import plugin_for
from bot.games.base import BasePlugin
from bot.render.actions import ButtonSpec
from bot.render.private import render_private
from bot.ui.custom_ids import parse
from bot.ui.dynamic_items import build_view
from bot.ui.layout import COMPONENTS, SECTION, _count, layout_components
from games.contract import RoundSetup
from games.euchre import GAME
from tests.bot.games.euchre.test_render import apply, new_round, public
from tests.bot.render import snapshots
from tests.bot.render.pictures import CARD_TEXT, MARKUP, card_pictures


def mine(round_: Any, seat: int, events: list[Any], language: str = "en") -> Any:
    return render_private(snapshots.private(round_, seat), public(round_, events), language)


def beside(rendered: Any) -> list[tuple[str, str, str]]:
    """Each section's text, its button's label and the move the button plays."""
    return [(s.text, s.button.label, parse(s.button.custom_id).text) for s in rendered.sections]


def custom_ids(rendered: Any) -> list[str]:
    buttons = [s.button for s in rendered.sections] + list(rendered.components)
    return [b.custom_id for b in buttons]


@contextmanager
def every_move_in_rows() -> Iterator[None]:
    """Euchre's "My cards" as it was before its sections: every move in the rows."""
    plugin = plugin_for("euchre")
    own = type(plugin).move_sections
    type(plugin).move_sections = BasePlugin.move_sections  # type: ignore[method-assign]
    try:
        yield
    finally:
        type(plugin).move_sections = own  # type: ignore[method-assign]


def same_buttons_as_the_rows(round_: Any, seat: int, events: list[Any]) -> None:
    """The sections and rows offer the very buttons the rows alone offered: nothing lost,
    nothing added, the same custom ids (so no turn takes one more click)."""
    laid = custom_ids(mine(round_, seat, events))
    with every_move_in_rows():
        before = custom_ids(mine(round_, seat, events))
    assert sorted(laid) == sorted(before)
    assert len(set(laid)) == len(laid)


def test_each_playable_card_sits_beside_its_play_button_in_the_hands_order() -> None:
    # Ann leads (trump ♣, Ben ordered it up): any of her five cards, in her picture's order.
    round_ = new_round()
    events = apply(round_, "pass", "order", "discard 9D")
    ann = mine(round_, 0, events)
    assert ann.cards is not None
    assert [move for _, _, move in beside(ann)] == [f"play {n}" for n in ann.cards.rows[0].cards]
    assert beside(ann)[0] == ("9♣ trump", "Play", "play 9C")
    assert {label for _, label, _ in beside(ann)} == {"Play"}
    assert [text for text, _, _ in beside(ann)] == ["9♣ trump", "A♥", "K♥", "J♥", "J♦"]
    assert [c.label for c in ann.components] == ["🔄 Refresh"]  # no card left in a row
    same_buttons_as_the_rows(round_, 0, events)
    # Cat must follow the 9♣ led: only her two clubs are beside a button.
    events += apply(round_, "play 9C", "play 9S")
    cat = mine(round_, 2, events)
    assert beside(cat) == [("A♣ trump", "Play", "play AC"), ("K♣ trump", "Play", "play KC")]
    assert "Jouer" in {label for _, label, _ in beside(mine(round_, 2, events, "fr"))}
    same_buttons_as_the_rows(round_, 2, events)


def test_the_bowers_say_what_they_are_beside_their_card() -> None:
    round_ = new_round()
    events = apply(round_, "pass", "pass", "pass", "pass", "call H")  # Ann names hearts
    texts = {move: text for text, _, move in beside(mine(round_, 0, events))}
    assert texts["play JH"] == "J♥ right bower"
    assert texts["play JD"] == "J♦ left bower, a trump"
    assert texts["play 9C"] == "9♣"
    french = {move: text for text, _, move in beside(mine(round_, 0, events, "fr"))}
    assert french["play JD"] == "J♦ bower gauche, un atout"


def test_bidding_the_turned_card_sits_beside_order_it_up_and_pass_stays_in_a_row() -> None:
    round_ = new_round()
    events = apply(round_, "pass")
    ben = mine(round_, 1, events)
    assert beside(ben) == [
        ("Turned up: J♣", "Order it up", "order"),
        ("Alone: Dan sits out, 5 tricks score 4", "Order it up alone", "order alone"),
    ]
    assert [(c.label, c.row) for c in ben.components] == [("Pass", 0), ("🔄 Refresh", 1)]
    assert [s.button.style for s in ben.sections] == ["primary", "danger"]
    same_buttons_as_the_rows(round_, 1, events)
    with card_pictures():
        ben = mine(round_, 1, events)
        assert beside(ben)[0][0] == f"Turned up: {MARKUP['JC']}"
        assert all(s.button.emoji is None for s in ben.sections)  # the picture is beside it


def test_naming_trump_each_suit_sits_beside_the_cards_it_would_make_trumps() -> None:
    round_ = new_round()
    events = apply(round_, "pass", "pass", "pass", "pass")  # the J♣ turned down: Ann names
    ann = mine(round_, 0, events)
    assert beside(ann) == [
        ("♠ as trump: —", "Call ♠", "call S"),
        ("♥ as trump: J♥ J♦ A♥ K♥", "Call ♥", "call H"),
        ("♦ as trump: J♦ J♥", "Call ♦", "call D"),
    ]
    # Pass, then the calls alone packed in one row, then Refresh
    rows = [(c.label, c.row) for c in ann.components]
    assert rows == [
        ("Pass", 0),
        ("Call ♠ alone", 1),
        ("Call ♥ alone", 1),
        ("Call ♦ alone", 1),
        ("🔄 Refresh", 2),
    ]
    assert "Turned up: J♣ (turned down)" in (ann.embed.description or "")
    same_buttons_as_the_rows(round_, 0, events)
    # stuck: the dealer has no Pass, the same sections
    events += apply(round_, "pass", "pass", "pass")
    dan = mine(round_, 3, events)
    assert [move for _, _, move in beside(dan)] == ["call S", "call H", "call D"]
    assert "Pass" not in [c.label for c in dan.components]
    same_buttons_as_the_rows(round_, 3, events)


def test_the_dealers_discard_puts_each_dealt_card_beside_discard_never_the_turned_one() -> None:
    round_ = new_round()
    events = apply(round_, "pass", "order")  # Ben orders the J♣ up to Dan
    dan = mine(round_, 3, events)
    assert beside(dan) == [
        (f"{rank}♦", "Discard", f"discard {rank}D") for rank in ("A", "K", "Q", "10", "9")
    ]
    same_buttons_as_the_rows(round_, 3, events)
    with card_pictures():
        dan = mine(round_, 3, events)
        assert [text for text, _, _ in beside(dan)] == [
            MARKUP[f"{rank}D"] for rank in ("A", "K", "Q", "10", "9")
        ]
        for section in dan.sections:
            assert not CARD_TEXT.search(section.text + section.button.label)
    for seat in (0, 1, 2):  # waiting: no section
        assert mine(round_, seat, events).sections == ()


def _laid_out(rendered: Any) -> list[dict[str, Any]]:
    rows = build_view(rendered.components).rows
    return layout_components(rendered.embed.to_dict(), rows, rendered.sections)


@pytest.mark.parametrize("preset", ["standard", "cards4net", "farmers", "no_stick"])
def test_every_turn_of_a_deal_lays_its_sections_within_forty_components(preset: str) -> None:
    laid = 0
    for seed in range(12):
        rng = random.Random(seed)
        deal = GAME.new_round(GAME.options(preset), RoundSetup(n_seats=4, dealer=0), seed=seed)
        while not deal.finished:
            seat = deal.to_act()[0]
            private = snapshots.private(deal, seat)
            with card_pictures():
                rendered = render_private(private, public(deal), "en")
                container = _laid_out(rendered)
            assert _count(container) <= COMPONENTS
            shown = [c for c in container[0]["components"] if c["type"] == SECTION]
            assert len(shown) == len(rendered.sections)  # none given back to a row
            offered = {parse(b.custom_id).text for b in _buttons(rendered)}
            assert set(private.legal) <= offered  # every move offered, once
            laid += len(shown)
            deal.apply(seat, rng.choice(deal.legal_notation(seat)))
    assert laid > 100


def _buttons(rendered: Any) -> list[ButtonSpec]:
    return [s.button for s in rendered.sections] + [
        c for c in rendered.components if isinstance(c, ButtonSpec)
    ]
