"""The one module of the Activity that calls the table service: views and moves.

Everything the page shows or does goes through here, on the service's public methods, so the
Activity keeps every guarantee a button click has (seat, turn and round checks, the table's
lock, the store first, bots and timers after).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol

from bot.activity.frames import frame, table_part
from bot.custom_ids import moves
from bot.i18n import DEFAULT_LANGUAGE
from bot.service.errors import TableError
from bot.snapshots import PrivateSnapshot, PublicSnapshot, Reveal

if TYPE_CHECKING:
    from bot.service.service import TableService

MAX_ACTION_TEXT = 100  # characters: the longest notation of any game is far shorter


@dataclass(frozen=True, slots=True)
class Move:
    """A move as the page sends it: the action's text, the round and the table version the
    page drew it from."""

    action: str
    round_no: int
    version: int

    @classmethod
    def read(cls, message: Any) -> Move:
        """The move in a page's message; a malformed one is refused (`bad_button`)."""
        if not isinstance(message, dict):
            raise TableError("bad_button")
        action, round_no, version = message.get("act"), message.get("round"), message.get("version")
        if (
            not isinstance(action, str)
            or not action.strip()
            or len(action) > MAX_ACTION_TEXT
            or type(round_no) is not int
            or type(version) is not int
        ):
            raise TableError("bad_button")
        parts = moves(action.strip())
        if len(set(parts)) != len(parts) or not all(part.strip() == part != "" for part in parts):
            raise TableError("bad_button")  # a move twice in one, or an empty one
        return cls(action.strip(), round_no, version)


class PageTables(Protocol):
    """The tables as the Activity's pages need them: `ActivityTables` on the service in the
    bot's process, `RemoteTables` over the bridge in the Activity's own."""

    def page_opened(self, table_id: int, user_id: int) -> None: ...

    def page_closed(self, table_id: int, user_id: int) -> None: ...

    async def at_channel(self, table_id: int, channel_id: int) -> bool: ...

    async def table_in_channel(self, channel_id: int, user_id: int) -> int | None: ...

    async def opening_frame(self, table_id: int, user_id: int, language: str) -> dict[str, Any]: ...

    async def current_frame(self, table_id: int, user_id: int, language: str) -> dict[str, Any]: ...

    def frames_now(
        self, table_id: int, viewers: Iterable[tuple[int, str]]
    ) -> dict[tuple[int, str], dict[str, Any] | None]: ...

    async def act(
        self, table_id: int, user_id: int, move: Move, language: str
    ) -> dict[str, Any]: ...


@dataclass(frozen=True, slots=True)
class Seen:
    """What one viewer may see now, as the service gives it: the public table and, for a
    seated viewer, their own snapshot with the cards a rule showed them, to show once. A page's
    frame is built from it alone (here, or in the Activity's own process)."""

    public: PublicSnapshot
    private: PrivateSnapshot[Any] | None = None
    reveals: tuple[Reveal, ...] = ()

    def frame(self, language: str = DEFAULT_LANGUAGE) -> dict[str, Any]:
        return frame(self.public, self.private, self.reveals, language)


PrivateNow = Callable[[int], "PrivateSnapshot[Any] | None"]


def viewer_frames(
    public: PublicSnapshot | None, viewers: Iterable[tuple[int, str]], private_now: PrivateNow
) -> dict[tuple[int, str], dict[str, Any] | None]:
    """Each viewer's (user, language) frame of this public table, a seated viewer's from
    `private_now(user)` (None: not ready, the frame is None too; every frame is None without
    the table). The table's part is built once per language for every viewer, and the whole
    public frame once per language for all the viewers seated nowhere."""
    if public is None:
        return dict.fromkeys(viewers)
    parts: dict[str, dict[str, Any]] = {}  # language -> the table's part of its frames

    def part(language: str) -> dict[str, Any]:
        if language not in parts:  # built when a frame needs it (none if the table is busy)
            parts[language] = table_part(public, language)
        return parts[language]

    shown: dict[str, dict[str, Any]] = {}
    built: dict[tuple[int, str], dict[str, Any] | None] = {}
    for user_id, language in viewers:
        if public.seat_of(user_id) is None:
            if language not in shown:
                shown[language] = frame(public, language=language, table=part(language))
            built[user_id, language] = shown[language]
        else:
            private = private_now(user_id)
            built[user_id, language] = (
                None
                if private is None
                else frame(public, private, language=language, table=part(language))
            )
    return built


