"""Hand records: a finished hand written out, to read or to check.

- The **machine record** (`write_machine`, `.hand` files) is one `key value` per line: the
  game, its rules version, options, seats, dealer, the deck order, the players' names, then one
  `action SEAT NOTATION` line per action, then the result (`points`, `detail`). `check`
  replays it with the engine from its options, deck and actions and must reach the same result;
  a record changed by hand is refused with the line that does not hold.
- The **text record** (`write_text`) is for people: the deal, every action numbered in the
  game's notation with the player's name, the result.

Both are documented in docs/records.md. Pure: text in, text out.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

from games.contract import Round, RoundRecord
from games.errors import IllegalAction
from games.registry import get_game

MAGIC = "cardtable-hand 1"
HEADER = ("game", "rules_version", "options", "seats", "dealer", "round", "totals", "deck")


class RecordError(ValueError):
    """A record that does not hold, naming its line (1-based; 0: the file as a whole)."""

    def __init__(self, line: int, message: str) -> None:
        self.line = line
        self.message = message
        super().__init__(f"line {line}: {message}" if line else message)


@dataclass
class HandRecord:
    record: RoundRecord
    names: list[str] = field(default_factory=list)
    points: tuple[int, ...] = ()
    detail: dict[str, Any] = field(default_factory=dict)


def _json(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(", ", ": "), sort_keys=True)


def write_machine(hand: HandRecord) -> str:
    r = hand.record
    lines = [
        MAGIC,
        f"game {r.game}",
        f"rules_version {r.rules_version}",
        f"options {_json(r.options)}",
        f"seats {r.n_seats}",
        f"dealer {r.dealer}",
        f"round {r.round_no}",
        f"totals {_json(list(r.totals))}",
        f"deck {' '.join(r.deck)}",
        f"names {_json(hand.names)}",
        *(f"action {seat} {notation}" for seat, notation in r.actions),
        f"points {_json(list(hand.points))}",
        f"detail {_json(hand.detail)}",
    ]
    return "\n".join(lines) + "\n"


def _lines(text: str) -> Iterator[tuple[int, str, str]]:
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        key, _, value = line.partition(" ")
        yield number, key, value.strip()


def _parse_json(number: int, key: str, value: str) -> Any:
    try:
        return json.loads(value)
    except json.JSONDecodeError as error:
        raise RecordError(number, f"{key} is not valid JSON ({error.msg})") from None


def _parse_int(number: int, key: str, value: str) -> int:
    try:
        return int(value)
    except ValueError:
        raise RecordError(number, f"{key} must be a whole number, not {value!r}") from None


@dataclass
class ParsedRecord:
    hand: HandRecord
    action_lines: list[int]  # the line of each action
    points_line: int
    detail_line: int


def parse_machine(text: str) -> ParsedRecord:
    """Read a machine record (no replay yet). Raises RecordError naming the line."""
    lines = list(_lines(text))
    if not lines or f"{lines[0][1]} {lines[0][2]}" != MAGIC:
        raise RecordError(lines[0][0] if lines else 0, f"not a hand record (first line: {MAGIC})")
    values: dict[str, Any] = {}
    at = 1
    for expected in (*HEADER, "names"):
        if at >= len(lines) or lines[at][1] != expected:
            where = lines[at][0] if at < len(lines) else lines[-1][0]
            raise RecordError(where, f"expected the {expected} line here")
        number, key, value = lines[at]
        if key in ("options", "totals", "names"):
            values[key] = _parse_json(number, key, value)
        elif key in ("rules_version", "seats", "dealer", "round"):
            values[key] = _parse_int(number, key, value)
        elif key == "deck":
            values[key] = value.split()
        else:
            values[key] = value
        at += 1
    actions: list[tuple[int, str]] = []
    action_lines: list[int] = []
    while at < len(lines) and lines[at][1] == "action":
        number, _, value = lines[at]
        seat_text, _, notation = value.partition(" ")
        if not notation:
            raise RecordError(number, "an action line is `action SEAT NOTATION`")
        actions.append((_parse_int(number, "the seat", seat_text), notation.strip()))
        action_lines.append(number)
        at += 1
    ends = {}
    for expected in ("points", "detail"):
        if at >= len(lines) or lines[at][1] != expected:
            where = lines[at][0] if at < len(lines) else lines[-1][0]
            raise RecordError(where, f"expected the {expected} line here")
        number, key, value = lines[at]
        ends[key] = (number, _parse_json(number, key, value))
        at += 1
    if at < len(lines):
        raise RecordError(lines[at][0], "nothing may follow the detail line")
    points_line, points = ends["points"]
    detail_line, detail = ends["detail"]
    if not isinstance(points, list) or not all(isinstance(p, int) for p in points):
        raise RecordError(points_line, "points must be a list of whole numbers")
    if not isinstance(values["options"], dict) or not isinstance(detail, dict):
        raise RecordError(detail_line, "options and detail must be JSON objects")
    try:
        record = RoundRecord(
            game=values["game"],
            rules_version=values["rules_version"],
            options=values["options"],
            n_seats=values["seats"],
            dealer=values["dealer"],
            round_no=values["round"],
            totals=tuple(values["totals"]),
            deck=values["deck"],
            actions=actions,
        )
    except ValueError as error:
        raise RecordError(lines[1][0], f"the header does not hold: {error}") from None
    names = [str(name) for name in values["names"]] if isinstance(values["names"], list) else []
    hand = HandRecord(record, names, tuple(points), detail)
    return ParsedRecord(hand, action_lines, points_line, detail_line)


@dataclass(frozen=True)
class Step:
    """One action of a replay: its index (from 1), seat and notation, and the round after it."""

    index: int
    seat: int
    notation: str
    round: Round[Any, Any, Any]


def start(hand: HandRecord) -> Round[Any, Any, Any]:
    """The hand's round as dealt, before any action (ValueError: unknown game, bad deck…)."""
    return get_game(hand.record.game).replay(hand.record.model_copy(update={"actions": []}))


