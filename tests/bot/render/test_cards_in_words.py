"""Reviews, hints and replays speak in cards over whole matches of each game, in both
languages (issue #40 §3): every review line and every hint names its cards as a player reads
them (`9♦`, "Discard 9♦"), never in notation (`discard 9D`), and at each hand's last action
the replay shows every hand with what it held at the end, never "—"."""

from __future__ import annotations

import random
import re
from collections.abc import Iterator
from datetime import UTC, datetime
from typing import Any

import pytest

from bot.i18n import text
from bot.render.hint import render_hint
from bot.render.replay import Replayer, render_replay
from bot.render.review import move_words, review_text
from bot.runtime.policy import policy_for
from games.coach import advise
from games.match import Match
from games.registry import get_game
from games.review import Decision, Review, accuracy_of
from storage.history import FinishedHand
from tests.bot.render.pictures import CARD_TEXT
from tests.bot.render.snapshots import private, public
from tests.bot.render.test_review_words import NOTATION_CARD

GAMES = ["dutch", "euchre", "dame"]
LANGUAGES = ["en", "fr"]
HINT_BUDGET = 0.005  # seconds of the strong bot's search per hint: its words are what is tested


def seats_of(name: str) -> int:
    return 3 if name == "dutch" else 4


def whole_match(name: str, seed: int) -> Iterator[tuple[FinishedHand, list[Any]]]:
    """Every hand of a whole match of simple bots, finished, with the rounds before each
    action (the decisions a hint was asked for)."""
    game = get_game(name)
    match = Match(game, game.options(), seats_of(name))
    rng, policy = random.Random(seed), policy_for(game, "simple")
    while not match.finished:
        round_ = match.new_round(seed=f"{seed}-{match.round_no}")
        before = []
        while not round_.finished:
            seat = round_.to_act()[0]
            before.append(game.replay(round_.record()))
            round_.apply(seat, policy.choose(round_, seat, rng))
        result = round_.result()
        yield (
            FinishedHand(
                table_id=seed,
                round_no=match.round_no,
                guild_id=1,
                record=round_.record(),
                names=[f"P{s}" for s in range(match.n_seats)],
                points=list(result.points),
                detail=dict(result.detail),
                finished_at=datetime(2026, 12, 1, tzinfo=UTC),
            ),
            before,
        )
        match.add_round(result)


def every_decision_costly(hand: FinishedHand, seat: int) -> Review:
    """A review of `seat` where every decision with a choice is costly, the bot preferring
    each other move offered in turn: every move of the hand gets worded."""
    game = get_game(hand.record.game)
    round_ = game.replay(hand.record.model_copy(update={"actions": []}))
    decisions = []
    for index, (who, notation) in enumerate(hand.record.actions):
        offered = [str(m) for m in round_.legal_actions(seat)] if who == seat else []
        others = [m for m in offered if m != notation]
        if others:
            best = others[index % len(others)]
            decisions.append(Decision(index, notation, best, len(offered), 0, 99, 99, "blunder", 3))
        round_.apply(who, notation)
    return Review(hand.record.game, seat, tuple(decisions), accuracy_of(game.name, [99.0]))


def in_notation(words: str, *moves: str) -> list[str]:
    """What in `words` is notation: a card code (`9D`, `QS#1`), or one of these moves as the
    engine writes it (those of more than a word: `swap 2`, `meld 8S 8H 8D`)."""
    return NOTATION_CARD.findall(words) + [m for m in moves if " " in m and m in words]


@pytest.mark.parametrize("name", GAMES)
@pytest.mark.parametrize("language", LANGUAGES)
def test_reviews_name_every_move_in_cards_over_a_whole_match(name: str, language: str) -> None:
    replayer, worded = Replayer(), 0
    for hand, _ in whole_match(name, 11):
        for seat in range(hand.record.n_seats):
            review = every_decision_costly(hand, seat)
            words = review_text(language, hand, review, replayer=replayer)
            moves = [m for d in review.decisions for m in (d.played, d.best)]
            assert not in_notation(words, *moves), words
            for decision in review.decisions:
                moves = (decision.played, decision.best)
                said = move_words(hand, seat, decision.index, moves, language, replayer=replayer)
                assert all(said) and not in_notation(" ".join(said), *moves), (moves, said)
                worded += 1
    assert worded


@pytest.mark.parametrize("name", GAMES)
@pytest.mark.parametrize("language", LANGUAGES)
def test_hints_name_their_cards_as_players_read_them_over_a_whole_match(
    name: str, language: str
) -> None:
    hinted = with_cards = 0
    for _hand, rounds in whole_match(name, 12):
        for round_ in rounds:
            seat = round_.to_act()[0]
            if len(round_.legal_actions(seat)) < 2:
                continue
            hint = advise(round_, seat, random.Random(hinted), HINT_BUDGET)
            shown = public(round_, game=name, n_seats=round_.setup.n_seats)
            words = render_hint(private(round_, seat), shown, hint, language).embed.description
            assert words and not in_notation(words, hint.move), (hint, words)
            hinted += 1
            with_cards += bool(re.search(r"[♠♥♦♣]|🃏", words))
    assert hinted and with_cards


@pytest.mark.parametrize("name", GAMES)
@pytest.mark.parametrize("language", LANGUAGES)
def test_at_every_hands_last_action_each_hand_shows_what_it_held_over_a_whole_match(
    name: str, language: str
) -> None:
    replayer, hands = Replayer(), 0
    for hand, _ in whole_match(name, 13):
        last = replayer.frame(hand, len(hand.record.actions))
        embed = render_replay(last, language)
        (field,) = [f for f in embed.fields if f.name == text(language, "replay.hands")]
        rows = field.value.splitlines()
        assert len(rows) == hand.record.n_seats, rows
        for row in rows:
            assert "—" not in row and CARD_TEXT.search(row), (hand.round_no, row)
        said = "\n".join([embed.description or "", *(f.value or "" for f in embed.fields)])
        assert not in_notation(said), said
        hands += 1
    assert hands > 1
