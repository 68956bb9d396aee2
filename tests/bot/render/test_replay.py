"""Replay frames: from checkpoints, equal to a replay from the start at every step."""

from __future__ import annotations

import json
import random
from datetime import UTC, datetime

import pytest

from bot.i18n import text
from bot.local.layout import IS_COMPONENTS_V2
from bot.local.limits import message_errors
from bot.pictures.card_faces import FOUR_COLOUR_NAMES, FOUR_COLOURS
from bot.pictures.layout import PHONE_SHOWN, card_height, card_width, rows_image
from bot.render.replay import Replayer, frame, render_replay, replay_message
from bot.runtime.policy import policy_for
from bot.ui.layout import layout_view
from games.contract import RoundSetup
from games.registry import get_game
from storage.history import FinishedHand
from tests.bot.render.pictures import CARD_TEXT, card_pictures


def finished(name: str, seed: int) -> FinishedHand:
    game = get_game(name)
    n = 4 if name != "dutch" else 3
    round_ = game.new_round(game.options(), RoundSetup(n_seats=n, dealer=0), seed=seed)
    rng = random.Random(seed)
    policy = policy_for(game, "simple")
    while not round_.finished:
        seat = round_.to_act()[0]
        round_.apply(seat, policy.choose(round_, seat, rng))
    result = round_.result()
    return FinishedHand(
        table_id=seed,
        round_no=0,
        guild_id=1,
        record=round_.record(),
        names=[f"P{s}" for s in range(n)],
        points=list(result.points),
        detail=dict(result.detail),
        finished_at=datetime(2026, 12, 1, tzinfo=UTC),
    )


def plain(f: object) -> tuple[object, ...]:
    return (f.round.public_view(), f.log, f.private, f.step)  # type: ignore[attr-defined]


@pytest.mark.parametrize("name", ["dutch", "euchre", "dame"])
def test_a_frame_from_checkpoints_equals_a_replay_from_the_start(name: str) -> None:
    hand = finished(name, 5)
    replayer = Replayer()
    steps = len(hand.record.actions)
    for step in (*range(steps, -1, -1), steps + 5, -3):
        assert plain(replayer.frame(hand, step)) == plain(frame(hand, step))
        for seat in range(hand.record.n_seats):
            assert replayer.frame(hand, step).round.view(seat) == frame(hand, step).round.view(seat)


@pytest.mark.parametrize("name", ["dutch", "euchre", "dame"])
def test_every_step_renders_with_every_hand_face_up(name: str) -> None:
    hand = finished(name, 9)
    replayer = Replayer()
    for step in range(len(hand.record.actions) + 1):
        embed = render_replay(replayer.frame(hand, step), "fr")
        fields = [f.name for f in embed.fields]
        assert "Toutes les mains, face visible" in fields
        assert fields[0] == f"Action {step} sur {len(hand.record.actions)}"
        assert embed.image.url is None


def test_a_replay_shows_the_cards_in_the_viewers_deck() -> None:
    hand = finished("euchre", 9)  # four hands of five, face up: diamonds and clubs among them
    shown = Replayer().frame(hand, 0)
    with card_pictures():
        four = json.dumps(render_replay(shown, "en", FOUR_COLOURS).to_dict(), ensure_ascii=False)
        two = json.dumps(render_replay(shown, "en").to_dict(), ensure_ascii=False)
    assert "<:ct4_" in four and "<:ct4_" not in two
    assert not any(f"<:ct1_{name}:" in four for name in FOUR_COLOUR_NAMES)
    assert any(f"<:ct1_{name}:" in two for name in FOUR_COLOUR_NAMES)


def test_a_dame_replay_draws_every_card_of_both_decks_the_jokers_included_as_pictures() -> None:
    """Dame plays two decks: a second copy of a card (`7S#1`, a joker `JK#2`) is drawn with
    its card's picture like the first, never written as text (`7♠`, the 🃏 emoji)."""
    hand = finished("dame", 9)
    shown = Replayer().frame(hand, 0)
    hands = shown.round.open_hands()
    codes = [c.code for cards in hands.values() for c in cards]
    assert any("#" in code for code in codes)  # second copies are dealt
    with card_pictures():
        embed = render_replay(shown, "en")
    (field,) = [f for f in embed.fields if f.name == "Every hand, face up"]
    assert "🃏" not in field.value and not CARD_TEXT.search(field.value), field.value


