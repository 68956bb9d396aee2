"""Cards as pictures: the card emojis are uploaded once and reused, hands and tables show
them (text where Discord refuses them), and the round's end comes with a picture of every
hand that shows only what the round's end makes public."""

from __future__ import annotations

import asyncio
import io
import json
import os
import signal
from typing import Any

import pytest
from PIL import Image

from bot.local.emojis import EmojiRefused
from bot.local.records import LocalInteraction
from bot.pictures.card_faces import FOUR_COLOURS
from bot.pictures.layout import CardPicture
from bot.pictures.round_end import cards_in
from bot.snapshots import PLAYING, ROUND_OVER
from bot.ui.custom_ids import navigate_id
from bot.ui.discord_notifier import turn_of
from bot.ui.emojis import EMOJIS, FOUR_COLOUR_PICTURES, PICTURES, emoji_name
from bot.ui.message_pictures import drawing_processes, in_drawing_process
from tests.bot.e2e.harness import BotUnderTest, players
from tests.bot.e2e.players import picture_url

EMOJI_UPLOAD = "POST /applications/{app_id}/emojis"


@pytest.fixture(autouse=True)
def hands_and_tables_drawn(harness: BotUnderTest) -> None:
    """The bot draws its pictures of hands and tables here (off in other e2e tests, for speed):
    the leak checker reads the cards each picture shows."""
    harness.hand_pictures = True


def words(message: dict[str, Any]) -> str:
    return json.dumps([message.get("embeds"), message.get("components")], ensure_ascii=False)


def uploads(harness: BotUnderTest) -> int:
    return sum(1 for r in harness.fake.requests if r.route == EMOJI_UPLOAD)


async def test_card_pictures_are_uploaded_once_then_reused_and_shown_in_hands(
    harness: BotUnderTest,
) -> None:
    alice, bob, carol = players(harness.fake)
    async with harness.running() as bot:
        # 52 cards, the joker, the back; and the four-colour deck's ♦ and ♣
        assert uploads(harness) == EMOJIS == len(PICTURES) + 26 == 80
        uploaded = {e.name: e.image for e in harness.fake.emojis.by_id.values()}
        names = [emoji_name(n) for n in PICTURES]
        names += [emoji_name(n, FOUR_COLOURS) for n in FOUR_COLOUR_PICTURES]
        for name in names:
            picture = uploaded[name]
            with Image.open(io.BytesIO(picture)) as image:
                assert image.format == "PNG" and image.size == (128, 128)
        checker = harness.leak_checker()
        table_id = await harness.seat_players(alice, [bob, carol], target=10)
        await harness.my_cards(alice, table_id)
        hand = harness.fake.message(harness.last_private[alice.id])
        back = bot.card_emojis.markup["back"]
        assert words(hand).count(back) >= 4 and "🂠" not in words(hand)  # four backs
        await harness.act(alice, table_id)  # the peek: two of her cards, as pictures
        peeked = harness.fake.message(harness.last_private[alice.id])
        assert words(peeked).count("<:ct1_") - words(peeked).count(back) >= 2
        checker.assert_clean()
    async with harness.running() as bot:
        assert uploads(harness) == EMOJIS  # the second start reuses them all
        assert len(bot.card_emojis.markup) == len(PICTURES)
        assert len(bot.card_emojis.four_colours) == len(FOUR_COLOUR_PICTURES)


async def test_pictures_another_process_uploads_at_the_same_time_are_used(
    harness: BotUnderTest,
) -> None:
    """Two processes (shards) starting at once upload the same pictures: the second upload of
    a name is refused as taken, and the one already there is used."""
    create = harness.fake.emojis.create

    def the_other_process_was_first(payload: dict[str, Any]) -> Any:
        create(payload)
        return create(payload)  # refused: the name is taken

    harness.fake.emojis.create = the_other_process_was_first  # type: ignore[method-assign]
    async with harness.running() as bot:
        assert len(bot.card_emojis.markup) == len(PICTURES)
        assert len(harness.fake.emojis.by_id) == EMOJIS


async def test_cards_stay_text_when_discord_refuses_the_pictures(harness: BotUnderTest) -> None:
    alice, bob, carol = players(harness.fake)

    def full(payload: object) -> object:
        raise EmojiRefused(400, "Maximum number of emojis reached (2000)", 30008)

    harness.fake.emojis.create = full  # type: ignore[method-assign]
    async with harness.running() as bot:
        assert bot.card_emojis.markup == {}
        table_id = await harness.seat_players(alice, [bob, carol], target=10)
        await harness.my_cards(alice, table_id)
        hand = words(harness.fake.message(harness.last_private[alice.id]))
        assert "🂠" in hand and "<:ct1_" not in hand


async def test_the_round_end_picture_shows_every_hand_and_nothing_more(
    harness: BotUnderTest,
) -> None:
    alice, bob, carol = players(harness.fake)
    async with harness.running() as bot:
        checker = harness.leak_checker()
        table_id = await harness.seat_players(alice, [bob, carol], target=1000)
        await harness.play_round(table_id)
        await harness.settle()
        snapshot = bot.service.public_snapshot(table_id)
        assert snapshot.status == ROUND_OVER and snapshot.last_round is not None
        public = snapshot.last_round.view
        shown = [s.card for grid in public.grids for s in grid if s.card is not None]
        pictures = [
            (name, data)
            for r in harness.fake.requests
            for name, data in ((r.payload or {}) if isinstance(r.payload, dict) else {})
            .get("files", {})
            .items()
            if name.startswith("round-")  # not the pictures of the cards in play
        ]
        assert len(pictures) == 1  # drawn once, however often the message is edited after
        name, png = pictures[0]
        assert name == f"round-{snapshot.round_no}.png"
        assert sorted(cards_in(png)) == sorted(shown)
        message = await harness.stored_table_message(table_id)
        assert message["attachments"][0]["filename"] == name
        assert picture_url(message) == f"attachment://{name}"
        checker.assert_clean()


