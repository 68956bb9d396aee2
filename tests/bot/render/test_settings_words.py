"""The settings message in words a reader of its language would write."""

from __future__ import annotations

from bot.render.stats import settings_embed
from storage.models import GuildSettings


def test_a_french_switch_reads_oui_or_non_whatever_its_names_gender_and_number() -> None:
    """ "Mentions de tour : activé" broke the agreement (mentions: feminine plural), and "Un fil
    par table : activées" would break the other: French switches read "oui" or "non"."""
    settings = GuildSettings(guild_id=1, turn_pings=True, use_threads=False)
    fields = {field.name: field.value for field in settings_embed("fr", settings).fields}
    assert fields["Mentions de tour"] == "oui" and fields["Un fil par table"] == "non"
    english = {field.name: field.value for field in settings_embed("en", settings).fields}
    assert "on" in english.values() and "off" in english.values()