def test_a_replay_marks_a_card_a_rule_showed_whatever_its_copy_or_rank() -> None:
    """A Dame draw of a second copy (`7S#1`) or a 10 is a card shown to its drawer at that
    step: listed, as its picture."""
    hand = finished("dame", 9)
    replayer = Replayer()
    seen = []
    for step in range(1, len(hand.record.actions) + 1):
        f = replayer.frame(hand, step)
        drawn = [str(e.data.get("card", "")) for e in f.private if e.kind == "draw"]
        if any("#" in c or c.startswith("10") for c in drawn):
            with card_pictures():
                embed = render_replay(f, "en")
            shown = [fl for fl in embed.fields if fl.name.startswith("Shown to")]
            assert shown and "<:ct1_" in shown[0].value, (drawn, embed.fields)
            seen.append(step)
            break
    assert seen


@pytest.mark.parametrize("language", ["en", "fr"])
def test_a_dutch_replay_tells_the_viewer_to_press_no_button_it_lacks(language: str) -> None:
    """The peeks of a replayed hand: the live table says to press My cards, a replay has no
    such button, so at no step does it name one."""
    hand = finished("dutch", 9)
    replayer = Replayer()
    button = {"en": "My cards", "fr": "Mes cartes"}[language]
    for step in range(len(hand.record.actions) + 1):
        shown = json.dumps(render_replay(replayer.frame(hand, step), language).to_dict())
        assert button not in shown, step
    first = json.dumps(render_replay(replayer.frame(hand, 0), "en").to_dict())
    assert "Everyone peeks at two cards. Waiting for" in first


@pytest.mark.parametrize("name", ["euchre", "dame"])
@pytest.mark.parametrize("language", ["en", "fr"])
def test_at_a_replays_last_action_every_hand_shows_what_it_held_at_the_end(
    name: str, language: str
) -> None:
    """Euchre hands are empty once the last trick is played, a Dame hand once it went out:
    the last step still shows each its last cards (marked as played last), never "—"."""
    hand = finished(name, 9)
    last = Replayer().frame(hand, len(hand.record.actions))
    assert any(not cards for cards in last.round.open_hands().values())  # an emptied hand
    embed = render_replay(last, language)
    (field,) = [f for f in embed.fields if f.name == text(language, "replay.hands")]
    rows = field.value.splitlines()
    assert len(rows) == hand.record.n_seats
    for row in rows:
        assert "—" not in row and CARD_TEXT.search(row), row
    marked = text(language, "replay.held_last", cards="")
    assert any(marked in row for row in rows)


def test_before_the_last_action_no_hand_is_marked_as_played_last() -> None:
    hand = finished("euchre", 9)
    replayer = Replayer()
    marked = text("en", "replay.held_last", cards="")
    for step in range(len(hand.record.actions)):
        assert not replayer.frame(hand, step).held_last
        (field,) = [
            f
            for f in render_replay(replayer.frame(hand, step), "en").fields
            if f.name == "Every hand, face up"
        ]
        assert marked not in field.value


def v2(rendered: object) -> dict[str, object]:
    """The viewer as discord.py sends it in Components V2 (flags and components)."""
    view = layout_view(rendered.embed, rendered.components)  # type: ignore[attr-defined]
    return {"flags": IS_COMPONENTS_V2, "components": view.to_components()}


