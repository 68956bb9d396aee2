"""Dame de Pique's "My cards" in Components V2: each pack the hand can lay, add to a team pack
or take the pile with is a section, its cards as pictures beside the menu's own button (same
custom id: no turn takes one more click), and the message stays within Discord's limits."""

from __future__ import annotations

from typing import Any

import pytest

from bot.custom_ids import Kind, parse
from bot.games.dame.plugin import DamePlugin
from bot.games.dame.render import show_all
from bot.games.dame.sections import MOST_SECTIONS
from bot.local.layout import v2_message_errors
from bot.render.actions import ButtonSpec
from bot.render.private import render_private
from bot.ui.dynamic_items import build_view
from bot.ui.layout import IS_COMPONENTS_V2, layout_components
from games.dame import DameRound
from games.dame.rules import NATURAL_RANKS
from tests.bot.games.dame.views import public_snapshot
from tests.bot.render.pictures import CARD_TEXT, MARKUP, card_pictures
from tests.bot.render.snapshots import private as _private
from tests.games.dame.stacking import draw_and_discard, stacked_round

BEN, CLEO, DAN, ANN = 1, 2, 3, 0  # turn order from the dealer's left (Ann deals)
PACKS_HAND = "9S 9H 9D 5S 5H 5D 2C JK 3S 4D 6H 8S 10D"


def _render(round_: DameRound, events: list[Any], seat: int = BEN, prefix: str = "") -> Any:
    return render_private(
        _private(round_, seat), public_snapshot(round_, events), "en", prefix=prefix
    )


def _without_sections(monkeypatch: pytest.MonkeyPatch) -> None:
    """ "My cards" as it was before sections: every move in the rows of buttons."""
    monkeypatch.setattr(DamePlugin, "move_sections", lambda self, p, x, t, c: ([], c))


def _ids(rendered: Any) -> list[str]:
    beside = [section.button.custom_id for section in rendered.sections]
    return beside + [c.custom_id for c in rendered.components]


def _payload(rendered: Any) -> dict[str, Any]:
    """The V2 message Discord receives for this "My cards"."""
    rows = build_view(rendered.components).rows
    components = layout_components(dict(rendered.embed.to_dict()), rows, rendered.sections)
    return {"flags": IS_COMPONENTS_V2, "components": components}


def _accessories(payload: dict[str, Any]) -> list[str]:
    """The custom ids of the buttons beside a section's text, in order."""
    (container,) = payload["components"]
    return [c["accessory"]["custom_id"] for c in container["components"] if c.get("accessory")]


def _packs_turn() -> tuple[DameRound, list[Any]]:
    """Ben, to play after his draw, holds three 9s, three 5s and two wild cards."""
    round_ = stacked_round({BEN: PACKS_HAND}, stock="KC")
    return round_, list(round_.apply(BEN, "draw"))


def test_each_pack_the_hand_lays_is_a_section_of_its_cards_beside_its_lay_button() -> None:
    round_, events = _packs_turn()
    with card_pictures():
        rendered = _render(round_, events)
        payload = _payload(rendered)
    played = [parse(s.button.custom_id).text for s in rendered.sections]
    assert played == [
        "meld 5S 5H 5D",
        "meld 5S 5H 5D;announce",
        "meld 9S 9H 9D",
        "meld 9S 9H 9D;announce",
    ]
    for section, move in zip(rendered.sections, played, strict=True):
        cards = move.split(";")[0].split()[1:]
        assert all(MARKUP[name] in section.text for name in cards), section.text
        assert not CARD_TEXT.search(section.text), section.text  # pictures, no card as text
        assert section.button.label in ("Lay", "Lay and knock")
        assert section.button.style == "success"
    assert _accessories(payload) == [s.button.custom_id for s in rendered.sections]
    assert v2_message_errors(payload) == []


