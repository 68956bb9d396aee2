"""The replay viewer is a Components V2 message, as Discord accepts it: the table and every
hand face up in one picture across it (following its words in place when not drawn yet), the
step's move in words under it, its buttons in rows, at every step; and a viewer sent as an
embed before the bot was upgraded becomes V2 in place at its next click (its buttons keep
their ids)."""

from __future__ import annotations

from typing import Any

from bot.local.layout import IS_COMPONENTS_V2
from bot.local.limits import message_errors
from bot.local.records import LocalUser, iter_components
from bot.local.server import LocalDiscord
from bot.render import colors
from tests.bot.e2e.harness import BotUnderTest, players
from tests.bot.e2e.players import answer_message, choices, text_displays, use
from tests.bot.e2e.test_components_v2_e2e import is_v2
from tests.bot.e2e.test_history_e2e import by_label

SELECT = 3


async def open_replay(harness: BotUnderTest, user: LocalUser) -> dict[str, Any]:
    """`/history` by `user`, the match's first hand chosen: the replay viewer's message."""
    asked, _ = await harness.ask(user, "history")
    page = answer_message(harness.fake, asked)
    assert page is not None
    (hands,) = [c for c in choices(page) if c.component_type == SELECT]
    viewer = answer_message(harness.fake, await use(harness.fake, user, hands))
    assert viewer is not None
    return viewer


async def replay_picture(fake: LocalDiscord, message_id: int, *, not_: str = "") -> str:
    """The file name of the picture across a V2 replay once it shows one (other than `not_`):
    it is among the message's files (a picture not drawn yet follows its words in place)."""

    def shown() -> str:
        message = fake.message(message_id)
        galleries = [c for c in iter_components(message) if c.get("type") == 12]
        if not galleries:
            return ""
        (item,) = galleries[0]["items"]
        name = str(item["media"]["url"]).removeprefix("attachment://")
        files = [a["filename"] for a in message["attachments"]]
        return name if name in files and name != not_ else ""

    await fake.wait_for(lambda: bool(shown()), what="the replay's picture")
    name = shown()
    assert name.startswith("replay-")
    return name


async def test_the_replay_viewer_is_a_v2_message_its_picture_across_it_at_every_step(
    harness: BotUnderTest,
) -> None:
    harness.hand_pictures = True
    alice, bob, carol = players(harness.fake)
    async with harness.running():
        table_id = await harness.seat_players(alice, [bob, carol], target=10)
        await harness.play_to_the_end(table_id)
        viewer = await open_replay(harness, bob)
        assert is_v2(viewer) and viewer["embeds"] == [] and not viewer["content"]
        assert message_errors(viewer, creating=True) == []
        first = await replay_picture(harness.fake, int(viewer["id"]))
        (container,) = viewer["components"]
        assert container["type"] == 17 and container["accent_color"] == colors.INFO
        texts = text_displays(viewer)
        assert any(t.startswith("**Action 0 of ") for t in texts), texts
        stepped = answer_message(harness.fake, await use(harness.fake, bob, by_label(viewer, "▶")))
        assert stepped is not None and int(stepped["id"]) == int(viewer["id"])  # edited
        assert is_v2(stepped) and message_errors(stepped, creating=True) == []
        assert any(t.startswith("**Action 1 of ") for t in text_displays(stepped))
        ended = answer_message(harness.fake, await use(harness.fake, bob, by_label(stepped, "⏭")))
        assert ended is not None and is_v2(ended)
        # every hand as it ended
        assert await replay_picture(harness.fake, int(ended["id"]), not_=first)
        # the hands are drawn face up in the picture: not listed again in card emojis
        words = "\n".join(text_displays(harness.fake.message(int(ended["id"]))))
        assert "**Every hand, face up**" not in words


async def test_a_replay_sent_as_an_embed_before_the_upgrade_becomes_v2_when_clicked(
    harness: BotUnderTest,
) -> None:
    alice, bob, carol = players(harness.fake)
    async with harness.running():
        table_id = await harness.seat_players(alice, [bob, carol], target=10)
        await harness.play_to_the_end(table_id)
        viewer = await open_replay(harness, bob)
        rows = [c for c in iter_components(viewer) if c.get("type") == 1]
        # The viewer as the bot sent it before: an embed, its buttons in action rows.
        viewer.update(
            flags=int(viewer["flags"]) & ~IS_COMPONENTS_V2,
            embeds=[{"title": "Replay: Dutch, hand 1", "footer": {"text": "Action 0 of 9"}}],
            components=rows,
        )
        assert not is_v2(viewer)
        await use(harness.fake, bob, by_label(viewer, "▶"))
        upgraded = harness.fake.message(int(viewer["id"]))
        assert is_v2(upgraded) and upgraded["embeds"] == []
        assert any(t.startswith("**Action 1 of ") for t in text_displays(upgraded))
