"""Dutch's "My cards" lays the held card beside its discard and each slot beside its swap (or
its match after a discard, a Queen's look, a Jack's first step), as V2 sections whose buttons
are the menu's own: the same custom ids, none lost, Drawing and Call Dutch… in rows, and the
biggest grids within Discord's 40 components."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from bot.games.base import BasePlugin
from bot.local.layout import v2_message_errors
from bot.pictures.card_faces import BACK
from bot.render.actions import ButtonSpec, SelectSpec
from bot.render.private import render_private
from bot.render.table import RenderedMessage
from bot.ui.custom_ids import Kind, parse
from bot.ui.layout import shown_as
from games.contract import RoundSetup
from games.dutch import GAME
from tests.bot.games.dutch.test_powers import _power
from tests.bot.render.pictures import CARD_TEXT, MARKUP, card_pictures
from tests.bot.render.snapshots import new_round, private, public, reveals_of

HELD = "KH"  # the card the first player draws from the stacked stock


def _drawn(preset: str, n_seats: int = 3) -> tuple[Any, Any, Any]:
    """A stacked deal: every peek done, the first player drew `HELD` from the stock."""
    options = GAME.options(preset)
    deck = list(GAME.deck(options))
    stock_top = 4 * n_seats + 1  # after the grids and the discard's first card
    wanted = next(i for i, card in enumerate(deck) if str(card) == HELD)
    deck[stock_top], deck[wanted] = deck[wanted], deck[stock_top]
    round_ = GAME.new_round(options, RoundSetup(n_seats=n_seats), deck=deck)
    for seat in range(n_seats):
        round_.apply(seat, round_.legal_actions(seat)[0])  # the start peek
    seat = round_.to_act()[0]
    round_.apply(seat, "draw")
    return round_, private(round_, seat), _table(round_, preset, n_seats)


def _table(round_: Any, preset: str, n_seats: int) -> Any:
    options = GAME.options(preset).model_dump()
    return replace(public(round_, n_seats=n_seats), preset=preset, options=options)


def _ids(rendered: RenderedMessage) -> list[str]:
    """Every button's and select's custom id: beside a card, then in rows."""
    return [s.button.custom_id for s in rendered.sections] + [
        c.custom_id for c in rendered.components
    ]


def _in_rows_only(mine: Any, table: Any, monkeypatch: pytest.MonkeyPatch, **kw: Any) -> Any:
    """The message as it was before any move stood beside its card: every move in rows."""
    with monkeypatch.context() as patch:
        patch.setattr("bot.games.dutch.plugin.DutchPlugin.move_sections", BasePlugin.move_sections)
        return render_private(mine, table, "en", **kw)


def _text(rendered: RenderedMessage) -> str:
    return " ".join(s.text for s in rendered.sections)


def test_classic_the_held_card_stands_beside_its_discard_and_each_slot_beside_its_swap() -> None:
    _, mine, table = _drawn("classic")
    with card_pictures():
        rendered = render_private(mine, table, "en")
    held, *slots = rendered.sections
    assert held.text == f"You hold **{MARKUP[HELD]}**."
    assert parse(held.button.custom_id).text == "discard" and held.button.label == "Discard"
    assert [s.text for s in slots] == [f"**{n}** {MARKUP[BACK]}" for n in range(1, 5)]
    assert [parse(s.button.custom_id).text for s in slots] == [f"swap {n}" for n in range(1, 5)]
    assert all(s.button.label == "Swap" and s.button.emoji == MARKUP[HELD] for s in slots)
    # the hand's picture and the sections show the grid: no line repeats it above
    assert MARKUP[BACK] not in str(rendered.embed.description)
    assert MARKUP[HELD] not in str(rendered.embed.description)
    assert [parse(c.custom_id).text for c in rendered.components] == [""]  # Refresh


@pytest.mark.parametrize("language", ["en", "fr"])
def test_house_each_move_that_ends_the_turn_stands_beside_its_card_the_call_still_asks(
    language: str,
) -> None:
    _, mine, table = _drawn("house")
    with card_pictures():
        rendered = render_private(mine, table, language)
    beside = [parse(s.button.custom_id).text for s in rendered.sections]
    assert beside == ["discard;end", *(f"swap {n};end" for n in range(1, 5))]
    assert rendered.sections[0].text.endswith(f"**{MARKUP[HELD]}**.")
    rows = rendered.components
    (keep,) = [c for c in rows if isinstance(c, SelectSpec)]  # placing without ending
    assert [value for _, value in keep.options] == ["discard", *(f"swap {n}" for n in range(1, 5))]
    navigate = [parse(c.custom_id).text for c in rows if parse(c.custom_id).kind is Kind.NAVIGATE]
    assert "dutch" in navigate  # "Call Dutch…" in a row, opening the stage that asks
    assert not any(
        parse(b.custom_id).kind is Kind.PLAY and "dutch" in parse(b.custom_id).text
        for b in [*(s.button for s in rendered.sections), *rows]
        if isinstance(b, ButtonSpec)
    )  # never a one-click call
    assert not CARD_TEXT.search(repr(rendered.sections) + repr(rows))  # cards as pictures


def test_a_card_taken_from_the_discard_is_said_above_as_it_has_no_discard_beside_it() -> None:
    round_ = new_round(n_seats=3, preset="classic")
    for seat in range(3):
        round_.apply(seat, round_.legal_actions(seat)[0])
    seat = round_.to_act()[0]
    round_.apply(seat, "take")
    held = round_.view(seat).held
    with card_pictures():
        rendered = render_private(private(round_, seat), _table(round_, "classic", 3), "en")
    assert f"You hold **{MARKUP[held]}**." in str(rendered.embed.description)
    beside = [parse(s.button.custom_id).text for s in rendered.sections]
    assert beside == [f"swap {n}" for n in range(1, 5)]  # each slot beside its swap, no discard


def test_a_card_just_seen_stands_face_up_beside_its_swap_then_hides_again() -> None:
    """As on the hand's picture: the two cards peeked at face up beside their swaps while they
    are shown, the backs again once they hide."""
    round_ = new_round(n_seats=3, preset="house")
    events: list[Any] = []
    for seat in range(3):
        events += round_.apply(seat, "peek 3 4")
    seat = round_.to_act()[0]
    round_.apply(seat, "draw")
    seen = reveals_of(events, seat)
    cards = {r.data["slot"]: r.data["card"] for r in seen}
    assert sorted(cards) == [3, 4]
    mine, table = private(round_, seat), _table(round_, "house", 3)
    with card_pictures():
        shown = render_private(mine, table, "en", reveals=seen)
        hidden = render_private(mine, table, "en")
    faces = [MARKUP[BACK], MARKUP[BACK], MARKUP[cards[3]], MARKUP[cards[4]]]
    assert [s.text for s in shown.sections[1:]] == [
        f"**{n}** {face}" for n, face in enumerate(faces, 1)
    ]
    assert [s.text for s in hidden.sections[1:]] == [f"**{n}** {MARKUP[BACK]}" for n in range(1, 5)]


def test_before_drawing_draw_and_take_stay_first_in_rows_and_take_shows_its_card() -> None:
    round_, _, _ = _drawn("house")
    seat = round_.to_act()[0]
    round_.apply(seat, "swap 1")
    round_.apply(seat, "end")
    seat = round_.to_act()[0]
    mine, table = private(round_, seat), _table(round_, "house", 3)
    with card_pictures():
        rendered = render_private(mine, table, "en")
    assert rendered.sections == ()  # matches before drawing stay under the draw
    first = rendered.components[0]
    assert isinstance(first, ButtonSpec) and parse(first.custom_id).text == "draw"
    (take,) = [c for c in rendered.components if c.custom_id.endswith("p=take")]
    assert isinstance(take, ButtonSpec) and take.label == "Take the discard" and take.emoji
    assert not CARD_TEXT.search(repr(rendered.components))


def _after_discard() -> tuple[Any, Any]:
    round_, mine, _ = _drawn("house")
    round_.apply(mine.seat, "discard")
    return private(round_, mine.seat), _table(round_, "house", 3)


def _states() -> list[tuple[str, Any, Any, str]]:
    """(name, player, table, prefix) of the steps of a turn with moves beside cards."""
    states = [
        ("classic drawn", *_drawn("classic")[1:], ""),
        ("house drawn", *_drawn("house")[1:], ""),
    ]
    states.append(("house after the discard", *_after_discard(), ""))
    for rank, n, preset in (
        ("Q", 4, "classic"),
        ("J", 3, "classic"),
        ("7", 3, "house"),
        ("9", 3, "house"),
    ):
        _, mine, table = _power(rank, n, preset)
        states.append((f"{preset} {rank}", mine, table, ""))
    return states


@pytest.mark.parametrize("state", _states(), ids=lambda s: s[0])
def test_the_moves_beside_their_cards_are_the_menus_own_buttons_none_lost(
    state: tuple[str, Any, Any, str], monkeypatch: pytest.MonkeyPatch
) -> None:
    _, mine, table, prefix = state
    with card_pictures():
        rendered = render_private(mine, table, "en", prefix=prefix)
        before = _in_rows_only(mine, table, monkeypatch, prefix=prefix)
    assert rendered.sections, "no move beside its card"
    assert set(_ids(before)) <= set(_ids(rendered))  # the same custom ids, none lost
    refresh = {"ct:12:1:n="}  # a row freed by the moves beside their cards: Refresh fits
    assert set(_ids(rendered)) - set(_ids(before)) <= refresh
    assert len(set(_ids(rendered))) == len(_ids(rendered))  # none both beside and in a row
    own = mine.view.grids[mine.seat]
    for section in rendered.sections:
        words = section.text
        assert words.startswith(("You hold", "**")), words
        if words.startswith("**"):  # a slot: its number, then its card's back or face
            number = int(words.split("**")[1])
            assert any(s.slot == number and not s.empty for s in own)
            assert number == int(
                parse(section.button.custom_id).text.split(";")[0].split()[1].split(":")[-1]
            )
    assert not CARD_TEXT.search(_text(rendered))


def _big_grid(slots: int) -> tuple[Any, Any]:
    """House rules: the first player lays wrong matches (each adds a penalty card) turn after
    turn until their grid has `slots` slots, then draws."""
    round_ = GAME.new_round(GAME.options("house"), RoundSetup(n_seats=4), seed=3)
    for seat in range(4):
        round_.apply(seat, round_.legal_actions(seat)[0])
    seat = round_.to_act()[0]
    while len(round_.view(seat).grids[seat]) < slots:
        legal = [str(a) for a in round_.legal_actions(seat)]
        matches = [a for a in legal if a.startswith("match ")]
        if matches:
            round_.apply(seat, matches[-1])
            continue
        while True:  # a plain turn for everyone, back to this player's
            mover = round_.to_act()[0]
            legal = [str(a) for a in round_.legal_actions(mover)]
            round_.apply(mover, next(m for m in ("draw", "discard", "end") if m in legal))
            if round_.to_act()[0] == seat and round_.view(seat).phase == "start":
                break
    round_.apply(seat, "draw")
    return private(round_, seat), _table(round_, "house", 4)


@pytest.mark.parametrize("slots", [8, 12, 16])
def test_the_biggest_grids_stay_within_discords_limits_and_offer_every_move(
    slots: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Penalty cards add slots: however many, "My cards" stays within 40 components and every
    move the menu offered is still a button, beside its card or in a row."""
    mine, table = _big_grid(slots)
    assert len(mine.view.grids[mine.seat]) >= slots
    with card_pictures():
        rendered = render_private(mine, table, "en")
        before = _in_rows_only(mine, table, monkeypatch)
    assert set(_ids(before)) <= set(_ids(rendered)) <= {*_ids(before), "ct:12:1:n="}
    components = shown_as(rendered)["view"].to_components()
    assert v2_message_errors({"components": components}) == []
    assert rendered.sections  # at least the held card beside its discard
    (container,) = components
    laid = [c for c in container["components"] if c["type"] == 9 and "accessory" in c]
    assert len(laid) == len(rendered.sections)  # all laid: none given back to rows
