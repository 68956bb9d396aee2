"""The four-colour deck through the real bot: a player chooses it with `/deck`, the bot
restarts, and their "My cards" (its emojis, its buttons' emojis, its picture) shows ♦ blue and
♣ green while another player's stays in two colours and the table message too; the choice is
in the player's data and goes when they are forgotten."""

from __future__ import annotations

import io
import json
from typing import Any

import pytest
from PIL import Image

from bot.local.emojis import EmojiRefused
from bot.pictures.card_faces import BLUE, GREEN, RED
from bot.ui.emojis import EMOJIS, FOUR_COLOUR_PICTURES, PICTURES
from games.registry import get_game
from tests.bot.e2e.harness import BotUnderTest, players
from tests.bot.e2e.players import answer_message, answer_text, choices, use

EMOJI_UPLOAD = "POST /applications/{app_id}/emojis"


@pytest.fixture(autouse=True)
def hands_and_tables_drawn(harness: BotUnderTest) -> None:
    harness.hand_pictures = True


def words(message: dict[str, Any]) -> str:
    return json.dumps([message.get("embeds"), message.get("components")], ensure_ascii=False)


def drawn_in(harness: BotUnderTest, message: dict[str, Any]) -> set[tuple[int, int, int]]:
    """The colours of the picture the message carries."""
    (attachment,) = message["attachments"]
    with Image.open(io.BytesIO(harness.fake.files[str(attachment["url"])])) as image:
        return {colour for _, colour in image.convert("RGB").getcolors(1 << 20) or ()}


def near(colours: set[tuple[int, int, int]], wanted: tuple[int, int, int, int]) -> bool:
    return any(sum(abs(a - b) for a, b in zip(c, wanted[:3], strict=True)) <= 6 for c in colours)


async def peeked_hand(harness: BotUnderTest, user: Any, table_id: int) -> dict[str, Any]:
    """The player's "My cards", then their peek at two cards: the message once its picture
    (drawn after the answer) is in."""
    await harness.my_cards(user, table_id)
    await harness.act(user, table_id)
    mine = harness.last_private[user.id]
    await harness.fake.wait_for(
        lambda: bool(harness.fake.message(mine)["attachments"]), what="the hand's picture"
    )
    await harness.settle()
    return harness.fake.message(mine)


async def test_a_players_four_colour_deck_is_remembered_and_theirs_alone(
    harness: BotUnderTest,
) -> None:
    alice, bob, carol = players(harness.fake)
    async with harness.running():
        uploads = [r for r in harness.fake.requests if r.route == EMOJI_UPLOAD]
        assert len(uploads) == EMOJIS == len(PICTURES) + len(FOUR_COLOUR_PICTURES) == 80
        asked, _ = await harness.ask(alice, "deck", colours="four")
        assert all(r.ephemeral for r in asked.requests if r.shows_message)
        chosen = answer_text(harness.fake, asked)
        assert "four colours" in chosen and chosen.count("<:ct4_") == 2  # A♦ and A♣
        french, _ = await harness.ask(bob, "deck", locale="fr")
        assert "deux couleurs" in answer_text(harness.fake, french)

    async with harness.running() as bot:  # restarted: the choice was kept
        assert len([r for r in harness.fake.requests if r.route == EMOJI_UPLOAD]) == EMOJIS
        # Every hand dealt from diamonds and clubs: whatever a peek shows is one of them.
        table_id = await harness.open_table(alice)
        deck = get_game("dutch").deck(bot.service._table(table_id).options)
        harness.stack_decks(table_id, [sorted(deck, key=lambda c: c.code[-1] not in "DC")])
        for guest in (bob, carol):
            await harness.press(guest, table_id, "join")
        await harness.press(alice, table_id, "start")
        checker = harness.leak_checker()

        hers, his = (
            await peeked_hand(harness, alice, table_id),
            await peeked_hand(harness, bob, table_id),
        )
        assert "<:ct4_" in words(hers) and "<:ct4_" not in words(his)
        assert "<:ct1_" in words(his)
        hers_drawn, his_drawn = drawn_in(harness, hers), drawn_in(harness, his)
        assert near(hers_drawn, BLUE) or near(hers_drawn, GREEN)
        assert not near(hers_drawn, RED)  # no diamond drawn red
        assert not (near(his_drawn, BLUE) or near(his_drawn, GREEN))
        assert hers["attachments"][0]["filename"] != his["attachments"][0]["filename"]
        table = await harness.stored_table_message(table_id)  # shared: two colours
        assert "<:ct4_" not in words(table)
        checker.assert_clean()

        shown, _ = await harness.ask(alice, "privacy show")
        assert "deck (`/deck`): four colours" in answer_text(harness.fake, shown)
        (attachment,) = (answer_message(harness.fake, shown) or {})["attachments"]
        data = json.loads(harness.fake.files[str(attachment["url"])])
        assert data["extra"]["player_preferences"][0]["deck"] == "four"


