"""An open page's viewer asked again in their Activity instance: a move, or the periodic check,
finds that they left it (or that it ended) and the page is told so in one sentence and closed;
each instance asked once per check however many pages share it; a Discord outage closes
nothing."""

from __future__ import annotations

import asyncio

import pytest

from bot.activity.identity import INSTANCE_SECONDS, Instance
from bot.activity.server import IDENTITY_KEY, REFUSED
from bot.activity.watch import CHECKS_PER_SECOND, Watch, Watched, spread_over
from bot.i18n import error_text
from tests.bot.activity.conftest import CHANNEL, ActivityRig, PageClient
from tests.bot.activity.test_access import INSTANCE_ROUTE, instance_questions
from tests.bot.activity.test_server import open_table


def moving_clock(rig: ActivityRig) -> list[float]:
    """The identity's clock, moved by the test: `now[0] += seconds`."""
    now = [1000.0]
    rig.client.app[IDENTITY_KEY].clock = lambda: now[0]
    return now


async def told_left_and_closed(page: PageClient, language: str = "en") -> None:
    refusal = await page.refusal(0)
    assert refusal["key"] == "activity_not_in"
    assert refusal["text"] == error_text(language, "activity_not_in")
    assert await page.ended() == REFUSED


async def framed(rig: ActivityRig, name: str, table_id: int) -> PageClient:
    page = await rig.open_page(name, table_id)
    await page.wait(lambda p: bool(p.frames))
    return page


async def test_a_move_from_a_page_whose_user_left_the_instance_is_refused_and_closes_it(
    rig: ActivityRig,
) -> None:
    now = moving_clock(rig)
    table_id = await open_table(rig, "dutch", ("alice", "bob"))
    alice = await framed(rig, "alice", table_id)
    stored = rig.service.public_snapshot(table_id)
    rig.leave("alice")
    now[0] += INSTANCE_SECONDS  # the answer that let her in is no longer reused
    before = await alice.send("peek 1 2")
    await told_left_and_closed(alice)
    assert all(m["type"] != "table" for m in alice.messages[before:])
    assert rig.service.public_snapshot(table_id) == stored


async def test_an_idle_page_whose_user_left_is_closed_at_the_next_check_in_their_language(
    rig: ActivityRig,
) -> None:
    now = moving_clock(rig)
    table_id = await open_table(rig, "dutch", ("alice", "bob"))
    rig.fake.oauth.locales[rig.fake.user("alice").id] = "fr"
    alice = await framed(rig, "alice", table_id)
    bob = await framed(rig, "bob", table_id)
    rig.leave("alice")
    now[0] += INSTANCE_SECONDS
    await rig.ticker.tick()
    await told_left_and_closed(alice, "fr")
    assert not bob.socket.closed and not any(m["type"] == "refused" for m in bob.messages)
    answer = await bob.answer(await bob.send("peek 3 4"))  # bob still plays
    assert answer and all(m["type"] == "table" for m in answer)
    assert [page.user_id for page in rig.hub.pages[table_id]] == [rig.fake.user("bob").id]


async def test_the_pages_of_an_instance_that_ended_are_closed_at_the_next_check(
    rig: ActivityRig,
) -> None:
    now = moving_clock(rig)
    table_id = await open_table(rig, "dutch", ("alice", "bob"))
    alice = await framed(rig, "alice", table_id)
    bob = await framed(rig, "bob", table_id)
    rig.leave("alice")
    rig.leave("bob")  # the last one out: Discord answers 404 for it now
    now[0] += INSTANCE_SECONDS
    await rig.ticker.tick()
    await told_left_and_closed(alice)
    await told_left_and_closed(bob)
    assert table_id not in rig.hub.pages


async def test_a_page_is_kept_while_the_answer_that_let_it_in_is_fresh(rig: ActivityRig) -> None:
    moving_clock(rig)
    table_id = await open_table(rig, "dutch", ("alice", "bob"))
    alice = await framed(rig, "alice", table_id)
    questions = instance_questions(rig)
    await rig.ticker.tick()  # within INSTANCE_SECONDS of her entry: her answer is reused
    assert instance_questions(rig) == questions
    assert not alice.socket.closed


async def test_each_instance_is_asked_once_per_check_however_many_pages_share_it(
    rig: ActivityRig,
) -> None:
    now = moving_clock(rig)
    table_id = await open_table(rig, "dutch", ("alice", "bob"))
    pages = [await framed(rig, name, table_id) for name in ("alice", "bob", "carol", "alice")]
    for _check in range(2):
        questions = instance_questions(rig)
        now[0] += INSTANCE_SECONDS
        await rig.ticker.tick()
        assert instance_questions(rig) == questions + 1
    assert not any(page.socket.closed for page in pages)


@pytest.mark.parametrize("outage", ["5xx", "network"])
async def test_a_discord_outage_keeps_the_pages_open_and_their_moves_played(
    rig: ActivityRig, caplog: pytest.LogCaptureFixture, outage: str
) -> None:
    now = moving_clock(rig)
    table_id = await open_table(rig, "dutch", ("alice", "bob"))
    alice = await framed(rig, "alice", table_id)
    rig.leave("alice")  # Discord would say so, if it could be asked
    if outage == "5xx":
        rig.fake.rest.faults.storm(502, 3600, route=INSTANCE_ROUTE)
    else:
        rig.client.app[IDENTITY_KEY].api_url = "http://127.0.0.1:9"  # nothing listens there
    now[0] += INSTANCE_SECONDS
    await rig.ticker.tick()
    answer = await alice.answer(await alice.send("peek 1 2"))
    assert answer and all(m["type"] == "table" for m in answer)  # played: no refusal
    assert not alice.socket.closed
    warned = [r for r in caplog.records if r.levelname == "WARNING"]
    assert any("could not be checked again" in r.getMessage() for r in warned)


class AnsweringIdentity:
    """Discord answering every instance with its one user in it, the questions counted."""

    def __init__(self) -> None:
        self.asked: list[str] = []

    async def current(self, _session: object, instance_id: str) -> Instance:
        self.asked.append(instance_id)
        return Instance(instance_id, CHANNEL, frozenset({int(instance_id)}))


async def test_a_check_of_many_instances_spreads_its_questions_over_its_time() -> None:
    """A check asks its instances one after another, evenly over the time it is given (a
    thousand questions at once held the pages' frames up), and keeps every page in."""
    identity = AnsweringIdentity()
    pauses: list[float] = []

    async def pause(seconds: float) -> None:
        pauses.append(seconds)
        await asyncio.sleep(0)  # the question started before it is asked meanwhile
        assert len(identity.asked) == len(pauses)

    watch = Watch(identity, period=None, pause=pause)  # type: ignore[arg-type]
    closed: list[str] = []

    async def close(key: str) -> None:
        closed.append(key)

    for user in range(1, 5):
        watch.add(Watched(user, str(user), close))
    await watch.check(None, spread=2.0)  # type: ignore[arg-type]
    assert sorted(identity.asked) == ["1", "2", "3", "4"]
    assert pauses == [0.5, 0.5, 0.5] and not closed


def test_the_checks_keep_under_discords_requests_a_second() -> None:
    """Half the instance period for a few instances; for many, as long as asking them at
    `CHECKS_PER_SECOND` takes (Discord allows a bot about fifty requests a second in all)."""
    assert spread_over(3) == INSTANCE_SECONDS / 2
    assert spread_over(1000) == 1000 / CHECKS_PER_SECOND > INSTANCE_SECONDS
    assert CHECKS_PER_SECOND < 50
