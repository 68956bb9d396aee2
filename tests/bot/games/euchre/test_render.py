"""The Euchre table message and "My cards" in every phase, from stacked decks: what they say,
in both languages, and that no hand, no dealer's discard and no translation key shows."""

from __future__ import annotations

import dataclasses
import json
import random
import re
from typing import Any

import pytest

from bot.games.euchre.render import named_card
from bot.pictures.round_end import cards_in
from bot.render.actions import ButtonSpec
from bot.render.private import render_private
from bot.render.table import render_table
from bot.snapshots import (
    FINISHED,
    LOBBY,
    ROUND_OVER,
    LogEntry,
    PublicSnapshot,
    RoundEnd,
    SeatInfo,
)
from bot.ui.custom_ids import parse
from games.contract import RoundSetup
from games.euchre import GAME
from games.euchre.bots.policy import choose_action
from games.euchre.deal import stack_deck
from games.euchre.views import NAME_TRUMP
from tests.bot.render import snapshots
from tests.bot.render.pictures import CARD_TEXT, MARKUP, card_pictures

NAMES = ("Ann", "Ben", "Cat", "Dan")
KEYISH = re.compile(r"\b(euchre|log|error|lobby|table|private|preset|rules)\.[a-z_]+")
# Dealer 3 (W): Ann (N) leads; Ann holds both red jacks, the J♥ is turned up.
HANDS = {0: "JH JD AH KH 9C", 1: "9S 10S QS KS AS", 2: "QH 10H 9H AC KC", 3: "9D 10D QD KD AD"}


def new_round(**options: Any) -> Any:
    deck = stack_deck(3, HANDS, "JC", "QC 10C JS")
    opts = GAME.options("standard", **options)
    return GAME.new_round(opts, RoundSetup(n_seats=4, dealer=3), deck=deck)


def apply(round_: Any, *moves: str) -> list[Any]:
    events = []
    for move in moves:
        events += round_.apply(round_.to_act()[0], move)
    return events


def public(
    round_: Any | None,
    events: list[Any] = (),  # type: ignore[assignment]
    *,
    seats: tuple[SeatInfo, ...] | None = None,
    **given: Any,
) -> PublicSnapshot:
    """Ann, Ben, Cat and Dan at N, E, S, W (or `seats`), playing to 10 points."""
    return snapshots.public(
        round_,
        game="euchre",
        seated=seats or snapshots.seats(4, NAMES),
        events=events,
        log_before=(LogEntry("round_started", None, {"round": 1}, "table"),),
        target=10,
        **given,
    )


def shown(rendered: Any) -> str:
    embed = rendered.embed.to_dict()
    parts = [embed.get("title", ""), embed.get("description", "")]
    parts += [f"{f['name']} {f['value']}" for f in embed.get("fields", [])]
    parts += [f"{section.text} {section.button.label}" for section in rendered.sections]
    parts += [getattr(c, "label", "") or getattr(c, "placeholder", "") for c in rendered.components]
    for c in rendered.components:
        parts += [label for label, _ in getattr(c, "options", ())]
    return "\n".join(parts)


def table(snapshot: PublicSnapshot, language: str = "en") -> str:
    text = shown(render_table(snapshot, language))
    assert not KEYISH.search(text), text
    return text


def mine(round_: Any, seat: int, snapshot: PublicSnapshot, language: str = "en") -> Any:
    rendered = render_private(snapshots.private(round_, seat), snapshot, language)
    assert not KEYISH.search(shown(rendered)), shown(rendered)
    return rendered


def labels(rendered: Any) -> list[str]:
    """The buttons' labels as laid out: beside their sections, then in the rows."""
    return [c.label for c in buttons(rendered) if hasattr(c, "label")]


def buttons(rendered: Any) -> list[Any]:
    """The components as laid out: the sections' buttons, then the rows."""
    return [section.button for section in rendered.sections] + list(rendered.components)


def sections(rendered: Any) -> list[tuple[str, str, str]]:
    """Each section's text, its button's label and the move it plays."""
    return [(s.text, s.button.label, parse(s.button.custom_id).text) for s in rendered.sections]


