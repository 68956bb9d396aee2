"""Dame de Pique's messages from real rounds on stacked decks: a 50-card pile on the table, a
hand of 40-odd cards in "My cards", the log in words, the end of a hand; within Discord's
limits, and showing no card of another hand or of the stock."""

from __future__ import annotations

import json
from dataclasses import replace
from typing import Any

import pytest

from bot.games.dame import render
from bot.pictures.card_faces import FOUR_COLOURS
from bot.pictures.round_end import cards_in
from bot.render.actions import MAX_OPTIONS, SelectSpec
from bot.render.card_text import in_deck
from bot.render.private import render_private
from bot.render.table import render_table
from bot.snapshots import FINISHED, ROUND_OVER
from bot.ui.custom_ids import Kind, parse
from games.cards import card
from games.dame import GAME, DameRound
from games.dame.views import PackView
from tests.bot.games.dame.views import fillers, public_snapshot, within_discord_limits
from tests.bot.render import snapshots
from tests.bot.render.pictures import CARD_TEXT, FOUR_MARKUP, MARKUP, card_pictures
from tests.games.dame.stacking import draw_and_discard, stacked_round

TAKER_HAND = "7S 7H 3S 4D 5C 6H 8S 9D 10C JH QD KS AC"


def _shown(rendered: Any) -> str:
    embed = rendered.embed.to_dict()
    labels = [repr(c) for c in rendered.components]
    return json.dumps(embed, ensure_ascii=False) + " ".join(labels)


def _pretty(codes: Any) -> set[str]:
    return {card(c).pretty for c in codes if not card(c).is_joker}


def _round_with_a_big_take() -> tuple[DameRound, list[Any]]:
    """Seats draw and discard until seat 0 discards 7♦ on a pile of 31; seat 1 (Ben) takes
    it with 7♠ 7♥: his hand grows to 42 cards."""
    stock = f"{fillers(31, TAKER_HAND)} 7D"
    round_ = stacked_round({1: TAKER_HAND}, stock=stock)
    events: list[Any] = []
    for _ in range(32):
        draw_and_discard(round_, round_.to_act()[0])
    assert round_.public_view().discard[-1].startswith("7D")
    events += round_.apply(1, "take 7S 7H")
    return round_, events


def test_a_pile_of_fifty_cards_shows_its_top_and_size_and_nothing_hidden() -> None:
    round_ = stacked_round({})
    events: list[Any] = []
    for _ in range(50):
        seat = round_.to_act()[0]
        events += round_.apply(seat, "draw")
        drawn = events[-2].data["card"]
        events += round_.apply(seat, f"discard {card(drawn).name}#{card(drawn).copy}")
    view = round_.public_view()
    assert len(view.discard) == 50
    rendered = render_table(public_snapshot(round_, events), "en")
    within_discord_limits(rendered)
    text = _shown(rendered)
    top = card(view.discard[-1]).pretty
    assert f"{top} on top · 50 cards" in text and "6 cards" in text  # the stock
    assert set(CARD_TEXT.findall(text)) <= _pretty(view.discard)


def test_a_hand_of_forty_odd_cards_is_grouped_by_rank_and_every_control_is_legal() -> None:
    round_, events = _round_with_a_big_take()
    hand = round_.view(1).hand
    assert len(hand) == 42
    for language in ("en", "fr"):
        rendered = render_private(
            snapshots.private(round_, 1), public_snapshot(round_, events), language
        )
        within_discord_limits(rendered)
        description = rendered.embed.description or ""
        assert _pretty(hand) <= set(CARD_TEXT.findall(description))
        assert "×" in description  # counts per rank
        for component in rendered.components:
            values = (
                [v for _, v in component.options]
                if isinstance(component, SelectSpec)
                else [component.custom_id]
            )
            for value in values:
                if value.startswith("ct:"):
                    parsed = parse(value)
                    if parsed.kind is Kind.PLAY:
                        round_.check(1, GAME.parse_action(parsed.text))


def test_the_table_tells_the_take_in_words_and_shows_the_packs() -> None:
    round_, events = _round_with_a_big_take()
    rendered = render_table(public_snapshot(round_, events), "en")
    within_discord_limits(rendered)
    text = _shown(rendered)
    assert "took the pile with 7♠ 7♥ on 7♦: 32 cards" in text
    assert "**7** pack (3 cards, 15 points): 7♠ 7♥ 7♦" in text  # Ben's team's new pack
    assert "42 cards" in text  # Ben's hand size, never its cards
    assert not set(CARD_TEXT.findall(text)) & (_pretty(round_.view(1).hand) - {"7♠", "7♥", "7♦"})


