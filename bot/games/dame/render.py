"""Dame de Pique in words.

Seats and teams, packs with their wild cards marked, the pile, the log ("Ann took the pile with
7♠ 7♥: 23 cards"), the hand grouped by rank, action labels.

Everything here reads the engine's views (`DameView`), which name cards by code (`7S#1`):
`name_of` drops the copy for display. A public view holds no hand, so nothing drawn from it
can show a hidden card.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from functools import lru_cache
from typing import Any

from bot.games.plugin import SeatLayout
from bot.i18n import text
from bot.pictures.layout import EMPTY, CardRow
from bot.pictures.round_end import RoundEndRow
from bot.render.card_text import (
    NO_CARD,
    card_emoji,
    face,
    fitting,
    marking,
    pretty,
    shown,
    writing,
)
from bot.render.limits import DESCRIPTION, FIELD_VALUE
from bot.render.log import burst_lines, recent_burst_lines
from bot.render.teams import team_label
from bot.snapshots import LogEntry, Reveal
from games.cards import card
from games.dame.rules import IS_WILD, NATURAL_RANKS, TEAMS, card_value
from games.dame.views import DRAW_PHASE, PLAY_PHASE, DameView, PackView

WILD = "wild"  # the group of wild cards in a hand (2s and jokers)


def name_of(code: str) -> str:
    return code.split("#")[0]


def show(code: str) -> str:
    """A card in a sentence: its picture, else its text."""
    return shown(name_of(code))


def show_all(codes: Sequence[str]) -> str:
    return " ".join(show(c) for c in codes)


def label(code: str, language: str) -> str:
    """A card in a button or option label (plain text, its picture beside it as the emoji):
    `7♠`; a joker in words, never the 🃏 emoji, which looks like another card than its
    picture."""
    name = name_of(code)
    return text(language, "dame.joker") if name == JOKER and not marking() else pretty(name)


def label_all(codes: Sequence[str], language: str) -> str:
    return " ".join(label(c, language) for c in codes)


JOKER = "JK"


def is_wild(code: str) -> bool:
    wild = WILD_CODES.get(code)  # a code as the engine writes it: every card of a render
    return IS_WILD[card(code)] if wild is None else wild


WILD_CODES = {c.code: wild for c, wild in IS_WILD.items()}


# Places around the table: North and South play East and West (catalog keys: W is O in French).
PLACES = ("dame.place.n", "dame.place.e", "dame.place.s", "dame.place.w")
SEAT_LAYOUT = SeatLayout(labels=PLACES, teams=TEAMS)


def team_of(seat: int) -> int:
    return SEAT_LAYOUT.team_of(seat)


def team_places(team: int, language: str) -> str:
    """The team's places, "N–S", as the lobby and the match's end name it."""
    return team_label(SEAT_LAYOUT, team, language)


def team_name(team: int, names: Sequence[str]) -> str:
    return " & ".join(names[s] if s < len(names) else "?" for s in TEAMS[team])


# -- the table message ----------------------------------------------------------------------
def seat_lines(
    view: DameView, names: Sequence[str], marks: Sequence[str], language: str
) -> list[str]:
    lines = []
    for seat, size in enumerate(view.hand_sizes):
        name = names[seat] if seat < len(names) else "?"
        line = text(
            language,
            "dame.seat_line",
            badges="▶️" if view.turn == seat else "",
            name=name,
            marks=marks[seat] if seat < len(marks) else "",
            count=size,
            team=team_places(team_of(seat), language),
        )
        if view.announced[seat]:
            line = f"{line} · {text(language, 'dame.knocked')}"
        lines.append(" ".join(line.split()))  # no double space where a badge or mark is absent
    return lines


def pack_line(pack: PackView, language: str) -> str:
    """A pack in words: "**3** pack (7 cards, 80 points): 3♠ 3♥ … + *Joker*" (wild cards in
    italics)."""
    return _pack_line(pack, language, writing())


@lru_cache(maxsize=4096)  # a team's packs, shown at every render of the table, seldom change
def _pack_line(pack: PackView, language: str, _: object) -> str:
    naturals = [c for c in pack.cards if not is_wild(c)]
    wilds = [c for c in pack.cards if is_wild(c)]
    shown = show_all(naturals)
    if wilds:
        shown = f"{shown} + *{show_all(wilds)}*"
    return text(
        language,
        "dame.pack_line",
        rank=pack.rank,
        count=len(pack.cards),
        points=pack.points,
        cards=shown,
    )


def pack_lines(view: DameView, team: int, language: str) -> str:
    packs = view.packs[team]
    if not packs:
        return text(language, "dame.no_packs")
    return fitting(lambda: "\n".join(pack_line(p, language) for p in packs), FIELD_VALUE)


def team_title(
    view: DameView,
    team: int,
    names: Sequence[str],
    totals: Sequence[int],
    target: int,
    language: str,
) -> str:
    total = totals[TEAMS[team][0]] if TEAMS[team][0] < len(totals) else 0
    return text(
        language,
        "dame.team_title",
        team=team_places(team, language),
        names=team_name(team, names),
        points=view.points[team],
        total=total,
        target=target,
    )


def pile_text(view: DameView, language: str) -> str:
    if not view.discard:
        return NO_CARD
    return text(language, "dame.pile", card=show(view.discard[-1]), count=len(view.discard))


def status_line(view: DameView, names: Sequence[str], language: str) -> str:
    if view.turn is None:
        return ""
    name = names[view.turn] if view.turn < len(names) else "?"
    if view.phase == DRAW_PHASE:
        return text(language, "dame.turn_draw", name=name)
    if view.phase == PLAY_PHASE:
        return text(language, "dame.turn_play", name=name)
    return ""


# -- the log --------------------------------------------------------------------------------
def _phrase(entry: LogEntry, names: Sequence[str], language: str) -> str | None:
    data = entry.data
    kind = entry.kind
    if kind == "drew":
        return text(language, "dame.log.drew")
    if kind == "take":
        count = len(data.get("pile", ())) + 1
        top = show(data["top"]) if data.get("top") else NO_CARD
        used = show_all(data.get("with", ()))
        if not used:  # the top card alone, onto the team's pack (option)
            return text(language, "dame.log.take_onto", top=top, count=count)
        return text(language, "dame.log.take", cards=used, top=top, count=count)
    if kind == "meld":
        return text(language, "dame.log.meld", cards=show_all(data.get("cards", ())))
    if kind == "add":
        cards = show_all(data.get("cards", ()))
        return text(language, "dame.log.add", cards=cards, rank=data.get("rank", "?"))
    if kind == "announce":
        return text(language, "dame.log.announce")
    if kind == "discard":
        return text(language, "dame.log.discard", card=show(data.get("card", "")))
    if kind == "out":
        return text(language, "dame.log.out")
    if kind == "reshuffle":
        return text(language, "dame.log.reshuffle", count=data.get("stock", 0))
    return None


TURN_BREAKS = frozenset({"drew", "take"})  # a turn begins with its draw: a new line


def log_lines(entries: Sequence[LogEntry], names: Sequence[str], language: str) -> list[str]:
    return burst_lines(entries, names, language, phrase=_phrase, breaks=TURN_BREAKS)


def recent_log_lines(
    entries: Sequence[LogEntry], names: Sequence[str], language: str, count: int
) -> list[str]:
    """The last `count` of `log_lines`, worded from the turns they tell."""
    return recent_burst_lines(entries, names, language, count, phrase=_phrase, breaks=TURN_BREAKS)


# -- end of hand ----------------------------------------------------------------------------
def round_end_lines(
    view: DameView,
    detail: Mapping[str, Any],
    names: Sequence[str],
    points: Sequence[int],
    totals: Sequence[int],
    language: str,
) -> list[str]:
    """Who went out, then per team: its points and total, its packs' points, each pack in
    words (its cards are in the round-end picture), and each player's cards left in hand,
    with what they cost, or why they cost nothing."""
    lines = []
    winner = detail.get("winner")
    if winner is not None and winner < len(names):
        team = team_of(winner)
        lines.append(
            text(
                language,
                "dame.went_out",
                name=names[winner],
                team=team_places(team, language),
                names=team_name(team, names),
            )
        )
    hands = detail.get("hands", [0] * len(view.hand_sizes))
    packs = detail.get("packs", list(view.points))
    winning = team_of(winner) if winner is not None else None
    for team, seats in enumerate(TEAMS):
        lines.append(
            text(
                language,
                "dame.hand_result",
                team=team_places(team, language),
                names=team_name(team, names),
                points=points[seats[0]] if seats[0] < len(points) else 0,
                total=totals[seats[0]] if seats[0] < len(totals) else 0,
            )
        )
        lines.append(f"  {text(language, 'dame.hand_packs', packs=packs[team])}")
        lines += (f"  · {pack_summary(pack, language)}" for pack in view.packs[team])
        # the winning team's cards left in hand cost nothing: said so, and why
        key = "dame.hand_left_free" if team == winning else "dame.hand_left"
        for seat in seats:
            if view.hand_sizes[seat]:
                name = names[seat] if seat < len(names) else "?"
                count = view.hand_sizes[seat]
                said = text(language, key, name=name, count=count, cost=hands[seat])
                lines.append(f"  {said}")
    return lines


def pack_summary(pack: PackView, language: str) -> str:
    """A pack in words without its cards: "3 pack: 7 cards, 80 points"."""
    return text(
        language, "dame.pack_summary", rank=pack.rank, count=len(pack.cards), points=pack.points
    )


def round_end_rows(
    view: DameView, detail: Mapping[str, Any], names: Sequence[str], language: str
) -> tuple[RoundEndRow, ...]:
    """The round-end picture: each player's cards left in hand face up, by rank (what they
    cost, or why nothing), then each team's packs (naturals, then wild cards, with their
    points)."""
    winner = detail.get("winner")
    winning = team_of(winner) if winner is not None else None
    hands = detail.get("hands", [0] * len(view.hand_sizes))
    rows = []
    for seat in range(len(view.hand_sizes)):
        if seat == winner:
            note = text(language, "dame.picture.went_out")
        elif team_of(seat) == winning:
            note = text(language, "dame.picture.not_counted")
        else:
            note = f"−{hands[seat]}" if seat < len(hands) else ""
        shown = view.shown_hands[seat] if seat < len(view.shown_hands) else ()
        name = names[seat] if seat < len(names) else "?"
        label = f"{name} · {text(language, PLACES[seat])}"
        rows.append(RoundEndRow(label, (), None, None, note))
        rows += (
            RoundEndRow("", tuple(map(name_of, codes)), None, None, pack=True)
            for _, codes in hand_groups(shown)
        )
    for team, packs in enumerate(view.packs):
        if packs:
            rows.append(RoundEndRow(team_places(team, language), (), None, None))
        for pack in packs:
            cards = tuple(map(name_of, sorted(pack.cards, key=is_wild)))
            note = text(language, "dame.picture.pack", points=pack.points)
            rows.append(RoundEndRow("", cards, None, None, note, pack=True))
    return tuple(rows)


# -- "My cards" -----------------------------------------------------------------------------
def hand_groups(hand: Sequence[str]) -> tuple[tuple[str, tuple[str, ...]], ...]:
    """The hand by rank, low to high, wild cards last: (rank or WILD, codes)."""
    return _hand_groups(tuple(hand))


GROUP_ORDER = {r: i for i, r in enumerate((*NATURAL_RANKS, WILD))}


@lru_cache(maxsize=1024)
def _hand_groups(hand: tuple[str, ...]) -> tuple[tuple[str, tuple[str, ...]], ...]:
    # Asked four times per "My cards" (its lines, its picture, the menu's likely moves and
    # its select of packs), of a hand that changes once or twice a turn: worked out once.
    groups: dict[str, list[str]] = {}
    for code in hand:
        key = WILD if is_wild(code) else card(code).rank
        groups.setdefault(key, []).append(code)
    ordered = sorted(groups.items(), key=lambda g: GROUP_ORDER[g[0]])
    return tuple((key, tuple(codes)) for key, codes in ordered)


def hand_lines(view: DameView, language: str, reveals: Sequence[Reveal] = ()) -> list[str]:
    """The hand's size and points, the card just drawn, and on the viewer's turn the pile and
    whether the seat may go out. The hand itself is the message's picture: written by rank
    with counts only where card pictures are unavailable (cards as text), and then as text
    when a hand that large would pass the message's limit."""
    return fitting(lambda: "\n".join(_hand_lines(view, language, reveals)), DESCRIPTION // 2).split(
        "\n"
    )


