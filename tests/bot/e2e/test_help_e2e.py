"""`/help` and a mention of the bot: the same help, built from the registered commands."""

from __future__ import annotations

import json
from typing import Any

from tests.bot.e2e.harness import BotUnderTest, players


def embed_words(payload: Any) -> str:
    data = payload.get("data", payload) if isinstance(payload, dict) else {}
    return json.dumps(data.get("embeds") or [], ensure_ascii=False)


PAGES = "help:page"  # the custom id of the help's menu of pages


def fields_of(words: str) -> dict[str, str]:
    return {f["name"]: f["value"] for f in json.loads(words)[0].get("fields", [])}


def menu_of(message: dict[str, Any]) -> list[dict[str, Any]]:
    """The options of a message's menu of help pages."""
    (row,) = message["components"]
    (select,) = row["components"]
    assert select["custom_id"] == PAGES
    return list(select["options"])


async def page(harness: BotUnderTest, user: Any, message_id: int, value: str, **how: Any) -> str:
    """The words of the help page `value` chosen in the menu of message `message_id`."""
    chosen = await harness.fake.choose(user, message_id, PAGES, [value], **how)
    await chosen.wait_answered()
    (answer,) = chosen.requests
    return embed_words(answer.payload)


async def test_help_is_an_overview_then_a_page_per_game_chosen_in_its_menu_in_each_language(
    harness: BotUnderTest,
) -> None:
    """One long message was a wall of text: the help opens on an overview (how a table plays
    here, each game's start command, the other commands) with a menu of pages, and each
    game's page has its commands, rules and how-to; in the asker's language, in place."""
    alice, bob, _ = players(harness.fake)
    async with harness.running():
        english = await harness.fake.slash(alice, "help")
        await english.wait_answered()
        (answer,) = english.requests
        assert answer.ephemeral and answer.user_id == alice.id
        words = embed_words(answer.payload)
        for expected in ("/dutch start", "/euchre start", "/leaderboard", "My cards", "90 seconds"):
            assert expected in words
        assert "Slot numbers" not in words and "/dutch leave" not in words  # on Dutch's page
        assert "/help" not in words
        help_id = answer.message_id
        shown = harness.fake.message(help_id)
        options = menu_of(shown)
        assert [o["label"] for o in options] == ["Overview", "Dame de Pique", "Dutch", "Euchre"]
        assert [o.get("default", False) for o in options] == [True, False, False, False]

        dutch = await page(harness, alice, help_id, "dutch")
        assert "/dutch leave" in dutch and "`/dutch rules`: The rules" in dutch
        assert "Slot numbers" in fields_of(dutch)["How it plays here"]
        assert "/euchre" not in dutch and "90 seconds" not in dutch
        assert (
            harness.fake.message(help_id)["embeds"][0]["title"] == "Card table: Dutch"
        )  # in place
        assert [o.get("default", False) for o in menu_of(harness.fake.message(help_id))][2]
        euchre = await page(harness, alice, help_id, "euchre")
        assert "Order up" in euchre and "trump first" in euchre
        dame = await page(harness, alice, help_id, "dame")
        assert "one button each" in dame and "Knock" in dame
        back = await page(harness, alice, help_id, "overview")
        assert "90 seconds" in back and "/dutch start" in back

        # another member (one help per member per cool-down), in French
        french = await harness.fake.slash(bob, "help", locale="fr")
        await french.wait_answered()
        (answer,) = french.requests
        words = embed_words(answer.payload)
        assert "/dutch lancer" in words and "/réglages" in words and "Mes cartes" in words
        labels = [o["label"] for o in menu_of(harness.fake.message(answer.message_id))]
        assert labels[0] == "Vue d'ensemble"
        dutch = await page(harness, bob, answer.message_id, "dutch", locale="fr")
        assert "`/dutch règles` : Les règles" in dutch and "Numéros des cartes" in dutch
        assert "atout d'abord" in await page(harness, bob, answer.message_id, "euchre", locale="fr")
        dame = await page(harness, bob, answer.message_id, "dame", locale="fr")
        assert "un bouton chacun" in dame and "ses cartes cochées ensemble" in dame


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


async def test_a_page_chosen_in_the_public_help_goes_to_the_chooser_alone(
    harness: BotUnderTest,
) -> None:
    """The help a mention got is the channel's: a page chosen in its menu is answered to the
    chooser alone, in their language, and the channel's help stays as it was."""
    alice, bob, _ = players(harness.fake)
    async with harness.running():
        posts = len(harness.fake.channel_messages())
        await harness.fake.say(alice, f"<@{harness.fake.bot_user.id}> help?")

        def answers() -> list[dict[str, Any]]:
            new = harness.fake.channel_messages()[posts:]
            return [m for m in new if m["author"]["id"] == str(harness.fake.bot_user.id)]

        await harness.fake.wait_for(lambda: bool(answers()), what="the help in the channel")
        await harness.settle()
        (public,) = answers()
        chosen = await harness.fake.choose(bob, int(public["id"]), PAGES, ["dutch"], locale="fr")
        await chosen.wait_answered()
        (answer,) = chosen.requests
        assert answer.ephemeral and answer.user_id == bob.id
        assert "Numéros des cartes" in embed_words(answer.payload)
        assert harness.fake.message(int(public["id"]))["embeds"] == public["embeds"]
