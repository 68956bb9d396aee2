"""The Activity's server against the real table service: whole matches played from pages,
every frame read by the leak checker; refusals; live updates; reconnecting."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

import bot.activity.hub as hub
import bot.activity.tables as activity_tables
from bot.snapshots import FINISHED, PLAYING, ROUND_OVER
from tests.bot.activity.conftest import CHANNEL, GUILD, ActivityRig, PageClient

ROUNDS_AT_MOST = 40


async def open_table(rig: ActivityRig, game: str, names: tuple[str, ...], **options: object) -> int:
    """A table of `game` hosted by names[0], the others seated, bots at free seats, started."""
    host = rig.player(names[0])
    snapshot = await rig.service.seating.open_table(GUILD, CHANNEL, host, game, **options)  # type: ignore[arg-type]
    table_id = snapshot.table_id
    for name in names[1:]:
        await rig.service.seating.join(table_id, rig.player(name))
    if len(names) < snapshot.min_seats:
        await rig.service.seating.fill_with_bots(table_id, host.user_id)
    await rig.service.seating.start(table_id, host.user_id)
    await rig.service.followup.settle(table_id)
    return table_id


async def play_match(
    rig: ActivityRig, table_id: int, pages: dict[int, PageClient], seed: int
) -> None:
    """Each seated player moves from their own page (the move the simple bot would choose),
    every page waits until it shows the table as stored, until the match is over."""
    rng = random.Random(seed)
    rounds = 0
    while True:
        await rig.current(table_id)
        public = rig.service.public_snapshot(table_id)
        if public.status == FINISHED:
            return
        if public.status == ROUND_OVER:
            rounds += 1
            assert rounds < ROUNDS_AT_MOST, "the match does not end"
            await rig.clock.advance(rig.service.timers.next_round_seconds)
            continue
        assert public.status == PLAYING
        movers = [public.seats[seat].user_id for seat in public.to_act]
        user_id = next(u for u in movers if u in pages)
        choice = rig.service.bot_choice(table_id, user_id, rng)
        assert choice is not None
        page = pages[user_id]
        answer = await page.answer(await page.send(choice))
        assert all(m["type"] == "table" for m in answer), answer


async def test_a_forged_move_is_refused_in_one_sentence_and_changes_nothing(
    rig: ActivityRig,
) -> None:
    table_id = await open_table(rig, "dutch", ("alice", "bob"))
    page = await rig.open_page("alice", table_id)
    stored = rig.service.public_snapshot(table_id)
    for forged in ("swap 99", "win the match", "peek 3 4;peek 3 4;peek 1 2"):
        refused = await page.refusal(await page.send(forged))
        assert refused["text"] and "\n" not in refused["text"] and len(refused["text"]) <= 200
    before = len(page.messages)
    await page.socket.send_str("{not json")
    await page.socket.send_json({"act": "peek 3 4", "round": "1", "version": 0})
    await page.wait(lambda p: sum(m["type"] == "refused" for m in p.messages[before:]) == 2)
    assert {m["key"] for m in page.messages[before:]} == {"bad_button"}
    assert rig.service.public_snapshot(table_id) == stored


async def test_a_move_drawn_from_an_older_table_is_refused_and_the_page_gets_the_current(
    rig: ActivityRig,
) -> None:
    table_id = await open_table(rig, "dutch", ("alice", "bob"))
    alice = await rig.open_page("alice", table_id)
    bob = await rig.open_page("bob", table_id)
    old = alice.latest
    await bob.answer(await bob.send("peek 3 4"))  # the table moves on
    version = await rig.current(table_id)
    stored = rig.service.public_snapshot(table_id)
    answer = await alice.answer(await alice.send("peek 1 2", old))
    assert answer[0]["type"] == "refused" and answer[0]["key"] == "activity_stale"
    assert (await alice.until_version(version))["table"]["version"] == version
    assert rig.service.public_snapshot(table_id) == stored


async def test_a_viewer_seated_nowhere_sees_the_public_table_and_cannot_move(
    rig: ActivityRig,
) -> None:
    table_id = await open_table(rig, "dutch", ("alice", "bob"))
    carol = await rig.open_page("carol", table_id)
    assert carol.latest["me"] is None
    stored = rig.service.public_snapshot(table_id)
    refused = await carol.refusal(await carol.send("peek 3 4"))
    assert refused["key"] == "not_seated"
    assert refused["text"] == "You are not seated at this table."
    assert rig.service.public_snapshot(table_id) == stored


async def test_a_refusal_is_in_the_viewers_language(rig: ActivityRig) -> None:
    table_id = await open_table(rig, "dutch", ("alice", "bob"))
    rig.fake.oauth.locales[rig.fake.user("carol").id] = "fr"
    carol = await rig.open_page("carol", table_id)
    refused = await carol.refusal(await carol.send("peek 3 4"))
    assert refused["text"] == "Vous n'avez pas de place à cette table."


async def test_a_move_in_the_activity_reaches_the_table_message_and_every_page(
    rig: ActivityRig,
) -> None:
    table_id = await open_table(rig, "dutch", ("alice", "bob"))
    alice = await rig.open_page("alice", table_id)
    carol = await rig.open_page("carol", table_id)
    changes = len(rig.recorded.of("table_changed"))
    await alice.answer(await alice.send("peek 3 4"))
    version = await rig.current(table_id)
    assert len(rig.recorded.of("table_changed")) > changes  # the Discord notifier is told too
    assert (await carol.until_version(version))["table"]["version"] == version


async def test_a_button_click_pushes_a_frame_to_every_open_page(rig: ActivityRig) -> None:
    table_id = await open_table(rig, "dutch", ("alice", "bob"))
    alice = await rig.open_page("alice", table_id)
    carol = await rig.open_page("carol", table_id)
    round_no = rig.service.public_snapshot(table_id).round_no
    assert round_no is not None
    await rig.service.play.act(table_id, rig.player("bob").user_id, round_no, "peek 3 4")
    version = rig.service.public_snapshot(table_id).version
    for page in (alice, carol):
        assert (await page.until_version(version))["table"]["version"] == version


async def test_a_page_that_reconnects_gets_the_table_as_it_is_now(rig: ActivityRig) -> None:
    table_id = await open_table(rig, "dutch", ("alice", "bob"))
    alice = await rig.open_page("alice", table_id)
    await alice.close()
    bob = await rig.open_page("bob", table_id)
    await bob.answer(await bob.send("peek 3 4"))
    version = await rig.current(table_id)
    again = await rig.open_page("alice", table_id)
    assert again.frames[0]["table"]["version"] == version
    assert again.frames[0]["me"]["legal"] == list(
        (await rig.service.play.follow_view(table_id, rig.player("alice").user_id)).legal
    )


async def test_a_code_discord_refuses_gets_no_token_and_no_page(rig: ActivityRig) -> None:
    answer = await rig.client.post("/api/token", json={"code": "made-up"})
    assert answer.status == 401
    socket = await rig.client.get("/ws?table=1&token=made-up")
    assert socket.status == 401


@pytest.mark.parametrize(
    ("game", "names", "target", "seed"),
    [
        ("dutch", ("alice", "bob"), 30, 1),
        ("euchre", ("alice", "bob"), 3, 2),
        ("dame", ("alice", "bob", "carol", "dave"), 150, 2),
    ],
)
async def test_a_match_of_every_game_played_from_pages_leaks_no_card(
    rig: ActivityRig, game: str, names: tuple[str, ...], target: int, seed: int
) -> None:
    """Every frame each player's page and a watcher's (seated nowhere: the public table only)
    got over a whole match holds no card its viewer may not see."""
    table_id = await open_table(rig, game, names, target=target)
    pages = {rig.player(n).user_id: await rig.open_page(n, table_id) for n in names}
    watcher = await rig.open_page("erin", table_id)
    await play_match(rig, table_id, pages, seed=seed)
    assert watcher.latest["me"] is None
    assert watcher.latest["table"]["status"] == FINISHED
    rig.leaks.assert_clean()


async def test_the_page_and_card_pictures_are_served_and_an_unknown_card_is_not(
    rig: ActivityRig,
) -> None:
    page = await rig.client.get("/")
    assert page.status == 200 and "/static/app.js" in await page.text()
    for name in ("QS", "10H", "JK", "back"):
        picture = await rig.client.get(f"/cards/{name}.png")
        assert picture.status == 200 and (await picture.read()).startswith(b"\x89PNG")
    assert (await rig.client.get("/cards/ZZ.png")).status == 404
    config = await (await rig.client.get("/api/config")).json()
    assert config == {"client_id": str(rig.fake.application_id)}


async def test_a_page_is_greeted_in_its_viewers_language(rig: ActivityRig) -> None:
    table_id = await open_table(rig, "dutch", ("alice", "bob"))
    rig.fake.oauth.locales[rig.fake.user("carol").id] = "fr"
    carol = await rig.open_page("carol", table_id)
    assert carol.messages[0]["type"] == "hello" and carol.messages[0]["language"] == "fr"


async def test_a_page_opened_from_a_channel_shows_the_viewers_table_there(
    rig: ActivityRig,
) -> None:
    first = await open_table(rig, "dutch", ("alice", "bob"))
    await open_table(rig, "dutch", ("carol", "dave"))
    page = await rig.open_page("alice", None)
    await page.wait(lambda p: bool(p.frames))
    assert page.latest["table"]["table"] == first and page.latest["me"] is not None


async def test_a_change_reaches_a_seated_players_page_while_the_next_one_holds_the_table(
    rig: ActivityRig,
) -> None:
    """The page's frame is built when the change is announced: it does not wait for the
    table's lock, which the bots' next move holds while it is being stored."""
    table_id = await open_table(rig, "dutch", ("alice", "bob"))
    alice = await rig.open_page("alice", table_id)
    version = await rig.current(table_id)
    round_no = rig.service.public_snapshot(table_id).round_no
    assert round_no is not None
    await rig.service.play.act(table_id, rig.player("bob").user_id, round_no, "peek 3 4")
    async with rig.service.tables.reading(table_id):  # the next change, holding the table
        shown = await alice.until_version(version + 1)
    assert shown["me"] is not None and shown["me"]["seat"] == 0
    rig.leaks.assert_clean()


async def test_the_pages_of_viewers_seated_nowhere_share_one_encoded_frame_per_change(
    rig: ActivityRig, monkeypatch: pytest.MonkeyPatch
) -> None:
    table_id = await open_table(rig, "dutch", ("alice", "bob"))
    watchers = [await rig.open_page(name, table_id) for name in ("carol", "dave", "erin")]
    version = await rig.current(table_id)
    built: list[bool] = []  # for each frame built: is it the public one
    build = activity_tables.frame

    def counted(
        public: Any,
        private: Any = None,
        reveals: Any = (),
        language: str = "en",
        table: Any = None,
    ) -> dict[str, Any]:
        built.append(private is None)
        return build(public, private, reveals, language=language, table=table)

    encode = hub.encoded
    texts: list[str] = []

    def kept(frame: dict[str, Any]) -> str:
        texts.append(encode(frame))
        return texts[-1]

    monkeypatch.setattr(activity_tables, "frame", counted)
    monkeypatch.setattr(hub, "encoded", kept)
    round_no = rig.service.public_snapshot(table_id).round_no
    assert round_no is not None
    await rig.service.play.act(table_id, rig.player("bob").user_id, round_no, "peek 3 4")
    for page in watchers:
        assert (await page.until_version(version + 1))["me"] is None
    assert built == [True]  # built once
    assert len(texts) == 1  # and encoded once
    assert all(json.loads(texts[0]) == page.latest for page in watchers)
    rig.leaks.assert_clean()