def test_the_end_of_a_hand_shows_packs_hands_left_and_points() -> None:
    round_ = stacked_round(
        {1: "3H 3D 3C 4H 4D 4C 5H 5D 5C 6H 6D 6C JK"}, stock="8C#1 8D#1 9C#1 10C#1 3S#1"
    )
    events: list[Any] = []
    events += round_.apply(1, "draw")
    events += round_.apply(1, "announce")
    events += round_.apply(1, "discard 8C#1")
    for seat in (2, 3, 0):
        draw_and_discard(round_, seat)
    events += round_.apply(1, "draw")
    for rank in "3456":
        events += round_.apply(1, f"meld {rank} {rank} {rank}")
    events += round_.apply(1, "add 3 3C")
    events += round_.apply(1, "discard JK")
    assert round_.finished
    for language in ("en", "fr"):
        rendered = render_table(public_snapshot(round_, events, status=ROUND_OVER), language)
        within_discord_limits(rendered)
    rendered = render_table(public_snapshot(round_, events, status=ROUND_OVER), "en")
    text = _shown(rendered)
    assert "**Ben** went out: team E–W (Ben & Dan) wins the hand." in text
    assert "Ann: 13 cards left in hand, −" in text
    # the winner's partner's cards cost nothing: never written as a deduction, and said why
    assert "Dan: 13 cards left in hand, not counted: the team went out" in text
    assert "Dan: 13 cards left in hand, −" not in text
    # each pack in words a player reads (its cards are in the picture), no "3 ×4: … · 20"
    assert "3 pack: 4 cards, 20 points" in text and "×" not in text
    french = _shown(render_table(public_snapshot(round_, events, status=ROUND_OVER), "fr"))
    assert "Dan : 13 cartes restées en main, non comptées : l'équipe a fini" in french
    assert "paquet de 3 : 4 cartes, 20 points" in french
    # the round-end picture: every hand face up, then each team's packs
    assert rendered.picture is not None
    hands = [row.cards for row in rendered.picture.rows[:4]]
    assert [sorted(h) for h in hands] == [sorted(c.name for c in hand) for hand in round_.hands]
    notes = [row.note for row in rendered.picture.rows]
    assert notes[1] == "went out" and notes[3] == "not counted" and notes[0].startswith("−")
    packs = rendered.picture.rows[4:]
    assert [row.name for row in packs] == ["E–W · 3", "E–W · 4", "E–W · 5", "E–W · 6"]
    assert packs[0].note == "20 points" and len(packs[0].cards) == 4
    drawn = cards_in(rendered.picture.png())
    assert sorted(drawn) == sorted(
        [c for h in hands for c in h] + [c for row in packs for c in row.cards]
    )


@pytest.mark.parametrize(
    ("language", "over", "totals"),
    [
        (
            "en",
            "🏆 Match over. Winners: E–W (**Ben** & **Dan**)",
            "Final totals: E–W 1040, N–S 620",
        ),
        (
            "fr",
            "🏆 Partie terminée. Victoire : E–O (**Ben** & **Dan**)",
            "Totaux finaux : E–O 1040, N–S 620",
        ),
    ],
)
def test_my_cards_at_the_dame_match_end_says_the_match_is_over_with_the_result(
    language: str, over: str, totals: str
) -> None:
    """Not "The round is over.", as if another round were coming: the match, who won, the
    final totals, to every player."""
    round_ = stacked_round(
        {1: "3H 3D 3C 4H 4D 4C 5H 5D 5C 6H 6D 6C JK"}, stock="8C#1 8D#1 9C#1 10C#1 3S#1"
    )
    events = round_.apply(1, "draw") + round_.apply(1, "announce") + round_.apply(1, "discard 8C#1")
    for seat in (2, 3, 0):
        draw_and_discard(round_, seat)
    events += round_.apply(1, "draw")
    for rank in "3456":
        events += round_.apply(1, f"meld {rank} {rank} {rank}")
    events += round_.apply(1, "add 3 3C") + round_.apply(1, "discard JK")
    assert round_.finished
    finished = replace(
        public_snapshot(round_, events, status=ROUND_OVER),
        status=FINISHED,
        winners=(1, 3),
        totals=(620, 1040, 620, 1040),
    )
    for seat in range(4):
        private = replace(snapshots.private(round_, seat), status=FINISHED)
        mine = render_private(private, finished, language).embed.description
        assert mine is not None and over in mine and totals in mine, mine
        assert "round is over" not in mine and "manche est finie" not in mine