def test_the_lobby_shows_places_teams_and_seat_choices() -> None:
    seats = (
        SeatInfo(0, 1000, "Ann", False, position=0),
        SeatInfo(1, None, "Bot 1", True, position=2),
    )
    snapshot = public(None, status=LOBBY, seats=seats)
    text = table(snapshot)
    assert "**N** · Ann 👑 · team N–S" in text and "**S** · Bot 1 🤖 · team N–S" in text
    assert "**E** · free · team E–W" in text and "**W** · free · team E–W" in text
    assert "Sit at E" in text and "Sit at W" in text and "Sit at N" not in text
    assert "N ↔ E (Ann ↔ free)" in text and "E ↔ W" not in text  # a swap moves someone
    french = table(snapshot, "fr")
    assert "**O** · libre · équipe E–O" in french and "Prendre la place O" in french


def test_bidding_round_one_shows_the_turned_card_and_order_buttons() -> None:
    round_ = new_round()
    events = apply(round_, "pass")
    snapshot = public(round_, events)
    text = table(snapshot)
    assert "Turned up" in text and "J♣" in text
    assert "**Ben** to pass or order up the J♣." in text
    assert "**Ann** passed." in text and "🎴 dealer" in text
    ben = mine(round_, 1, snapshot)
    # the turned card beside Order it up, going alone beside what it costs; Pass in a row
    assert sections(ben) == [
        ("Turned up: J♣", "Order it up", "order"),
        ("Alone: Dan sits out, 5 tricks score 4", "Order it up alone", "order alone"),
    ]
    assert labels(ben)[2] == "Pass"
    hand = ben.embed.description
    assert "`A♠` `K♠` `Q♠` `10♠` `9♠`" in hand
    assert "Turned up" not in hand  # beside its button, once
    french = mine(round_, 1, snapshot, "fr")
    assert sections(french)[0][:2] == ("Carte retournée : J♣", "Commander")
    assert "Turned up: J♣" in mine(round_, 2, snapshot).embed.description  # Cat waits
    for card in ("J♥", "Q♥", "9♦"):  # other hands
        assert card not in text and card not in hand


def test_round_two_refuses_the_turned_suit_and_sticks_the_dealer() -> None:
    round_ = new_round()
    events = apply(round_, "pass", "pass", "pass", "pass")
    text = table(public(round_, events))
    assert "J♣ (turned down)" in text and "**Ann** to pass or name trump (not ♣)." in text
    ann = mine(round_, 0, public(round_, events))
    assert "Call ♥" in labels(ann) and "Call ♥ alone" in labels(ann)
    assert not [label for label in labels(ann) if "♣" in label]
    events += apply(round_, "pass", "pass", "pass")
    text = table(public(round_, events))
    assert "**Dan** deals and is stuck: they must name trump (not ♣)." in text
    dan = mine(round_, 3, public(round_, events))
    assert "Pass" not in labels(dan) and "Call ♦" in labels(dan)


def test_the_dealers_discard_is_his_alone() -> None:
    round_ = new_round()
    events = apply(round_, "pass", "order")  # Ben orders the J♣ up to Dan
    snapshot = public(round_, events)
    text = table(snapshot)
    assert "**Dan** picked up the J♣ and discards a card." in text
    assert "**Ben** ordered up the J♣." in text and "**Dan** picked up the J♣." in text
    dan = mine(round_, 3, snapshot)
    discards = {(text, label) for text, label, move in sections(dan) if "discard" in move}
    assert discards == {(f"{rank}♦", "Discard") for rank in ("A", "K", "Q", "10", "9")}
    events += apply(round_, "discard 9D")
    after = public(round_, events)
    text = table(after)
    assert "**Dan** discarded a card." in text and "9♦" not in text
    hand, discard, *_ = mine(round_, 3, after).embed.description.splitlines()
    assert "9♦" not in hand and discard == "Your discard, seen by you alone: 9♦"
    french = mine(round_, 3, after, "fr").embed.description
    assert "Votre écart, visible de vous seulement : 9♦" in french
    for seat in (0, 1, 2):
        assert "9♦" not in shown(mine(round_, seat, after))


