"""Which table a page may open: its Activity instance asked of Discord (the local one), its
channel the table's, its viewer among the instance's users; every refusal one sentence in the
viewer's language, and the page closed without a frame."""

from __future__ import annotations

import pytest

from bot.activity.identity import INSTANCE_SECONDS
from bot.activity.server import IDENTITY_KEY, LAUNCHES_KEY, REFUSED
from bot.i18n import error_text
from tests.bot.activity.conftest import CHANNEL, GUILD, ActivityRig, PageClient
from tests.bot.activity.test_server import open_table

OTHER_CHANNEL = 11
INSTANCE_ROUTE = "GET /applications/{app_id}/activity-instances/{instance_id}"


async def refused_entry(page: PageClient) -> dict[str, object]:
    """The refusal a page was told before it was closed, having been shown no table."""
    refusal = await page.refusal(0)
    await page.close()
    assert page.socket.close_code == REFUSED
    assert not page.frames
    text = str(refusal["text"])
    assert text and "\n" not in text and len(text) <= 120
    return refusal


def instance_questions(rig: ActivityRig) -> int:
    return sum(r.route == INSTANCE_ROUTE for r in rig.fake.requests)


async def test_a_page_from_another_channels_instance_is_refused(rig: ActivityRig) -> None:
    table_id = await open_table(rig, "dutch", ("alice", "bob"))
    elsewhere = rig.launch("alice", OTHER_CHANNEL)
    page = await rig.open_page("alice", table_id, instance=elsewhere, channel_id=OTHER_CHANNEL)
    refusal = await refused_entry(page)
    assert refusal["key"] == "activity_elsewhere"
    assert refusal["text"] == "This table is not in the channel this Activity was opened in."


async def test_a_page_saying_another_channel_than_its_instance_is_refused(
    rig: ActivityRig,
) -> None:
    table_id = await open_table(rig, "dutch", ("alice", "bob"))
    elsewhere = rig.launch("alice", OTHER_CHANNEL)
    page = await rig.open_page("alice", table_id, instance=elsewhere, channel_id=CHANNEL)
    assert (await refused_entry(page))["key"] == "activity_elsewhere"


async def test_a_signed_in_user_cannot_read_another_channels_table_by_its_id(
    rig: ActivityRig,
) -> None:
    await open_table(rig, "dutch", ("alice", "bob"))
    host = rig.player("dave")
    snapshot = await rig.service.seating.open_table(GUILD, OTHER_CHANNEL, host, "dutch")
    carol = await rig.open_page("carol", snapshot.table_id)  # her instance is in CHANNEL
    assert (await refused_entry(carol))["key"] == "activity_elsewhere"


async def test_a_user_not_among_the_instances_participants_is_refused(rig: ActivityRig) -> None:
    table_id = await open_table(rig, "dutch", ("alice", "bob"))
    alices = rig.launch("alice")
    carol = await rig.open_page("carol", table_id, instance=alices)  # she never opened it
    refusal = await refused_entry(carol)
    assert refusal["key"] == "activity_not_in"
    assert refusal["text"] == "You are not in this Activity: open it from Discord."


async def test_an_instance_discord_does_not_know_is_refused(rig: ActivityRig) -> None:
    table_id = await open_table(rig, "dutch", ("alice", "bob"))
    page = await rig.open_page("alice", table_id, instance="i-made-up")
    assert (await refused_entry(page))["key"] == "activity_unknown"


async def test_a_channel_without_a_table_is_told_so(rig: ActivityRig) -> None:
    page = await rig.open_page("alice", None)
    assert (await refused_entry(page))["key"] == "activity_no_table"


@pytest.mark.parametrize(
    ("case", "key"),
    [
        ("elsewhere", "activity_elsewhere"),
        ("not_in", "activity_not_in"),
        ("unknown", "activity_unknown"),
    ],
)
async def test_every_refused_entry_is_one_sentence_in_french_for_a_french_viewer(
    rig: ActivityRig, case: str, key: str
) -> None:
    table_id = await open_table(rig, "dutch", ("alice", "bob"))
    rig.fake.oauth.locales[rig.fake.user("carol").id] = "fr"
    if case == "elsewhere":
        instance = rig.launch("carol", OTHER_CHANNEL)
        page = await rig.open_page("carol", table_id, instance=instance, channel_id=OTHER_CHANNEL)
    elif case == "not_in":
        page = await rig.open_page("carol", table_id, instance=rig.launch("alice"))
    else:
        page = await rig.open_page("carol", table_id, instance="i-made-up")
    refusal = await refused_entry(page)
    assert refusal["key"] == key
    assert refusal["text"] == error_text("fr", key) != error_text("en", key)
    hello = page.messages[0]
    assert (hello["type"], hello["language"], hello["reveal_seconds"]) == ("hello", "fr", 8.0)


