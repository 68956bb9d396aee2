"""`/history`, the replay viewer and the hand records through the real bot: a match is played,
its history opened, a hand replayed to its end, both records downloaded and the machine record
checked by `games.replay`; a hand in play can never be reached."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from bot.cogs import history as history_cog
from bot.local.records import EPHEMERAL
from bot.service.pool import DIED, TIMED_OUT, ChoreFailed
from games.replay import main as replay_main
from tests.bot.e2e.harness import BotUnderTest, assert_one_short_private_sentence, players
from tests.bot.e2e.players import Choice, answer_message, answer_text, choices, use

SELECT = 3


def footer(fake: object, interaction: object) -> str:
    message = answer_message(fake, interaction)  # type: ignore[arg-type]
    assert message is not None
    return str(message["embeds"][0]["footer"]["text"])


def by_label(message: dict[str, object], label: str) -> Choice:
    found = [c for c in choices(message) if c.label == label]
    assert found, f"no {label!r} on the message: {[c.label for c in choices(message)]}"
    return found[0]


async def test_a_match_then_its_history_a_replay_to_the_end_and_both_records(
    harness: BotUnderTest, tmp_path: Path
) -> None:
    alice, bob, carol = players(harness.fake)
    async with harness.running():
        checker = harness.leak_checker()
        table_id = await harness.seat_players(alice, [bob, carol], target=10)
        await harness.act(alice, table_id)  # mid-hand: nothing of this hand can be reached
        asked, _ = await harness.ask(alice, "history")
        assert "No finished hand here yet" in answer_text(harness.fake, asked)
        for forged in (f"rp:{table_id}:0:5:fwd", f"rpf:{table_id}:0"):
            message = answer_message(harness.fake, asked)
            assert message is not None
            clicked = await harness.fake.click(alice, int(message["id"]), forged, forged=True)
            await clicked.wait_answered()
            assert "not finished" in assert_one_short_private_sentence(clicked)
        checker.assert_clean()

        await harness.play_to_the_end(table_id)
        asked, _ = await harness.ask(bob, "history", member=alice)
        page = answer_message(harness.fake, asked)
        assert page is not None and int(page["flags"]) & EPHEMERAL
        words = answer_text(harness.fake, asked)
        assert "Dutch" in words and ("won" in words or "lost" in words)
        hands = [c for c in choices(page) if c.component_type == SELECT]
        assert hands, "the page offers the match's hands to replay"
        opened = await use(harness.fake, bob, hands[0])
        viewer = answer_message(harness.fake, opened)
        assert viewer is not None and int(viewer["flags"]) & EPHEMERAL
        assert footer(harness.fake, opened).startswith("Action 0 of")
        fields = {f["name"] for f in viewer["embeds"][0]["fields"]}
        assert "Every hand, face up" in fields
        stepped = await use(harness.fake, bob, by_label(viewer, "▶"))
        assert footer(harness.fake, stepped).startswith("Action 1 of")
        viewer = answer_message(harness.fake, stepped)
        assert viewer is not None
        ended = await use(harness.fake, bob, by_label(viewer, "⏭"))
        step, steps = footer(harness.fake, ended).removeprefix("Action ").split(" of ")
        assert step == steps  # at the last action
        viewer = answer_message(harness.fake, ended)
        assert viewer is not None
        assert all(c.label != "▶" for c in choices(viewer))  # nothing after the last action

        records = await use(harness.fake, bob, by_label(viewer, "Hand records"))
        sent = answer_message(harness.fake, records)
        assert sent is not None
        files = {a["filename"]: harness.fake.files[str(a["url"])] for a in sent["attachments"]}
        (machine,) = [name for name in files if name.endswith(".hand")]
        (readable,) = [name for name in files if name.endswith(".txt")]
        assert b"Deal" in files[readable] and b"Actions" in files[readable]
        path = tmp_path / machine
        path.write_bytes(files[machine])
        assert replay_main([str(path)]) == 0
        path.write_bytes(files[machine].replace(b"action ", b"action 9 ", 1))
        assert replay_main([str(path)]) == 1


async def test_a_review_of_my_play_runs_with_a_progress_line_is_stored_and_shown_again_at_once(
    harness: BotUnderTest, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(history_cog, "REVIEW_OPTIONS", {"budget": None, "samples": 2})
    alice, bob, carol = players(harness.fake)
    dave = harness.fake.user("dave")
    async with harness.running() as bot:
        table_id = await harness.seat_players(alice, [bob, carol], target=10)
        await harness.play_to_the_end(table_id)
        asked, _ = await harness.ask(bob, "history")
        page = answer_message(harness.fake, asked)
        assert page is not None
        hands = [c for c in choices(page) if c.component_type == SELECT]
        opened = await use(harness.fake, bob, hands[0])
        viewer = answer_message(harness.fake, opened)
        assert viewer is not None

        asked_review = await use(harness.fake, bob, by_label(viewer, "Review my play"))
        assert "Reviewing your play" in answer_text(harness.fake, asked_review)
        await harness.fake.wait_for(
            lambda: "accuracy" in answer_text(harness.fake, asked_review),
            timeout=60,
            what="the review's answer",
        )
        reviewed = answer_message(harness.fake, asked_review)
        assert reviewed is not None and int(reviewed["flags"]) & EPHEMERAL
        assert "Review of your play" in str(reviewed["content"])
        seats = await bot.store.get_seats(table_id)
        (seat,) = [s.seat for s in seats if s.user_id == bob.id]
        assert await bot.store.hand_review(table_id, 0, seat) is not None

        again = await use(harness.fake, bob, by_label(viewer, "Review my play"))
        words = answer_text(harness.fake, again)
        assert "Review of your play" in words and "Reviewing" not in words  # at once

        asked, _ = await harness.ask(dave, "history", member=bob)
        page = answer_message(harness.fake, asked)
        assert page is not None
        hands = [c for c in choices(page) if c.component_type == SELECT]
        theirs = answer_message(harness.fake, await use(harness.fake, dave, hands[0]))
        assert theirs is not None
        assert all(c.label != "Review my play" for c in choices(theirs))  # not a player of it
        review_id = by_label(viewer, "Review my play").custom_id
        outsider = await harness.fake.click(dave, int(page["id"]), review_id, forged=True)
        await outsider.wait_answered()
        assert "Only a player of that hand" in assert_one_short_private_sentence(outsider)


async def test_a_review_whose_worker_dies_or_times_out_is_answered_in_one_sentence(
    harness: BotUnderTest,
) -> None:
    alice, bob, carol = players(harness.fake)
    async with harness.running() as bot:
        table_id = await harness.seat_players(alice, [bob, carol], target=10)
        await harness.play_to_the_end(table_id)
        failures: list[str] = []

        def failing(task: object, budget: float | None) -> asyncio.Future[str]:
            failed: asyncio.Future[str] = asyncio.get_running_loop().create_future()
            failed.set_exception(ChoreFailed(failures.pop(0)))
            return failed

        bot.policy_runner.chore = failing  # type: ignore[method-assign]
        asked, _ = await harness.ask(bob, "history")
        page = answer_message(harness.fake, asked)
        assert page is not None
        hands = [c for c in choices(page) if c.component_type == SELECT]
        viewer = answer_message(harness.fake, await use(harness.fake, bob, hands[0]))
        assert viewer is not None
        review = by_label(viewer, "Review my play")
        for reason, locale, words in (
            (TIMED_OUT, "en-US", "The review took too long and was stopped. Try again later."),
            (DIED, "fr", "L'analyse s'est arrêtée : un processus des bots a échoué."),
        ):
            failures.append(reason)
            clicked = await harness.fake.click(
                bob, review.message_id, review.custom_id, locale=locale
            )
            await clicked.wait_answered()
            await harness.fake.wait_for(
                lambda w=words, c=clicked: w in answer_text(harness.fake, c),
                timeout=30,
                what="the review's failure",
            )
            message = answer_message(harness.fake, clicked)
            assert message is not None and "\n" not in str(message["content"])
        seats = await bot.store.get_seats(table_id)
        (seat,) = [s.seat for s in seats if s.user_id == bob.id]
        assert await bot.store.hand_review(table_id, 0, seat) is None  # nothing stored