def test_the_picked_up_card_stays_on_the_table_until_the_dealer_plays_it() -> None:
    round_ = new_round()
    events = apply(round_, "pass", "order", "discard 9D")  # Dan holds the J♣ now
    assert "Turned up J♣, picked up by Dan" in table(public(round_, events))
    assert "Carte retournée J♣, pris par Dan" in table(public(round_, events), "fr")
    events += apply(round_, "play 9C", "play 9S", "play AC", "play JC")  # trump led
    assert "picked up by" not in table(public(round_, events))


def test_play_names_bowers_trumping_and_the_trick_in_order() -> None:
    round_ = new_round()
    events = apply(round_, "pass", "order", "discard 9D", "play JD", "play 9S")
    snapshot = public(round_, events)
    text = table(snapshot)
    assert "**Ann** led J♦." in text
    assert "**Ben** threw off 9♠." in text
    assert "On the table" in text and "Ann J♦ · Ben 9♠" in text
    assert "♣ by Ben" in text and "N–S: 0 · E–W: 0" in text
    cat = mine(round_, 2, snapshot)
    assert cat.embed.description.startswith("`A♣` `K♣`")  # trump first, then ♥
    events += apply(round_, "play AC")
    assert "**Cat** trumped with A♣." in table(public(round_, events))


def test_a_lone_maker_s_partner_sees_that_they_sit_out() -> None:
    round_ = new_round()
    events = apply(round_, "order alone")  # Ann, dealer's left, alone: Cat sits out
    snapshot = public(round_, events)
    text = table(snapshot)
    assert "**Ann** ordered up the J♣ alone." in text
    assert "**Ann** goes alone: Cat sits out." in text and "💤 sits out" in text
    cat = mine(round_, 2, snapshot)
    assert "Ann goes alone: you sit out this hand." in cat.embed.description
    assert not [label for label in labels(cat) if label != "🔄 Refresh"]


def play_out(round_: Any) -> list[Any]:
    rng = random.Random(1)
    events: list[Any] = []
    while not round_.finished:
        seat = round_.to_act()[0]
        events += round_.apply(seat, choose_action(round_, seat, rng))
    return events


def ended(round_: Any, totals: tuple[int, int]) -> RoundEnd:
    result = round_.result()
    seat_points = tuple(result.points[s % 2] for s in range(4))
    seat_totals = tuple(totals[s % 2] for s in range(4))
    return RoundEnd(1, seat_points, seat_totals, result.detail, round_.public_view())


@pytest.mark.parametrize(
    ("moves", "words"),
    [
        (("order alone",), "alone"),
        (("pass", "order"), None),
    ],
)
def test_the_end_of_a_hand_says_who_made_trump_tricks_and_points(
    moves: tuple[str, ...], words: str | None
) -> None:
    round_ = new_round()
    events = apply(round_, *moves)
    events += play_out(round_)
    result = round_.result()
    last = ended(round_, result.points)
    snapshot = public(round_, events, status=ROUND_OVER, last_round=last, totals=last.totals)
    text = table(snapshot)
    outcome = result.detail["outcome"]
    expected = {"made": "made it", "march": "took all five", "euchred": "Euchred!"}[outcome]
    assert expected in text and "made ♣ trump for" in text
    assert f"N–S {result.points[0]} · E–W {result.points[1]} (to 10)" in text
    # the tricks labelled, after who made trump and before what they scored and the score
    tricks = result.detail["tricks"]
    said = f"Tricks: N–S {tricks[0]}, E–W {tricks[1]}"
    assert said in text and f"Plis : N–S {tricks[0]}, E–O {tricks[1]}" in table(snapshot, "fr")
    assert text.index("made ♣ trump") < text.index(said) < text.index(expected)
    assert text.index(expected) < text.index("Score: N–S")
    assert ("played alone" in text) == (words == "alone")  # said of a lone hand only
    french = table(snapshot, "fr")
    assert "atout pour" in french


def test_an_all_pass_redeal_is_shown_as_such() -> None:
    round_ = new_round(stick_the_dealer=False)
    events = apply(round_, *["pass"] * 8)
    last = ended(round_, (0, 0))
    text = table(public(round_, events, status=ROUND_OVER, last_round=last))
    assert "Everyone passed twice: no trump and no points. The deal passes on." in text
    assert "the next dealer deals again" in text


