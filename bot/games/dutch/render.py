"""Dutch on Discord: grids of card backs, the discard and stock, the log, action labels.

Everything here reads a `DutchView` (public, or one seat's) and the seat names; the engine
already left out what the viewer may not know, so a face-down card is never at hand here.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from bot.i18n import has_key, text
from bot.pictures.layout import EMPTY, CardRow
from bot.pictures.round_end import RoundEndRow
from bot.render.card_text import card_emoji, face, pretty, shown
from bot.render.log import burst_lines, recent_burst_lines
from bot.snapshots import LogEntry, Reveal
from games.cards import JOKER
from games.dutch.views import DutchView, SlotView

QUIET_EVENTS = frozenset({"turn", "end", "round_end"})  # said by the table, or noise
SEPARATE_EVENTS = frozenset({"deal", "reshuffle"})  # not one seat's doing
TURN_BREAKS = frozenset({"turn"})  # a new turn starts a new line


def grid_line(slots: Sequence[SlotView]) -> str:
    """A seat's cards: the top row (1, 2) and the bottom row (3, 4), then penalty cards."""
    faces = [face(s.card, empty=s.empty) for s in slots]
    rows = [" ".join(faces[0:2]), " ".join(faces[2:4])]
    if len(faces) > 4:
        rows.append(" ".join(faces[4:]))
    return " · ".join(row for row in rows if row)


def numbered_grid(slots: Sequence[SlotView]) -> str:
    """The viewer's own grid with slot numbers, two cards a line, as on the table."""
    cells = [f"**{s.slot}** {face(s.card, empty=s.empty)}" for s in slots]
    return "\n".join("   ".join(cells[i : i + 2]) for i in range(0, len(cells), 2))


def _card_params(data: Mapping[str, Any], language: str) -> dict[str, Any]:
    params = dict(data)
    if isinstance(params.get("card"), str):
        params["card"] = shown(params["card"])
    if isinstance(params.get("slots"), list):  # "3 & 4", "3 et 4"
        joiner = text(language, "dutch.log.slots_joiner")
        params["slots"] = joiner.join(str(s) for s in params["slots"])
    return params


def _phrase(entry: LogEntry, names: Sequence[str], language: str) -> str | None:
    """The words of one engine event, without the acting seat's name."""
    kind = entry.kind
    if kind in QUIET_EVENTS:
        return None
    params = _card_params(entry.data, language)
    target = params.get("seat")
    if isinstance(target, int) and 0 <= target < len(names):
        params["target"] = names[target]
    if kind == "look" and target == entry.seat:
        kind = "look_own"
    elif kind == "nine" and params.get("slot") is None:
        kind = "nine_drawn"
    elif kind == "match":
        kind = "match_ok" if params.get("ok") else "match_wrong"
    key = f"dutch.log.{kind}"
    return text(language, key if has_key(key) else "log.unknown", kind=entry.kind, **params)


def log_lines(entries: Sequence[LogEntry], names: Sequence[str], language: str) -> list[str]:
    """One line per burst of one seat's doings ("**Alice**: drew …; swapped …"), oldest first."""
    return burst_lines(
        entries, names, language, phrase=_phrase, separate=SEPARATE_EVENTS, breaks=TURN_BREAKS
    )


def recent_log_lines(
    entries: Sequence[LogEntry], names: Sequence[str], language: str, count: int
) -> list[str]:
    """The last `count` of `log_lines`, worded from the turns they tell (a new turn, a table
    event begin the words afresh)."""
    return recent_burst_lines(
        entries,
        names,
        language,
        count,
        phrase=_phrase,
        separate=SEPARATE_EVENTS,
        breaks=TURN_BREAKS,
    )


def status_line(
    view: DutchView, names: Sequence[str], language: str, *, replay: bool = False
) -> str:
    """What the table waits for: the peeks, or one seat's move (and its held card or power).
    A replay names no button to press: its viewer has none."""
    if view.phase == "peek":
        waiting = [names[s] for s in range(view.n_seats) if not view.peeked[s]]
        key = "dutch.peek_phase_replay" if replay else "dutch.peek_phase"
        return text(language, key, names=", ".join(waiting))
    if view.turn is None:
        return ""
    name = names[view.turn]
    if view.phase == "drawn":
        if view.held is not None:
            return text(language, "dutch.holds_card", name=name, card=shown(view.held))
        return text(language, "dutch.holds_hidden", name=name)
    if view.phase == "power" and view.power is not None:
        return text(language, f"dutch.power.{view.power}", name=name)
    if view.phase == "end":
        return text(language, "dutch.turn_end", name=name)
    return text(language, "dutch.turn", name=name)


