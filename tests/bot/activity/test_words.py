"""The words a page writes come from the catalogs and the plug-ins, in its viewer's language:
the page's own texts, the label of each move, what the table waits for and the recent log."""

from __future__ import annotations

import re

import pytest

from bot.activity.words import page_texts, plain_text
from bot.i18n import catalog
from bot.render.card_text import CARD_CLOSE, CARD_OPEN, pretty
from tests.bot.activity.conftest import ActivityRig
from tests.bot.activity.test_server import open_table


async def test_a_page_gets_its_texts_and_its_moves_worded_in_its_viewers_language(
    rig: ActivityRig,
) -> None:
    rig.fake.oauth.locales[rig.fake.user("bob").id] = "fr"
    table_id = await open_table(rig, "dutch", ("alice", "bob"))
    alice = await rig.open_page("alice", table_id)
    bob = await rig.open_page("bob", table_id)
    await alice.wait(lambda p: bool(p.frames))
    await bob.wait(lambda p: bool(p.frames))
    assert alice.messages[0]["texts"]["your_turn"] == catalog("en")["activity.your_turn"]
    assert bob.messages[0]["texts"]["your_turn"] == catalog("fr")["activity.your_turn"]
    english, french = alice.latest["me"]["labels"], bob.latest["me"]["labels"]
    assert english["peek 1 2"] == "Peek at cards 1 and 2"
    assert french["peek 1 2"] != english["peek 1 2"]
    assert set(english) == set(alice.latest["me"]["legal"])
    assert alice.latest["table"]["words"]["status"] and bob.latest["table"]["words"]["lines"]


async def test_the_page_texts_are_served_for_each_language_and_no_other(
    rig: ActivityRig,
) -> None:
    for language in ("en", "fr"):
        answer = await rig.client.get(f"/api/texts/{language}")
        assert await answer.json() == page_texts(language)
    assert (await rig.client.get("/api/texts/de")).status == 404


def test_a_message_line_loses_its_markdown_on_the_page() -> None:
    assert plain_text(r"**Bob\_the\_Great** drew <:card:123> *twice*") == (
        "Bob_the_Great drew card twice"
    )


CARD_AS_TEXT = re.compile(r"(?<![\w])(10|[2-9JQKA])[♠♥♦♣]")
MARK = re.compile(f"{CARD_OPEN}([0-9A-Z]+|back){CARD_CLOSE}")


@pytest.mark.parametrize("language", ["en", "fr"])
async def test_each_card_in_the_page_words_is_a_mark_the_page_draws_as_its_picture(
    rig: ActivityRig, language: str
) -> None:
    rig.fake.oauth.locales[rig.fake.user("alice").id] = language
    table_id = await open_table(rig, "euchre", ("alice",))
    alice = await rig.open_page("alice", table_id)
    await alice.wait(
        lambda p: bool(p.frames)
        and any(
            "play" in m or "discard" in m or "order" in m
            for m in (p.latest["me"] or {}).get("legal", [])
        )
    )
    labels = alice.latest["me"]["labels"]
    words = alice.latest["table"]["words"]
    written = " ".join([*labels.values(), words["status"], *words["lines"]])
    assert not CARD_AS_TEXT.search(written), written
    assert MARK.search(written), written
    # outside the page, cards are written as before
    assert CARD_OPEN not in pretty("QS")
