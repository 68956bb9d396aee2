"""A tournament's state machine: sign-up, check-in, rounds of tables, results, the end.

`Tournament` holds everything the store keeps about an event and changes only through its
methods, each of which checks the transition first and raises `TournamentError` (a stable
`rule` key the bot translates) without changing anything when it is refused.

Decisions (docs/tournaments.md says why):
- a game without partners is played heads-up: tables of 2, so pairings are classical;
- a partnership game (four seats) is played by fixed teams of two, drawn at the start from the
  entrants present and paired as units, or by rotating partners: individual standings, tables
  of four grouped by standing, Swiss only;
- an entrant who signed up but did not check in is a no-show: with `no_show="bot"` a bot player
  plays their seat all along (the results count for them); with `"forfeit"` they are out;
- a shared win is half a win; in elimination it sends the better seed through, and so does a
  table nobody won (every player of it a no-show, or its match stopped): both sides lose.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, field

from games.tournament import pairing
from games.tournament.pairing import RoundPairing
from games.tournament.standings import Game, Row, standings

SIGNUP = "signup"
CHECKIN = "checkin"
RUNNING = "running"
FINISHED = "finished"
CANCELLED = "cancelled"
STATUSES = (SIGNUP, CHECKIN, RUNNING, FINISHED, CANCELLED)

SWISS = "swiss"
ROUND_ROBIN = "round_robin"
ELIMINATION = "elimination"
FORMATS = (SWISS, ROUND_ROBIN, ELIMINATION)
FIXED = "fixed"
ROTATING = "rotating"
PARTNERS = (FIXED, ROTATING)
NO_SHOW_BOT = "bot"
NO_SHOW_FORFEIT = "forfeit"
NO_SHOWS = (NO_SHOW_BOT, NO_SHOW_FORFEIT)


class TournamentError(Exception):
    """A refused transition: `rule` names it (the bot says it in one sentence)."""

    def __init__(self, rule: str, **data: object) -> None:
        super().__init__(rule)
        self.rule = rule
        self.data = data


@dataclass(frozen=True, slots=True)
class Format:
    """How an event is played: `seats` per table (2 or 4), `team_size` (2 for fixed teams),
    `partners` for a four-seat game, `rounds` (Swiss: the most played), `no_show`."""

    format: str
    seats: int
    rounds: int
    partners: str | None = None
    no_show: str = NO_SHOW_BOT

    def __post_init__(self) -> None:
        if self.format not in FORMATS or self.no_show not in NO_SHOWS:
            raise TournamentError("bad_format")
        if self.seats == 4 and self.partners not in PARTNERS:
            raise TournamentError("bad_format")
        if self.partners == ROTATING and self.format != SWISS:
            raise TournamentError("rotating_swiss_only")
        if self.rounds < 1:
            raise TournamentError("bad_format")

    @property
    def team_size(self) -> int:
        return 2 if self.seats == 4 and self.partners == FIXED else 1

    @property
    def rotating(self) -> bool:
        return self.partners == ROTATING

    @property
    def fewest_players(self) -> int:
        """Below this many players present an event cannot be played."""
        return 4 if self.seats == 4 else 2


@dataclass(slots=True)
class Entrant:
    user_id: int
    name: str
    checked_in: bool = False


@dataclass(slots=True)
class Table:
    """One table of a round: its sides (each a tuple of units; partners share a side) and, once
    its match is over, the sides that won. `place` is where it is played (the bot's thread or
    channel, kept before the table is opened), `table_id` the bot's table playing it."""

    number: int
    sides: tuple[tuple[int, ...], ...]
    winning_sides: tuple[int, ...] | None = None
    table_id: int | None = None
    place: int | None = None

    @property
    def done(self) -> bool:
        return self.winning_sides is not None


@dataclass(slots=True)
class Round:
    number: int
    tables: list[Table]
    byes: tuple[int, ...] = ()

    @property
    def done(self) -> bool:
        return all(t.done for t in self.tables)