class ActivityTables:
    """The table service as the Activity sees it."""

    def __init__(
        self,
        service: TableService,
        thread_of: Callable[[int], Awaitable[int | None]] | None = None,
    ) -> None:
        self.service = service
        self.thread_of = thread_of  # a table's thread, when it plays in one (the bot's locations)

    def page_opened(self, table_id: int, user_id: int) -> None:
        """A page of this viewer opened at this table (the hub tells; nothing to do here)."""

    def page_closed(self, table_id: int, user_id: int) -> None:
        """A page of this viewer closed (the hub tells; nothing to do here)."""

    async def at_channel(self, table_id: int, channel_id: int) -> bool:
        """Whether the table plays at this channel (or in its own thread, which is one)."""
        if table_id in self.service.tables_in_channel(channel_id):
            return True
        if self.thread_of is None or not self.service.has_table(table_id):
            return False
        return await self.thread_of(table_id) == channel_id

    async def table_in_channel(self, channel_id: int, user_id: int) -> int | None:
        """The table an Activity opened in this channel shows: the one the user sits at, else
        the newest (None: the channel has none)."""
        found = [t for t in self.service.tables_in_channel(channel_id) if self.service.loaded(t)]
        for table_id in reversed(found):
            if self.service.public_snapshot(table_id).seat_of(user_id) is not None:
                return table_id
        return found[-1] if found else None

    async def public(self, table_id: int) -> PublicSnapshot:
        await self.service.restoring.ready(table_id)  # loaded first if the bot just restarted
        return self.service.public_snapshot(table_id)

    async def opening_seen(self, table_id: int, user_id: int) -> Seen:
        """What a page sees when it connects: a seated player's own view, with the cards a
        rule showed them while away (handed out once, as "My cards" does); the public table
        for anyone else."""
        public = await self.public(table_id)
        if public.seat_of(user_id) is None:
            return Seen(public)
        private = await self.service.play.private_view(table_id, user_id)
        return Seen(self.service.public_snapshot(table_id), private, private.reveals)

    async def current_seen(self, table_id: int, user_id: int) -> Seen:
        """What a page sees after a change: the viewer's view now, without handing out any
        reveal and without bringing an away seat back."""
        public = await self.public(table_id)
        if public.seat_of(user_id) is None:
            return Seen(public)
        return Seen(public, await self.service.play.follow_view(table_id, user_id))

    def seen_now(
        self, table_id: int, user_ids: Iterable[int]
    ) -> tuple[PublicSnapshot | None, dict[int, PrivateSnapshot[Any] | None]]:
        """The public table and each seated viewer's own snapshot now, when they need no
        wait: the table is in memory (else None) and, for a seated viewer, nothing is
        changing it (else that viewer's is None)."""
        if not self.service.loaded(table_id):
            return None, {}
        public = self.service.public_snapshot(table_id)
        follow = self.service.play.follow_view_now
        seated = (user for user in user_ids if public.seat_of(user) is not None)
        return public, {user: follow(table_id, user) for user in seated}

    async def act_seen(self, table_id: int, user_id: int, move: Move) -> Seen:
        """Play a page's move as a click plays it; what the mover sees then (with the cards
        the move showed them). Refused (TableError) when the page drew it from an older table
        than the one stored now, or by the service's own checks."""
        public = await self.public(table_id)
        if public.seat_of(user_id) is None:
            raise TableError("not_seated")
        if move.version != public.version or move.round_no != public.round_no:
            raise TableError("activity_stale")
        first, *then = moves(move.action)
        result = await self.service.play.act(table_id, user_id, move.round_no, first, then)
        return Seen(self.service.public_snapshot(table_id), result.private, result.reveals)

    async def opening_frame(
        self, table_id: int, user_id: int, language: str = DEFAULT_LANGUAGE
    ) -> dict[str, Any]:
        """The frame a page gets when it connects (`opening_seen`)."""
        return (await self.opening_seen(table_id, user_id)).frame(language)

    async def current_frame(
        self, table_id: int, user_id: int, language: str = DEFAULT_LANGUAGE
    ) -> dict[str, Any]:
        """The frame pushed after a change (`current_seen`)."""
        return (await self.current_seen(table_id, user_id)).frame(language)

    def frames_now(
        self, table_id: int, viewers: Iterable[tuple[int, str]]
    ) -> dict[tuple[int, str], dict[str, Any] | None]:
        """`current_frame` of each viewer (user, language) at once, when it needs no wait
        (None: ask `current_frame`); see `viewer_frames`."""
        viewers = list(viewers)
        public, privates = self.seen_now(table_id, {user for user, _language in viewers})
        return viewer_frames(public, viewers, privates.get)

    async def act(
        self, table_id: int, user_id: int, move: Move, language: str = DEFAULT_LANGUAGE
    ) -> dict[str, Any]:
        """Play a page's move (`act_seen`); the frame the mover gets at once."""
        return (await self.act_seen(table_id, user_id, move)).frame(language)