def check(text: str) -> tuple[ParsedRecord, list[Step]]:
    """Parse and replay a machine record: every step, or RecordError naming the line that does
    not hold (an illegal action, a result other than the replay's, a hand left unfinished)."""
    parsed = parse_machine(text)
    hand = parsed.hand
    try:
        round_ = start(hand)
    except (KeyError, ValueError) as error:
        raise RecordError(_header_line(text), f"the hand cannot be dealt: {error}") from None
    steps = []
    for index, ((seat, notation), line) in enumerate(
        zip(hand.record.actions, parsed.action_lines, strict=True), start=1
    ):
        if round_.finished:
            raise RecordError(line, "the hand was already over before this action")
        try:
            round_.apply(seat, notation)
        except IllegalAction as error:
            raise RecordError(line, f"seat {seat} may not play {notation!r}: {error}") from None
        steps.append(Step(index, seat, notation, round_))
    if not round_.finished:
        raise RecordError(parsed.points_line, "the hand is not over after the recorded actions")
    result = round_.result()
    if tuple(result.points) != hand.points:
        raise RecordError(
            parsed.points_line,
            f"the points do not hold: the record says {list(hand.points)}, "
            f"the replay gives {list(result.points)}",
        )
    if _plain(result.detail) != _plain(hand.detail):
        raise RecordError(parsed.detail_line, "the detail does not hold: the replay differs")
    return parsed, steps


def _plain(value: Any) -> Any:
    return json.loads(json.dumps(value, sort_keys=True, default=str))


def _header_line(text: str) -> int:
    for number, key, _ in _lines(text):
        if key == "deck":
            return number
    return 0


def write_text(hand: HandRecord, *, title: str = "") -> str:
    """The readable record: header, deal, numbered actions, result."""
    r = hand.record
    game = get_game(r.game)
    names = hand.names or [f"seat {s}" for s in range(r.n_seats)]

    def who(seat: int) -> str:
        return names[seat] if 0 <= seat < len(names) else f"seat {seat}"

    lines = [title or f"{game.title}, hand {r.round_no + 1}", ""]
    sides = game.sides(r.n_seats)
    lines.append("Players: " + ", ".join(f"{who(s)} (seat {s})" for s in range(r.n_seats)))
    if any(len(side) > 1 for side in sides):
        lines.append(
            "Teams: " + " against ".join(" & ".join(who(s) for s in side) for side in sides)
        )
    lines.append(f"Dealer: {who(r.dealer % r.n_seats)}")
    options = ", ".join(f"{key} {value}" for key, value in sorted(r.options.items()))
    lines.append(f"Options: {options}")
    if r.totals:
        lines.append(
            f"Match totals before the hand: {_sides_text(game, r.n_seats, names, r.totals)}"
        )
    lines += ["", "Deal"]
    dealt = start(hand).dealt()
    for label, cards in dealt.items():
        if label.startswith("seat "):
            label = who(int(label.split()[1]))
        lines.append(f"  {label}: {' '.join(c.code for c in cards)}")
    lines.append(f"  deck, top first: {' '.join(r.deck)}")
    lines += ["", "Actions"]
    width = len(str(len(r.actions)))
    for index, (seat, notation) in enumerate(r.actions, start=1):
        lines.append(f"  {index:>{width}}. {who(seat)}: {notation}")
    lines += ["", "Result"]
    if hand.points:
        lines.append(f"  points: {_sides_text(game, r.n_seats, names, hand.points)}")
    for key, value in sorted(hand.detail.items()):
        lines.append(f"  {key}: {_json(value)}")
    return "\n".join(lines) + "\n"


def _sides_text(game: Any, n_seats: int, names: Sequence[str], values: Sequence[int]) -> str:
    sides = game.sides(n_seats)
    parts = []
    for side, value in zip(sides, values, strict=False):
        who = " & ".join(names[s] if s < len(names) else f"seat {s}" for s in side)
        parts.append(f"{who} {value}")
    return ", ".join(parts)