async def test_a_participant_seated_nowhere_watches_and_cannot_act(rig: ActivityRig) -> None:
    table_id = await open_table(rig, "dutch", ("alice", "bob"))
    rig.launch("alice")
    carol = await rig.open_page("carol", None)  # she joins the channel's instance
    await carol.wait(lambda p: bool(p.frames))
    assert carol.latest["table"]["table"] == table_id and carol.latest["me"] is None
    stored = rig.service.public_snapshot(table_id)
    refused = await carol.refusal(await carol.send("peek 3 4"))
    assert refused["key"] == "not_seated"
    assert rig.service.public_snapshot(table_id) == stored


async def test_an_instances_answer_is_reused_for_the_pages_of_its_users(rig: ActivityRig) -> None:
    table_id = await open_table(rig, "dutch", ("alice", "bob"))
    instance = rig.launch("alice")
    rig.launch("bob")  # the same instance: one per channel
    await rig.open_page("alice", table_id, instance=instance)
    await rig.open_page("bob", table_id, instance=instance)
    await rig.open_page("alice", table_id, instance=instance)  # a reconnect
    assert instance_questions(rig) == 1


async def test_a_user_who_just_joined_the_instance_is_let_in(rig: ActivityRig) -> None:
    table_id = await open_table(rig, "dutch", ("alice", "bob"))
    instance = rig.launch("alice")
    await rig.open_page("alice", table_id, instance=instance)  # the answer without bob, kept
    bob = await rig.open_page("bob", table_id)  # bob opens it now: Discord is asked again
    await bob.wait(lambda p: bool(p.frames))
    assert bob.latest["me"] is not None and instance_questions(rig) == 2


async def test_the_page_opens_the_table_its_viewer_launched_it_for(rig: ActivityRig) -> None:
    first = await open_table(rig, "dutch", ("alice", "bob"))
    second = await open_table(rig, "dutch", ("carol", "dave"))
    rig.client.app[LAUNCHES_KEY].launched(CHANNEL, rig.player("alice").user_id, second)
    alice = await rig.open_page("alice", None)  # she sits at the first, launched the second
    await alice.wait(lambda p: bool(p.frames))
    assert alice.latest["table"]["table"] == second != first
    assert alice.latest["me"] is None


async def test_an_instances_answer_is_asked_again_once_it_is_old(rig: ActivityRig) -> None:
    table_id = await open_table(rig, "dutch", ("alice", "bob"))
    identity = rig.client.app[IDENTITY_KEY]
    now = [1000.0]
    identity.clock = lambda: now[0]
    instance = rig.launch("alice")
    await rig.open_page("alice", table_id, instance=instance)
    now[0] += INSTANCE_SECONDS - 1
    await rig.open_page("alice", table_id, instance=instance)
    assert instance_questions(rig) == 1
    now[0] += 2
    await rig.open_page("alice", table_id, instance=instance)
    assert instance_questions(rig) == 2


async def test_a_table_in_a_thread_opens_from_an_instance_in_that_thread(
    rig: ActivityRig,
) -> None:
    table_id = await open_table(rig, "dutch", ("alice", "bob"))
    thread = 12

    async def thread_of(asked: int) -> int | None:
        return thread if asked == table_id else None

    rig.hub.tables.thread_of = thread_of
    alice = await rig.open_page("alice", table_id, channel_id=thread)
    await alice.wait(lambda p: bool(p.frames))
    assert alice.latest["table"]["table"] == table_id and alice.latest["me"] is not None
    elsewhere = await rig.open_page("bob", table_id, channel_id=OTHER_CHANNEL)
    assert (await refused_entry(elsewhere))["key"] == "activity_elsewhere"
