"""A coach's hint as the player reads it (issue #40 §1): a Hint button on a coached table's
"My cards" when it is the player's turn, and an answer naming the move as its button does,
one sentence of why in the game's words (both languages), the cards it uses set apart on the
hand's picture."""

from __future__ import annotations

import random
import re
from dataclasses import replace

import pytest

from bot.custom_ids import Verb, verb_id
from bot.i18n import text
from bot.render.hint import reason_text, render_hint
from bot.render.private import render_private
from games.coach import Reason, advise
from tests.bot.render.snapshots import private, public
from tests.bot.render.test_review_words import NOTATION_CARD
from tests.games.test_coach import decisions

GAMES = ["dutch", "euchre", "dame"]


def hint_button(components: tuple[object, ...]) -> list[object]:
    hint = verb_id(12, 1, Verb.HINT)
    return [c for c in components if getattr(c, "custom_id", None) == hint]


@pytest.mark.parametrize("name", GAMES)
def test_a_coached_tables_my_cards_has_a_hint_button_on_the_players_turn_only(name: str) -> None:
    round_ = next(r for r, _ in decisions(name, 3, 0) if len(r.to_act()) == 1)
    n = round_.setup.n_seats
    coached = replace(public(round_, game=name, n_seats=n), coach=True)
    mine = render_private(private(round_, 0), coached, "en")
    (button,) = hint_button(mine.components)
    assert getattr(button, "label", "") == "Hint"
    waiting = next(s for s in range(n) if s not in round_.to_act())
    assert not hint_button(render_private(private(round_, waiting), coached, "en").components)
    plain = public(round_, game=name, n_seats=n)
    assert not hint_button(render_private(private(round_, 0), plain, "en").components)


@pytest.mark.parametrize("name", GAMES)
@pytest.mark.parametrize("language", ["en", "fr"])
def test_a_hint_names_the_move_and_says_why_in_the_games_words(name: str, language: str) -> None:
    said = 0
    for round_, _ in decisions(name, 3, 0):
        hint = advise(round_, 0, random.Random(1), None)
        shown = public(round_, game=name, n_seats=round_.setup.n_seats)
        rendered = render_hint(private(round_, 0), shown, hint, language)
        words = rendered.embed.description or ""
        move_line, *why = words.splitlines()
        assert move_line.startswith(text(language, "coach.hint_move", move="").split("**")[0])
        assert len(why) == 1 and "{" not in why[0], words  # one sentence, every field filled
        assert hint.move not in words and not NOTATION_CARD.search(words), words
        said += 1
    assert said


@pytest.mark.parametrize("name", GAMES)
def test_the_cards_a_hint_uses_are_set_apart_on_the_hands_picture(name: str) -> None:
    marked = 0
    for round_, _ in decisions(name, 3, 0):
        hint = advise(round_, 0, random.Random(1), None)
        fields = hint.reason.fields if hint.reason is not None else {}
        rendered = render_hint(
            private(round_, 0), public(round_, game=name, n_seats=round_.setup.n_seats), hint, "en"
        )
        if rendered.cards is None:
            continue
        raised = [row for row in rendered.cards.rows if row.raised]
        named = fields.get("cards") or fields.get("card")
        if isinstance(named, tuple) and all(c in round_.view(0).hand for c in named):
            assert raised, (hint, rendered.cards.rows)
            marked += 1
        elif name == "dutch" and "slot" in fields and hint.move.startswith("swap"):
            (grid,) = [row for row in raised if row.captions]  # the slot swapped into
            assert [grid.captions[i] for i in grid.raised] == [str(fields["slot"])]
            marked += 1
    assert marked or name == "euchre"


def test_a_euchre_hint_marks_the_card_to_play_on_the_hand() -> None:
    for seed in range(3, 20):
        for round_, _ in decisions("euchre", seed, 0):
            hint = advise(round_, 0, random.Random(1), None)
            if not hint.move.startswith("play "):
                continue
            shown = public(round_, game="euchre", n_seats=4)
            rendered = render_hint(private(round_, 0), shown, hint, "en")
            assert rendered.cards is not None
            code = hint.move.split()[1]
            (row,) = [r for r in rendered.cards.rows if r.raised]
            assert [row.cards[i] for i in row.raised] == [code]
            assert re.search(r"[♠♥♦♣]", rendered.embed.description or "")
            return
    pytest.fail("no card to play in these hands")


@pytest.mark.parametrize(("language", "expected"), [("en", "1.00 points"), ("fr", "1,00 points")])
def test_a_hints_expected_points_read_with_two_decimals_never_1_points(
    language: str, expected: str
) -> None:
    reason = Reason("pass", {"value": 1.0, "next": "order", "margin": 0.5})
    words = reason_text("euchre", reason, lambda move: move, language)
    assert words is not None and expected in words, words
    assert "0.50" in words or "0,50" in words
