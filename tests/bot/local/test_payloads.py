"""Messages as Discord returns them, from what the client sent."""

from __future__ import annotations

from bot.local.payloads import apply_message_data


def test_component_emoji_ids_come_back_as_strings_as_discord_returns_them() -> None:
    """A 64-bit id sent as a number must not reach the page as one: JavaScript rounds it, and
    the page then asks for another picture (a broken card on a button)."""
    emoji_id = 1_312_345_678_901_234_567  # above 2**53
    sent = {
        "components": [
            {
                "type": 1,
                "components": [
                    {"type": 2, "custom_id": "a", "emoji": {"id": emoji_id, "name": "ct1_JC"}},
                    {
                        "type": 3,
                        "custom_id": "b",
                        "options": [{"label": "J♣", "value": "JC", "emoji": {"id": emoji_id}}],
                    },
                    {"type": 2, "custom_id": "c", "emoji": {"id": None, "name": "🃏"}},
                ],
            }
        ]
    }
    message: dict[str, object] = {"id": "1", "components": [], "flags": 0}
    apply_message_data(message, sent)
    button, select, unicode = message["components"][0]["components"]  # type: ignore[index]
    assert button["emoji"] == {"id": str(emoji_id), "name": "ct1_JC"}
    assert select["options"][0]["emoji"] == {"id": str(emoji_id)}
    assert unicode["emoji"] == {"id": None, "name": "🃏"}
    assert sent["components"][0]["components"][0]["emoji"]["id"] == emoji_id  # not mutated


def test_content_and_embeds_sent_as_null_are_removed_as_discord_removes_them() -> None:
    message = {"id": "1", "flags": 0, "content": "old", "embeds": [{"title": "t"}]}
    apply_message_data(message, {"content": None, "embeds": None, "flags": 1 << 15})
    assert message == {"id": "1", "flags": 1 << 15, "content": "", "embeds": []}