def _hand_lines(view: DameView, language: str, reveals: Sequence[Reveal]) -> list[str]:
    lines = [
        text(
            language,
            "dame.hand_title",
            count=len(view.hand),
            points=sum(card_value(card(c)) for c in view.hand),
        )
    ]
    written = writing()
    if card_emoji(None) is None:  # no card pictures: the hand in words, rank by rank
        lines += (
            _group_line(key, codes, language, written) for key, codes in hand_groups(view.hand)
        )
    lines += drawn_lines(reveals, language)
    if view.legal is not None:  # waiting, the message would keep an old pile
        lines.append(text(language, "dame.private_pile", pile=pile_text(view, language)))
        if view.legal.may_go_out:
            lines.append(text(language, "dame.may_go_out"))
    return lines


@lru_cache(maxsize=4096)  # a move changes one or two groups of a hand: the others are kept
def _group_line(key: str, codes: tuple[str, ...], language: str, _: object) -> str:
    """A group of the hand (a rank, or the wild cards) in a line, its cards as `writing()`
    says (the last argument: remembered under it)."""
    rank = text(language, "dame.wild_group") if key == WILD else key
    return f"`{rank:>4}` ×{len(codes)}: {' '.join(face(name_of(c)) for c in codes)}"


def drawn_lines(reveals: Sequence[Reveal], language: str) -> list[str]:
    """The card the viewer just drew ("You drew 6♦."): it joins the hand, nothing hides it
    again, so it is a line of the hand, not a card shown for a few seconds."""
    return [
        text(language, "dame.you_drew", card=show(r.data["card"]))
        for r in reveals
        if r.kind == "draw" and "card" in r.data
    ]


