"""`/help` and a mention of the bot: the same help, built from the registered commands."""

from __future__ import annotations

import json
from typing import Any

from tests.bot.e2e.harness import BotUnderTest, players


def embed_words(payload: Any) -> str:
    data = payload.get("data", payload) if isinstance(payload, dict) else {}
    return json.dumps(data.get("embeds") or [], ensure_ascii=False)


async def test_help_lists_each_game_s_commands_and_how_to_play_in_the_user_s_language(
    harness: BotUnderTest,
) -> None:
    alice, bob, _ = players(harness.fake)
    async with harness.running():
        english = await harness.fake.slash(alice, "help")
        await english.wait_answered()
        (answer,) = english.requests
        assert answer.ephemeral and answer.user_id == alice.id
        words = embed_words(answer.payload)
        for expected in ("/dutch start", "/dutch leave", "Rules: `/dutch rules`", "/leaderboard"):
            assert expected in words
        for part in ("My cards", "90 seconds", "Bots"):
            assert part in words
        # Each game's own how-to lines sit in its field, after its commands.
        fields = {f["name"]: f["value"] for f in json.loads(words)[0]["fields"]}
        assert "Slot numbers" in fields["Dutch"] and "Slot numbers" not in fields["Euchre"]
        assert "Order up" in fields["Euchre"] and "trump first" in fields["Euchre"]
        assert "one button each" in fields["Dame de Pique"] and "Knock" in fields["Dame de Pique"]
        assert "/help" not in words

        # another member (one help per member per cool-down), in French
        french = await harness.fake.slash(bob, "help", locale="fr")
        await french.wait_answered()
        words = embed_words(french.requests[0].payload)
        assert "/dutch lancer" in words and "Règles : `/dutch règles`" in words
        assert "/réglages" in words and "Mes cartes" in words
        assert "Numéros des cartes" in words and "atout d'abord" in words
        assert "un bouton chacun" in words and "ses cartes cochées ensemble" in words


async def test_a_mention_of_the_bot_gets_the_help_in_the_channel(harness: BotUnderTest) -> None:
    alice, bob, _ = players(harness.fake)
    async with harness.running():
        posts = len(harness.fake.channel_messages())
        await harness.fake.say(bob, "anyone up for cards?")  # no mention: no answer
        await harness.fake.say(alice, f"<@{harness.fake.bot_user.id}> how does this work?")

        def answers() -> list[dict[str, Any]]:
            new = harness.fake.channel_messages()[posts:]
            return [m for m in new if m["author"]["id"] == str(harness.fake.bot_user.id)]

        # The answer comes from the gateway's message event, not from a request the test made:
        # waited for (a quiet moment under load is no proof it was sent).
        await harness.fake.wait_for(lambda: bool(answers()), what="the help in the channel")
        await harness.settle()
        (answer,) = answers()
        assert "/dutch start" in embed_words(answer) and "My cards" in embed_words(answer)
