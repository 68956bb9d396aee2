"""Dame de Pique's "My cards" while laying: a rank (or a pack), then the cards in one select of
several values, for a hand of 42 cards holding five wild cards; every card offered goes in that
pack, every count allowed is one the engine accepts, and the take shows its cards."""

from __future__ import annotations

import random
from itertools import combinations
from typing import Any

import pytest

from bot.games.dame.menu import MOST_CANDIDATES, add_step, candidates, likely_moves, meld_step
from bot.render.actions import MAX_OPTIONS, ButtonSpec, SelectSpec
from bot.render.private import render_private
from bot.ui.custom_ids import Kind, parse
from games.cards import card
from games.dame import GAME, DameRound
from games.dame.hints import discard_order
from games.dame.rules import IS_WILD, PACK_MIN
from games.errors import IllegalAction
from tests.bot.games.dame.views import fillers, public_snapshot, within_discord_limits
from tests.bot.render.pictures import MARKUP, card_pictures
from tests.bot.render.snapshots import private as _private
from tests.games.dame.stacking import draw_and_discard, stacked_round

BEN = 1
WILD_HAND = "7S 7H 2S 2H 2D JK 2C#1 3S 4D 5C 6H 8S 9D"  # five wild cards


def _big_hand_with_wilds() -> tuple[DameRound, list[Any]]:
    """Ben takes a pile of 32 with 7♠ 7♥: 42 cards in hand, five of them wild, a 7 pack."""
    stock = f"{fillers(31, WILD_HAND)} 7D"
    round_ = stacked_round({BEN: WILD_HAND}, stock=stock)
    for _ in range(32):
        draw_and_discard(round_, round_.to_act()[0])
    events = list(round_.apply(BEN, "take 7S 7H"))
    return round_, events


def _render(round_: DameRound, events: list[Any], language: str, prefix: str = "") -> Any:
    return render_private(
        _private(round_, BEN), public_snapshot(round_, events), language, prefix=prefix
    )


def _buttons(rendered: Any) -> list[ButtonSpec]:
    """The buttons of "My cards": those beside their packs (sections), then those in rows."""
    beside = [section.button for section in rendered.sections]
    return beside + [c for c in rendered.components if isinstance(c, ButtonSpec)]


def _accepted(round_: DameRound, notation: str) -> bool:
    try:
        round_.check(BEN, GAME.parse_action(notation))
    except IllegalAction:
        return False
    return True


def test_a_pick_never_needs_more_options_than_a_select_holds() -> None:
    """A rank's naturals (8) and every wild card (12) of the two decks: 20 options at most."""
    assert MOST_CANDIDATES == 20 <= MAX_OPTIONS


@pytest.mark.parametrize("language", ["en", "fr"])
def test_the_top_menu_offers_likely_packs_as_buttons_and_every_rank_and_pack_in_one_select(
    language: str,
) -> None:
    round_, events = _big_hand_with_wilds()
    view = round_.view(BEN)
    assert len(view.hand) == 42 and sum(IS_WILD[card(c)] for c in view.hand) == 5
    rendered = _render(round_, events, language)
    within_discord_limits(rendered)
    selects = {parse(c.custom_id).text: c for c in rendered.components if isinstance(c, SelectSpec)}
    legal = view.legal
    assert legal is not None
    steps = [meld_step(r) for r in legal.meld_ranks] + [add_step("7")]
    assert [v for _, v in selects["lay"].options] == steps
    assert legal.meld_ranks and all(c.max_values == 1 for c in selects.values())
    # the single moves on top are offered moves: whole packs and adds of the hand's naturals
    moves = [parse(c.custom_id) for c in _buttons(rendered)]
    played = [move.text for move in moves if move.kind is Kind.PLAY]  # not Refresh, if it fits
    lays = [p for p in played if p.startswith(("meld", "add"))]
    assert lays and set(lays) <= set(round_.legal_notation(BEN))
    # a hand of 42 discards: two rows of packs, the select, a row of the likeliest discards
    # with Knock last, and the other discards in a select by rank
    likely = [a for a in likely_moves(view, round_.legal_notation(BEN)) if a != "announce"]
    assert lays == likely[:10]
    offered = tuple(a.split()[1] for a in round_.legal_notation(BEN) if a.startswith("discard"))
    assert played[-1] == "announce" and played[-5:-1] == [
        f"discard {name}" for name in discard_order(view, offered)[:4]
    ]