def seat_lines(
    view: DutchView,
    names: Sequence[str],
    totals: Sequence[int],
    marks: Sequence[str],
    language: str,
) -> list[str]:
    """One line per seat, in seat order: markers, name, card backs (or faces), match total."""
    lines = []
    for seat in range(view.n_seats):
        badges = []
        if seat in view.to_act and view.phase != "peek":
            badges.append("▶️")
        if view.dutch_caller == seat:
            badges.append("📣")
        prefix = " ".join(badges)
        total = totals[seat] if seat < len(totals) else 0
        line = text(
            language,
            "dutch.seat_line",
            name=names[seat],
            marks=marks[seat] if seat < len(marks) else "",
            cards=grid_line(view.grids[seat]),
            total=total,
        )
        lines.append(re.sub(" {2,}", " ", f"{prefix} {line}").strip())  # no marks: one space
    return lines


def dutch_call_line(view: DutchView, names: Sequence[str], language: str) -> str | None:
    if view.dutch_caller is None:
        return None
    last = ", ".join(names[s] for s in view.final_turns)
    return text(language, "dutch.called", name=names[view.dutch_caller], last=last or "—")


def round_end_lines(
    view: DutchView,
    names: Sequence[str],
    points: Sequence[int],
    totals: Sequence[int],
    language: str,
) -> list[str]:
    """Every card face up, the round's points and the match totals, per seat."""
    lines = []
    for seat in range(view.n_seats):
        score = view.scores[seat].total if view.scores else 0
        lines.append(
            text(
                language,
                "dutch.round_end_line",
                name=names[seat],
                cards=grid_line(view.grids[seat]),
                sum=score,
                points=points[seat] if seat < len(points) else 0,
                total=totals[seat] if seat < len(totals) else 0,
            )
        )
    if view.dutch_caller is not None and view.caller_succeeded is not None:
        key = "dutch.call_succeeded" if view.caller_succeeded else "dutch.call_failed"
        lines.append(text(language, key, name=names[view.dutch_caller]))
    return lines


def picture_rows(
    view: DutchView, names: Sequence[str], points: Sequence[int], totals: Sequence[int]
) -> tuple[RoundEndRow, ...]:
    """The round-end picture's rows, from the finished round's *public* view (every card face
    up by then): a card the view does not show is not drawn."""
    return tuple(
        RoundEndRow(
            name=names[seat] if seat < len(names) else "?",
            cards=tuple(s.card for s in view.grids[seat] if s.card is not None),
            points=points[seat] if seat < len(points) else 0,
            total=totals[seat] if seat < len(totals) else 0,
        )
        for seat in range(view.n_seats)
    )


def _seen(reveal: Reveal) -> tuple[int, int, str] | None:
    """(owner seat, slot, card) of a reveal that shows a card, else None."""
    data = reveal.data
    seat, slot, card = data.get("seat"), data.get("slot"), data.get("card")
    if isinstance(seat, int) and isinstance(slot, int) and isinstance(card, str):
        return seat, slot, card
    return None


def overlay(slots: Sequence[SlotView], seat: int, reveals: Sequence[Reveal]) -> list[SlotView]:
    """A seat's grid with the cards these reveals showed of it turned face up."""
    revealed = {}
    for reveal in reveals:
        seen = _seen(reveal)
        if seen is not None and seen[0] == seat:
            revealed[seen[1]] = seen[2]
    return [
        SlotView(s.slot, s.empty, revealed.get(s.slot, s.card)) if not s.empty else s for s in slots
    ]


def reveal_lines(
    viewer: int, reveals: Sequence[Reveal], names: Sequence[str], language: str
) -> list[str]:
    """The cards a rule just showed this viewer (peek, Queen, 7)."""
    lines = []
    for reveal in reveals:
        seen = _seen(reveal)
        if seen is None:
            continue
        owner, slot, card = seen
        if owner == viewer:
            lines.append(text(language, "dutch.reveal_own", slot=slot, card=shown(card)))
        else:
            name = names[owner] if 0 <= owner < len(names) else "?"
            lines.append(
                text(language, "dutch.reveal_other", name=name, slot=slot, card=shown(card))
            )
    return lines


# -- action labels ------------------------------------------------------------------------


def action_labeler(
    view: DutchView | None,
    names: Sequence[str],
    language: str,
    *,
    queen_jack_powers: bool = False,
) -> Callable[[str], str]:
    """Labels of full actions in notation (`jack 2 1:3` -> "Swap your card 2 with Bob's 3").
    Discarding a card says what it triggers ("Discard J♦ — swap blind")."""

    def seat_name(token: str) -> str:
        seat = int(token) if token.isdigit() else -1
        return names[seat] if 0 <= seat < len(names) else token

    def label(notation: str) -> str:
        words = notation.split()
        head, args = words[0], words[1:]
        try:
            if head == "peek" and len(args) == 2:
                return text(language, "dutch.action.peek", first=args[0], second=args[1])
            if head == "discard" and not args and view is not None and view.held is not None:
                return text(language, discard_key(view, queen_jack_powers), card=pretty(view.held))
            if head == "take":
                top = view.discard_top if view is not None else None
                return text(language, "dutch.action.take", card=pretty(top) if top else "")
            if head in ("swap", "seven", "match") and len(args) == 1:
                return text(language, f"dutch.action.{head}", slot=args[0])
            if head == "look" and len(args) == 1:
                seat, slot = args[0].split(":")
                if view is not None and seat == str(view.viewer):
                    return text(language, "dutch.action.look_own", slot=slot)
                return text(language, "dutch.action.look", name=seat_name(seat), slot=slot)
            if head in ("jack", "nine") and len(args) == 2:
                seat, slot = args[1].split(":")
                key = "dutch.action.nine_drawn" if args[0] == "drawn" else f"dutch.action.{head}"
                return text(language, key, own=args[0], name=seat_name(seat), slot=slot)
            if not args:
                return text(language, f"dutch.action.{head}")
        except ValueError:
            pass
        return notation

    return label