def test_a_farmers_hand_redeal_is_shown_on_the_table() -> None:
    hands = {0: "JH JD AH KH QS", 1: "9S 10S 9H 10H AS", 2: "QH JS 9C AC KC", 3: HANDS[3]}
    deck = stack_deck(3, hands, "JC", "QC 10C KS")
    opts = GAME.options("standard", farmers_hand=True)
    round_ = GAME.new_round(opts, RoundSetup(n_seats=4, dealer=3), deck=deck)
    assert round_.public_view().farmers_redeals >= 1
    text = table(public(round_))
    assert "Farmer's hand" in text and "the same dealer dealt again (1×)" in text


def test_the_end_of_the_match_names_the_winning_team() -> None:
    round_ = new_round()
    events = apply(round_, "order alone") + play_out(round_)
    last = ended(round_, (10, 4))
    snapshot = public(
        round_, events, status=FINISHED, last_round=last, totals=last.totals, winners=(0, 2)
    )
    text = table(snapshot)
    assert "🏆 Match over. Winners: N–S (**Ann** & **Cat**)" in text
    assert "Final totals 🏆 **N–S** · Ann & Cat: **10**\n**E–W** · Ben & Dan: **4**" in text
    assert "N–S 10 · E–W 4 (to 10)" in text and "Rematch" in text
    french = shown(render_table(snapshot, "fr"))
    assert "🏆 Partie terminée. Victoire : N–S (**Ann** & **Cat**)" in french
    assert "Totaux finaux 🏆 **N–S** · Ann & Cat : **10**\n**E–O** · Ben & Dan : **4**" in french


def test_bowers_are_named_once_trump_is_known() -> None:
    assert named_card("JH", "H", "en") == "the right bower (J♥)"
    assert named_card("JD", "H", "en") == "the left bower (J♦)"
    assert named_card("JD", None, "en") == "J♦" and named_card("JC", "H", "en") == "J♣"
    assert named_card("JD", "H", "fr") == "le bower gauche (J♦)"


# -- cards as pictures -------------------------------------------------------------------------


def _embed_text(rendered: Any) -> str:
    return json.dumps(rendered.embed.to_dict(), ensure_ascii=False)


def test_with_card_pictures_every_card_on_the_table_and_in_the_log_is_a_picture() -> None:
    round_ = new_round()
    with card_pictures():
        ordered = public(round_, apply(round_, "pass"))
        text = _embed_text(render_table(ordered, "en"))
        assert MARKUP["JC"] in text and not CARD_TEXT.search(text)  # the turned-up card
        events = apply(round_, "order", "discard 9D", "play JD", "play 9S")
        text = _embed_text(render_table(public(round_, events), "en"))
        for played in ("JD", "9S", "JC"):  # the trick, the log, the picked-up card
            assert MARKUP[played] in text
        assert not CARD_TEXT.search(text), text


def test_with_card_pictures_my_cards_shows_the_hand_and_the_buttons_show_their_card() -> None:
    round_ = new_round()
    events = apply(round_, "pass")
    with card_pictures():
        ben = render_private(snapshots.private(round_, 1), public(round_, events), "en")
        hand = ben.embed.description or ""
        assert [MARKUP[c] in hand for c in ("AS", "KS", "QS", "10S", "9S")] == [True] * 5
        assert not CARD_TEXT.search(_embed_text(ben))
        assert not CARD_TEXT.search(shown(ben))  # the labels beside a card's picture too
        assert sections(ben)[0] == (f"Turned up: {MARKUP['JC']}", "Order it up", "order")
        events += apply(round_, "order")
        dan = render_private(snapshots.private(round_, 3), public(round_, events), "en")
        discards = {text for text, _, move in sections(dan) if move.startswith("discard ")}
        assert discards == {MARKUP[f"{r}D"] for r in ("A", "K", "Q", "10", "9")}
        assert not CARD_TEXT.search(shown(dan))
        events += apply(round_, "discard 9D")
        mine = render_private(snapshots.private(round_, 3), public(round_, events), "en")
        assert f"seen by you alone: {MARKUP['9D']}" in _embed_text(mine)  # not in a code span
        ann = render_private(snapshots.private(round_, 0), public(round_, events), "en")
        plays = [(text, move) for text, _, move in sections(ann) if move.startswith("play ")]
        assert plays and all(text.startswith(MARKUP[move[5:]]) for text, move in plays)


