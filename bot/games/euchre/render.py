"""Euchre on Discord in words.

Seats around the table, the turned card, trump and the maker, the trick in play, tricks per
team, the match score, moves as sentences ("Ann orders up the J♥ alone", "Ben trumps with the
left bower"), labels of bids and plays.

Everything reads an `EuchreView` (public, or one seat's): the public view holds no hand and no
discard of the dealer, so nothing here can show them on the table.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence

from bot.games.plugin import TableContext
from bot.i18n import has_key, text
from bot.pictures.layout import EMPTY, CardRow
from bot.pictures.round_end import RoundEndRow
from bot.render.card_text import face, pretty, shown
from bot.render.log import recent_lines, table_line
from bot.snapshots import LogEntry
from games.cards import SUIT_SYMBOLS, SUITS, card
from games.euchre.ranking import EFFECTIVE, POWER, RANKS, SAME_COLOUR
from games.euchre.views import DEALER_DISCARD, NAME_TRUMP, ORDER_UP, OVER, EuchreView

TEAMS = ((0, 2), (1, 3))
PLACES = ("euchre.place.n", "euchre.place.e", "euchre.place.s", "euchre.place.w")


def suit_symbol(suit: str | None) -> str:
    return SUIT_SYMBOLS.get(suit or "", "?")


def team_name(team: int, language: str) -> str:
    """ "N–S" or "E–W" (the places of the partners)."""
    first, second = (text(language, PLACES[s]) for s in TEAMS[team])
    return f"{first}–{second}"


def named_card(
    name: str, trump: str | None, language: str, show: Callable[[str], str] = shown
) -> str:
    """A card in words: "J♥", or "the left bower (J♦)" once trump is known; `show` writes
    the card (its picture in a sentence, `pretty` in a label)."""
    written = show(name)
    if trump is None or not name.startswith("J"):
        return written
    suit = name[-1]
    if suit == trump:
        return text(language, "euchre.right_bower", card=written)
    if suit == SAME_COLOUR[trump]:
        return text(language, "euchre.left_bower", card=written)
    return written


def sorted_hand(hand: Sequence[str], trump: str | None) -> list[list[str]]:
    """The hand in suit groups, strongest first; trump first once set (bowers included)."""
    order = {suit: i for i, suit in enumerate(SUITS)}
    if trump is None:
        groups: dict[str, list[str]] = {}
        for name in hand:
            groups.setdefault(name[-1], []).append(name)
        return [
            sorted(groups[suit], key=lambda n: -RANKS.index(n[:-1]))
            for suit in sorted(groups, key=lambda s: order[s])
        ]
    effective, power = EFFECTIVE[trump], POWER[trump]
    by_suit: dict[str, list[str]] = {}
    for name in hand:
        by_suit.setdefault(effective[card(name)], []).append(name)
    suits = sorted(by_suit, key=lambda s: (s != trump, order[s]))
    return [sorted(by_suit[s], key=lambda n: -power[card(n)]) for s in suits]


def in_hand_order(legal: Sequence[str], hand: Sequence[str], trump: str | None) -> list[str]:
    """The legal notations with the card moves (`play 9D`, `discard 9D`) in the order the
    hand's picture and line show the cards, left to right; the bids keep their order, first."""
    place = {name: i for i, name in enumerate(n for g in sorted_hand(hand, trump) for n in g)}

    def position(notation: str) -> int:
        verb, _, name = notation.partition(" ")
        if verb in ("play", "discard") and name in place:
            return place[name]
        return -1

    return sorted(legal, key=position)  # stable: equal positions keep the engine's order


def hand_line(hand: Sequence[str], trump: str | None) -> str:
    return "   ".join(" ".join(face(n) for n in group) for group in sorted_hand(hand, trump))