def test_every_legal_move_of_a_big_hand_is_reachable_in_steps_and_none_dropped() -> None:
    """More distinct cards than a select holds: rank first, then the card; nothing is lost."""
    from bot.render.actions import ButtonSpec, MenuText, action_menu

    round_, _ = _round_with_a_big_take()
    legal = [str(a) for a in round_.legal_actions(1)]
    labels = MenuText(lambda a: a[:100], lambda p, piece: piece, "Choose…", "Back")
    found: set[str] = set()
    stages, seen = [""], set()
    while stages:
        prefix = stages.pop()
        if prefix in seen:
            continue
        seen.add(prefix)
        for spec in action_menu(legal, prefix, table_id=12, round_no=1, labels=labels):
            if isinstance(spec, ButtonSpec):
                component = parse(spec.custom_id)
                if component.kind is Kind.PLAY:
                    found.add(component.text)
                continue
            assert 0 < len(spec.options) <= MAX_OPTIONS
            for _, value in spec.options:
                (found.add if value in legal else stages.append)(value)
    assert found == set(legal)
    assert len([a for a in legal if a.startswith("discard")]) > MAX_OPTIONS


def test_the_table_says_in_words_who_knocked_whose_turn_it_is_and_the_last_moves() -> None:
    round_, events = _round_with_a_big_take()
    events += round_.apply(1, "announce")
    for language, took, knocked, knock_log, turn in (
        ("en", "took the pile with 7♠ 7♥ on 7♦: 32 cards", "✊ knocked", "knocked", "is laying"),
        ("fr", "a pris la défausse avec 7♠ 7♥ sur 7♦ : 32 cartes", "✊ a cogné", "a cogné", "pose"),
    ):
        rendered = render_table(public_snapshot(round_, events), language)
        within_discord_limits(rendered)
        embed = rendered.embed.to_dict()
        seats = (embed.get("description") or "").splitlines()
        (ben,) = [line for line in seats if "**Ben**" in line]
        assert ben.startswith("▶️ **Ben** ") and ben.endswith(f" · {knocked}") and "  " not in ben
        assert not [line for line in seats if knocked in line and line != ben]
        text = _shown(rendered)
        assert f"**Ben** {turn}" in text
        (log,) = [f["value"] for f in embed.get("fields", []) if took in f["value"]]
        assert log.startswith("**Ben**") and log.endswith(knock_log)


# -- cards as pictures -------------------------------------------------------------------------


def test_with_card_pictures_the_packs_the_pile_and_the_log_show_pictures() -> None:
    round_, events = _round_with_a_big_take()
    events += round_.apply(1, f"discard {round_.view(1).hand[0]}")
    with card_pictures():
        rendered = render_table(public_snapshot(round_, events), "en")
    within_discord_limits(rendered)
    embed = json.dumps(rendered.embed.to_dict(), ensure_ascii=False)
    assert not CARD_TEXT.search(embed), embed
    took = f"took the pile with {MARKUP['7S']} {MARKUP['7H']} on {MARKUP['7D']}: 32 cards"
    assert took in embed
    assert f"**7** pack (3 cards, 15 points): {MARKUP['7S']} {MARKUP['7H']} {MARKUP['7D']}" in embed
    top = card(round_.public_view().discard[-1]).name
    assert f"{MARKUP[top]} on top" in embed


def test_with_card_pictures_my_cards_shows_a_hand_of_forty_odd_cards_once_as_its_picture() -> None:
    """The hand is the message's picture, by rank: no second copy of it in text rows."""
    round_, events = _round_with_a_big_take()
    hand = round_.view(1).hand
    with card_pictures():
        rendered = render_private(
            snapshots.private(round_, 1), public_snapshot(round_, events), "en"
        )
    within_discord_limits(rendered)
    description = rendered.embed.description or ""
    assert not CARD_TEXT.search(description) and "×" not in description
    written = [name for name, markup in MARKUP.items() if markup in description]
    assert written == []  # the pile is empty after the take: no card at all
    assert rendered.cards is not None
    assert sorted(c for row in rendered.cards.rows for c in row.cards) == sorted(
        card(c).name for c in hand
    )
    selects = [c for c in rendered.components if isinstance(c, SelectSpec)]
    assert selects  # the claim is about the selects' options: there are some
    for select in selects:  # labels are text; the picture is the emoji
        assert "<:" not in " ".join(label for label, _ in select.options)
        assert select.emojis and all(select.emojis), select