@pytest.mark.parametrize("language", ["en", "fr"])
def test_each_rank_step_picks_any_number_of_its_naturals_and_wild_cards_at_once(
    language: str,
) -> None:
    round_, events = _big_hand_with_wilds()
    view = round_.view(BEN)
    legal = view.legal
    assert legal is not None
    rng = random.Random(3)
    assert legal.meld_ranks and legal.add_ranks  # both kinds of step are checked below
    steps = [(meld_step(r), r, "meld") for r in legal.meld_ranks]
    steps += [(add_step(r), r, add_step(r)) for r in legal.add_ranks]
    for step, rank, prefix in steps:
        rendered = _render(round_, events, language, prefix=step)
        within_discord_limits(rendered)
        pick, *packs, back = rendered.components
        assert isinstance(pick, SelectSpec) and isinstance(back, ButtonSpec)
        assert all(isinstance(p, ButtonSpec) for p in packs)
        assert parse(pick.custom_id).kind is Kind.PICK and parse(pick.custom_id).text == prefix
        assert parse(back.custom_id).kind is Kind.NAVIGATE
        values = [v for _, v in pick.options]
        assert values == [v for v, _ in candidates(view, rank)]
        assert len(set(values)) == len(values) <= MAX_OPTIONS
        naturals = [c for c in view.hand if not IS_WILD[card(c)] and card(c).rank == rank]
        assert len(values) == len(naturals) + 5  # the rank's naturals and every wild card
        least = PACK_MIN if prefix == "meld" else 1
        # any count may be sent (Discord would drop a choice below min_values silently): the
        # engine refuses a new pack of fewer than three cards, naming the rule
        assert (pick.min_values, pick.max_values) == (1, len(values))
        for count in range(1, least):
            chosen = values[:count]
            with pytest.raises(IllegalAction) as refused:
                round_.check(BEN, GAME.parse_action(" ".join((prefix, *chosen))))
            assert refused.value.rule == "pack_too_small"
        # every other count is a move the engine accepts, for any cards with a natural among
        # them (a pack of wild cards alone is answered with one sentence)
        for count in range(least, len(values) + 1):
            chosen = rng.sample(values, count)
            if prefix == "meld" and not any(v in values[: len(naturals)] for v in chosen):
                chosen[0] = values[0]
                chosen = list(dict.fromkeys(chosen))
            assert _accepted(round_, " ".join((prefix, *chosen))), (prefix, chosen)
        if prefix == "meld":
            wilds = values[len(naturals) :]
            assert not _accepted(round_, " ".join(("meld", *wilds[:PACK_MIN])))


def test_two_copies_of_a_card_are_two_options_that_pick_both_and_say_so_in_words() -> None:
    """The second copy of a card reads "a second 8♠" ("un deuxième 8♠"), not "8♠ #2"; a
    joker reads "joker", its picture beside it, not the 🃏 emoji."""
    round_ = stacked_round({BEN: "8S 8S#1 8H JK JK#1 JK#2 4D 5C 6H 9S 9D 10C JH"}, stock="KC")
    draw_and_discard(round_, BEN)
    for seat in (2, 3, 0):
        draw_and_discard(round_, seat)
    round_.apply(BEN, "draw")
    view = round_.view(BEN)
    assert candidates(view, "8") == [
        ("8S", "8♠"),
        ("8S#1", "a second 8♠"),
        ("8H", "8♥"),
        ("JK", "joker"),  # in words beside its picture, never the 🃏 emoji
        ("JK#1", "a second joker"),
        ("JK#2", "a third joker"),
    ]
    assert [label for _, label in candidates(view, "8", "fr")][1] == "un deuxième 8♠"
    for chosen in combinations(["8S", "8S#1", "8H", "JK"], 3):
        assert _accepted(round_, " ".join(("meld", *chosen)))
    round_.apply(BEN, "meld 8S#1 JK 8S")
    assert sorted(round_.view(BEN).packs[1][0].cards) == ["8S", "8S#1", "JK"]