def seat_lines(view: EuchreView, table: TableContext) -> list[str]:
    """A line a seat: turn marker, place, name and marks, cards held, dealer, bid, sitting out."""
    language = table.language
    lines = []
    for seat in range(4):
        notes = [text(language, "euchre.cards_held", count=view.hand_sizes[seat])]
        if seat == view.dealer:
            notes.append(text(language, "euchre.dealer"))
        bid = _last_bid(view, seat)
        if bid is not None and view.trump is None:
            notes.append(bid_words(bid, view.turned, language))
        if view.maker == seat:
            key = "euchre.maker_alone" if view.alone else "euchre.maker"
            notes.append(text(language, key))
        if view.sitting_out == seat:
            notes.append(text(language, "euchre.sits_out"))
        turn = "▶️ " if view.to_act == seat and view.phase != OVER else ""
        marks = table.marks[seat] if seat < len(table.marks) else ""
        who = f"**{table.name(seat)}** {marks}".rstrip()
        place = text(language, PLACES[seat])
        lines.append(f"{turn}`{place}` {who} · " + " · ".join(notes))
    return lines


def _last_bid(view: EuchreView, seat: int) -> str | None:
    said = [notation for s, notation in view.bids if s == seat]
    return said[-1] if said else None


def bid_words(notation: str, turned: str, language: str) -> str:
    """A bid in words, without the bidder ("passed", "ordered up the J♥ alone")."""
    words = notation.split()
    alone = words[-1] == "alone"
    if words[0] == "pass":
        return text(language, "euchre.bid.pass")
    if words[0] == "order":
        key = "euchre.bid.order_alone" if alone else "euchre.bid.order"
        return text(language, key, card=shown(turned))
    if words[0] == "call" and len(words) > 1:
        key = "euchre.bid.call_alone" if alone else "euchre.bid.call"
        return text(language, key, suit=suit_symbol(words[1]))
    return notation


def status_line(view: EuchreView, table: TableContext) -> str:
    """What the table waits for, in one line."""
    language = table.language
    if view.phase == OVER or view.to_act is None:
        return ""
    name = table.name(view.to_act)
    if view.phase == ORDER_UP:
        return text(language, "euchre.status.order_up", name=name, card=shown(view.turned))
    if view.phase == NAME_TRUMP:
        stuck = (
            bool(table.snapshot.options.get("stick_the_dealer"))
            and view.to_act == view.dealer
            and len(view.bids) == 7  # four passes, then three more
        )
        key = "euchre.status.stuck" if stuck else "euchre.status.name"
        return text(language, key, name=name, suit=suit_symbol(view.turned[-1]))
    if view.phase == DEALER_DISCARD:
        return text(language, "euchre.status.discard", name=name, card=shown(view.turned))
    key = "euchre.status.lead" if not view.trick else "euchre.status.play"
    return text(language, key, name=name)


def trick_line(view: EuchreView, table: TableContext) -> str:
    """The trick in play, in the order the cards were played."""
    return " · ".join(
        text(table.language, "euchre.trick_card", name=table.name(seat), card=shown(name))
        for seat, name in view.trick
    )


def tricks_line(view: EuchreView, language: str) -> str:
    return " · ".join(
        text(language, "euchre.team_count", team=team_name(t, language), count=view.tricks_won[t])
        for t in (0, 1)
    )


def score_line(totals: Sequence[int], target: int, language: str) -> str:
    return text(
        language,
        "euchre.score",
        first=team_name(0, language),
        second=team_name(1, language),
        a=totals[0] if totals else 0,
        b=totals[1] if len(totals) > 1 else 0,
        target=target,
    )


# -- the log ---------------------------------------------------------------------------------