def test_my_cards_pictures_the_hand_trump_first_and_the_table_the_trick_by_place() -> None:
    round_ = new_round()
    events = apply(round_, "pass")
    bidding = render_table(public(round_, events), "en")
    assert bidding.cards is not None
    assert [(r.label, r.cards) for r in bidding.cards.rows] == [("Turned up", ("JC",))]
    events += apply(round_, "order", "discard 9D")
    before_the_lead = render_table(public(round_, events), "en")  # the trick's places, empty
    assert before_the_lead.cards is not None
    assert [(r.cards, r.captions) for r in before_the_lead.cards.rows] == [
        (("", "", "", ""), ("N", "E", "S", "W"))
    ]
    events += apply(round_, "play JD", "play 9S")
    snapshot = public(round_, events)
    cat = render_private(snapshots.private(round_, 2), snapshot, "en")
    assert cat.cards is not None
    (hand,) = cat.cards.rows
    assert hand.cards == ("AC", "KC", "QH", "10H", "9H")  # ♣ trump first, strongest first
    assert cards_in(cat.cards.png()) == list(hand.cards)
    dan = render_private(snapshots.private(round_, 3), snapshot, "en")
    assert dan.cards is not None and dan.cards.rows[-1].cards == ("9D",)  # his own discard
    table = render_table(snapshot, "en")
    assert table.cards is not None
    (trick,) = table.cards.rows
    assert trick.cards == ("JD", "9S", "", "")  # by place: N, E, S (to play), W
    assert trick.captions == ("N", "E", "S", "W")
    assert "9D" not in cards_in(table.cards.png())


def test_a_partner_sitting_out_is_not_told_their_turn_is_to_come() -> None:
    round_ = new_round()
    events = apply(round_, "order alone")  # Ann alone: Cat sits out
    cat = mine(round_, 2, public(round_, events)).embed.description
    assert "you sit out this hand" in cat
    assert "Not your turn yet" not in cat
    ben = mine(round_, 1, public(round_, events)).embed.description
    assert "Not your turn yet" in ben  # waiting, with a turn to come


def test_the_end_of_a_hand_pictures_every_hand_face_up_as_it_was_played() -> None:
    """The round-end picture: each place's five cards in the order it played them, with its
    team's points and total (a lone maker's partner, who sat out, shows none)."""
    round_ = new_round()
    events = apply(round_, "order alone") + play_out(round_)
    last = ended(round_, (10, 4))
    snapshot = public(round_, events, status=ROUND_OVER, last_round=last, totals=last.totals)
    picture = render_table(snapshot, "en").picture
    assert picture is not None
    assert [row.name for row in picture.rows] == ["Ann · N", "Ben · E", "Cat · S", "Dan · W"]
    played = {
        seat: [c for trick in round_.public_view().tricks for s, c in trick if s == seat]
        for seat in range(4)
    }
    assert [list(row.cards) for row in picture.rows] == [played[s] for s in range(4)]
    assert [len(row.cards) for row in picture.rows] == [5, 5, 0, 5]  # Cat sat out
    assert [row.points for row in picture.rows] == list(last.points)
    assert sorted(cards_in(picture.png())) == sorted(c for s in range(4) for c in played[s])


@pytest.mark.parametrize(
    ("language", "over", "totals"),
    [
        ("en", "🏆 Match over. Winners: N–S (**Ann** & **Cat**)", "Final totals: N–S 10, E–W 4"),
        (
            "fr",
            "🏆 Partie terminée. Victoire : N–S (**Ann** & **Cat**)",
            "Totaux finaux : N–S 10, E–O 4",
        ),
    ],
)
def test_my_cards_at_the_match_end_says_the_match_is_over_with_the_result(
    language: str, over: str, totals: str
) -> None:
    """Not "The round is over.", as if another round were coming: the match, who won, the
    final totals."""
    round_ = new_round()
    events = apply(round_, "order alone") + play_out(round_)
    last = ended(round_, (10, 4))
    snapshot = public(
        round_, events, status=FINISHED, last_round=last, totals=last.totals, winners=(0, 2)
    )
    mine = render_private(snapshots.private(round_, 1), snapshot, language).embed.description
    assert mine is not None and over in mine and totals in mine
    assert "round is over" not in mine and "manche est finie" not in mine