def test_the_take_shows_its_two_naturals_the_top_card_and_the_pile_size() -> None:
    round_ = stacked_round({BEN: "7S 7H 3S 4D 5C 6H 8S 9D 10C JH QD KS AC"}, stock="9C 10D JC 7D")
    draw_and_discard(round_, BEN)
    draw_and_discard(round_, 2)
    draw_and_discard(round_, 3)
    round_.apply(0, "draw")
    round_.apply(0, "discard 7D")
    public = public_snapshot(round_, [])
    private = _private(round_, BEN)
    assert "take 7S 7H" in private.legal
    for language, wanted in (
        ("en", "The pile's 7♦ with 7♠ 7♥: 4 cards taken"),
        ("fr", "Le 7♦ de la défausse avec 7♠ 7♥ : 4 cartes prises"),
    ):
        rendered = render_private(private, public, language)
        labels = [section.text for section in rendered.sections]
        labels += [
            label
            for c in rendered.components
            if isinstance(c, SelectSpec)
            for label, _ in c.options
        ]
        assert wanted in labels, labels


def test_with_card_pictures_every_option_of_a_pick_shows_its_card() -> None:
    round_, events = _big_hand_with_wilds()
    view = round_.view(BEN)
    assert view.legal is not None
    rank = view.legal.meld_ranks[0]
    with card_pictures():
        pick, *_ = _render(round_, events, "en", prefix=meld_step(rank)).components
    assert isinstance(pick, SelectSpec)
    assert list(pick.emojis) == [MARKUP[card(value).name] for _, value in pick.options]
    assert all("<:" not in label for label, _ in pick.options)


@pytest.mark.parametrize("language", ["en", "fr"])
def test_with_a_few_cards_left_each_discard_has_a_knock_and_discard_button_of_one_click(
    language: str,
) -> None:
    """Ben lays three packs and holds 3 cards: the knock and the turn's discard are one click,
    a "Knock and discard" button below each discard, and Knock alone last (to knock first);
    with 42 cards they do not fit."""
    round_ = stacked_round({BEN: "7S 7H 7D 7C 8S 8H 8D 8C 9S 9H 9D 10C 3S"})
    events = list(round_.apply(BEN, "draw"))
    for pack in ("meld 7S 7H 7D 7C", "meld 8S 8H 8D 8C", "meld 9S 9H 9D"):
        events += round_.apply(BEN, pack)
    rendered = _render(round_, events, language)
    within_discord_limits(rendered)
    buttons = [c for c in rendered.components if isinstance(c, ButtonSpec)]
    played = [parse(c.custom_id).text for c in buttons]
    discards = [p for p in played if p.startswith("discard ")]
    assert len(discards) == len(set(round_.view(BEN).hand)) == 3
    knocks = [p for p in played if p.startswith("announce")]
    assert knocks == [*(f"announce;{discard}" for discard in discards), "announce"]
    label = {"en": "Knock and discard 3♠", "fr": "Cogner et défausser 3♠"}[language]
    assert label in [c.label for c in buttons]
    round_.apply(BEN, "announce")  # what the button plays, move after move
    round_.apply(BEN, discards[0])
    assert round_.view(BEN).announced[BEN]
    big, big_events = _big_hand_with_wilds()
    big_played = [parse(c.custom_id).text for c in _render(big, big_events, language).components]
    assert "announce" in big_played and not any(";" in p for p in big_played)


def _hand_of_22_discards() -> tuple[DameRound, list[Any]]:
    """Ben takes a pile of 12 with 7♠ 7♥: 22 different cards to discard (a select) and a pack
    of three aces to lay."""
    hand = "7S 7H 3S 4D 5C 6H 8S 9D 10C JC QC KC AC"
    round_ = stacked_round({BEN: hand}, stock=f"{fillers(11, hand)} 7D")
    for _ in range(12):
        draw_and_discard(round_, round_.to_act()[0])
    events = list(round_.apply(BEN, "take 7S 7H"))
    return round_, events


