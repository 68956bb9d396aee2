"""A finished hand replayed to one step: the table as it was after that action.

It is drawn in the same picture and words as during play (the public view through the game's
table renderer), with every hand face up (the hand is over: nothing is hidden any more) and the
cards a rule showed a player at this step marked.

Only finished hands reach here (`Store.finished_hand` refuses any other), and the frame is
replayed from the hand's record: a replay never reads a round in play.
"""

from __future__ import annotations

import pickle
import re
from collections import OrderedDict, deque
from dataclasses import dataclass, field
from typing import Any

import discord

from bot.games import plugin_for
from bot.i18n import text
from bot.pictures.card_faces import TWO_COLOURS, Deck
from bot.pictures.layout import EMPTY, CardRow
from bot.render import colors
from bot.render.actions import ButtonSpec
from bot.render.card_text import fitting, in_deck, shown
from bot.render.names import escape
from bot.render.stats import game_title
from bot.render.table import RenderedMessage, render_table, table_text, with_cards
from bot.snapshots import PLAYING, ROUND_OVER, LogEntry, PublicSnapshot, RoundEnd, SeatInfo
from games.cards import Card
from games.contract import Event, Round
from games.registry import get_game
from storage.history import FinishedHand
from storage.privacy import FORMER_PLAYER

LOG_SIZE = 6  # public events shown, as on a table message
# a card a rule showed, by name or code (`10H`, `7S#1`, `JK#2`)
_CARD = re.compile(r"^(?:(?:10|[2-9TJQKA])[SHDC]|JK)(?:#\d+)?$")


@dataclass(frozen=True)
class Frame:
    hand: FinishedHand
    step: int  # actions played (0: the deal)
    round: Round[Any, Any, Any]
    log: tuple[LogEntry, ...]
    private: tuple[Event, ...]  # what a rule showed a player at this step
    # at the hand's last step, per seat, the last cards its hand held (a hand is empty once
    # its last card is played, or once it went out): what it ended with
    held_last: dict[int, list[Card]] = field(default_factory=dict)
    moved: tuple[LogEntry, ...] = ()  # what this step's action did, in public

    @property
    def steps(self) -> int:
        return len(self.hand.record.actions)


def frame(hand: FinishedHand, step: int) -> Frame:
    """The hand after `step` actions (clamped to the hand), replayed from its record."""
    return Replayer().frame(hand, step)


class Replayer:
    """Frames of finished hands, from checkpoints: the round as it was every `EVERY` actions is
    kept (pickled) per hand, so a step replays at most `EVERY` actions, not the whole hand. A
    finished hand never changes, so its checkpoints never go stale; `hands` are kept at most."""

    EVERY = 12

    def __init__(self, hands: int = 64) -> None:
        self._hands = hands
        self._points: OrderedDict[tuple[int, int], list[tuple[bytes, tuple[LogEntry, ...]]]] = (
            OrderedDict()
        )
        self._held_last: dict[tuple[int, int], dict[int, list[Card]]] = {}

    def _checkpoints(self, hand: FinishedHand) -> list[tuple[bytes, tuple[LogEntry, ...]]]:
        key = (hand.table_id, hand.round_no)
        found = self._points.get(key)
        if found is not None:
            self._points.move_to_end(key)
            return found
        record = hand.record
        round_ = get_game(record.game).replay(record.model_copy(update={"actions": []}))
        log: deque[LogEntry] = deque(maxlen=LOG_SIZE)
        found = [(pickle.dumps(round_), ())]
        held_last = {s: cards for s, cards in round_.open_hands().items() if cards}
        for index, (seat, notation) in enumerate(record.actions, start=1):
            _public(round_.apply(seat, notation), log)
            held_last.update((s, cards) for s, cards in round_.open_hands().items() if cards)
            if index % self.EVERY == 0:
                found.append((pickle.dumps(round_), tuple(log)))
        self._points[key] = found
        self._held_last[key] = held_last
        if len(self._points) > self._hands:
            gone, _ = self._points.popitem(last=False)
            self._held_last.pop(gone, None)
        return found

    def frame(self, hand: FinishedHand, step: int) -> Frame:
        record = hand.record
        step = max(0, min(step, len(record.actions)))
        # the checkpoint before the step's action (not at it): the step itself is replayed,
        # so what it did (in public, and what a rule showed) is known at every step
        point = (step - 1) // self.EVERY if step else 0
        pickled, logged = self._checkpoints(hand)[point]
        round_: Round[Any, Any, Any] = pickle.loads(pickled)
        log: deque[LogEntry] = deque(logged, maxlen=LOG_SIZE)
        private: tuple[Event, ...] = ()
        moved: deque[LogEntry] = deque()
        for index in range(point * self.EVERY + 1, step + 1):
            seat, notation = record.actions[index - 1]
            events = round_.apply(seat, notation)
            _public(events, log)
            if index == step:
                private = tuple(e for e in events if e.to is not None)
                _public(events, moved)
        held_last = self._held_last.get((hand.table_id, hand.round_no), {})
        if step < len(record.actions) or not round_.finished:
            held_last = {}
        return Frame(hand, step, round_, tuple(log), private, held_last, tuple(moved))


