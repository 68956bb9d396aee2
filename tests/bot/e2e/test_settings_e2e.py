"""/settings: anyone may look at the server's table settings; only Manage Server changes them."""

from __future__ import annotations

from tests.bot.e2e.harness import BotUnderTest, assert_one_short_private_sentence, players


async def test_a_member_without_manage_server_sees_the_settings_and_cannot_change_them(
    harness: BotUnderTest,
) -> None:
    _, bob, _ = players(harness.fake)  # Alice manages the server; Bob does not
    async with harness.running() as bot:
        _, shown = await harness.ask(bob, "settings")
        (embed,) = shown["embeds"]
        assert embed["title"] == "Table settings"
        asked = await harness.fake.slash(bob, "settings", turn_seconds=30)
        await asked.wait_answered()
        await harness.settle()
        assert "Manage Server" in assert_one_short_private_sentence(asked)
        settings = await bot.guild_settings.get(harness.fake.guild_id)
        assert settings.turn_seconds != 30


async def test_the_settings_name_each_games_default_rules_when_none_was_chosen(
    harness: BotUnderTest,
) -> None:
    alice, _, _ = players(harness.fake)
    async with harness.running():
        _, shown = await harness.ask(alice, "settings")
        (embed,) = shown["embeds"]
        (rules,) = [f for f in embed["fields"] if f["name"] == "Default rules"]
        assert "—" not in rules["value"] and "Dutch: classic" in rules["value"]