@pytest.mark.parametrize("language", ["en", "fr"])
def test_with_the_discards_in_a_select_a_second_select_knocks_and_discards_in_one_choice(
    language: str,
) -> None:
    """22 discards do not fit as buttons: below their select, one of "Knock and discard 3♠"
    (`announce;discard 3S`), the same cards with their pictures, one choice for both moves."""
    round_, events = _hand_of_22_discards()
    with card_pictures():
        rendered = _render(round_, events, language)
    within_discord_limits(rendered)
    selects = {parse(c.custom_id).text: c for c in rendered.components if isinstance(c, SelectSpec)}
    buttons = [parse(c.custom_id).text for c in rendered.components if isinstance(c, ButtonSpec)]
    likeliest = [b for b in buttons if b.startswith("discard ")]
    others = [value for _, value in selects["discard"].options]
    discards = likeliest + others
    assert len(likeliest) == 4 and len(discards) == len(set(round_.view(BEN).hand)) == 22
    knock = selects["announce"]
    assert [value for _, value in knock.options] == [f"announce;{d}" for d in discards]
    assert knock.emojis[4:] == selects["discard"].emojis and all(knock.emojis)
    assert (
        knock.placeholder
        == {"en": "Knock and discard a card", "fr": "Cogner et défausser une carte"}[language]
    )
    assert (
        knock.options[0][0]
        == {"en": "Knock and discard 8♠", "fr": "Cogner et défausser 8♠"}[language]
    )
    assert knock.row == selects["discard"].row + 1
    for move in knock.options[0][1].split(";"):  # what the option plays, move after move
        round_.apply(BEN, move)
    assert round_.view(BEN).announced[BEN] and round_.to_act() != (BEN,)


@pytest.mark.parametrize("language", ["en", "fr"])
def test_a_pack_has_a_lay_and_knock_button_when_it_fits(language: str) -> None:
    """The pack of aces on a button, and next to it "Lay A♠ A♥ A♣ and knock" (`meld …;
    announce`): a turn that lays it, knocks and discards is three clicks with the discard."""
    round_, events = _hand_of_22_discards()
    rendered = _render(round_, events, language)
    buttons = _buttons(rendered)
    played = [parse(c.custom_id).text for c in buttons]
    assert played[:2] == ["meld AS AH AC", "meld AS AH AC;announce"]
    label = {"en": "Lay and knock", "fr": "Poser et cogner"}[language]
    assert buttons[1].label == label
    beside = {
        "en": "New A pack, then knock: A♠ A♥ A♣",
        "fr": "Nouveau paquet d'A, puis cogner : A♠ A♥ A♣",
    }[language]
    assert rendered.sections[1].text == beside
    for move in played[1].split(";"):
        round_.apply(BEN, move)
    assert round_.view(BEN).announced[BEN] and round_.to_act() == (BEN,)  # the discard is left


def _lay_steps(rendered: Any) -> list[str]:
    selects = [c for c in rendered.components if isinstance(c, SelectSpec)]
    return [value for select in selects for _, value in select.options if "." in value]


@pytest.mark.parametrize("language", ["en", "fr"])
def test_any_pack_of_a_rank_is_three_clicks_the_select_its_rank_and_a_button(
    language: str,
) -> None:
    """Ben holds three 9s, two 5s, a 2 and a joker: every pack the hand can lay scores by its
    rank, its count of naturals, of 2s and of jokers, and each of those is a button of its
    rank's step (open the select, choose the rank, click), a move the engine accepts."""
    round_ = stacked_round({BEN: "9S 9H 9D 5S 5H 2C JK 3S 4D 6H 8S 10D JC"}, stock="KC")
    events = list(round_.apply(BEN, "draw"))
    view = round_.view(BEN)
    assert view.legal is not None
    steps = _lay_steps(_render(round_, events, language))
    assert steps == [meld_step(r) for r in view.legal.meld_ranks]
    for rank in ("9", "5"):
        naturals = {"9": ("9S", "9H", "9D"), "5": ("5S", "5H")}[rank]
        expected = {
            (count, twos, jokers)
            for count in range(1, len(naturals) + 1)
            for twos in (0, 1)
            for jokers in (0, 1)
            if count + twos + jokers >= PACK_MIN
        }
        step = _render(round_, events, language, prefix=meld_step(rank))
        within_discord_limits(step)
        packs = [
            parse(c.custom_id).text for c in _buttons(step) if parse(c.custom_id).kind is Kind.PLAY
        ]
        shapes = set()
        for pack in packs:
            names = pack.split()[1:]
            assert _accepted(round_, pack), pack
            shapes.add((sum(n[0] == rank[0] for n in names), names.count("2C"), names.count("JK")))
        assert shapes == expected and len(packs) == len(expected)