# -- action labels --------------------------------------------------------------------------
def action_labeler(view: DameView | None, language: str) -> Callable[[str], str]:
    pile = len(view.discard) if view is not None else 0
    top = label(view.discard[-1], language) if view is not None and view.discard else NO_CARD

    def labelled(action: str) -> str:
        words = action.split()
        kind, rest = words[0], words[1:]
        if kind == "take":
            if not rest:
                return text(language, "dame.action.take_onto", count=pile)
            cards = label_all(rest, language)
            return text(language, "dame.action.take", cards=cards, count=pile, top=top)
        if kind == "meld":
            return text(language, "dame.action.meld", cards=label_all(rest, language))
        if kind == "add" and rest:
            return text(
                language,
                "dame.action.add",
                rank=rest[0],
                cards=label_all(rest[1:], language),
            )
        if kind == "discard" and rest:
            return text(language, "dame.action.discard", card=label(rest[0], language))
        if kind in ("draw", "announce"):
            return text(language, f"dame.action.{kind}")
        return action

    return labelled


def action_emoji(view: DameView | None) -> Callable[[str], str | None]:
    """The card picture on an action's button or option: the card discarded, the pile's top
    card taken, the first card of a pack laid or added."""
    top = view.discard[-1] if view is not None and view.discard else None

    def emoji(action: str) -> str | None:
        kind, _, rest = action.partition(" ")
        words = rest.split()
        if kind == "take":
            return card_emoji(name_of(top)) if top is not None else None
        if kind == "add":
            words = words[1:]  # the pack's rank first
        if kind in ("discard", "meld", "add") and words:
            return card_emoji(name_of(words[0]))
        return None

    return emoji