@dataclass(slots=True)
class Tournament:
    """One event. `units` (set at the start) are the user ids of each unit, by seed."""

    format: Format
    status: str = SIGNUP
    entrants: list[Entrant] = field(default_factory=list)
    units: list[tuple[int, ...]] = field(default_factory=list)
    rounds: list[Round] = field(default_factory=list)
    bracket: list[int | None] = field(default_factory=list)

    # -- sign-up and check-in --------------------------------------------------------------
    def entrant(self, user_id: int) -> Entrant | None:
        return next((e for e in self.entrants if e.user_id == user_id), None)

    def sign_up(self, user_id: int, name: str, most: int) -> Entrant:
        if self.status != SIGNUP:
            raise TournamentError("signup_closed")
        if self.entrant(user_id) is not None:
            raise TournamentError("already_signed_up")
        if len(self.entrants) >= most:
            raise TournamentError("event_full", most=most)
        entrant = Entrant(user_id, name)
        self.entrants.append(entrant)
        return entrant

    def withdraw(self, user_id: int) -> None:
        if self.status not in (SIGNUP, CHECKIN):  # before the start, a no-show is better not
            raise TournamentError("signup_closed")
        entrant = self.entrant(user_id)
        if entrant is None:
            raise TournamentError("not_signed_up")
        self.entrants.remove(entrant)

    def open_checkin(self) -> None:
        if self.status != SIGNUP:
            raise TournamentError("not_in_signup")
        self.status = CHECKIN

    def check_in(self, user_id: int) -> None:
        if self.status != CHECKIN:
            raise TournamentError("checkin_not_open")
        entrant = self.entrant(user_id)
        if entrant is None:
            raise TournamentError("not_signed_up")
        if entrant.checked_in:
            raise TournamentError("already_checked_in")
        entrant.checked_in = True

    # -- the start -------------------------------------------------------------------------
    def playing_entrants(self) -> list[Entrant]:
        if self.format.no_show == NO_SHOW_FORFEIT:
            return [e for e in self.entrants if e.checked_in]
        return list(self.entrants)

    def absent(self) -> set[int]:
        """The user ids whose seats bot players take (no-shows, when the setting says so)."""
        if self.status == RUNNING or self.status == FINISHED:
            seated = {u for unit in self.units for u in unit}
            return {e.user_id for e in self.entrants if not e.checked_in and e.user_id in seated}
        return set()

    def start(self, seed: int) -> None:
        """Close check-in: the units are made (fixed teams drawn from `seed`); too few players
        cancel the event."""
        if self.status not in (SIGNUP, CHECKIN):
            raise TournamentError("already_started")
        present = self.playing_entrants()
        if len(present) < self.format.fewest_players or not any(e.checked_in for e in present):
            self.status = CANCELLED
            raise TournamentError("too_few_players", fewest=self.format.fewest_players)
        ids = [e.user_id for e in present]
        if self.format.team_size == 2:
            random.Random(seed).shuffle(ids)
            ids = ids[: len(ids) // 2 * 2]  # an odd player out sits this event out
            self.units = [(ids[i], ids[i + 1]) for i in range(0, len(ids), 2)]
        else:
            self.units = [(u,) for u in ids]
        self.status = RUNNING
        if self.format.format == ELIMINATION:
            self.bracket, _ = pairing.elimination_first_round(list(range(len(self.units))))

    # -- rounds ----------------------------------------------------------------------------
    @property
    def unit_numbers(self) -> list[int]:
        return list(range(len(self.units)))

    def planned_rounds(self) -> int:
        n = len(self.units)
        if self.format.format == ROUND_ROBIN:
            return len(pairing.round_robin_rounds(self.unit_numbers))
        if self.format.format == ELIMINATION:
            return max(1, pairing.bracket_size(n).bit_length() - 1)
        if self.format.rotating:
            return self.format.rounds
        return min(self.format.rounds, max(1, n - 1))

    def current(self) -> Round | None:
        return self.rounds[-1] if self.rounds else None

    def next_round(self) -> Round:
        """Pair the next round (the previous one must be over)."""
        if self.status != RUNNING:
            raise TournamentError("not_running")
        last = self.current()
        if last is not None and not last.done:
            raise TournamentError("round_not_over")
        if self.is_over():
            raise TournamentError("no_round_left")
        made = self._pair(len(self.rounds))
        sides: list[tuple[tuple[int, ...], ...]]
        if self.format.rotating:
            sides = [((t[0], t[2]), (t[1], t[3])) for t in made.tables]
        else:
            sides = [tuple((u,) for u in t) for t in made.tables]
        new = Round(
            len(self.rounds) + 1,
            [Table(i + 1, s) for i, s in enumerate(sides)],
            made.byes,
        )
        self.rounds.append(new)
        return new

    def _pair(self, index: int) -> RoundPairing:
        units = self.unit_numbers
        kind = self.format.format
        if kind == ROUND_ROBIN:
            return pairing.round_robin_rounds(units)[index]
        if kind == ELIMINATION:
            return pairing.elimination_round(self.bracket)
        points = {row.unit: row.points for row in self.standings()}
        byes = [b for r in self.rounds for b in r.byes]
        if self.format.rotating:
            partnered = [side for r in self.rounds for t in r.tables for side in t.sides]
            return pairing.rotating_groups(units, points, partnered, byes)
        met = [tuple(u for side in t.sides for u in side) for r in self.rounds for t in r.tables]
        return pairing.swiss(units, points, met, byes)

    def table(self, round_no: int, number: int) -> Table:
        if not 1 <= round_no <= len(self.rounds):
            raise TournamentError("no_such_table")
        for table in self.rounds[round_no - 1].tables:
            if table.number == number:
                return table
        raise TournamentError("no_such_table")

    def record(self, round_no: int, number: int, winning_sides: Sequence[int]) -> bool:
        """A table's match is over. True when this was the round's last table (the round is
        then over: the bracket moves on, and the event ends after its last round)."""
        if self.status != RUNNING:
            raise TournamentError("not_running")
        table = self.table(round_no, number)
        if table.done:
            raise TournamentError("already_recorded")
        winners = tuple(sorted(set(winning_sides)))  # none: a table nobody won (both lost)
        if not all(0 <= w < len(table.sides) for w in winners):
            raise TournamentError("bad_result")
        table.winning_sides = winners
        round_ = self.rounds[round_no - 1]
        if round_no != len(self.rounds) or not round_.done:
            return False
        if self.format.format == ELIMINATION:
            self.bracket = pairing.next_bracket(self.bracket, self._advancing(round_))
        if self.is_over():
            self.status = FINISHED
        return True

    def _advancing(self, round_: Round) -> list[int]:
        through = list(round_.byes)
        for table in round_.tables:
            assert table.winning_sides is not None
            # a shared win (or none) sends the better seed (the lower unit number) through
            sides = table.winning_sides or range(len(table.sides))
            winner = min(u for w in sides for u in table.sides[w])
            through.append(winner)
        return through

    def is_over(self) -> bool:
        last = self.current()
        if last is None or not last.done:
            return False
        if self.format.format == ELIMINATION:
            return sum(1 for u in self.bracket if u is not None) <= 1
        return len(self.rounds) >= self.planned_rounds()

    def cancel(self) -> None:
        if self.status in (FINISHED, CANCELLED):
            raise TournamentError("already_over")
        self.status = CANCELLED

    # -- results ---------------------------------------------------------------------------
    def standings(self) -> list[Row]:
        games = [
            Game(t.sides, t.winning_sides)
            for r in self.rounds
            for t in r.tables
            if t.winning_sides is not None
        ]
        byes = [b for r in self.rounds for b in r.byes if r.done]
        return standings(self.unit_numbers, games, byes)

    def podium(self) -> list[int]:
        """The first three units: by the bracket in elimination (the final's winner and
        loser, then the better semi-final loser by standings), else by the standings."""
        rows = self.standings()
        if self.format.format != ELIMINATION or not self.rounds:
            return [row.unit for row in rows[:3]]
        final = self.rounds[-1]
        order: list[int] = []
        for table in final.tables:
            assert table.winning_sides is not None
            sides = table.winning_sides or range(len(table.sides))
            winner = min(u for w in sides for u in table.sides[w])
            order.append(winner)
            order += [u for side in table.sides for u in side if u != winner]
        if len(self.rounds) > 1:
            semi_losers = {
                u for t in self.rounds[-2].tables for side in t.sides for u in side
            } - set(order)
            order += [row.unit for row in rows if row.unit in semi_losers][:1]
        return order[:3]

    def names(self, unit: int) -> list[str]:
        by_id = {e.user_id: e.name for e in self.entrants}
        return [by_id.get(u, "?") for u in self.units[unit]]