def test_a_card_drawn_in_dame_is_a_line_of_the_hand_and_nothing_says_it_hides_again() -> None:
    """Nothing hides in Dame: "You drew 6♦." in the hand's lines, no "Just seen" field and
    no "These cards hide again in 8 seconds"."""
    round_ = stacked_round({1: TAKER_HAND}, stock="6D")
    assert round_.to_act() == (1,)
    events = list(round_.apply(1, "draw"))
    reveals = snapshots.reveals_of(events, 1)
    assert reveals
    for language, drew in (("en", "You drew 6♦."), ("fr", "Vous avez pioché 6♦.")):
        rendered = render_private(
            snapshots.private(round_, 1),
            public_snapshot(round_, events),
            language,
            reveals=reveals,
            hide_at=1_700_000_008.0,
        )
        assert drew in (rendered.embed.description or "")
        assert not rendered.embed.fields, rendered.embed.fields
        assert "<t:" not in (rendered.embed.description or "").split(drew)[1].split("\n")[0]
        assert "hide" not in json.dumps(rendered.embed.to_dict()).lower()


def test_my_cards_pictures_the_hand_by_rank_and_the_table_the_packs_and_the_pile() -> None:
    round_, events = _round_with_a_big_take()
    hand = round_.view(1).hand
    rendered = render_private(snapshots.private(round_, 1), public_snapshot(round_, events), "en")
    assert rendered.cards is not None
    rows = rendered.cards.rows
    assert sum(len(r.cards) for r in rows) == len(hand) == 42
    assert all(len({card(c).rank for c in r.cards}) == 1 for r in rows if r.label != "wild")
    assert sorted(cards_in(rendered.cards.png())) == sorted(card(c).name for c in hand)
    events += round_.apply(1, f"discard {hand[0]}")
    table = render_table(public_snapshot(round_, events), "en")
    assert table.cards is not None
    *packs, pile = table.cards.rows
    assert [(p.label, p.cards, p.note) for p in packs] == [("E–W · 7", ("7S", "7H", "7D"), "15")]
    assert pile.cards == (card(hand[0]).name,) and pile.note == "1 card"
    assert sorted(cards_in(table.cards.png())) == sorted(["7S", "7H", "7D", card(hand[0]).name])


def test_a_table_of_many_packs_lays_each_team_s_packs_in_a_column_and_the_pile_below_fewer() -> (
    None
):
    round_, _ = _round_with_a_big_take()
    north_south = tuple(PackView(rank, (f"{rank}S", f"{rank}H", f"{rank}D"), 15) for rank in "3456")
    east_west = (PackView("9", ("9S", "9H", "9C", "2D"), 40), PackView("K", ("KS", "KH", "KD"), 30))
    view = replace(round_.public_view(), packs=(north_south, east_west))
    rows = render.table_rows(view, "en")
    assert [(row.label, row.column) for row in rows] == [
        ("N–S · 3", 0),
        ("N–S · 4", 0),
        ("N–S · 5", 0),
        ("N–S · 6", 0),
        ("E–W · 9", 1),
        ("E–W · K", 1),
        ("Discard pile", 1),  # below the team of fewer packs
    ]
    assert rows[4].cards == ("9S", "9H", "9C", "2D") and rows[4].note == "40"
    # a few packs stay in one column, team after team
    few = replace(view, packs=(north_south[:2], east_west[:1]))
    assert {row.column for row in render.table_rows(few, "en")} == {None}


def test_a_pack_remembered_as_text_is_written_with_the_emojis_once_they_come() -> None:
    # A team's pack is written once and remembered: under what its cards were written with
    # (text, or which pictures, in which deck), never served once that changed.
    pack = PackView("7", ("7S", "7H", "2C"), 25)
    assert render.pack_line(pack, "en") == "**7** pack (3 cards, 25 points): 7♠ 7♥ + *2♣*"
    with card_pictures():
        shown = render.pack_line(pack, "en")
        assert MARKUP["7S"] in shown and "7♠" not in shown
        with in_deck(FOUR_COLOURS):
            assert FOUR_MARKUP["2C"] in render.pack_line(pack, "en")  # the four-colour ♣
        assert render.pack_line(pack, "en") == shown
    assert render.pack_line(pack, "en") == "**7** pack (3 cards, 25 points): 7♠ 7♥ + *2♣*"


def test_a_hand_written_as_text_without_pictures_is_not_written_with_them() -> None:
    # Each group of a hand is written once and remembered under what its cards were written
    # with: the same hand with emojis available is the picture alone, then text again without.
    round_, _ = _round_with_a_big_take()
    view = round_.view(1)
    as_text = render.hand_lines(view, "en")
    assert CARD_TEXT.search("\n".join(as_text))
    with card_pictures():
        pictured = "\n".join(render.hand_lines(view, "en"))
        assert not any(MARKUP[card(c).name] in pictured for c in view.hand), pictured
    assert render.hand_lines(view, "en") == as_text