def log_lines(entries: Sequence[LogEntry], table: TableContext) -> list[str]:
    """Every move as a sentence. Trump and the led suit are followed along the entries (and
    taken from the current view for the round in play), so a play can say "trumps"."""
    language, view = table.language, table.snapshot.view
    lines: list[str] = []
    current = _starts_current_round(entries)
    trump: str | None = None
    led: str | None = None
    turned: str | None = None
    for index, entry in enumerate(entries):
        if entry.source != "engine":
            lines.append(table_line(entry, table.names, language))
            if entry.kind == "round_started":
                trump = led = turned = None
            continue
        if index >= current and isinstance(view, EuchreView):
            turned = turned or view.turned
            trump = trump or view.trump
        data = entry.data
        name = table.name(entry.seat)
        kind = entry.kind
        if kind == "bid":
            action = str(data.get("action", ""))
            ordered = _turned_for(entries, index) or turned
            if action.startswith("order") and ordered is None:
                said = text(language, "euchre.bid.order_plain")
            else:
                said = bid_words(action, ordered or "", language)
            lines.append(text(language, "euchre.log.said", name=name, words=said))
        elif kind == "trump":
            trump = str(data.get("trump")) if data.get("trump") else trump
            if data.get("alone") and entry.seat is not None:
                partner = table.name((entry.seat + 2) % 4)
                lines.append(text(language, "euchre.log.alone", name=name, partner=partner))
        elif kind == "pick_up":
            picked = shown(str(data.get("card")))
            lines.append(text(language, "euchre.log.pick_up", name=name, card=picked))
        elif kind == "dealer_discarded":
            lines.append(text(language, "euchre.log.discarded", name=name))
        elif kind == "lead":
            led = None
        elif kind == "play":
            lines.append(_play_line(name, str(data.get("card")), trump, led, language))
            if led is None:
                led = EFFECTIVE[trump][card(str(data.get("card")))] if trump else None
        elif kind == "trick":
            led = None
            lines.append(text(language, "euchre.log.trick", name=name))
        elif kind == "redeal":
            lines.append(text(language, "euchre.log.redeal"))
        elif kind != "round_over":
            key = f"euchre.log.{kind}"
            lines.append(text(language, key if has_key(key) else "log.unknown", kind=kind))
    return lines


def recent_log_lines(entries: Sequence[LogEntry], table: TableContext, count: int) -> list[str]:
    """The last `count` of `log_lines`, worded from a round's start or, in the round in play,
    from a trick's (trump comes from the view then, and no suit was led)."""
    return recent_lines(
        entries, count, _fresh_starts(entries, table), lambda tail: log_lines(tail, table)
    )


def _fresh_starts(entries: Sequence[LogEntry], table: TableContext) -> Iterator[int]:
    """Where `log_lines` begins afresh, newest first: a round's start; in the round in play
    (its view at hand), the entry after a trick."""
    current = _starts_current_round(entries)
    in_play = isinstance(table.snapshot.view, EuchreView)
    for index in range(len(entries) - 1, 0, -1):
        entry = entries[index]
        round_start = entry.source == "table" and entry.kind == "round_started"
        after_trick = in_play and index - 1 >= current and entries[index - 1].kind == "trick"
        if round_start or after_trick:
            yield index


def _starts_current_round(entries: Sequence[LogEntry]) -> int:
    """Index of the first entry of the round in play (after the last round_started)."""
    for index in range(len(entries) - 1, -1, -1):
        if entries[index].source == "table" and entries[index].kind == "round_started":
            return index + 1
    return 0


def _turned_for(entries: Sequence[LogEntry], index: int) -> str | None:
    """The turned card an order-up names: the dealer's pick-up right after it, if logged."""
    for entry in entries[index + 1 : index + 3]:
        if entry.kind == "pick_up":
            return str(entry.data.get("card"))
    return None


def _play_line(name: str, played: str, trump: str | None, led: str | None, language: str) -> str:
    shown = named_card(played, trump, language)
    if led is None:
        return text(language, "euchre.log.lead", name=name, card=shown)
    if trump is not None:
        suit = EFFECTIVE[trump][card(played)]
        if suit == trump and led != trump:
            return text(language, "euchre.log.trumps", name=name, card=shown)
        if suit != led:
            return text(language, "euchre.log.off", name=name, card=shown)
    return text(language, "euchre.log.play", name=name, card=shown)


# -- labels ----------------------------------------------------------------------------------


