"""Cards as pictures in rendered messages: emojis in grids, sentences and buttons when the bot
has them, text otherwise; the round-end picture draws the public view of the finished round."""

from __future__ import annotations

import json
from collections.abc import Iterator

import pytest

from bot.pictures.card_faces import BACK, FOUR_COLOURS, TWO_COLOURS
from bot.pictures.round_end import cards_in
from bot.render.actions import ButtonSpec
from bot.render.private import render_private
from bot.render.table import render_table
from bot.snapshots import ROUND_OVER
from tests.bot.render.pictures import FOUR_MARKUP, MARKUP, card_pictures
from tests.bot.render.snapshots import new_round, play, private, public, reveals_of, round_end


@pytest.fixture
def pictures() -> Iterator[None]:
    with card_pictures():
        yield


def embed_text(rendered: object) -> str:
    return json.dumps(rendered.embed.to_dict(), ensure_ascii=False)  # type: ignore[attr-defined]


def test_grids_and_the_discard_are_emojis_when_the_bot_has_them(pictures: None) -> None:
    round_ = new_round(n_seats=3, seed=3)
    rendered = render_table(public(round_), "en")
    text = embed_text(rendered)
    assert text.count(MARKUP[BACK]) == 12  # three grids of four backs
    top = round_.public_view().discard_top
    assert MARKUP[top] in text and "🂠" not in text


def test_without_pictures_cards_are_text() -> None:
    round_ = new_round(n_seats=3, seed=3)
    text = embed_text(render_table(public(round_), "en"))
    assert "🂠" in text and "<:ct1_" not in text


def test_the_take_and_discard_buttons_show_the_card_they_move(pictures: None) -> None:
    round_ = new_round(n_seats=2, seed=4)
    round_.apply(0, "peek 3 4")
    round_.apply(1, "peek 3 4")
    seat = round_.to_act()[0]
    start = render_private(private(round_, seat), public(round_, n_seats=2), "en")
    take = next(
        c for c in start.components if isinstance(c, ButtonSpec) and "p=take" in c.custom_id
    )
    assert take.emoji == MARKUP[round_.public_view().discard_top]
    round_.apply(seat, "draw")
    held = round_.view(seat).held
    drawn = render_private(private(round_, seat), public(round_, n_seats=2), "en")
    (discard,) = [s for s in drawn.sections if s.button.custom_id.endswith("discard")]
    assert MARKUP[held] in discard.text  # the held card beside its discard
    swaps = [c for c in drawn.sections if "p=swap" in c.button.custom_id]
    assert swaps and all(s.button.emoji == MARKUP[held] for s in swaps)  # the card put there
    # the other seat sees neither the card nor its picture
    other = render_private(private(round_, 1 - seat), public(round_, n_seats=2), "en")
    assert MARKUP[held] not in embed_text(other) + repr(other.components) + repr(other.sections)


def test_the_round_end_picture_draws_the_finished_round_s_public_view() -> None:
    round_ = new_round(n_seats=3, seed=2)
    play(round_, 500, seed=2)
    end = round_end(round_)
    snapshot = public(round_, status=ROUND_OVER, last_round=end, totals=end.totals)
    rendered = render_table(snapshot, "en")
    assert rendered.picture is not None
    public_faces = [s.card for grid in end.view.grids for s in grid if s.card is not None]
    drawn = [c for row in rendered.picture.rows for c in row.cards]
    assert drawn == public_faces
    assert sorted(cards_in(rendered.picture.png())) == sorted(public_faces)
    assert [row.points for row in rendered.picture.rows] == list(end.points)
    assert rendered.embed.image.url == f"attachment://{rendered.picture.filename}"


def test_no_picture_while_a_round_is_played() -> None:
    round_ = new_round(n_seats=3, seed=2)
    play(round_, 5, seed=2)
    assert render_table(public(round_), "en").picture is None


