"""`/history`, the replay viewer and the hand records through the real bot: a match is played,
its history opened, a hand replayed to its end, both records downloaded and the machine record
checked by `games.replay`, and a review of the player's play asked (its progress line, then
the accuracy and the costly decisions marked), in English and in French; a hand in play can
never be reached."""

from __future__ import annotations

import asyncio
import re
from pathlib import Path

import pytest

from bot.cogs import history as history_cog
from bot.i18n import text
from bot.local.records import EPHEMERAL, LocalInteraction, LocalUser
from bot.local.server import LocalDiscord
from bot.runtime.pool_terms import DIED, TIMED_OUT, ChoreFailed
from games.replay import main as replay_main
from games.review import GRADES, BestMoveStep
from tests.bot.e2e.harness import BotUnderTest, assert_one_short_private_sentence, players
from tests.bot.e2e.players import (
    Choice,
    answer_message,
    answer_text,
    choices,
    message_text,
    use,
    verb_choice,
)

SELECT = 3
STEP = re.compile(r"Action (\d+) (?:of|sur) (\d+)")
QUICK_REVIEW = {"budget": None, "samples": 4}  # a review in a blink, the same every run


def footer(fake: object, interaction: object) -> str:
    """The viewer's step ("Action 3 of 27"), from its words (a Components V2 message)."""
    message = answer_message(fake, interaction)  # type: ignore[arg-type]
    assert message is not None
    found = STEP.search(message_text(message))
    assert found is not None, message_text(message)
    return found[0]


def by_label(message: dict[str, object], label: str) -> Choice:
    found = [c for c in choices(message) if c.label == label]
    assert found, f"no {label!r} on the message: {[c.label for c in choices(message)]}"
    return found[0]


async def use_in(
    fake: LocalDiscord, user: LocalUser, choice: Choice, locale: str
) -> LocalInteraction:
    """`use`, by a player whose Discord speaks `locale`."""
    if choice.component_type == SELECT:
        assert choice.value is not None
        asked = await fake.choose(
            user, choice.message_id, choice.custom_id, [choice.value], locale=locale
        )
    else:
        asked = await fake.click(user, choice.message_id, choice.custom_id, locale=locale)
    return await asked.wait_answered()


def marked_lines(language: str, words: str) -> list[str]:
    """The review's lines of costly decisions ("Action 12: you played `draw`, the bot …")."""
    grades = "|".join(text(language, f"review.grade.{g}") for g in GRADES)
    line = text(language, "review.line", action=0, played="P", best="B", grade="G", cost="C")
    pattern = re.escape(line)
    for placeholder, found in (
        ("0", r"\d+"),
        ("P", "[^`]+"),
        ("B", "[^`]+"),
        ("G", f"(?:{grades})"),
        ("C", r"[0-9.]+"),
    ):
        pattern = pattern.replace(re.escape(placeholder), found, 1)
    return re.findall(pattern, words)


