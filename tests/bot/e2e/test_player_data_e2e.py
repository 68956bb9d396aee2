"""`/privacy show` and `/privacy forget` through the real bot: a player's data as a summary and a
file, and forgetting them after a confirmation, leaving the others' records whole."""

from __future__ import annotations

import json
import sqlite3

from tests.bot.e2e.harness import BotUnderTest, assert_one_short_private_sentence, players
from tests.bot.e2e.players import answer_message, answer_text, choices, use


def stored_cells(database: object) -> list[str]:
    with sqlite3.connect(str(database)) as conn:
        tables = [r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type='table'")]
        cells = [str(v) for t in tables for row in conn.execute(f"SELECT * FROM {t}") for v in row]
    conn.close()
    return cells


async def test_a_player_sees_their_data_then_is_forgotten_and_the_others_keep_theirs(
    harness: BotUnderTest,
) -> None:
    alice, bob, carol = players(harness.fake)
    async with harness.running() as bot:
        # with seasons on, the season's board keeps them too: shown, then forgotten as well
        await harness.ask(harness.fake.admin, "settings", season="monthly")
        table_id = await harness.seat_players(alice, [bob, carol], target=10)
        await harness.play_to_the_end(table_id)
        bob_before = await bot.store.player_stats(harness.fake.guild_id, bob.id)

        shown, _ = await harness.ask(alice, "privacy show")
        text = answer_text(harness.fake, shown)
        assert "1 finished match" in text and "alice" in text.lower()
        assert "1 place on a season board" in text
        message = answer_message(harness.fake, shown)
        assert message is not None
        (attachment,) = message["attachments"]
        data = json.loads(harness.fake.files[str(attachment["url"])])
        assert data["user_id"] == alice.id and [m["table_id"] for m in data["matches"]] == [
            table_id
        ]
        assert [row["user_id"] for row in data["extra"]["season_stats"]] == [alice.id]
        assert all(r.ephemeral for r in shown.requests if r.shows_message)

        asked, _ = await harness.ask(alice, "privacy forget")
        question = answer_message(harness.fake, asked)
        assert question is not None
        confirm, cancel = choices(question)
        # someone else's click on these buttons changes nothing
        assert_one_short_private_sentence(await use(harness.fake, bob, confirm))
        cancelled = await use(harness.fake, alice, cancel)
        assert "Nothing was changed" in answer_text(harness.fake, cancelled)
        assert str(alice.id) in stored_cells(harness.database)

        asked, _ = await harness.ask(alice, "privacy forget")
        question = answer_message(harness.fake, asked)
        assert question is not None
        confirm, _ = choices(question)
        done = await use(harness.fake, alice, confirm)
        await harness.settle()
        assert "you are forgotten" in answer_text(harness.fake, done)

        cells = stored_cells(harness.database)
        assert not [c for c in cells if str(alice.id) in c or alice.name in c]
        bob_after = await bot.store.player_stats(harness.fake.guild_id, bob.id)
        strip = [g.model_dump(exclude={"rank"}) for g in bob_before.games]
        assert [g.model_dump(exclude={"rank"}) for g in bob_after.games] == strip
        _, stats = await harness.ask(bob, "stats")
        assert "alice" not in json.dumps(stats).lower()

        empty, _ = await harness.ask(alice, "privacy show")
        assert "keeps nothing about you" in answer_text(harness.fake, empty)


async def test_privacy_answers_in_french_to_a_french_player(harness: BotUnderTest) -> None:
    alice, _, _ = players(harness.fake)
    async with harness.running():
        asked = await harness.fake.slash(alice, "privacy show", locale="fr")
        await asked.wait_answered()
        await harness.fake.wait_for(lambda: bool(answer_text(harness.fake, asked)), what="answer")
        assert "ne garde rien" in answer_text(harness.fake, asked)
        assert answer_message(harness.fake, asked) is not None
