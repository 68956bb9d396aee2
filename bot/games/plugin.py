"""The one protocol through which the shared bot code shows a game: `GamePlugin`.

The shared code owns the frame of every message (the table message's title, lobby, timers,
log field, winners and totals, buttons and custom ids; the "My cards" title, turn line and
action menu; the slash command group's handlers). A plug-in fills that frame with its game's
words, from the engine's *views* only (the snapshots never hold a round), so what a plug-in
renders can never hold a card its viewer may not see.

Each method gets a `TableContext`: the public snapshot of the table, the viewer's language and
the seat names (escaped for markdown) and marks (host, bot, away, left), so a plug-in needs no
other shared module to word a line. Texts come from the translation catalogs (`bot.i18n.text`);
a plug-in keeps its own keys in `bot/games/<game>/i18n/{en,fr}.json`.

Members, and where they show:
- `name`: the engine's name in `games.registry` (stored tables, `/leaderboard game:`);
- `seat_layout`: seat names and teams of a fixed-size game (lobby seat choice and swaps);
  `None`: seats numbered 1, 2, … in join order;
- `command_group(bot)`: the `/<game>` slash command group (`bot.cogs.game.game_commands`);
- `lobby_goal(target, language)`: the lobby's sentence on how the match is won, its target
  included, in the game's words (points, hands, rounds: the game says);
- `seat_lines(view, table)`: the table message's description in a round, a line a seat;
- `piece_fields(view, table)`: inline fields beside the seats (discard, stock, trump, …);
- `status_line(view, table)`: what the table waits for; the frame adds the turn timer;
- `notice_fields(view, table)`: full-width fields after the status (a call to end the round, …);
- `log_lines(entries, table)`: the public log in words, oldest first, table events included
  (`bot.render.log` has the shared wording of table events and a burst helper);
- `round_end_lines(last, table)`: the summary of the round that just ended;
- `round_end_picture(last, table)`: the rows of the round-end picture (each player's name,
  cards face up as the round's *public* end view shows them, points and total, or a note
  instead: a pack's points); `()`: none;
- `private_lines(private, table, reveals)`: the hand in "My cards" (the seat's own view, with
  the reveals of this answer laid over it); while the viewer waits, nothing another player's
  move changes (a trick, a pile, whose turn it is): a waiting player's message is not redrawn
  until their own moment changes, and would keep it stale;
- `hand_picture(private, table, reveals)`: "My cards" as rows of a picture
  (`bot.pictures.layout.CardRow`), laid out as the game holds the hand (with this answer's
  reveals face up); `()`: no picture;
- `table_picture(view, table)`: what is on the table as rows of a picture; `()`: none;
- `private_status(private, table)`: the status line of "My cards"; `None` when it is simply
  the viewer's turn (the frame says "Your turn" with the timer);
- `waiting_key(view)`: what of the table a waiting player's "My cards" shows that other
  players' moves change (a trump once made, which also orders the hand), from the
  seat's view or the public one alike; the follower redraws a waiting player's message when
  it changes. `None` (the default): nothing;
- `menu_prompt(view, table)`: the placeholder of the action selects; `None`: "Choose…";
- `actions_in_order(private)`: the seat's legal notations in the order its menu lays them out
  (the cards as the hand's picture shows them); the default: the engine's order;
- `menu(private, prefix, table)`: the components of "My cards" at that menu step when the game
  lays them out itself (several cards chosen in one select, a pick: `m=`); `None`: the shared
  action menu built from the legal notations;
- `offers_stage(private, prefix, options)`: whether `menu` lays out a step whose prefix is
  not (yet) that of a legal move, such as a costly move's step that asks first; `False`;
- `reveal_lines(seat, reveals, table)`: what a rule just showed the seat; `[]` if none;
- `action_labeler(view, table)`, `piece_labeler(view, table)`: labels of a legal action in
  notation, and of one piece of an action chosen step by step;
- `action_emoji(view, table)`: the card picture (`bot.render.cards.card_emoji`) a legal
  action's button or option shows, e.g. the discard it takes; `None`: no picture;
- `action_styles`: button colours of single actions (`{"draw": "primary"}`);
- `button_families`: action families always laid out as buttons (`{"play"}`), not a select;
- `rules_text(preset, language)`: the `/<game> rules` answer, (title, body).

Plug-ins are found by `bot.games.plugin_for(name)` (see `bot/games/__init__.py`).
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Hashable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol

from bot.pictures.layout import CardRow
from bot.pictures.round_end import RoundEndRow
from bot.render.actions import ActionLabel, ComponentSpec, PieceLabel
from bot.snapshots import LogEntry, PrivateSnapshot, PublicSnapshot, Reveal, RoundEnd

if TYPE_CHECKING:
    from discord.ext import commands

__all__ = [
    "ActionLabel",
    "ComponentSpec",
    "Field",
    "GamePlugin",
    "PieceLabel",
    "SeatLayout",
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


class GamePlugin(Protocol):
    """A game's presence in the bot. Every method is pure: views and texts in, texts out."""

    name: str
    seat_layout: SeatLayout | None
    action_styles: Mapping[str, str]
    button_families: Collection[str]

    def command_group(self, bot: Any) -> commands.Cog:
        """The `/<game>` slash command group (a `bot.cogs.game.GameCog` subclass instance)."""
        ...

    def lobby_goal(self, target: int, language: str) -> str: ...

    def seat_lines(self, view: Any, table: TableContext) -> list[str]: ...

    def piece_fields(self, view: Any, table: TableContext) -> list[Field]: ...

    def status_line(self, view: Any, table: TableContext) -> str: ...

    def notice_fields(self, view: Any, table: TableContext) -> list[Field]: ...

    def log_lines(self, entries: Sequence[LogEntry], table: TableContext) -> list[str]: ...

    def round_end_lines(self, last: RoundEnd, table: TableContext) -> list[str]: ...

    def round_end_picture(self, last: RoundEnd, table: TableContext) -> tuple[RoundEndRow, ...]: ...

    def private_lines(
        self, private: PrivateSnapshot, table: TableContext, reveals: Sequence[Reveal]
    ) -> list[str]: ...

    def hand_picture(
        self, private: PrivateSnapshot, table: TableContext, reveals: Sequence[Reveal]
    ) -> tuple[CardRow, ...]: ...

    def table_picture(self, view: Any, table: TableContext) -> tuple[CardRow, ...]: ...

    def private_status(self, private: PrivateSnapshot, table: TableContext) -> str | None: ...

    def waiting_key(self, view: Any) -> Hashable: ...

    # A phase in which every seat acts at once (a first peek at one's cards): nobody's turn,
    # so the one seat left to act is not mentioned as if it were.
    def everyone_at_once(self, view: Any) -> bool: ...

    def menu_prompt(self, view: Any, table: TableContext) -> str | None: ...

    def actions_in_order(self, private: PrivateSnapshot) -> Sequence[str]: ...

    def menu(
        self, private: PrivateSnapshot, prefix: str, table: TableContext
    ) -> list[ComponentSpec] | None: ...

    def offers_stage(
        self, private: PrivateSnapshot, prefix: str, options: Mapping[str, Any]
    ) -> bool: ...

    def reveal_lines(
        self, seat: int, reveals: Sequence[Reveal], table: TableContext
    ) -> list[str]: ...

    def action_labeler(self, view: Any, table: TableContext) -> ActionLabel: ...

    def piece_labeler(self, view: Any, table: TableContext) -> PieceLabel: ...

    def action_emoji(self, view: Any, table: TableContext) -> Callable[[str], str | None]: ...

    def rules_text(self, preset: str, language: str) -> tuple[str, str]: ...