def _public(events: list[Event], log: deque[LogEntry]) -> None:
    for event in events:
        if event.to is None:
            log.append(LogEntry(event.kind, event.seat, dict(event.data), "engine"))


def snapshot(f: Frame) -> PublicSnapshot:
    record = f.hand.record
    game = get_game(record.game)
    n = record.n_seats
    names = [_name(f.hand.names[s] if s < len(f.hand.names) else "") for s in range(n)]
    totals = list(record.totals) or [0] * len(game.sides(n))
    over = f.round.finished
    if over:
        totals = [t + p for t, p in zip(totals, f.hand.points, strict=False)]
    seat_totals = [
        totals[game.side_of(s, n)] if game.side_of(s, n) < len(totals) else 0 for s in range(n)
    ]
    seats = tuple(
        SeatInfo(
            seat=s, user_id=None, name=names[s], is_bot=False, total=seat_totals[s], position=s
        )
        for s in range(n)
    )
    end = (
        RoundEnd(
            round_no=f.hand.round_no,
            points=tuple(f.hand.points),
            totals=tuple(totals),
            detail=f.hand.detail,
            view=f.round.public_view(),
        )
        if over
        else None
    )
    return PublicSnapshot(
        table_id=f.hand.table_id,
        guild_id=f.hand.guild_id,
        channel_id=0,
        game=record.game,
        preset=None,
        options=record.options,
        target=int(record.options.get("target", 0) or 0),
        host_id=0,
        status=ROUND_OVER if over else PLAYING,
        seats=seats,
        min_seats=game.min_seats,
        max_seats=game.max_seats,
        round_no=f.hand.round_no,
        view=f.round.public_view(),
        to_act=() if over else f.round.to_act(),
        totals=tuple(seat_totals),
        log=f.log,
        last_round=end,
        winners=(),
        turn_deadline=None,
        next_round_at=None,
        version=f.step,
        replay=True,
    )


def _name(stored: str) -> str:
    return stored if stored != FORMER_PLAYER else "—"


def _cards_in(value: Any) -> list[str]:
    if isinstance(value, str):
        return [value] if _CARD.match(value) else []
    if isinstance(value, (list, tuple)):
        return [card for item in value for card in _cards_in(item)]
    if isinstance(value, dict):
        return [card for item in value.values() for card in _cards_in(item)]
    return []


def render_replay(f: Frame, language: str, deck: Deck = TWO_COLOURS) -> discord.Embed:
    """The table at this step, then every hand face up and what a rule showed at this step,
    the cards in the viewer's deck (the words of `replay_message`, without its picture)."""
    with in_deck(deck):
        embed, _ = _render(f, language)
    embed.set_image(url=None)
    return embed


def replay_message(
    f: Frame, language: str, deck: Deck = TWO_COLOURS, *, reviewable: bool = False
) -> RenderedMessage:
    """The viewer as a Components V2 message: the table as it was and every hand face up in
    one picture across the message, the step's action in words right under it, then the rest
    of the table's words, and the viewer's buttons in rows (the steps, then the other hands,
    the records and, for a player of the hand (`reviewable`), the review)."""
    with in_deck(deck):
        embed, rows = _render(f, language)
        cards = with_cards(embed, "replay", rows)
    return RenderedMessage(embed, replay_buttons(language, f, reviewable), cards=cards, v2=True)


STEPS_ROW, HANDS_ROW = 0, 1  # the steps on one row; the other hands and the records below


