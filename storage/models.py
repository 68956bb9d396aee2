"""The records the store reads and writes (pydantic at the edge; the engine types are reused)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from games.contract import Event, Round
from games.match import Match
from games.registry import game_names, get_game

TableStatus = Literal["lobby", "playing", "finished", "abandoned", "broken"]
Language = Literal["en", "fr"]
LeaderboardOrder = Literal["rating", "wins", "win_rate"]
# how a guild runs its leaderboards in seasons (storage/seasons.py)
SeasonKind = Literal["off", "monthly", "quarterly"]
Deck = Literal["two", "four"]  # red ♥ ♦ and black ♠ ♣; or ♦ blue and ♣ green too


def utc_now() -> datetime:
    return datetime.now(UTC)


class GuildSettings(BaseModel):
    """A guild's choices; `get_guild_settings` returns these defaults for an unknown guild.
    Building one checks every value (a preset must be one its game has): a bad value is
    refused, never stored."""

    guild_id: int
    language: Language | None = None  # None: each user's Discord locale
    default_presets: dict[str, str] = {}  # game name -> preset name
    turn_seconds: int = Field(default=90, ge=5, le=3600)
    reveal_seconds: int = Field(default=8, ge=1, le=120)
    use_threads: bool = False
    bots: Literal["simple", "strong"] = "strong"  # how a new table's bot players play
    turn_pings: bool = True  # mention the player whose turn starts (deleted once they play)
    # the most tables open at once (lobby, in play, between rounds) in a channel, in the server
    max_tables_channel: int = Field(default=5, ge=1, le=50)
    max_tables_server: int = Field(default=50, ge=1, le=500)
    season: SeasonKind = "off"  # leaderboards in seasons: "monthly", "quarterly" or none
    season_channel: int | None = None  # where a season's final board is announced (None: not)

    @field_validator("default_presets")
    @classmethod
    def _known_presets(cls, presets: dict[str, str]) -> dict[str, str]:
        for game, preset in presets.items():
            if not _known_preset(game, preset):
                raise ValueError(f"{game!r} has no preset {preset!r}")
        return presets

    @classmethod
    def from_stored(cls, guild_id: int, stored: Mapping[str, Any]) -> GuildSettings:
        """The settings as stored, where a value this version refuses (out of range, a
        preset or game that no longer exists, written by an older version) is its default."""
        values = dict(stored)
        presets = values.get("default_presets")
        if isinstance(presets, dict):
            values["default_presets"] = {
                g: p for g, p in presets.items() if isinstance(p, str) and _known_preset(g, p)
            }
        try:
            return cls(guild_id=guild_id, **values)
        except ValidationError as error:
            bad = {str(e["loc"][0]) for e in error.errors() if e["loc"]}
            kept = {k: v for k, v in values.items() if k not in bad}
            return cls(guild_id=guild_id, **kept)


def _known_preset(game: str, preset: str) -> bool:
    return game in game_names() and preset in get_game(game).presets


class SeatRecord(BaseModel):
    """Who sits at a seat. A player who left keeps their record with `left_at` set."""

    seat: int = Field(ge=0)
    user_id: int | None = None  # None for a bot player
    display_name: str
    is_bot: bool = False
    joined_at: datetime = Field(default_factory=utc_now)
    left_at: datetime | None = None


class TableRecord(BaseModel):
    id: int
    guild_id: int
    channel_id: int
    thread_id: int | None = None
    message_id: int | None = None
    game: str
    options: dict[str, Any] = {}
    host_id: int
    status: TableStatus = "lobby"
    broken_reason: str | None = None
    created_at: datetime
    updated_at: datetime


class PlayerPreferences(BaseModel):
    """A player's own choices, the same in every server: the deck the cards they see
    privately are drawn in (their hand, its buttons, replays and reviews they open), whether
    a move that is their only legal one is played for them (`auto_play`), and whether the
    Dame de Pique knock is announced for them when their hand could go out next turn
    (`auto_knock`)."""

    user_id: int
    deck: Deck = "two"
    auto_play: bool = True
    auto_knock: bool = False


class TurnMention(BaseModel):
    """The message that mentioned the player whose turn it is (seat, round) at a table."""

    table_id: int
    channel_id: int  # where it was posted: the table's channel or thread
    message_id: int
    seat: int = Field(ge=0)
    round_no: int = Field(ge=0)


class TableLog(BaseModel):
    """A table's public log as kept (storage/table_logs.py): its entries as they stood when
    written (JSON-ready dicts, oldest first), taken after the first `actions` actions of the
    table's round `round_no` (None: no round yet): the engine's lines of the later actions of
    that round are rebuilt from them."""

    entries: list[dict[str, Any]]
    round_no: int | None = Field(default=None, ge=0)
    actions: int = Field(default=0, ge=0)


class ActiveTable(BaseModel):
    """A lobby or running table rebuilt at start: the match restored and the round replayed."""

    model_config = ConfigDict(arbitrary_types_allowed=True)

    table: TableRecord
    seats: list[SeatRecord]
    match: Match | None = None
    round: Round[Any, Any, Any] | None = None  # the unfinished round, replayed; None between rounds
    round_no: int | None = None  # the store's number of `round` (for record_action)
    log: list[Event] = []  # the last public events of `round`'s actions, oldest first
    # between two rounds: the round just finished, replayed (`log` then holds its events)
    last_round: Round[Any, Any, Any] | None = None
    last_round_no: int | None = None
    # the log the table showed, as kept (None: none kept, a table stored before V15, or a
    # damaged row: `kept_log_error` then says what was wrong with it)
    kept_log: TableLog | None = None
    kept_log_error: str | None = None
    # the public events of the actions of `round` (between rounds: `last_round`) after those
    # `kept_log` holds, when it was taken in that round: the lines to add to it
    kept_later: list[Event] = []


@dataclass(frozen=True, slots=True)
class ActiveTableEntry:
    """A lobby or running table in brief, before it is loaded (a restart lists tens of
    thousands: a plain dataclass, built from trusted rows)."""

    table_id: int
    guild_id: int
    channel_id: int
    human_ids: tuple[int, ...]  # humans seated and not gone, by seat


class LoadedTables(BaseModel):
    model_config = ConfigDict(arbitrary_types_allowed=True)

    tables: list[ActiveTable] = []
    broken: list[tuple[int, str]] = []  # (table id, reason); these are now marked 'broken'


class ClosedSeason(BaseModel):
    """A season one call closed: that caller announces it (no other call ever will)."""

    guild_id: int
    season: str  # "2026-12" (monthly) or "2026-Q4" (quarterly)
    channel_id: int | None  # where the guild wants its seasons announced (None: nowhere)


class LeaderboardRow(BaseModel):
    rank: int  # 1-based position in this leaderboard
    user_id: int
    display_name: str
    matches: int
    wins: int
    rounds: int
    points: int
    rating: float  # openskill ordinal (mu - 3 sigma): conservative, grows with certainty
    mu: float
    sigma: float

    @property
    def win_rate(self) -> float:
        return self.wins / self.matches if self.matches else 0.0


class GameStats(BaseModel):
    """One player's statistics for one game in one guild."""

    game: str
    display_name: str
    matches: int = 0
    wins: int = 0
    rounds: int = 0
    points: int = 0
    rating: float = 0.0
    mu: float
    sigma: float
    rank: int | None = None  # position on this game's rating leaderboard

    @property
    def win_rate(self) -> float:
        return self.wins / self.matches if self.matches else 0.0


class PlayerStats(BaseModel):
    guild_id: int
    user_id: int
    games: list[GameStats] = []  # one entry per game played (only the asked game if given)

    @property
    def matches(self) -> int:
        return sum(g.matches for g in self.games)

    @property
    def wins(self) -> int:
        return sum(g.wins for g in self.games)


class MatchSummary(BaseModel):
    """One finished match as seen by one player."""

    table_id: int
    match_no: int
    game: str
    finished_at: datetime
    seat: int
    won: bool
    total: int  # this player's side's final total
    final_totals: list[int]  # per side
    winners_seats: list[int]
    players: list[str]  # display names, by seat
    rating_before: float | None = None
    rating_after: float | None = None