async def history_replay_records_and_review(
    harness: BotUnderTest, user: LocalUser, locale: str, tmp_path: Path
) -> tuple[dict[str, object], LocalInteraction]:
    """A finished match's history, its first hand replayed to the end, both records downloaded
    and the machine record checked by `games.replay`, then a review of `user`'s play asked:
    the viewer and the review's interaction (its progress line shown)."""
    language = locale[:2]
    asked, _ = await harness.ask(user, "history", locale=locale)
    page = answer_message(harness.fake, asked)
    assert page is not None and int(page["flags"]) & EPHEMERAL
    words = answer_text(harness.fake, asked)
    assert "Dutch" in words
    assert text(language, "history.won") in words or text(language, "history.lost") in words
    hands = [c for c in choices(page) if c.component_type == SELECT]
    assert hands, "the page offers the match's hands to replay"
    opened = await use_in(harness.fake, user, hands[0], locale)
    viewer = answer_message(harness.fake, opened)
    assert viewer is not None and int(viewer["flags"]) & EPHEMERAL
    assert STEP.match(footer(harness.fake, opened))[1] == "0"  # type: ignore[index]
    assert viewer["embeds"] == [] and text(language, "replay.hands") in message_text(viewer)
    stepped = await use_in(harness.fake, user, by_label(viewer, "▶"), locale)
    assert STEP.match(footer(harness.fake, stepped))[1] == "1"  # type: ignore[index]
    viewer = answer_message(harness.fake, stepped)
    assert viewer is not None
    ended = await use_in(harness.fake, user, by_label(viewer, "⏭"), locale)
    step, steps = STEP.match(footer(harness.fake, ended)).groups()  # type: ignore[union-attr]
    assert step == steps  # at the last action
    viewer = answer_message(harness.fake, ended)
    assert viewer is not None
    assert all(c.label != "▶" for c in choices(viewer))  # nothing after the last action

    records_label = text(language, "replay.records")
    records = await use_in(harness.fake, user, by_label(viewer, records_label), locale)
    sent = answer_message(harness.fake, records)
    assert sent is not None
    assert text(language, "replay.records_sent") in str(sent["content"])
    files = {a["filename"]: harness.fake.files[str(a["url"])] for a in sent["attachments"]}
    (machine,) = [name for name in files if name.endswith(".hand")]
    (readable,) = [name for name in files if name.endswith(".txt")]
    assert b"Deal" in files[readable] and b"Actions" in files[readable]
    path = tmp_path / machine
    path.write_bytes(files[machine])
    assert replay_main([str(path)]) == 0
    path.write_bytes(files[machine].replace(b"action ", b"action 9 ", 1))
    assert replay_main([str(path)]) == 1

    review_label = text(language, "replay.review")
    asked_review = await use_in(harness.fake, user, by_label(viewer, review_label), locale)
    first = next(r for r in asked_review.requests if r.shows_message)
    data = first.payload.get("data", first.payload)
    assert str(data["content"]) == text(language, "review.running", done=0, total="…")
    return viewer, asked_review


async def review_shown(harness: BotUnderTest, asked_review: LocalInteraction, language: str) -> str:
    """The review's answer, once it replaced the progress line: its words."""
    title = text(language, "review.title", game="G", hand=1, accuracy="A").split("G")[0]
    await harness.fake.wait_for(
        lambda: title in answer_text(harness.fake, asked_review),
        timeout=60,
        what="the review's answer",
    )
    reviewed = answer_message(harness.fake, asked_review)
    assert reviewed is not None and int(reviewed["flags"]) & EPHEMERAL
    words = str(reviewed["content"])
    assert words.startswith(f"**{title}")
    assert re.search(r"\d+(\.\d)? ?%", words.splitlines()[0]), words  # the accuracy
    return words