def test_the_turned_card_is_pictured_only_while_it_is_up() -> None:
    """Everyone passed: the card is turned down. The table no longer pictures it large (its
    field says it was turned down); the second round of bidding shows no picture."""
    round_ = new_round()
    up = render_table(public(round_, apply(round_, "pass")), "en")
    assert up.cards is not None and up.cards.rows[0].cards == ("JC",)
    events = apply(round_, "pass", "pass", "pass")
    assert round_.public_view().phase == NAME_TRUMP
    down = render_table(public(round_, events), "en")
    assert down.cards is None and "image" not in down.embed.to_dict()
    assert "turned down" in shown(down).lower()


def _card_buttons(rendered: Any) -> list[str]:
    """The cards of the play and discard buttons, in the order the message lays them out."""
    found = []
    for spec in buttons(rendered):
        if isinstance(spec, ButtonSpec):
            verb, _, name = parse(spec.custom_id).text.partition(" ")
            if verb in ("play", "discard"):
                found.append(name)
    return found


def test_the_card_buttons_follow_the_order_of_the_hands_picture() -> None:
    # Ben, void in trump, may play any of his spades: the picture shows them strongest first.
    round_ = new_round()
    snapshot = public(round_, apply(round_, "pass", "order", "discard 9D", "play JD"))
    hand_of = {seat: snapshots.private(round_, seat) for seat in range(4)}
    ben = render_private(hand_of[1], snapshot, "en")
    assert ben.cards is not None
    assert _card_buttons(ben) == list(ben.cards.rows[0].cards)
    # Every deal, every seat to act with a choice of cards: the buttons, left to right, are
    # the picture's cards that may be played, left to right.
    compared = 0
    for seed in range(40):
        rng = random.Random(seed)
        deal = GAME.new_round(GAME.options("standard"), RoundSetup(n_seats=4, dealer=0), seed=seed)
        while not deal.finished:
            seat = deal.to_act()[0]
            private = snapshots.private(deal, seat)
            cards_offered = [a for a in private.legal if a.split(" ")[0] in ("play", "discard")]
            if len(cards_offered) > 1:
                compared += 1
                rendered = render_private(private, public(deal), "en")
                assert rendered.cards is not None
                pictured = [
                    n
                    for n in rendered.cards.rows[0].cards
                    if any(a.endswith(" " + n) for a in cards_offered)
                ]
                assert _card_buttons(rendered) == pictured, (seed, private.legal)
            deal.apply(seat, rng.choice(deal.legal_notation(seat)))
    assert compared > 100  # a choice of cards comes up at most turns of a hand


def test_my_cards_says_which_only_card_plays_by_itself_and_when() -> None:
    round_ = new_round()
    events = apply(round_, "pass", "order", "discard 9D", "play 9C", "play 9S")
    cat = snapshots.private(round_, 2)  # Cat follows the 9♣ led: A♣ or K♣
    assert cat.legal == ("play AC", "play KC")
    # as the service hands it out to a seat with one legal card (its player's choice)
    forced = dataclasses.replace(cat, legal=("play AC",), auto_play="play AC", auto_play_at=1e9)
    english = mine_from(forced, public(round_, events))
    assert "Your only playable card, A♣, plays by itself <t:1000000000:R>" in english
    assert "Your turn." not in english
    french = mine_from(forced, public(round_, events), "fr")
    assert "Votre seule carte jouable, A♣, se joue d'elle-même <t:1000000000:R>" in french


def mine_from(private: Any, snapshot: PublicSnapshot, language: str = "en") -> str:
    text = shown(render_private(private, snapshot, language))
    assert not KEYISH.search(text), text
    return text