async def test_a_forgotten_player_has_the_two_colour_deck_again(harness: BotUnderTest) -> None:
    alice, _, _ = players(harness.fake)
    async with harness.running() as bot:
        await harness.ask(alice, "deck", colours="four")
        asked, _ = await harness.ask(alice, "privacy forget")
        question = answer_message(harness.fake, asked)
        assert question is not None
        confirm, _ = choices(question)
        await use(harness.fake, alice, confirm)
        await harness.settle()
        assert bot.decks.of(alice.id) == "two"
        again, _ = await harness.ask(alice, "deck")
        assert "two colours" in answer_text(harness.fake, again)
    async with harness.running() as bot:
        assert bot.decks.of(alice.id) == "two"


async def test_a_four_colour_player_sees_two_colour_pictures_when_only_theirs_are_refused(
    harness: BotUnderTest,
) -> None:
    alice, bob, carol = players(harness.fake)
    create = harness.fake.emojis.create

    def no_four_colour_set(payload: dict[str, Any]) -> Any:
        if str(payload.get("name", "")).startswith("ct4_"):
            raise EmojiRefused(400, "Maximum number of emojis reached (2000)", 30008)
        return create(payload)

    harness.fake.emojis.create = no_four_colour_set  # type: ignore[method-assign]
    async with harness.running() as bot:
        assert len(bot.card_emojis.markup) == len(PICTURES) and not bot.card_emojis.four_colours
        await harness.ask(alice, "deck", colours="four")
        table_id = await harness.seat_players(alice, [bob, carol], target=10)
        await harness.my_cards(alice, table_id)
        hand = words(harness.fake.message(harness.last_private[alice.id]))
        assert "<:ct1_back:" in hand and "<:ct4_" not in hand and "🂠" not in hand


async def test_the_play_choices_are_set_with_deck_kept_across_a_restart_and_in_the_data(
    harness: BotUnderTest,
) -> None:
    alice, bob, _ = players(harness.fake)
    async with harness.running() as bot:
        shown, _ = await harness.ask(alice, "deck")
        assert "played for you: on" in answer_text(harness.fake, shown)
        assert "could go out next turn: off" in answer_text(harness.fake, shown)
        await harness.ask(alice, "deck", colours="four")
        asked, _ = await harness.ask(alice, "deck", auto_play=False, auto_knock=True)
        said = answer_text(harness.fake, asked)
        assert "four colours" in said  # the deck chosen before is kept
        assert "played for you: off" in said and "next turn: on" in said
        assert not bot.choices.auto_play(alice.id) and bot.choices.auto_knock(alice.id)
        french, _ = await harness.ask(bob, "deck", locale="fr")
        assert "jouée pour vous : oui" in answer_text(harness.fake, french)
    async with harness.running() as bot:  # restarted: the choices were kept
        assert not bot.choices.auto_play(alice.id) and bot.choices.auto_knock(alice.id)
        assert bot.decks.of(alice.id) == "four" and bot.choices.auto_play(bob.id)
        assert bot.service.choices is bot.choices  # the table service plays by them
        shown, _ = await harness.ask(alice, "privacy show")
        assert "played for you off, the knock made for you on" in answer_text(harness.fake, shown)
        (attachment,) = (answer_message(harness.fake, shown) or {})["attachments"]
        [row] = json.loads(harness.fake.files[str(attachment["url"])])["extra"][
            "player_preferences"
        ]
        assert (row["deck"], row["auto_play"], row["auto_knock"]) == ("four", 0, 1)