@pytest.mark.parametrize("language", ["en", "fr"])
def test_knock_follows_the_likeliest_discards_and_is_never_the_first_button(
    language: str,
) -> None:
    """After a draw the first buttons are the whole packs, then the likeliest discards: a lone
    low card before a pair, a pair before a card that lays now; Knock comes after them."""
    round_, events = _hand_of_22_discards()
    rendered = _render(round_, events, language)
    buttons = [c for c in rendered.components if isinstance(c, ButtonSpec)]
    played = [parse(c.custom_id).text for c in buttons]
    assert not played[0].startswith("announce") and buttons[0].style != "danger"
    knock = played.index("announce")
    discards = [i for i, p in enumerate(played) if p.startswith("discard ")]
    assert discards and all(i < knock for i in discards)
    assert "discard AS" not in played  # the aces lay as a pack now: never a likely discard


@pytest.mark.parametrize("language", ["en", "fr"])
def test_a_knock_that_holds_is_not_offered_again_but_knock_again_with_the_discard_is(
    language: str,
) -> None:
    """Ben knocked last turn: his knock holds now ("Your knock holds"), so no Knock button
    offers it again; ending the turn without going out may knock again for the next turn,
    with the discard ("Knock again and discard 3♠")."""
    round_ = stacked_round({BEN: "7S 7H 7D 7C 8S 8H 8D 8C 9S 9H 9D 10C 3S"}, stock="4D")
    round_.apply(BEN, "draw")
    for pack in ("meld 7S 7H 7D 7C", "meld 8S 8H 8D 8C", "meld 9S 9H 9D"):
        round_.apply(BEN, pack)
    round_.apply(BEN, "announce")
    round_.apply(BEN, "discard 4D")
    while round_.to_act() != (BEN,):
        draw_and_discard(round_, round_.to_act()[0])
    events = list(round_.apply(BEN, "draw"))
    view = round_.view(BEN)
    assert view.legal is not None and view.legal.may_go_out
    rendered = _render(round_, events, language)
    buttons = [c for c in rendered.components if isinstance(c, ButtonSpec)]
    played = [parse(c.custom_id).text for c in buttons]
    assert "announce" in round_.legal_notation(BEN) and "announce" not in played
    again = [b for b in buttons if parse(b.custom_id).text.startswith("announce;discard ")]
    assert again
    label = {"en": "Knock again and discard", "fr": "Cogner de nouveau et défausser"}[language]
    assert all(b.label.startswith(label) for b in again)
    held = {"en": "Your knock holds", "fr": "Votre cogne tient"}[language]
    assert held in (rendered.embed.description or "")


def test_a_joker_button_shows_the_jokers_picture_and_says_joker_never_the_emoji() -> None:
    """ "Discard joker" with the joker's card picture as its emoji: the 🃏 emoji in the label
    looked like another card than the picture beside it."""
    round_ = stacked_round({BEN: "JK 8S 8H 4D 5C 6H 9S 9D 10C JH QC KC AC"}, stock="3S")
    events = list(round_.apply(BEN, "draw"))
    with card_pictures():
        rendered = _render(round_, events, "en")
    labels = [c.label for c in rendered.components if isinstance(c, ButtonSpec)]
    labels += [o for c in rendered.components if isinstance(c, SelectSpec) for o, _ in c.options]
    assert not any("🃏" in label for label in labels), labels
    shown = [(c.label, c.emoji) for c in rendered.components if isinstance(c, ButtonSpec)]
    for c in rendered.components:
        if isinstance(c, SelectSpec):
            shown += [(label, c.emojis[i]) for i, (label, _) in enumerate(c.options)]
    assert ("Discard joker", MARKUP["JK"]) in shown, shown
