"""`BasePlugin`: what most games' plug-ins would write alike, written once.

A game's plug-in subclasses it, sets `name` (its engine's name) and writes `private_lines` (the
seat's cards in "My cards"); everything else has a default that reads the game's own catalog
keys (`<game>.goal`, `<game>.log.<event>`, `<game>.action.<verb>`, `<game>.rules.<preset>`, see
bot/i18n) or shows nothing, and a game overrides what differs: its seat lines, the fields
beside them, a menu of its own. What each member is for is documented once, on
`bot.games.plugin.GamePlugin`; here, only what its default does.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Mapping, Sequence
from functools import cache
from typing import TYPE_CHECKING, ClassVar, Generic, TypeVar

from bot.games.plugin import ActionLabel, ComponentSpec, Field, PieceLabel, SeatLayout, TableContext
from bot.i18n import has_key, text
from bot.pictures.layout import CardRow
from bot.pictures.round_end import RoundEndRow
from bot.render.actions import SectionSpec
from bot.render.log import burst_lines
from bot.render.teams import match_result
from bot.snapshots import FINISHED, PLAYING, LogEntry, PrivateSnapshot, Reveal, RoundEnd
from games.registry import get_game

if TYPE_CHECKING:
    from bot.app import CardTableBot
    from bot.cogs.game import GameCog

# The engine view of the game a subclass plays (`BasePlugin[EuchreView]`).
ViewT = TypeVar("ViewT")


class BasePlugin(Generic[ViewT]):
    """A game's plug-in with the common behaviour; subclasses set `name` and `private_lines`."""

    name: ClassVar[str]
    seat_layout: SeatLayout | None = None  # seats numbered 1, 2, … in join order
    action_styles: ClassVar[Mapping[str, str]] = {}
    accent: ClassVar[int | None] = None  # the green baize
    button_families: ClassVar[frozenset[str]] = frozenset()  # the shared action menu decides
    target_range: ClassVar[tuple[int, int]] = (1, 10_000)  # `/<game> start target:` bounds

    def command_group(self, bot: CardTableBot) -> GameCog:
        """`/<game> start|rules|leave|stop` (bot/cogs/game.py), targets in `target_range`."""
        return _commands(self.name, *self.target_range)(bot, self)

    def lobby_goal(self, target: int, language: str) -> str:
        return text(language, f"{self.name}.goal", target=target)

    def seat_lines(self, view: ViewT, table: TableContext) -> list[str]:
        """Each seat's marks and name, with its total."""
        return [
            " ".join(part for part in (mark, name) if part) + f" · {info.total}"
            for mark, name, info in zip(
                table.marks, table.names, table.snapshot.seats, strict=False
            )
        ]

    def piece_fields(self, view: ViewT, table: TableContext) -> list[Field]:
        return []

    def status_line(self, view: ViewT, table: TableContext) -> str:
        """Who the table waits for."""
        names = ", ".join(table.name(seat) for seat in table.snapshot.to_act)
        return text(table.language, "table.waiting_for", names=names)

    def notice_fields(self, view: ViewT, table: TableContext) -> list[Field]:
        return []

    def log_lines(self, entries: Sequence[LogEntry], table: TableContext) -> list[str]:
        """Each seat's burst of events in words: `<game>.log.<event>` with the event's data
        (an event without such a key is not said)."""

        def phrase(entry: LogEntry, names: Sequence[str], language: str) -> str | None:
            key = f"{self.name}.log.{entry.kind}"
            return text(language, key, **dict(entry.data)) if has_key(key) else None

        return burst_lines(entries, table.names, table.language, phrase=phrase)

    def recent_log_lines(
        self, entries: Sequence[LogEntry], table: TableContext, count: int
    ) -> list[str]:
        """The last `count` lines of `log_lines` (a plug-in that knows where its words begin
        afresh words only the end of the log: `bot.render.log.recent_lines`)."""
        return self.log_lines(entries, table)[-count:]

    def round_end_lines(self, last: RoundEnd[ViewT], table: TableContext) -> list[str]:
        """Each seat's points in the round, and its total."""
        return [
            text(table.language, "table.points_line", name=name, points=points, total=total)
            for name, points, total in zip(table.names, last.points, last.totals, strict=False)
        ]

    def round_end_picture(
        self, last: RoundEnd[ViewT], table: TableContext
    ) -> tuple[RoundEndRow, ...]:
        return ()

    def private_lines(
        self, private: PrivateSnapshot[ViewT], table: TableContext, reveals: Sequence[Reveal]
    ) -> list[str]:
        raise NotImplementedError(f"the {self.name} plug-in shows no cards in My cards")

    def hand_picture(
        self, private: PrivateSnapshot[ViewT], table: TableContext, reveals: Sequence[Reveal]
    ) -> tuple[CardRow, ...]:
        return ()  # no picture of the hand

    def table_picture(self, view: ViewT, table: TableContext) -> tuple[CardRow, ...]:
        return ()  # no picture of the table

    def private_status(self, private: PrivateSnapshot[ViewT], table: TableContext) -> str | None:
        """None on the viewer's turn (the frame says so), else that it is not: a waiting
        player's message is not redrawn at other players' moves (`bot/ui/following.py`), so it
        names nobody the table waits for, which would soon be wrong; the table message does."""
        if private.legal:
            return None
        if table.snapshot.status == FINISHED:
            return self.match_over(table)
        if table.snapshot.status != PLAYING:
            return text(table.language, "private.round_over")
        return text(table.language, "private.not_your_turn")

    def match_over(self, table: TableContext) -> str:
        """ "My cards" once the match is over: so, who won and the final totals (the round's
        end alone would read as if another round were coming)."""
        lower_is_better = get_game(table.snapshot.game).lower_is_better
        return match_result(
            table.snapshot,
            self.seat_layout,
            table.names,
            table.language,
            lower_is_better=lower_is_better,
        )

    def waiting_key(self, view: ViewT) -> Hashable:
        return None  # a waiting player's "My cards" shows nothing of the others' moves

    def everyone_at_once(self, view: ViewT) -> bool:
        return False  # every phase is one seat's turn at a time

    def menu_prompt(self, view: ViewT, table: TableContext) -> str | None:
        return None

    def actions_in_order(self, private: PrivateSnapshot[ViewT]) -> Sequence[str]:
        return private.legal  # the engine's order

    def menu(
        self, private: PrivateSnapshot[ViewT], prefix: str, table: TableContext
    ) -> list[ComponentSpec] | None:
        return None  # the shared action menu lays out every move

    def move_sections(
        self,
        private: PrivateSnapshot[ViewT],
        prefix: str,
        table: TableContext,
        components: list[ComponentSpec],
    ) -> tuple[list[SectionSpec], list[ComponentSpec]]:
        return [], components  # every move in the rows of buttons

    def offers_stage(
        self, private: PrivateSnapshot[ViewT], prefix: str, options: Mapping[str, object]
    ) -> bool:
        return False  # every stage of the menu is a prefix of a legal move

    def reveal_lines(self, seat: int, reveals: Sequence[Reveal], table: TableContext) -> list[str]:
        return []

    def action_labeler(self, view: ViewT, table: TableContext) -> ActionLabel:
        """`<game>.action.<verb>` (the rest of the notation as `{rest}`), else the notation."""
        language = table.language

        def label(notation: str) -> str:
            verb, _, rest = notation.partition(" ")
            key = f"{self.name}.action.{verb}"
            return text(language, key, rest=rest) if has_key(key) else notation

        return label

    def piece_labeler(self, view: ViewT, table: TableContext) -> PieceLabel:
        return lambda prefix, piece: piece

    def action_emoji(self, view: ViewT, table: TableContext) -> Callable[[str], str | None]:
        return lambda notation: None

    def rules_text(self, preset: str, language: str) -> tuple[str, str]:
        """`<game>.rules.title` (with the preset's name) and `<game>.rules.<preset>`."""
        preset_key = f"{self.name}.preset.{preset}"
        named = text(language, preset_key) if has_key(preset_key) else preset
        title = text(language, f"{self.name}.rules.title", preset=named)
        return title, text(language, f"{self.name}.rules.{preset}")


@cache  # one command class per game: discord.py reads it when the cog is added
def _commands(game: str, low: int, high: int) -> type[GameCog]:
    from bot.cogs.game import game_commands  # the cogs import the plug-ins' protocol

    return game_commands(game, cog_name=f"{game.title()}Cog", min_target=low, max_target=high)