def discard_key(view: DutchView, queen_jack_powers: bool) -> str:
    """A Queen or Jack drawn from the stock and discarded at once triggers its power (a
    joker, `JK`, none: it is no Jack)."""
    rank = view.held[:-1] if view.held and view.held != JOKER else ""
    if queen_jack_powers and view.held_from == "stock" and rank in ("Q", "J"):
        return "dutch.action.discard_queen" if rank == "Q" else "dutch.action.discard_jack"
    return "dutch.action.discard_card"


def action_emoji(view: DutchView | None) -> Callable[[str], str | None]:
    """The card picture shown on an action's button: the discard to take, the held card to
    discard or swap in (only when this viewer may see it)."""

    def emoji(notation: str) -> str | None:
        if view is None:
            return None
        head = notation.split(" ", 1)[0]
        if head == "take":
            return card_emoji(view.discard_top) if view.discard_top else None
        if head in ("discard", "swap") and view.held is not None:
            return card_emoji(view.held)
        return None

    return emoji


def piece_labeler(
    view: DutchView | None, names: Sequence[str], language: str
) -> Callable[[str, str], str]:
    """Labels of one piece of an action being chosen step by step (a card, then a seat, …)."""

    def label(prefix: str, piece: str) -> str:
        if not prefix:
            return text(language, f"dutch.menu.family.{piece}")
        if piece.endswith(":"):
            seat = int(piece[:-1]) if piece[:-1].isdigit() else -1
            if view is not None and seat == view.viewer:
                return text(language, "dutch.menu.your_cards")
            return names[seat] if 0 <= seat < len(names) else piece
        if piece == "drawn":
            return text(language, "dutch.menu.the_drawn_card")
        if prefix.endswith(":"):
            return text(language, "dutch.menu.card", slot=piece)
        return text(language, "dutch.menu.your_card", slot=piece)

    return label


# -- pictures ------------------------------------------------------------------------------------


ROW_SLOTS = 4  # slots of the widest grid the table pictures as one row per player


def _grid_row(name: str, slots: Sequence[SlotView]) -> CardRow:
    return CardRow(name, tuple(EMPTY if s.empty else s.card for s in slots))


def hand_rows(
    name: str, grid: Sequence[SlotView], held: str | None, language: str
) -> tuple[CardRow, ...]:
    """ "My cards" as a flowing picture: the grid's slots side by side with their numbers under
    them (a card just seen face up and raised), wrapping past a few cards so that they stay
    legible on a phone, then the card held under its name."""
    rows = [
        CardRow(
            "",
            (EMPTY if s.empty else s.card,),
            raised=(0,) if s.card else (),
            captions=(str(s.slot),),
            flow=True,
        )
        for s in grid
    ]
    if held is not None:
        rows += (CardRow(text(language, "picture.held"), ()), CardRow("", (held,), flow=True))
    return tuple(rows)


def table_rows(view: DutchView, names: Sequence[str], language: str) -> tuple[CardRow, ...]:
    """The table as a picture: every grid face down (empty slots shown), then the discard; a
    grid a row of its own, or past `ROW_SLOTS` slots (penalty cards) under its player's name,
    wrapping, so that the picture stays a few cards wide and legible on a phone."""
    seated = [
        (names[seat] if seat < len(names) else "?", grid) for seat, grid in enumerate(view.grids)
    ]
    discard = (view.discard_top,) if view.discard_top else (EMPTY,)
    # the stock's count beside the discard, named: a bare "40 cards" read as the discard's
    stock = text(language, "picture.stock", count=view.stock)
    if max((len(grid) for grid in view.grids), default=0) <= ROW_SLOTS:
        rows = [_grid_row(name, grid) for name, grid in seated]
        return (*rows, CardRow(text(language, "table.discard"), discard, note=stock))
    flowing: list[CardRow] = []
    for name, grid in seated:
        flowing.append(CardRow(name, ()))
        flowing += (CardRow("", (EMPTY if s.empty else s.card,), flow=True) for s in grid)
    flowing.append(CardRow(text(language, "table.discard"), (), note=stock))
    return (*flowing, CardRow("", discard, flow=True))