def action_labeler(view: EuchreView | None, language: str) -> Callable[[str], str]:
    """`order alone` -> "Order up J♥ alone", `call H` -> "Call ♥", `play JD` -> "J♦"."""

    def label(notation: str) -> str:
        words = notation.split()
        head, alone = words[0], words[-1] == "alone"
        if head == "pass":
            return text(language, "euchre.action.pass")
        if head == "order":
            turned = pretty(view.turned) if view is not None else ""
            key = "euchre.action.order_alone" if alone else "euchre.action.order"
            return text(language, key, card=turned)
        if head == "call" and len(words) > 1:
            key = "euchre.action.call_alone" if alone else "euchre.action.call"
            return text(language, key, suit=suit_symbol(words[1]))
        if head == "discard" and len(words) == 2:
            return text(language, "euchre.action.discard", card=pretty(words[1]))
        if head == "play" and len(words) == 2:
            trump = view.trump if view is not None else None
            return named_card(words[1], trump, language, pretty)
        return notation

    return label


def piece_labeler(language: str) -> Callable[[str, str], str]:
    def label(prefix: str, piece: str) -> str:
        key = f"euchre.family.{piece}"
        return text(language, key) if has_key(key) else piece

    return label


# -- pictures ----------------------------------------------------------------------------------


def hand_rows(view: EuchreView, language: str) -> tuple[CardRow, ...]:
    """ "My cards" as a picture: the hand sorted by suit, trump first, then the dealer's own
    discard (in the dealer's view only)."""
    rows = []
    if view.hand:
        rows.append(
            CardRow("", tuple(n for group in sorted_hand(view.hand, view.trump) for n in group))
        )
    if view.discard is not None:
        rows.append(CardRow(text(language, "table.discard"), (view.discard,)))
    return tuple(rows)


def table_rows(view: EuchreView, table: TableContext) -> tuple[CardRow, ...]:
    """The table as a picture: the turned card while it is up; then each place with the card it
    played to the trick (the last trick, with its winner, between two tricks; empty places
    before the first lead, so the picture never goes away while the hand is played)."""
    language = table.language
    names = [info.name for info in table.snapshot.seats]  # drawn: not markdown-escaped
    if view.trump is None:
        if view.phase != ORDER_UP:  # turned down (or thrown in): no longer on the table
            return ()
        return (CardRow(text(language, "euchre.field.turned"), (view.turned,)),)
    trick, note = view.trick, ""
    if not trick and view.tricks:
        trick = view.tricks[-1]
        winner = view.trick_winners[-1]
        note = text(language, "picture.won_by", name=names[winner] if winner < len(names) else "?")
    if not trick and view.phase == OVER:
        return ()
    played = dict(trick)
    seats = [seat for seat in range(4) if seat != view.sitting_out]
    cards = tuple(played.get(seat, EMPTY) for seat in seats)
    captions = tuple(text(language, PLACES[seat]) for seat in seats)  # each card by its place
    return (CardRow(text(language, "euchre.field.trick"), cards, note=note, captions=captions),)


def round_end_rows(
    view: EuchreView,
    names: Sequence[str],
    points: Sequence[int],
    totals: Sequence[int],
    language: str,
) -> tuple[RoundEndRow, ...]:
    """The round-end picture: each place's hand face up, as it played its cards trick after
    trick (a hand is played out by the end, so the tricks show every hand), with its team's
    points and total; a partner who sat out shows none. Nothing for a deal thrown in."""
    if not view.tricks:
        return ()
    played: dict[int, list[str]] = {seat: [] for seat in range(4)}
    for trick in view.tricks:
        for seat, name in trick:
            played[seat].append(name)
    return tuple(
        RoundEndRow(
            f"{names[seat] if seat < len(names) else '?'} · {text(language, PLACES[seat])}",
            tuple(played[seat]),
            points[seat] if seat < len(points) else 0,
            totals[seat] if seat < len(totals) else 0,
        )
        for seat in range(4)
    )
