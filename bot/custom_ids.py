"""The custom id scheme of every component: `ct:<table_id>:<round_no>:<action>`.

`action` is a table verb (`Verb`) or a game's move or menu step (`Kind`: `p=`, `s=`, `m=`,
`n=` and the notation or its prefix). The round number makes a click on an old message
`stale_button`. Nothing here is trusted: the table service checks every click against the
engine.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import StrEnum

PREFIX = "ct"
MAX_LENGTH = 100


class Verb(StrEnum):
    JOIN = "join"
    LEAVE = "leave"
    LEAVE_SURE = "leave!"  # the confirmation of a Leave during a match
    STOP_SURE = "stop!"  # the confirmation of a stop command during a match
    START = "start"
    CANCEL = "cancel"
    ADD_BOT = "addbot"
    FILL_BOTS = "fillbots"  # a bot player at every free seat
    HAND = "hand"
    HINT = "hint"  # a coached table's "My cards": the strong bot's move now, and why
    NEXT_ROUND = "next"
    REMATCH = "rematch"
    SEAT = "seat"  # a select: the chosen value is the place to sit at
    SWAP = "swap"  # the host's select: the chosen value is two places, "0 2"
    WATCH = "watch"  # a member seated nowhere at the table follows it (a watcher)
    ACTIVITY = "activity"  # open the table as a Discord Activity (when the bot serves one)


class Kind(StrEnum):
    """What an action is, beyond a table verb:

    - `p=<notation>`: play this action (the notation of the game, e.g. `p=swap 2`); several moves
      of the same player joined by `;` (`p=swap 2;end`) are one click, played whole or not at
      all: tried in order on a copy of the round first, a later one is left out only once the
      player's turn is over (the swap ended it by itself), any other that cannot follow refuses
      the click (`bot.service.play.whole`);
    - `s=<prefix>`: a select whose chosen value is an action, or a longer prefix of one, or
      several moves joined by `;` (`announce;discard 7H`: one choice, each move offered now);
    - `m=<prefix>`: a select of several values (cards) that complete one action: the chosen
      values follow the prefix, `<prefix> <value> <value>…` (e.g. `m=meld` and 7S 7H 2C);
    - `n=<prefix>`: show the choices that start with `prefix` (empty: the top level).
    """

    VERB = "verb"
    PLAY = "p"
    SELECT = "s"
    NAVIGATE = "n"
    PICK = "m"


# What an action of each kind starts with: `p=draw`, `s=discard`, `m=meld`, `n=`.
PLAY, SELECT, PICK, NAVIGATE = (
    f"{kind.value}=" for kind in (Kind.PLAY, Kind.SELECT, Kind.PICK, Kind.NAVIGATE)
)
_ID = re.compile(r"ct:(?P<table>[0-9]{1,19}):(?P<round>[0-9]{1,6}):(?P<action>.+)")
_NOTATION = re.compile(r"[A-Za-z0-9 :.#_;-]*")
THEN = ";"  # between the moves of one click (`p=swap 2;end`)
_VERBS = {verb.value: verb for verb in Verb}


class BadCustomId(ValueError):
    """A custom id this bot never made (forged, or from an older scheme)."""


@dataclass(frozen=True, slots=True)
class ComponentId:
    table_id: int
    round_no: int
    kind: Kind
    verb: Verb | None = None
    text: str = ""  # the notation (PLAY) or the prefix (SELECT, NAVIGATE, PICK)

    def __str__(self) -> str:
        if self.kind is Kind.VERB:
            assert self.verb is not None
            return _custom_id(self.table_id, self.round_no, self.verb.value)
        return _custom_id(self.table_id, self.round_no, f"{self.kind.value}={self.text}")


def _custom_id(table_id: int, round_no: int, action: str) -> str:
    value = f"{PREFIX}:{table_id}:{round_no}:{action}"
    if len(value) > MAX_LENGTH:
        raise ValueError(f"custom id longer than {MAX_LENGTH} characters: {value!r}")
    return value


# Written directly, not through a ComponentId: every button and option of every message
# carries one (a frozen dataclass made and formatted per id was a percent of a click).
def verb_id(table_id: int, round_no: int, verb: Verb) -> str:
    return _custom_id(table_id, round_no, verb.value)


def review_id(table_id: int, round_no: int) -> str:
    """The "Review my play" button of a finished hand (the store's round number), answered
    by `/history`'s review (`bot.cogs.history.ReviewButton`) for the one who clicks."""
    return f"rpr:{table_id}:{round_no}"


def seat_stats_id(table_id: int, seat: int) -> str:
    """The button beside a seat of the table message: the statistics here of whoever sits
    there, for the one who clicks (`bot.cogs.leaderboard.SeatStatsButton`). The seat, not
    the member, is named, so the id carries no user id and a seat taken since is read as it
    stands."""
    return f"pst:{table_id}:{seat}"


def play_id(table_id: int, round_no: int, notation: str) -> str:
    return _custom_id(table_id, round_no, PLAY + notation)


def select_id(table_id: int, round_no: int, prefix: str) -> str:
    return _custom_id(table_id, round_no, SELECT + prefix)


def pick_id(table_id: int, round_no: int, prefix: str) -> str:
    return _custom_id(table_id, round_no, PICK + prefix)


def navigate_id(table_id: int, round_no: int, prefix: str) -> str:
    return _custom_id(table_id, round_no, NAVIGATE + prefix)


def moves(text: str) -> list[str]:
    """The moves a `p=` text plays, in order (`swap 2;end` -> `swap 2`, `end`)."""
    return text.split(THEN)


def parse(custom_id: str) -> ComponentId:
    """The meaning of a custom id; raises BadCustomId for anything this bot did not make."""
    if len(custom_id) > MAX_LENGTH:
        raise BadCustomId("too long")
    found = _ID.fullmatch(custom_id)
    if found is None:
        raise BadCustomId(f"not a table component: {custom_id!r}")
    table_id, round_no = int(found["table"]), int(found["round"])
    action = found["action"]
    verb = _VERBS.get(action)
    if verb is not None:
        return ComponentId(table_id, round_no, Kind.VERB, verb=verb)
    kind_text, sep, rest = action.partition("=")
    if not sep or kind_text not in {Kind.PLAY, Kind.SELECT, Kind.NAVIGATE, Kind.PICK}:
        raise BadCustomId(f"unknown action {action!r}")
    if not _NOTATION.fullmatch(rest) or rest != rest.strip() or "  " in rest:
        raise BadCustomId(f"malformed action text {rest!r}")
    kind = Kind(kind_text)
    if kind in (Kind.PLAY, Kind.PICK) and not rest:
        raise BadCustomId("empty action")
    if THEN in rest and (
        kind is not Kind.PLAY or any(not m or m != m.strip() for m in moves(rest))
    ):
        raise BadCustomId(f"malformed moves {rest!r}")
    return ComponentId(table_id, round_no, kind, text=rest)


# -- tournaments -----------------------------------------------------------------------------
# `tn:<tournament_id>:<action>`, the buttons of a tournament's message (bot/tournaments.py):
# a prefix of their own, so the table items never see them.
TOURNAMENT_PREFIX = "tn"
TOURNAMENT_ACTIONS = ("signup", "withdraw", "checkin")
TOURNAMENT_TEMPLATE = r"tn:(?P<tournament>[0-9]{1,19}):(?P<action>signup|withdraw|checkin)"


def tournament_button_id(tournament_id: int, action: str) -> str:
    """A tournament button's custom id (`action` among TOURNAMENT_ACTIONS)."""
    if action not in TOURNAMENT_ACTIONS:
        raise ValueError(f"not a tournament action: {action!r}")
    return f"{TOURNAMENT_PREFIX}:{tournament_id}:{action}"