def piece_labeler(view: DameView | None, language: str) -> Callable[[str, str], str]:
    def piece_label(prefix: str, piece: str) -> str:
        if not prefix:
            return text(language, f"dame.family.{piece}")
        if prefix == "add":
            return text(language, "dame.menu.pack", rank=piece)
        return label(piece, language)

    return piece_label


# -- pictures -----------------------------------------------------------------------------------


def hand_rows(view: DameView, language: str) -> tuple[CardRow, ...]:
    """ "My cards" as a picture: the hand by rank, low to high, the wild cards last (the order
    its moves are listed in), each rank's cards overlapped, the ranks flowing left to right."""
    return tuple(
        CardRow("", tuple(map(name_of, codes)), flow=True) for _, codes in hand_groups(view.hand)
    )


def table_rows(view: DameView, language: str) -> tuple[CardRow, ...]:
    """The table as a flowing picture: each team under its name, its packs side by side (a
    pack's cards overlapped, naturals then wild cards, its points under it); then the pile's
    top card under its name and size. The teams are stacked, so the picture stays a few cards
    wide and its cards and words legible at a phone's width."""
    rows: list[CardRow] = []
    for team, packs in enumerate(view.packs):
        if packs:
            rows.append(CardRow(team_places(team, language), ()))
            rows += (_pack_row(pack, language) for pack in packs)
    top = (name_of(view.discard[-1]),) if view.discard else (EMPTY,)
    count = text(language, "dame.stock", count=len(view.discard)) if view.discard else ""
    rows.append(CardRow(text(language, "dame.pile_title"), (), note=count))
    return (*rows, CardRow("", top, flow=True))


@lru_cache(maxsize=4096)  # a team's packs seldom change, and are drawn at every table render
def _pack_row(pack: PackView, language: str) -> CardRow:
    """A pack as a group of the picture: naturals then wild cards, overlapped, its points
    under it."""
    ordered = sorted(pack.cards, key=is_wild)
    points = text(language, "dame.picture.pack", points=pack.points)
    return CardRow("", tuple(map(name_of, ordered)), note=points, flow=True)