def test_my_cards_pictures_the_grid_with_the_peeked_cards_face_up_and_raised() -> None:
    round_ = new_round(n_seats=2, seed=4)
    events = round_.apply(0, "peek 1 2")
    reveals = reveals_of(events, 0)
    rendered = render_private(
        private(round_, 0, reveals), public(round_, n_seats=2), "en", reveals=reveals
    )
    assert rendered.cards is not None
    slots = rendered.cards.rows  # each slot a group of its own, its number under it
    seen = [str(r.data["card"]) for r in reveals]
    assert [s.cards for s in slots] == [(seen[0],), (seen[1],), (None,), (None,)]
    assert [s.raised for s in slots] == [(0,), (0,), (), ()]
    assert [s.captions for s in slots] == [("1",), ("2",), ("3",), ("4",)] and all(
        s.flow for s in slots
    )
    assert cards_in(rendered.cards.png()) == seen
    assert rendered.embed.image.url == f"attachment://{rendered.cards.filename}"
    # re-rendered once the reveal is over: every card face down again
    hidden = render_private(private(round_, 0), public(round_, n_seats=2), "en")
    assert hidden.cards is not None and cards_in(hidden.cards.png()) == []


def test_the_table_pictures_every_grid_face_down_and_the_discard() -> None:
    round_ = new_round(n_seats=3, seed=2)
    play(round_, 12, seed=2)
    rendered = render_table(public(round_), "en")
    assert rendered.cards is not None
    *grids, discard = rendered.cards.rows
    assert [row.label for row in grids] == ["Alice", "Bob", "Chloé"]
    assert all(card is None or card == "" for row in grids for card in row.cards)
    top = round_.public_view().discard_top
    assert discard.cards == (top,) and cards_in(rendered.cards.png()) == [top]


def test_the_table_picture_names_the_stock_whose_count_it_writes_beside_the_discard() -> None:
    round_ = new_round(n_seats=3, seed=2)
    play(round_, 12, seed=2)
    stock = round_.public_view().stock
    notes = {}
    for language in ("en", "fr"):
        picture = render_table(public(round_), language).cards
        assert picture is not None
        notes[language] = picture.rows[-1].note
    assert notes == {"en": f"Stock: {stock} cards", "fr": f"Pioche : {stock} cartes"}


def test_a_four_colour_players_message_shows_the_four_colour_deck_and_the_table_two(
    pictures: None,
) -> None:
    round_ = next(  # a deal whose discard shows a diamond or a club
        r
        for r in (new_round(n_seats=2, seed=seed) for seed in range(40))
        if r.public_view().discard_top[-1] in "DC"
    )
    top = round_.public_view().discard_top
    round_.apply(0, "peek 3 4")
    round_.apply(1, "peek 3 4")
    seat = round_.to_act()[0]
    mine, table = private(round_, seat), public(round_, n_seats=2)
    four = render_private(mine, table, "en", deck=FOUR_COLOURS)
    two = render_private(mine, table, "en")
    take = [c for c in four.components if isinstance(c, ButtonSpec) and "p=take" in c.custom_id]
    assert [c.emoji for c in take] == [FOUR_MARKUP[top]]
    assert MARKUP[top] not in embed_text(four) + repr(four.components)
    assert MARKUP[top] in repr(two.components) and "<:ct4_" not in embed_text(two) + repr(two)
    assert MARKUP[BACK] in embed_text(four)  # the back is the same in both decks
    assert four.cards is not None and two.cards is not None
    assert (four.cards.deck, two.cards.deck) == (FOUR_COLOURS, TWO_COLOURS)
    assert four.cards.rows == two.cards.rows and four.cards.filename != two.cards.filename
    shared = render_table(table, "en")  # rendered for everyone: two colours
    assert shared.cards is not None and shared.cards.deck == TWO_COLOURS
    assert MARKUP[top] in embed_text(shared) and "<:ct4_" not in embed_text(shared)
