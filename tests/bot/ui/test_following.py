"""A followed "My cards" message is looked at again only when the table has changed since it was
drawn: a pass over a table builds no private view for a message drawn at the version still
published, and a change published since is shown."""

from __future__ import annotations

import asyncio
import itertools
from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from bot.service import FakeClock, PlayerRef, PrivateSnapshot, TableService
from bot.ui.decks import PlayerDecks
from bot.ui.following import HandFollower
from bot.ui.message_pictures import CardPictures
from bot.ui.reveals import RevealHolds
from games.cards import Card, cards
from storage import Store
from tests.bot.ui.fakes import components

PLAYERS = [PlayerRef(100 + i, name) for i, name in enumerate(["Ann", "Bob", "Cat", "Dan"])]


class Table:
    """A Dame table of four people whose "My cards" messages are all followed."""

    follower: HandFollower
    reveals: RevealHolds  # the cards a rule showed each player, as the controller holds them

    def __init__(self, service: TableService) -> None:
        self.service = service
        self.tasks: set[asyncio.Task[None]] = set()
        self.edits: list[int] = []  # user ids whose message was edited, in order
        self.views: list[int] = []  # user ids whose private view was built to follow them
        self.spawned: list[str] = []  # the follower's background work, by name
        # hands moved to the bottom: (user id, the custom ids the new message offers)
        self.posted: list[tuple[int, list[str]]] = []
        self.deleted: list[int] = []  # message ids deleted (an original: its interaction's)
        self.table_id = 0
        self._interactions = itertools.count(1)
        follow_view = service.play.follow_view

        async def counted(table_id: int, user_id: int) -> PrivateSnapshot | None:
            self.views.append(user_id)
            return await follow_view(table_id, user_id)

        service.play.follow_view = counted  # type: ignore[method-assign]

    def spawn(self, work: Any) -> None:
        self.spawned.append(work.__qualname__)
        task = asyncio.get_running_loop().create_task(work, name=work.__qualname__)
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)

    async def settle(self) -> None:
        """Every pass and edit done (a hide waiting for its moment on the fake clock aside)."""
        while busy := [t for t in self.tasks if t.get_name() != "HandFollower._wake"]:
            await asyncio.gather(*busy)

    def interaction(self, user_id: int) -> Any:
        own = next(self._interactions)

        async def edit_original_response(**_: Any) -> None:
            self.edits.append(user_id)

        async def send(**kwargs: Any) -> Any:  # the hand moved to the bottom: a new message
            self.edits.append(user_id)
            offered = [c["custom_id"] for c in components(kwargs["view"])]
            self.posted.append((user_id, offered))
            sent = next(self._interactions)

            async def delete() -> None:
                self.deleted.append(sent)

            return SimpleNamespace(id=sent, edit=edit_original_response, delete=delete)

        async def delete_original_response() -> None:
            self.deleted.append(own)

        return SimpleNamespace(
            id=own,
            user=SimpleNamespace(id=user_id),
            edit_original_response=edit_original_response,
            delete_original_response=delete_original_response,
            followup=SimpleNamespace(send=send),
        )

    def answered(self, private: PrivateSnapshot, user_id: int) -> None:
        """The player's click was answered with this view: their message follows from now."""
        self.follower.note(self.interaction(user_id), user_id, private, "en")

    def to_act(self) -> int:
        snapshot = self.service.public_snapshot(self.table_id)
        (seat,) = snapshot.to_act
        user_id = snapshot.seats[seat].user_id
        assert user_id is not None
        return user_id

    async def draw(self, user_id: int) -> PrivateSnapshot:
        round_no = self.service.public_snapshot(self.table_id).round_no
        assert round_no is not None
        return (await self.service.play.act(self.table_id, user_id, round_no, "draw")).private


class Notices:
    """The service's notifier: every change reaches the follower, as `DiscordNotifier`'s."""

    follower: HandFollower

    async def table_changed(self, table_id: int) -> None:
        self.follower.table_changed(table_id)

    async def round_started(self, table_id: int) -> None:
        self.follower.table_changed(table_id)

    async def turn_reminder(self, table_id: int, seat: int) -> None:
        return None

    async def table_closed(self, table_id: int) -> None:
        self.follower.forget_table(table_id)