async def test_a_match_then_its_history_a_replay_to_the_end_both_records_and_a_review(
    harness: BotUnderTest, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(history_cog, "REVIEW_OPTIONS", QUICK_REVIEW)
    alice, bob, carol = players(harness.fake)
    async with harness.running():
        checker = harness.leak_checker()
        table_id = await harness.seat_players(alice, [bob, carol], target=10)
        await harness.act(alice, table_id)  # mid-hand: nothing of this hand can be reached
        asked, _ = await harness.ask(alice, "history")
        assert "No finished hand here yet" in answer_text(harness.fake, asked)
        for forged in (f"rp:{table_id}:0:5:fwd", f"rpf:{table_id}:0", f"rpr:{table_id}:0"):
            message = answer_message(harness.fake, asked)
            assert message is not None
            clicked = await harness.fake.click(alice, int(message["id"]), forged, forged=True)
            await clicked.wait_answered()
            assert "not finished" in assert_one_short_private_sentence(clicked)
        checker.assert_clean()

        await harness.play_to_the_end(table_id)
        _, asked_review = await history_replay_records_and_review(harness, bob, "en-US", tmp_path)
        words = await review_shown(harness, asked_review, "en")
        assert "accuracy" in words and "Decisions with a choice: " in words
        assert marked_lines("en", words), words  # Bob's costly moves, each marked


async def test_a_review_in_french_shows_its_progress_is_stored_and_shown_again_at_once(
    harness: BotUnderTest, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(history_cog, "REVIEW_OPTIONS", QUICK_REVIEW)
    monkeypatch.setattr(history_cog, "REVIEW_PROGRESS_EVERY", 0.01)
    alice, bob, carol = players(harness.fake)
    dave = harness.fake.user("dave")
    async with harness.running() as bot:
        table_id = await harness.seat_players(alice, [bob, carol], target=10)
        await harness.play_to_the_end(table_id)
        # The review's second decision waits until the test lets it go: the progress line
        # shows the first one done meanwhile.
        run_here = bot.policy_runner.chore
        let_go = asyncio.Event()
        asked_best: list[BestMoveStep] = []

        async def held(task: object, budget: float | None) -> str:
            if isinstance(task, BestMoveStep):
                asked_best.append(task)
                if len(asked_best) == 2:
                    await let_go.wait()
            return await run_here(task, budget)

        bot.policy_runner.chore = held  # type: ignore[assignment]
        viewer, asked_review = await history_replay_records_and_review(harness, bob, "fr", tmp_path)
        await harness.fake.wait_for(lambda: len(asked_best) == 2, what="the second decision")
        one_done = text("fr", "review.running", done=1, total="N").split("N")[0]
        await harness.fake.wait_for(
            lambda: one_done in answer_text(harness.fake, asked_review),
            timeout=30,
            what="the progress line, one decision done",
        )
        let_go.set()
        words = await review_shown(harness, asked_review, "fr")
        assert "précision" in words and "Décisions avec un choix : " in words
        assert marked_lines("fr", words), words
        seats = await bot.store.get_seats(table_id)
        (seat,) = [s.seat for s in seats if s.user_id == bob.id]
        assert await bot.store.hand_review(table_id, 0, seat) is not None

        review_label = text("fr", "replay.review")
        asked_best.clear()
        again = await use_in(harness.fake, bob, by_label(viewer, review_label), "fr")
        shown = answer_text(harness.fake, again)
        assert shown.startswith("**Analyse de votre jeu,") and not asked_best  # at once, stored

        asked, _ = await harness.ask(dave, "history", member=bob)
        page = answer_message(harness.fake, asked)
        assert page is not None
        hands = [c for c in choices(page) if c.component_type == SELECT]
        theirs = answer_message(harness.fake, await use(harness.fake, dave, hands[0]))
        assert theirs is not None
        assert all(c.label != "Review my play" for c in choices(theirs))  # not a player of it
        review_id = by_label(viewer, review_label).custom_id
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
            (DIED, "fr", "L'analyse s'est arrêtée : un processus des robots a échoué."),
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


async def test_a_match_its_host_stopped_reads_as_stopped_in_history_and_counts_in_no_stats(
    harness: BotUnderTest,
) -> None:
    """A hand played, then the host's `/dutch stop` confirmed: `/history` says "stopped at",
    never "in play", and `/stats` counts no match that was never finished."""
    alice, bob, carol = players(harness.fake)
    async with harness.running() as bot:
        table_id = await harness.seat_players(alice, [bob, carol], target=1000)
        await harness.play_round(table_id)
        asked = await harness.fake.slash(alice, "dutch stop")
        await asked.wait_answered()
        await harness.settle()
        assert "ends for everyone" in answer_text(harness.fake, asked)
        message = answer_message(harness.fake, asked)
        assert message is not None
        sure = verb_choice(message, "stop!")
        assert sure is not None
        stopped = await use(harness.fake, alice, sure)
        await harness.settle()
        assert "was stopped" in answer_text(harness.fake, stopped)
        assert table_id not in harness.table_ids()
        for user in (alice, bob):
            asked, _ = await harness.ask(user, "history")
            listed = answer_text(harness.fake, asked)
            assert "stopped at" in listed and "in play" not in listed, listed
            assert re.search(r"stopped at -?\d+ – -?\d+ – -?\d+", listed), listed
        asked, _ = await harness.ask(alice, "stats")
        assert "No finished match yet." in answer_text(harness.fake, asked)
        assert await bot.store.recent_matches(harness.fake.guild_id, alice.id) == []