def test_the_sections_carry_the_menus_own_buttons_so_no_move_is_lost(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The same custom ids as the rows of buttons had (each once): a click on a section's
    button is the click the row's took. The rows close up, so Refresh finds room."""
    round_, events = _packs_turn()
    after = _ids(_render(round_, events))
    _without_sections(monkeypatch)
    before = _ids(_render(round_, events))
    assert len(after) == len(set(after))
    assert set(before) <= set(after)
    assert set(after) - set(before) <= {c for c in after if parse(c).kind is not Kind.PLAY}


def test_an_add_says_whose_pack_on_the_table_it_joins() -> None:
    """Ben laid three 9s; his fourth 9 is added beside "the 9 pack of Ben & Dan"."""
    round_ = stacked_round({BEN: "9S 9H 9D 9C 5S 6H 7D 8C 10S JH QD KS AC"}, stock="4C")
    round_.apply(BEN, "draw")
    events = list(round_.apply(BEN, "meld 9S 9H 9D"))
    rendered = _render(round_, events)
    (add,) = [s for s in rendered.sections if parse(s.button.custom_id).text == "add 9 9C"]
    assert add.text == f"{show_all(['9C'])} onto the 9 pack of Ben & Dan (3 cards)"
    assert add.button.label == "Add"


def test_the_take_of_the_pile_is_a_section_of_its_top_card_and_the_hands_naturals() -> None:
    round_ = stacked_round({BEN: "7S 7H 3S 4D 5C 6H 8S 9D 10C JH QD KS AC"}, stock="9C 10D JC 7D")
    for seat in (BEN, CLEO, DAN):
        draw_and_discard(round_, seat)
    round_.apply(ANN, "draw")
    events = list(round_.apply(ANN, "discard 7D"))
    rendered = _render(round_, events)
    (take,) = rendered.sections
    assert parse(take.button.custom_id).text == "take 7S 7H"
    assert take.text == "The pile's 7♦ with 7♠ 7♥: 4 cards taken"
    assert take.button.label == "Take"


def test_a_ranks_step_shows_its_packs_beside_their_cards_only_when_all_fit() -> None:
    """Three 9s and a 2: the 9 step's four packs are sections; with a joker too, its eight
    packs stay a block of buttons, none beside its cards (no half of a step)."""
    few = stacked_round({BEN: "9S 9H 9D 2C 3S 4D 5C 6H 8S 10D JH QS KC"}, stock="AC")
    events = list(few.apply(BEN, "draw"))
    step = _render(few, events, prefix="meld 9.")
    packs = [parse(s.button.custom_id).text for s in step.sections]
    assert 1 < len(packs) <= MOST_SECTIONS and all(p.startswith("meld 9") for p in packs)
    assert not any(
        isinstance(c, ButtonSpec) and parse(c.custom_id).text.startswith("meld ")
        for c in step.components
    )
    many = stacked_round({BEN: "9S 9H 9D 2C JK 3S 4D 5C 6H 8S 10D JH KC"}, stock="AC")
    events = list(many.apply(BEN, "draw"))
    step = _render(many, events, prefix="meld 9.")
    assert step.sections == ()
    buttons = [c for c in step.components if isinstance(c, ButtonSpec)]
    assert sum(parse(c.custom_id).text.startswith("meld ") for c in buttons) > MOST_SECTIONS


def test_a_hand_of_thirteen_ranks_with_many_team_packs_stays_within_discords_limits(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Dan laid four packs; Ben holds one card of each of the 13 ranks: an add to each of the
    four packs, every rank a pack with his two wild cards, discards of every card. With card
    pictures, My cards stays within 40 components and 4,000 characters, and every move the
    rows offered is still offered, beside its cards or in a row."""
    ben = "3C 4C 5C 6C 7S 8S 9S 10S JS QS KS AS 2H"
    dan = "3S 3H 3D 4S 4H 4D 5S 5H 5D 6S 6H 6D 7H"
    round_ = stacked_round({BEN: ben, DAN: dan}, stock="AC 7C 8C 10C JK")
    assert {c[:-1] for c in ben.split()} == {*NATURAL_RANKS, "2"}
    draw_and_discard(round_, BEN)
    draw_and_discard(round_, CLEO)
    round_.apply(DAN, "draw")
    for rank in "3456":
        round_.apply(DAN, f"meld {rank}S {rank}H {rank}D")
    round_.apply(DAN, "discard 7H")
    draw_and_discard(round_, ANN)
    events = list(round_.apply(BEN, "draw"))  # a joker: two wild cards
    with card_pictures():
        rendered = _render(round_, events)
        payload = _payload(rendered)
    assert [parse(s.button.custom_id).text for s in rendered.sections] == [
        f"add {rank} {rank}C" for rank in "3456"
    ]
    assert v2_message_errors(payload) == []
    assert _accessories(payload) == [s.button.custom_id for s in rendered.sections]
    after = set(_ids(rendered))
    _without_sections(monkeypatch)
    with card_pictures():
        assert {c for c in _ids(_render(round_, events)) if parse(c).kind is Kind.PLAY} <= after