@pytest.fixture
async def table(tmp_path: Path) -> AsyncIterator[Table]:
    async for made in _seated(tmp_path, "dame"):
        yield made


@pytest.fixture
async def euchre(tmp_path: Path) -> AsyncIterator[Table]:
    async for made in _seated(tmp_path, "euchre"):
        yield made


async def _seated(
    tmp_path: Path,
    game: str,
    deck: list[Card] | None = None,
    before_moving: Callable[[int], Awaitable[None]] | None = None,
) -> AsyncIterator[Table]:
    """A table of `game` started with four people (dealt `deck`, top first, if given), each
    with "My cards" open and followed; `before_moving`: the turn's mention, awaited before a
    hand moves to the bottom."""
    store = await Store.open(tmp_path / "tables.sqlite3", synchronous="NORMAL")
    notices = Notices()
    seeds = itertools.count(5)
    clock = FakeClock()
    service = TableService(store, clock, notices, lambda: next(seeds))
    made = Table(service)
    made.reveals = RevealHolds(clock, service.play.recall)
    made.follower = notices.follower = HandFollower(
        SimpleNamespace(  # type: ignore[arg-type]
            service=service,
            clock=clock,
            pictures=CardPictures(enabled=False),
            decks=PlayerDecks(),
        ),
        made.spawn,
        made.reveals,
        before_moving,
    )
    opened = await service.seating.open_table(1, 10, PLAYERS[0], game)
    made.table_id = opened.table_id
    for player in PLAYERS[1:]:
        await service.seating.join(made.table_id, player)
    if deck is not None:
        service.stack_deck(made.table_id, deck)
    await service.seating.start(made.table_id, PLAYERS[0].user_id)
    for player in PLAYERS:
        private = await service.play.private_view(made.table_id, player.user_id)
        made.answered(private, player.user_id)
    await made.settle()
    made.views.clear()
    made.spawned.clear()
    yield made
    await made.settle()
    for task in made.tasks:  # hides still waiting on the fake clock
        task.cancel()
    await service.close()
    await store.close()


async def test_a_pass_with_nothing_published_since_builds_no_private_view(table: Table) -> None:
    table.follower.table_changed(table.table_id)
    await table.settle()
    assert table.views == []  # before: the view of the player to act, at every pass


async def test_a_change_published_since_a_message_was_drawn_is_shown(table: Table) -> None:
    player = table.to_act()  # to draw: they stay to act after it, with other moves
    await table.draw(player)  # from another message
    await table.settle()
    assert table.views == [player]  # only theirs: the others still wait, as the table says
    assert table.edits == [player]  # their message now offers the moves after the draw


async def test_a_click_answer_drawn_at_the_published_version_is_not_looked_at_again(
    table: Table,
) -> None:
    player = table.to_act()
    table.answered(await table.draw(player), player)
    await table.settle()
    assert table.views == []  # the answer's view is the one published: nothing to build
    assert table.edits == []  # the answer already shows the moves after the draw


async def test_a_click_answer_drawn_before_a_later_change_is_looked_at_once_more(
    table: Table,
) -> None:
    player = table.to_act()
    drawn = await table.draw(player)  # its answer is held back while...
    round_no = drawn.round_no
    assert round_no is not None
    discard = next(move for move in drawn.legal if move.startswith("discard"))
    await table.service.play.act(table.table_id, player, round_no, discard)  # ...they move again
    table.answered(drawn, player)  # the older answer arrives now
    await table.settle()
    assert player in table.views  # looked at once more, for the change since its view
    assert player in table.edits  # and shows the table as published: their turn is over


async def test_a_change_that_leaves_every_followed_message_as_drawn_starts_no_pass(
    table: Table,
) -> None:
    table.follower.table_changed(table.table_id)  # nothing published since they were drawn
    player = table.to_act()
    with table.follower.answering(table.table_id, player):  # as the controller answers
        table.answered(await table.draw(player), player)  # drawn at the version published
    await table.settle()
    assert "HandFollower._follow" not in table.spawned  # no pass at all, not an empty one
    assert table.views == [] and table.edits == []


