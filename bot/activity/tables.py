"""The one module of the Activity that calls the table service: views and moves.

Everything the page shows or does goes through here, on the service's public methods, so the
Activity keeps every guarantee a button click has (seat, turn and round checks, the table's
lock, the store first, bots and timers after).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from bot.activity.frames import frame, table_part
from bot.custom_ids import moves
from bot.i18n import DEFAULT_LANGUAGE
from bot.service.errors import TableError
from bot.snapshots import PublicSnapshot

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


class ActivityTables:
    """The table service as the Activity sees it."""

    def __init__(
        self,
        service: TableService,
        thread_of: Callable[[int], Awaitable[int | None]] | None = None,
    ) -> None:
        self.service = service
        self.thread_of = thread_of  # a table's thread, when it plays in one (the bot's locations)

    async def at_channel(self, table_id: int, channel_id: int) -> bool:
        """Whether the table plays at this channel (or in its own thread, which is one)."""
        if table_id in self.service.tables_in_channel(channel_id):
            return True
        if self.thread_of is None or not self.service.has_table(table_id):
            return False
        return await self.thread_of(table_id) == channel_id

    def table_in_channel(self, channel_id: int, user_id: int) -> int | None:
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

    async def opening_frame(
        self, table_id: int, user_id: int, language: str = DEFAULT_LANGUAGE
    ) -> dict[str, Any]:
        """The frame a page gets when it connects: a seated player's own view, with the cards
        a rule showed them while away (handed out once, as "My cards" does); the public
        table for anyone else."""
        public = await self.public(table_id)
        if public.seat_of(user_id) is None:
            return frame(public, language=language)
        private = await self.service.play.private_view(table_id, user_id)
        public = self.service.public_snapshot(table_id)
        return frame(public, private, private.reveals, language)

    async def current_frame(
        self, table_id: int, user_id: int, language: str = DEFAULT_LANGUAGE
    ) -> dict[str, Any]:
        """The frame pushed after a change: the viewer's view now, without handing out any
        reveal and without bringing an away seat back."""
        public = await self.public(table_id)
        if public.seat_of(user_id) is None:
            return frame(public, language=language)
        private = await self.service.play.follow_view(table_id, user_id)
        return frame(public, private, language=language)

    def frames_now(
        self, table_id: int, viewers: Iterable[tuple[int, str]]
    ) -> dict[tuple[int, str], dict[str, Any] | None]:
        """`current_frame` of each viewer (user, language) at once, when it needs no wait: the
        table is in memory and, for a seated viewer, nothing is changing it (None: ask
        `current_frame`). The table's part is built once per language for every viewer, and the
        whole public frame once per language for all the viewers seated nowhere."""
        if not self.service.loaded(table_id):
            return dict.fromkeys(viewers)
        public = self.service.public_snapshot(table_id)
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
                private = self.service.play.follow_view_now(table_id, user_id)
                built[user_id, language] = (
                    None
                    if private is None
                    else frame(public, private, language=language, table=part(language))
                )
        return built

    async def act(
        self, table_id: int, user_id: int, move: Move, language: str = DEFAULT_LANGUAGE
    ) -> dict[str, Any]:
        """Play a page's move as a click plays it; the frame the mover gets at once (with
        the cards the move showed them). Refused (TableError) when the page drew it from an
        older table than the one stored now, or by the service's own checks."""
        public = await self.public(table_id)
        if public.seat_of(user_id) is None:
            raise TableError("not_seated")
        if move.version != public.version or move.round_no != public.round_no:
            raise TableError("activity_stale")
        first, *then = moves(move.action)
        result = await self.service.play.act(table_id, user_id, move.round_no, first, then)
        public = self.service.public_snapshot(table_id)
        return frame(public, result.private, result.reveals, language)
