"""The one protocol through which the shared bot code shows a game: `GamePlugin`.

The shared code owns the frame of every message (the table message's title, lobby, timers,
log field, winners and totals, buttons and custom ids; the "My cards" title, turn line and
action menu; the slash command group's handlers). A plug-in fills that frame with its game's
words, from the engine's *views* only (the snapshots never hold a round), so what a plug-in
renders can never hold a card its viewer may not see. Each member is documented once, on
`GamePlugin` below; `bot.games.base.BasePlugin` gives each a default.

The protocol is generic over its game's view type (`GamePlugin[EuchreView]`): a plug-in's
methods read their own view typed. The shared code serves every game through
`bot.games.plugin_for(name)`, a `GamePlugin[Any]`.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Hashable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol, TypeVar

from bot.pictures.layout import CardRow
from bot.pictures.round_end import RoundEndRow
from bot.render.actions import ActionLabel, ComponentSpec, PieceLabel, SectionSpec
from bot.snapshots import LogEntry, PrivateSnapshot, PublicSnapshot, Reveal, RoundEnd

if TYPE_CHECKING:
    from discord.ext import commands

    from bot.app import CardTableBot

# The game's engine view a plug-in reads (`games.<game>.views`); only ever taken in.
ViewT_contra = TypeVar("ViewT_contra", contravariant=True)

__all__ = [
    "ActionLabel",
    "ComponentSpec",
    "Field",
    "GamePlugin",
    "PieceLabel",
    "SeatLayout",
    "SectionSpec",
    "TableContext",
]


@dataclass(frozen=True, slots=True)
class Field:
    """One embed field a plug-in adds (the frame clips it to Discord's limits)."""

    name: str
    value: str
    inline: bool = True


@dataclass(frozen=True, slots=True)
class TableContext:
    """What every plug-in method needs to word a line: the table, language, names, marks."""

    snapshot: PublicSnapshot
    language: str
    names: tuple[str, ...]  # seat names, markdown-escaped, in seat order
    marks: tuple[str, ...]  # per seat: 👑 host, 🤖 bot, 💤 away, 🚪 left

    def name(self, seat: int | None) -> str:
        """A seat's name, "?" for a seat that does not exist."""
        if seat is None or not 0 <= seat < len(self.names):
            return "?"
        return self.names[seat]


@dataclass(frozen=True, slots=True)
class SeatLayout:
    """Seats of a fixed-size game: what each is called and who plays together.

    `labels[i]` names seat i: a catalog key (translated) or plain text ("N"); `teams` lists
    the seats of each team (team 0 first). A player may pick a free seat in the lobby; the
    host may swap two seats.
    """

    labels: tuple[str, ...]
    teams: tuple[tuple[int, ...], ...]

    def team_of(self, seat: int) -> int:
        return next(i for i, team in enumerate(self.teams) if seat in team)


class GamePlugin(Protocol[ViewT_contra]):
    """A game's presence in the bot. Every method is pure: views and texts in, texts out.

    Each method gets a `TableContext`: the public snapshot of the table, the viewer's language
    and the seat names (escaped for markdown) and marks, so a plug-in needs no other shared
    module to word a line. Texts come from the translation catalogs (`bot.i18n.text`); a
    plug-in keeps its own keys in `bot/games/<game>/i18n/{en,fr}.json`.
    """

    @property
    def name(self) -> str:
        """The engine's name in `games.registry` (stored tables, `/leaderboard game:`)."""
        ...

    @property
    def seat_layout(self) -> SeatLayout | None:
        """Seat names and teams of a fixed-size game (lobby seat choice and swaps); `None`:
        seats numbered 1, 2, … in join order."""
        ...

    @property
    def action_styles(self) -> Mapping[str, str]:
        """Button colours of single actions (`{"draw": "primary"}`)."""
        ...

    @property
    def accent(self) -> int | None:
        """The colour of a table of this game in play (0xRRGGBB): a glance tells one game's
        table from another's in a busy channel; `None`: the green baize."""
        ...

    @property
    def button_families(self) -> Collection[str]:
        """Action families always laid out as buttons (`{"play"}`), never in a select."""
        ...

    def command_group(self, bot: CardTableBot) -> commands.Cog:
        """The `/<game>` slash command group (a `bot.cogs.game.GameCog` subclass instance)."""
        ...

    def lobby_goal(self, target: int, language: str) -> str:
        """The lobby's sentence on how the match is won, its target included, in the game's
        words (points, hands, rounds: the game says)."""
        ...

    def seat_lines(self, view: ViewT_contra, table: TableContext) -> list[str]:
        """The table message's description in a round, a line a seat."""
        ...

    def piece_fields(self, view: ViewT_contra, table: TableContext) -> list[Field]:
        """Inline fields beside the seats (discard, stock, trump, …)."""
        ...

    def status_line(self, view: ViewT_contra, table: TableContext) -> str:
        """What the table waits for; the frame adds the turn timer."""
        ...

    def notice_fields(self, view: ViewT_contra, table: TableContext) -> list[Field]:
        """Full-width fields after the status (a call to end the round, …)."""
        ...

    def log_lines(self, entries: Sequence[LogEntry], table: TableContext) -> list[str]:
        """The public log in words, oldest first, table events included (`bot.render.log` has
        the shared wording of table events and a burst helper)."""
        ...

    def recent_log_lines(
        self, entries: Sequence[LogEntry], table: TableContext, count: int
    ) -> list[str]:
        """The last `count` lines of `log_lines`, the same words, worded from as few entries
        as the game allows (the table message and the Activity show the last few lines at
        every change)."""
        ...

    def round_end_lines(self, last: RoundEnd[ViewT_contra], table: TableContext) -> list[str]:
        """The summary of the round that just ended."""
        ...

    def round_end_picture(
        self, last: RoundEnd[ViewT_contra], table: TableContext
    ) -> tuple[RoundEndRow, ...]:
        """The rows of the round-end picture: each player's name, cards face up as the round's
        *public* end view shows them, points and total (or a note instead: a pack's points);
        `()`: none."""
        ...

    def private_lines(
        self, private: PrivateSnapshot[ViewT_contra], table: TableContext, reveals: Sequence[Reveal]
    ) -> list[str]:
        """The hand in "My cards": the seat's own view, with the reveals of this answer laid
        over it. While the viewer waits, nothing another player's move changes (a trick, a
        pile, whose turn it is): a waiting player's message is not redrawn until their own
        moment changes, and would keep it stale."""
        ...

    def hand_picture(
        self, private: PrivateSnapshot[ViewT_contra], table: TableContext, reveals: Sequence[Reveal]
    ) -> tuple[CardRow, ...]:
        """ "My cards" as rows of a picture (`bot.pictures.layout.CardRow`), laid out as the
        game holds the hand (with this answer's reveals face up); `()`: no picture."""
        ...

    def table_picture(self, view: ViewT_contra, table: TableContext) -> tuple[CardRow, ...]:
        """What is on the table as rows of a picture; `()`: none."""
        ...

    def private_status(
        self, private: PrivateSnapshot[ViewT_contra], table: TableContext
    ) -> str | None:
        """The status line of "My cards"; `None` when it is simply the viewer's turn (the frame
        says "Your turn" with the timer)."""
        ...

    def waiting_key(self, view: ViewT_contra) -> Hashable:
        """What of the table a waiting player's "My cards" shows that other players' moves
        change (a trump once made, which also orders the hand), from the seat's view or the
        public one alike: the follower redraws a waiting player's message when it changes.
        `None`: nothing."""
        ...

    def everyone_at_once(self, view: ViewT_contra) -> bool:
        """Whether the phase is every seat's at once (a first peek at one's cards): nobody's
        turn, so the one seat left to act is not mentioned as if it were."""
        ...

    def menu_prompt(self, view: ViewT_contra, table: TableContext) -> str | None:
        """The placeholder of the action selects; `None`: "Choose…"."""
        ...

    def actions_in_order(self, private: PrivateSnapshot[ViewT_contra]) -> Sequence[str]:
        """The seat's legal notations in the order its menu lays them out (the cards as the
        hand's picture shows them)."""
        ...

    def menu(
        self, private: PrivateSnapshot[ViewT_contra], prefix: str, table: TableContext
    ) -> list[ComponentSpec] | None:
        """The components of "My cards" at that menu step when the game lays them out itself
        (several cards chosen in one select, a pick: `m=`); `None`: the shared action menu
        built from the legal notations."""
        ...

    def move_sections(
        self,
        private: PrivateSnapshot[ViewT_contra],
        prefix: str,
        table: TableContext,
        components: list[ComponentSpec],
    ) -> tuple[list[SectionSpec], list[ComponentSpec]]:
        """The moves of "My cards" laid beside what they concern (a pack with its lay button,
        a slot of a grid with its swap, a card with its play), taken out of
        `components` (the menu built for this step): the sections, and the components left
        in rows. The same buttons either way, so no turn takes one more click."""
        ...

    def offers_stage(
        self, private: PrivateSnapshot[ViewT_contra], prefix: str, options: Mapping[str, object]
    ) -> bool:
        """Whether `menu` lays out a step whose prefix is not (yet) that of a legal move, such
        as a costly move's step that asks first."""
        ...

    def reveal_lines(self, seat: int, reveals: Sequence[Reveal], table: TableContext) -> list[str]:
        """What a rule just showed the seat; `[]` if none."""
        ...

    def action_labeler(self, view: ViewT_contra, table: TableContext) -> ActionLabel:
        """The label of a legal action in notation."""
        ...

    def piece_labeler(self, view: ViewT_contra, table: TableContext) -> PieceLabel:
        """The label of one piece of an action chosen step by step."""
        ...

    def action_emoji(self, view: ViewT_contra, table: TableContext) -> Callable[[str], str | None]:
        """The card picture (`bot.render.card_text.card_emoji`) a legal action's button or option
        shows, e.g. the discard it takes; `None`: no picture."""
        ...

    def rules_text(self, preset: str, language: str) -> tuple[str, str]:
        """The `/<game> rules` answer: (title, body)."""
        ...