def replay_buttons(language: str, f: Frame, reviewable: bool) -> tuple[ButtonSpec, ...]:
    """The viewer's buttons: their custom ids name the hand and the step they lead to
    (`rp:<table>:<hand>:<step>:<op>`, `rpf:` the records, `rpr:` the review), so they answer
    after a restart."""
    t, r, step, steps = f.hand.table_id, f.hand.round_no, f.step, f.steps
    buttons = [
        ButtonSpec(f"rp:{t}:{r}:{target}:{op}", label, row=STEPS_ROW, disabled=off)
        for target, op, label, off in (
            (0, "first", "⏮", step == 0),
            (step - 1, "back", "◀", step == 0),
            (step + 1, "fwd", "▶", step >= steps),
            (steps, "last", "⏭", step >= steps),
        )
    ]
    buttons += [
        ButtonSpec(f"rp:{t}:{r}:0:{op}", text(language, key), row=HANDS_ROW)
        for op, key in (("prevh", "replay.previous_hand"), ("nexth", "replay.next_hand"))
    ]
    buttons.append(ButtonSpec(f"rpf:{t}:{r}", text(language, "replay.records"), "primary", 1))
    if reviewable:
        buttons.append(ButtonSpec(f"rpr:{t}:{r}", text(language, "replay.review"), "success", 1))
    return tuple(buttons)


def _render(f: Frame, language: str) -> tuple[discord.Embed, tuple[CardRow, ...]]:
    """The viewer's words, and the rows of its picture: the table's (as its message draws
    them) then each hand face up under its player's name."""
    public = snapshot(f)
    shown_table = render_table(public, language)
    embed = shown_table.embed.copy()
    embed.colour = colors.INFO
    embed.set_image(url=None)  # the round-end picture is the table message's, not sent here
    embed.title = text(
        language,
        "replay.title",
        game=game_title(language, f.hand.record.game),
        hand=f.hand.round_no + 1,
    )
    names = [escape(_name(n)) for n in f.hand.names] or [
        f"#{s + 1}" for s in range(f.hand.record.n_seats)
    ]
    drawn_names = [_name(n) for n in f.hand.names]  # drawn, so not markdown-escaped
    rows: list[CardRow] = list(shown_table.cards.rows) if shown_table.cards else []
    hands = f.round.open_hands()
    if hands:

        def held(seat: int, cards: list[Card]) -> str:
            # by name: a second copy (`7S#1`, `JK#2`) has its card's picture too
            if cards:
                return " ".join(shown(c.name) for c in cards)
            last = f.held_last.get(seat)  # the hand is over: what an emptied hand ended with
            if last:
                played = " ".join(shown(c.name) for c in last)
                return text(language, "replay.held_last", cards=played)
            return "—"

        def listed() -> str:
            return "\n".join(
                f"**{names[s] if s < len(names) else s}** {held(s, cards)}"
                for s, cards in sorted(hands.items())
            )

        value = _fit(fitting(listed, 1024))
        embed.add_field(name=text(language, "replay.hands"), value=value, inline=False)
        rows += _hand_rows(f, hands, drawn_names, language)
    for event in f.private:
        seen = _cards_in(dict(event.data))
        if not seen or event.to is None:
            continue
        who = ", ".join(names[s] for s in sorted(event.to) if s < len(names))
        embed.add_field(
            name=text(language, "replay.shown", name=who),
            value=" ".join(shown(c.split("#")[0]) for c in seen),
            inline=False,
        )
    # The step's action in words, first of the texts: right under the picture it changed.
    if f.step:
        plugin = plugin_for(f.hand.record.game)
        moved = "\n".join(plugin.log_lines(f.moved, table_text(public, language))) or "—"
    else:
        moved = text(language, "replay.dealt")
    step = text(language, "replay.step", step=f.step, steps=f.steps)
    embed.insert_field_at(0, name=step, value=_fit(fitting(lambda: moved, 1024)), inline=False)
    return embed, tuple(rows)


def _hand_rows(
    f: Frame, hands: dict[int, list[Card]], names: list[str], language: str
) -> list[CardRow]:
    """Each hand face up: a group of its cards overlapped, its player's name under it, side
    by side where they fit. At the last step an emptied hand shows the cards it ended with:
    the heading says so when every hand is shown so, else the hand's caption does."""
    held = {seat: cards or f.held_last.get(seat) or [] for seat, cards in hands.items()}
    ended = {seat for seat, cards in hands.items() if not cards and held[seat]}
    every = bool(ended) and ended == {seat for seat in held if held[seat]}
    heading = text(language, "replay.hands_ended" if every else "replay.hands")
    rows = [CardRow(heading, ())]  # a heading: the table above it
    for seat in sorted(hands):
        name = names[seat] if seat < len(names) else f"#{seat + 1}"
        note = text(language, "replay.played_last") if seat in ended and not every else ""
        shown_cards = tuple(c.name.split("#")[0] for c in held[seat]) or (EMPTY,)
        rows.append(CardRow(name, shown_cards, note=note, flow=True))
    return rows


def _fit(value: str, limit: int = 1024) -> str:
    return value if len(value) <= limit else value[: limit - 1] + "…"