async def test_a_pass_still_comes_for_a_message_the_table_changed_and_for_a_dead_token(
    table: Table,
) -> None:
    player = table.to_act()
    await table.draw(player)  # from another message: theirs now shows too little
    await table.settle()
    assert table.spawned == ["HandFollower._follow"] and table.edits == [player]
    table.spawned.clear()
    for followed in table.follower._followed[table.table_id].values():
        followed.since -= 15 * 60  # every token died: nothing changed, but they are forgotten
    table.follower.table_changed(table.table_id)
    await table.settle()
    assert table.spawned == ["HandFollower._follow"] and table.follower.tracked() == 0


async def test_a_waiting_players_message_is_redrawn_when_the_trump_is_made(euchre: Table) -> None:
    snapshot = euchre.service.public_snapshot(euchre.table_id)
    bidder = euchre.to_act()
    dealer = snapshot.seats[snapshot.view.dealer].user_id
    round_no = snapshot.round_no
    assert round_no is not None
    await euchre.service.play.act(euchre.table_id, bidder, round_no, "order")
    await euchre.settle()
    waiting = {p.user_id for p in PLAYERS} - {bidder, dealer}
    # their hands are sorted trump first now, and say the trump: before, left as they were
    assert waiting <= set(euchre.edits)
    euchre.edits.clear()
    discard = next(
        move
        for move in (await euchre.service.play.private_view(euchre.table_id, dealer)).legal
        if move.startswith("discard")
    )
    await euchre.service.play.act(euchre.table_id, dealer, round_no, discard)
    await euchre.settle()
    leader = euchre.to_act()
    # the dealer's turn is over and the lead's starts; the others still wait, as drawn
    assert sorted(euchre.edits) == sorted({dealer, leader})


# Dutch, four people: Ann, Bob, Cat and Dan are dealt four cards each in that order, a card
# starts the discard pile, and the stock's first card is a Jack (the two jokers last).
JACK_FIRST = cards(
    "2S 3S 4S 5S  2H 3H 4H 5H  2D 3D 4D 5D  2C 3C 4C 5C  6S  JS  "
    "6H 6D 6C 7S 7H 7D 7C 8S 8H 8D 8C 9S 9H 9D 9C 10S 10H 10D 10C "
    "JH JD JC QS QH QD QC KS KH KD KC AS AH AD AC JK JK#1"
)


@pytest.fixture
async def dutch(tmp_path: Path) -> AsyncIterator[Table]:
    async for made in _seated(tmp_path, "dutch", JACK_FIRST):
        yield made


async def test_a_card_a_rule_shows_is_redrawn_where_another_players_jack_carries_it(
    dutch: Table,
) -> None:
    table_id = dutch.table_id
    round_no = dutch.service.public_snapshot(table_id).round_no
    for player in PLAYERS:  # each peeks at their bottom row: held in view, as answered
        result = await dutch.service.play.act(table_id, player.user_id, round_no, "peek 3 4")
        until = dutch.service.clock.now() + 8.0
        dutch.reveals.hold(table_id, player.user_id, round_no, result.reveals, until)
        shown, hide_at = await dutch.reveals.shown(table_id, player.user_id, round_no)
        interaction = dutch.interaction(player.user_id)
        dutch.follower.note(interaction, player.user_id, result.private, "en", hide_at, shown)
    await dutch.settle()
    dutch.edits.clear()
    dutch.views.clear()
    snapshot = dutch.service.public_snapshot(table_id)
    first = dutch.to_act()
    waiting = next(info for info in snapshot.seats if info.user_id != first)
    await dutch.service.play.act(table_id, first, round_no, "draw")  # the Jack
    await dutch.service.play.act(table_id, first, round_no, "discard")  # its power
    await dutch.settle()
    assert waiting.user_id not in dutch.edits  # nothing it shows moved: left as drawn
    assert waiting.user_id not in dutch.views  # where its cards lie was looked at, alone
    await dutch.service.play.act(table_id, first, round_no, f"jack 1 {waiting.seat}:3")
    await dutch.settle()
    # the card it showed at slot 3 is in the Jack's player's grid now: redrawn without it
    assert waiting.user_id in dutch.edits
    shown, _ = await dutch.reveals.shown(table_id, waiting.user_id, round_no)
    jack_seat = next(info.seat for info in snapshot.seats if info.user_id == first)
    third, fourth = JACK_FIRST[4 * waiting.seat + 2 : 4 * waiting.seat + 4]  # its slots 3, 4
    places = {(r.data["seat"], r.data["slot"]): r.data["card"] for r in shown}
    assert places == {(jack_seat, 1): third.code, (waiting.seat, 4): fourth.code}