def _files_sent(harness: BotUnderTest, interaction: LocalInteraction | None = None) -> list[str]:
    requests = interaction.requests if interaction is not None else harness.fake.requests
    return [
        name
        for r in requests
        if isinstance(r.payload, dict)
        for name in (r.payload.get("files") or {})
    ]


async def test_my_cards_and_the_table_carry_pictures_uploaded_only_when_they_change(
    harness: BotUnderTest,
) -> None:
    alice, bob, carol = players(harness.fake)
    async with harness.running() as bot:
        checker = harness.leak_checker()
        table_id = await harness.seat_players(alice, [bob, carol], target=10)
        await harness.settle()
        table = await harness.stored_table_message(table_id)
        (shown,) = [a["filename"] for a in table["attachments"]]
        assert shown.startswith("table-") and str(picture_url(table)).endswith(shown)
        await harness.my_cards(alice, table_id)
        await harness.settle()
        hand = harness.fake.message(harness.last_private[alice.id])
        (picture,) = [a["filename"] for a in hand["attachments"]]
        assert picture.startswith("hand-")
        assert picture_url(hand) == f"attachment://{picture}"
        # Refresh: the same hand, the same picture: the message keeps it, nothing is uploaded
        snapshot = bot.service.public_snapshot(table_id)
        refresh = navigate_id(table_id, snapshot.round_no or 0, "")
        clicked = await harness.fake.click(alice, hand_id := int(hand["id"]), refresh)
        await harness.settle()
        assert _files_sent(harness, clicked) == []
        assert [a["filename"] for a in harness.fake.message(hand_id)["attachments"]] == [picture]
        # the peek turns two cards face up: a new picture, drawn and uploaded
        before = len(_files_sent(harness))
        await harness.act(alice, table_id)
        # the answer went out at once; its picture follows as soon as it is drawn
        mine = harness.last_private[alice.id]
        pictured = lambda: bool(harness.fake.message(mine)["attachments"])  # noqa: E731
        await harness.fake.wait_for(pictured, what="the peeked hand's picture")
        peeked = harness.fake.message(mine)
        (new,) = [a["filename"] for a in peeked["attachments"]]
        assert new != picture and len(_files_sent(harness)) > before
        checker.assert_clean()  # no picture shows a card its viewer may not see


async def test_a_table_started_while_the_drawing_processes_hang_shows_its_moves(
    harness: BotUnderTest,
) -> None:
    """Both drawing processes stopped (SIGSTOP: hung, not dead), then a table of a person and
    three bot players starts: its table message still follows the game, its pictures given
    up at their deadline (before, it waited for them for good and never changed)."""
    alice = harness.fake.user("alice")
    async with harness.running() as bot:
        processes = drawing_processes()
        try:
            await asyncio.gather(in_drawing_process(os.getpid), in_drawing_process(os.getpid))
            for pid in processes.pids():
                assert pid is not None
                os.kill(pid, signal.SIGSTOP)
            bot.pictures.deadline = 0.3  # the production deadline, shorter for the test
            table_id = await harness.start_with_bots(alice, "euchre", 3)
            await harness.settle()
            assert bot.service.public_snapshot(table_id).status == PLAYING
            rendered = await bot.notifier.render(table_id)
            assert rendered is not None
            shown = await harness.stored_table_message(table_id)
            # its picture was not drawn in time: the text alone
            assert harness.shows(shown, rendered, picture=False)
            assert bot.pictures.late >= 1
        finally:
            processes.close()  # the stopped ones are killed


async def test_pictures_drawn_after_their_deadline_reach_the_table_and_the_hands_in_place(
    harness: BotUnderTest,
) -> None:
    """Drawing slower than a message waits for it (0.05 s here, 5 s in production; a loaded
    machine): the table message and a followed hand go with their text alone, then each
    shows its picture once drawn, with no move of anyone's (before, they stayed without it
    until the next change)."""
    alice, bob, carol = players(harness.fake)
    async with harness.running() as bot:
        # a match of many rounds: how many pictures are late by a move depends on how the
        # table's edits coalesce (a loaded machine coalesces more), and a one-round match
        # could end before two were
        table_id = await harness.seat_players(alice, [bob, carol], target=100)
        for user in (alice, bob, carol):
            await harness.my_cards(user, table_id)  # their hands follow the game
        draw = bot.pictures._draw

        async def slow(picture: CardPicture) -> bytes:
            await asyncio.sleep(0.3)  # always past the deadline: a loaded machine only adds
            return await draw(picture)

        bot.pictures._draw = slow  # type: ignore[method-assign]
        bot.pictures.deadline = 0.05
        bot.pictures._drawn.clear()  # every picture drawn anew: none is drawn in time
        moves = 0
        while bot.pictures.late < 2 or turn_of(bot.service.public_snapshot(table_id)) is None:
            await harness.step(table_id)
            moves += 1
            assert moves < 100, "the pictures were never late"
        while bot.pictures._drawing:  # the drawings under way end (each in 0.3 s)
            await asyncio.gather(*bot.pictures._drawing.values())
            await harness.settle()
        await harness.assert_table_message_converged(table_id)  # its picture included
        for user in (alice, bob, carol):
            message_id = harness.newest_private(user)
            assert message_id is not None
            hand = harness.fake.message(message_id)
            (attached,) = [a["filename"] for a in hand["attachments"]]
            assert picture_url(hand) == f"attachment://{attached}", user.name