@pytest.mark.parametrize("name", ["dutch", "euchre", "dame"])
def test_the_replay_viewer_is_a_v2_message_its_picture_across_it_its_buttons_in_rows(
    name: str,
) -> None:
    hand = finished(name, 9)
    replayer = Replayer()
    steps = len(hand.record.actions)
    for step in (0, 1, steps // 2, steps):
        rendered = replay_message(replayer.frame(hand, step), "en", reviewable=True)
        assert rendered.v2 and rendered.cards is not None
        payload = v2(rendered)
        assert message_errors(payload, creating=True) == [], (name, step)
        (container,) = payload["components"]  # type: ignore[misc]
        kinds = [c["type"] for c in container["components"]]
        gallery = kinds.index(12)
        (item,) = container["components"][gallery]["items"]
        assert item["media"]["url"] == f"attachment://{rendered.cards.filename}"
        # the step's action in words, right under the picture it changed
        moved = container["components"][gallery + 1]["content"]
        assert moved.startswith(f"**Action {step} of {steps}**\n")
        rows = [c for c in container["components"] if c["type"] == 1]
        ops = [[b["custom_id"].split(":")[-1] for b in row["components"]] for row in rows]
        assert ops[0] == ["first", "back", "fwd", "last"]
        assert [b["disabled"] for b in rows[0]["components"]] == [
            step == 0,
            step == 0,
            step == steps,
            step == steps,
        ]
        assert [b["custom_id"][:4] for b in rows[1]["components"]][-2:] == ["rpf:", "rpr:"]


@pytest.mark.parametrize("name", ["dutch", "euchre", "dame"])
def test_the_replay_picture_shows_every_hand_face_up_under_its_players_name(name: str) -> None:
    hand = finished(name, 9)
    shown = Replayer().frame(hand, 1)
    rendered = replay_message(shown, "en")
    assert rendered.cards is not None
    labels = [row.label for row in rendered.cards.rows]
    assert [n for n in hand.names if n in labels] == list(hand.names)
    _, drawn = rows_image(rendered.cards.rows)
    held = [c.name.split("#")[0] for cards in shown.round.open_hands().values() for c in cards]
    assert held and all(drawn.count(card) >= held.count(card) for card in set(held))


def test_the_replays_first_step_says_the_cards_are_dealt_and_a_later_one_names_its_move() -> None:
    hand = finished("euchre", 9)
    replayer = Replayer()
    first = render_replay(replayer.frame(hand, 0), "fr").fields[0]
    assert first.value == text("fr", "replay.dealt")
    for step in range(1, len(hand.record.actions) + 1):  # a checkpoint's step too
        moved = render_replay(replayer.frame(hand, step), "en").fields[0].value
        assert moved and moved not in ("—", text("en", "replay.dealt")), step
        assert "P" in moved or "trick" in moved.lower(), (step, moved)


@pytest.mark.parametrize("name", ["dutch", "euchre", "dame"])
def test_at_the_last_step_the_picture_heads_the_hands_as_their_last_cards_once(name: str) -> None:
    hand = finished(name, 9)
    shown = Replayer().frame(hand, len(hand.record.actions))
    rendered = replay_message(shown, "fr")
    assert rendered.cards is not None
    hands = [row for row in rendered.cards.rows if row.label in hand.names]
    assert len(hands) == len(hand.names)
    headings = [row.label for row in rendered.cards.rows if not row.cards]
    if all(not cards for cards in shown.round.open_hands().values()):
        # said once over the hands, not under each (captions side by side would run together)
        assert text("fr", "replay.hands_ended") in headings
        assert all(not row.note for row in hands)


@pytest.mark.parametrize("name", ["dutch", "euchre", "dame"])
def test_the_replay_picture_keeps_a_card_40_px_wide_at_a_phones_width(name: str) -> None:
    """Shown at the message's width in a 420-px window, a card of the picture (it flows, so
    its cards are drawn full size) is 40 px wide at least, at every few steps of the hand."""
    hand = finished(name, 9)
    replayer = Replayer()
    for step in range(0, len(hand.record.actions) + 1, 7):
        rendered = replay_message(replayer.frame(hand, step), "en")
        assert rendered.cards is not None
        image, _ = rows_image(rendered.cards.rows)
        shown = card_width(card_height(rendered.cards.rows)) * PHONE_SHOWN / image.width
        assert shown >= 40, (step, image.width)