class PacedMention:
    """The turn's mention, held by the channel's pacing until `release` (a hand moving to the
    bottom waits for it); `held` is set once a hand waits."""

    def __init__(self) -> None:
        self.held = asyncio.Event()
        self._released = asyncio.Event()

    async def __call__(self, table_id: int) -> None:
        self.held.set()
        await self._released.wait()

    def release(self) -> None:
        self._released.set()


@pytest.fixture
async def paced() -> PacedMention:
    return PacedMention()


@pytest.fixture
async def paced_table(tmp_path: Path, paced: PacedMention) -> AsyncIterator[Table]:
    async for made in _seated(tmp_path, "dame", before_moving=paced):
        yield made


async def _turn_passes(table: Table) -> int:
    """The player to act draws and discards (from another message); the next one's turn
    comes, and their hand waits for the turn's mention to move to the bottom. Returns them."""
    player = table.to_act()
    drawn = await table.draw(player)
    assert drawn.round_no is not None
    discard = next(move for move in drawn.legal if move.startswith("discard"))
    await table.service.play.act(table.table_id, player, drawn.round_no, discard)
    return table.to_act()


async def test_a_hand_waiting_for_the_turn_s_mention_is_not_reposted_over_a_newer_click(
    paced_table: Table, paced: PacedMention
) -> None:
    """The player clicks while their hand waits for the mention: the click's answer is their
    one current "My cards"; the hand drawn before it is not posted when the mention is out."""
    table = paced_table
    player = await _turn_passes(table)
    await paced.held.wait()  # their hand waits to move to the bottom
    with table.follower.answering(table.table_id, player):  # as the controller answers
        table.answered(await table.draw(player), player)
    paced.release()
    await table.settle()
    assert [user for user, _ in table.posted] == []  # no hand from before the click
    followed = table.follower._followed[table.table_id][player]
    assert followed.message is None  # the click's answer is the message followed


async def test_a_hand_moved_to_the_bottom_is_drawn_from_the_view_after_the_mention(
    paced_table: Table, paced: PacedMention
) -> None:
    """Changes while the hand waits for the mention (the player draws from another message,
    passes pile up): one hand is posted, drawn from the newest view, and the old deleted."""
    table = paced_table
    player = await _turn_passes(table)
    await paced.held.wait()
    round_no = table.service.public_snapshot(table.table_id).round_no
    await table.draw(player)  # from another message, not answered here
    for _ in range(3):  # more passes while the first waits
        table.follower.table_changed(table.table_id)
        await asyncio.sleep(0)
    paced.release()
    await table.settle()
    (posted,) = [offered for user, offered in table.posted if user == player]
    assert f"ct:{table.table_id}:{round_no}:p=draw" not in posted  # drawn before: stale
    legal = (await table.service.play.follow_view(table.table_id, player)).legal  # type: ignore[union-attr]
    assert any(move.startswith("discard") for move in legal)
    assert any("discard" in custom_id for custom_id in posted)
    assert len(table.deleted) == 1  # the message it replaces, once


async def test_a_players_hand_is_redrawn_before_the_tables_watchers_messages(table: Table) -> None:
    """Watchers' messages follow the table too, but after the players' hands: a player's hand
    never waits behind the edits of the table's watchers (here, one who came before them)."""
    player = table.to_act()
    users = table.follower._followed[table.table_id]
    del users[player]  # the player's message is followed again after the watcher's
    watched = await table.service.watching.watch(table.table_id, 999)
    table.follower.note_watcher(table.interaction(999), 999, watched, "en")
    table.answered(await table.service.play.private_view(table.table_id, player), player)
    await table.settle()
    table.edits.clear()
    await table.draw(player)  # from another message: theirs and the watcher's change
    await table.settle()
    assert table.edits == [player, 999]
