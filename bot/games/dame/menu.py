"""Dame de Pique's "My cards" menu: the moves a player most often wants are single buttons,
and menus hold the rest.

- Drawing: Draw, and the take of the pile with every natural of its top card's rank (one
  button: "Take the pile with 7♥ 7♦"); any other take is in a select below.
- Laying: a row of single moves: Knock, each new pack the hand can lay now (every natural of a
  rank, or a pair and one wild card) and each add of the hand's naturals to a team pack. Then
  one select to lay any other pack or add (a rank or a pack, then its cards picked together in
  one select: a *pick*), and the discards, as buttons when they fit, else a select.
- Knocking: with the knock offered, the knock and the move before or after it are one click
  where they fit: "Lay 7♠ 7♥ 7♦ and knock" next to each pack's button (only if nothing else
  leaves the message), "Knock and discard 7♥" below each discard button, or with the discards
  in a select (up to 25, a select's options) a second select "Knock and discard a card" below
  it. The Knock button stays (to knock before laying).

The engine offers a bounded set of moves (`lists_every_move` is False): every 3-card pack,
single-card add and the whole packs; a pick (`m=<prefix>`, a select of several values) lays any
number of cards in one action, `meld 7S 7H 2C JK`, which the engine's check accepts or refuses
like any click. A pick takes any count of its cards, so a count the rules refuse (two cards
for a new pack) gets the engine's sentence instead of a choice Discord silently drops.

A pick lists every candidate card once, so it fits a select: at most the 8 naturals of a rank
and the 12 wild cards of the two decks, 20 options (`MOST_CANDIDATES`, tested against the
deck), however large the hand.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import replace
from typing import TypeVar

from bot.custom_ids import THEN, navigate_id, pick_id, play_id, select_id
from bot.games.dame import render
from bot.games.plugin import TableContext
from bot.i18n import text
from bot.render.actions import (
    MAX_BUTTONS_PER_ROW,
    MAX_OPTIONS,
    MAX_ROWS,
    ButtonSpec,
    ComponentSpec,
    MenuText,
    SelectSpec,
    action_menu,
    verb,
)
from bot.render.cards import card_emoji, pretty
from bot.snapshots import PrivateSnapshot
from games.cards import card
from games.dame.rules import DECK, IS_WILD, NATURAL_RANKS, PACK_MIN
from games.dame.views import DRAW_PHASE, PLAY_PHASE, DameView, PlayOptions

DRAW, TAKE, MELD, ADD, ANNOUNCE, DISCARD = "draw", "take", "meld", "add", "announce", "discard"
LAY = "lay"  # the custom id of the select of packs to lay or add to
STEP_MARK = "."  # "meld 7.": the step of the 7 pack (a group prefix of the legal 7 melds)
MOST_CANDIDATES = max(
    sum(1 for c in DECK if c.rank == rank or IS_WILD[c]) for rank in NATURAL_RANKS
)
ORDINALS = ("", "", "dame.menu.copy.2", "dame.menu.copy.3", "dame.menu.copy.4")
T = TypeVar("T")


def meld_step(rank: str) -> str:
    return f"{MELD} {rank}{STEP_MARK}"


def add_step(rank: str) -> str:
    return f"{ADD} {rank}"


def components(
    private: PrivateSnapshot, prefix: str, table: TableContext
) -> list[ComponentSpec] | None:
    """The components of "My cards" at `prefix` on the player's turn (None: the shared menu)."""
    view: DameView | None = private.view
    if view is None or view.legal is None or not private.legal:
        return None
    legal = view.legal
    round_no = private.round_no or 0
    language = table.language
    if view.phase == DRAW_PHASE:
        return _drawing(private, view, prefix, round_no, language)
    if view.phase != PLAY_PHASE:
        return None
    if not prefix:
        return _top(private, view, legal, round_no, language)
    kind, _, rest = prefix.partition(" ")
    if kind == MELD and rest.endswith(STEP_MARK) and rest[:-1] in legal.meld_ranks:
        rank = rest[: -len(STEP_MARK)]
        return _pick(private.table_id, round_no, view, MELD, rank, language)
    if kind == ADD and rest in legal.add_ranks:
        return _pick(private.table_id, round_no, view, add_step(rest), rest, language)
    return None


def candidates(view: DameView, rank: str, language: str = "en") -> list[tuple[str, str]]:
    """The cards in hand that may go in a `rank` pack, naturals first (the hand's order): (value,
    label). A value names the card (`7S`: its lowest copy in hand) or, for a further copy, that
    copy (`7S#1`), so every card is one option and the values are distinct; a further copy
    reads "a second 7♠" ("a third 🃏": four jokers)."""
    picked: list[tuple[str, str]] = []
    copies: dict[str, int] = {}
    for code in view.hand:
        if not render.is_wild(code) and card(code).rank != rank:
            continue
        name = render.name_of(code)
        count = copies[name] = copies.get(name, 0) + 1
        if count == 1:
            picked.append((name, pretty(name)))
        else:
            key = ORDINALS[min(count, len(ORDINALS) - 1)]
            picked.append((code, text(language, key, card=pretty(name))))
    return picked


def likely_moves(view: DameView, legal: Sequence[str]) -> list[str]:
    """The moves a player most often wants, in the order shown, among the offered ones: while
    drawing, the take with every natural of the top card's rank (else the first take); while
    laying, the knock, each new pack of every natural of a rank (or a pair and the first wild
    card) and each add of every natural of a pack's rank."""
    offered = set(legal)
    if view.phase == DRAW_PHASE:
        takes = [a for a in legal if verb(a) == TAKE and a != TAKE]
        whole = max(takes, key=lambda a: len(a.split()), default=None)
        return [whole] if whole is not None else []
    moves = [ANNOUNCE] if ANNOUNCE in offered else []
    options = view.legal
    if options is None:
        return moves
    groups = dict(render.hand_groups(view.hand))
    wilds = [render.name_of(c) for c in groups.get(render.WILD, ())]
    for rank in options.meld_ranks:
        names = [render.name_of(c) for c in groups.get(rank, ())]
        if len(names) == 2 and wilds:
            names.append(wilds[0])
        move = " ".join((MELD, *names))
        if move in offered:
            moves.append(move)
    for rank in options.add_ranks:
        names = [render.name_of(c) for c in groups.get(rank, ())]
        move = " ".join((ADD, rank, *names))
        if names and move in offered:
            moves.append(move)
    return moves


def _labels(view: DameView, language: str) -> MenuText:
    """The menu's words, each action's label and picture worked out once per render (a menu
    with the knock offered is laid out twice, and its buttons are the same in both)."""
    return MenuText(
        action_label=_once(render.action_labeler(view, language)),
        piece_label=render.piece_labeler(view, language),
        choose=text(language, "menu.choose"),
        back=text(language, "menu.back"),
        action_emoji=_once(render.action_emoji(view)),
    )


def _once(work: Callable[[str], T]) -> Callable[[str], T]:
    """`work`, remembering its answer per action for as long as the function lives (one
    render: what it reads, the view, the language and the deck, do not change within it)."""
    done: dict[str, T] = {}

    def remembered(action: str) -> T:
        try:
            return done[action]
        except KeyError:
            value = done[action] = work(action)
            return value

    return remembered


STYLES = {DRAW: "primary", ANNOUNCE: "danger"}  # by the whole action
LAYING = frozenset((TAKE, MELD, ADD))  # by its verb


def _button(table_id: int, round_no: int, action: str, labels: MenuText, row: int) -> ButtonSpec:
    style = "success" if verb(action) in LAYING else STYLES.get(action, "secondary")
    return ButtonSpec(
        play_id(table_id, round_no, action),
        labels.action_label(action),
        style,
        row,
        labels.action_emoji(action),
    )


def _drawing(
    private: PrivateSnapshot, view: DameView, prefix: str, round_no: int, language: str
) -> list[ComponentSpec] | None:
    """Draw and the likely take as buttons, any other take in a select."""
    if prefix:
        return None  # a step of the shared menu (a group of takes)
    table_id = private.table_id
    labels = _labels(view, language)
    singles = [a for a in private.legal if verb(a) != TAKE or a == TAKE]
    likely = likely_moves(view, private.legal)
    specs: list[ComponentSpec] = [
        _button(table_id, round_no, action, labels, 0) for action in singles + likely
    ]
    others = [a for a in private.legal if verb(a) == TAKE and a != TAKE and a not in likely]
    if others:
        labels = replace(labels, choose=text(language, "dame.menu.take_other"))
        shown = action_menu(others, "", table_id=table_id, round_no=round_no, labels=labels)
        specs += [replace(s, row=s.row + 1) for s in shown]
    return specs


def _top(
    private: PrivateSnapshot, view: DameView, legal: PlayOptions, round_no: int, language: str
) -> list[ComponentSpec]:
    """The likely moves as buttons, one select of every pack to lay or add to, then the
    discards: buttons when they fit the rows left, else a select."""
    table_id = private.table_id
    labels = _labels(view, language)
    discards = [a for a in private.legal if verb(a) == DISCARD]
    lay = _lay_select(private, view, legal, round_no, 0, language)
    # the single moves first (each saves a select and a pick), then the select of every other
    # lay, then the discards (buttons if they fit the rows left, else a select)
    shortcut_rows = MAX_ROWS - (lay is not None) - bool(discards)
    every_likely = likely_moves(view, private.legal)
    likely = every_likely[: shortcut_rows * MAX_BUTTONS_PER_ROW]
    knock_select = ANNOUNCE in likely and 0 < len(discards) <= MAX_OPTIONS
    if knock_select and len(discards) <= _rows_left(likely, lay) * MAX_BUTTONS_PER_ROW:
        knock_select = False  # the discards are buttons: "Knock and discard" ones, if they fit
    if knock_select and _rows_left(likely, lay) == 1:
        # a row for the select of "Knock and discard 7♥" (the turn's end in one choice)
        likely = every_likely[: (shortcut_rows - 1) * MAX_BUTTONS_PER_ROW]
    made: dict[tuple[str, int], ButtonSpec] = {}  # the buttons both layouts share, made once
    plain = _laid_out(table_id, round_no, likely, lay, discards, labels, language, made)
    if ANNOUNCE not in likely:
        return plain
    # "Lay 7♠ 7♥ 7♦ and knock" after each pack's button (`meld 7S 7H 7D;announce`), when
    # they fit without taking anything else off the message
    knocking = _and_knock(table_id, round_no, likely)
    if knocking == likely:
        return plain  # no pack to lay: the same buttons laid out the same way
    richer = _laid_out(table_id, round_no, knocking, lay, discards, labels, language, made)
    kept = {spec.custom_id for spec in plain}
    if max(spec.row for spec in richer) < MAX_ROWS and kept <= {s.custom_id for s in richer}:
        return richer
    return plain


def _and_knock(table_id: int, round_no: int, likely: list[str]) -> list[str]:
    """The likely moves with each new pack's and the knock's move after the pack's own (one
    click: the pack laid, then the knock); none whose custom id would be too long."""
    moves: list[str] = []
    for action in likely:
        moves.append(action)
        if verb(action) == MELD:
            both = f"{action}{THEN}{ANNOUNCE}"
            try:
                play_id(table_id, round_no, both)
            except ValueError:  # longer than a custom id may be (a pack of 8 at a huge id)
                continue
            moves.append(both)
    return moves


def _laid_out(
    table_id: int,
    round_no: int,
    likely: list[str],
    lay: SelectSpec | None,
    discards: list[str],
    labels: MenuText,
    language: str,
    made: dict[tuple[str, int], ButtonSpec],
) -> list[ComponentSpec]:
    """The likely moves' buttons, the select of packs, then the discards (buttons, with
    "Knock and discard" ones when they fit, else a select and one of knock and discard).
    `made`: the buttons made so far by action and row (a move's button, a pack's and the
    knock's, the knock's and a discard's), shared with this menu's other layout."""

    def button(action: str, row: int) -> ButtonSpec:
        spec = made.get((action, row))
        if spec is None:
            if THEN not in action:
                spec = _button(table_id, round_no, action, labels, row)
            elif action.startswith(ANNOUNCE):
                spec = _knock_button(table_id, round_no, action, labels, row, language)
            else:
                spec = _meld_knock_button(table_id, round_no, action, labels, row, language)
            made[action, row] = spec
        return spec

    knocks = _knocks_with_discards(likely, discards, lay is not None)
    specs: list[ComponentSpec] = []
    row = 0
    for start in range(0, len(likely), MAX_BUTTONS_PER_ROW):
        specs += [button(action, row) for action in likely[start : start + MAX_BUTTONS_PER_ROW]]
        row += 1
    if lay is not None:
        specs.append(replace(lay, row=row))
        row += 1
    if len(discards) <= (MAX_ROWS - row) * MAX_BUTTONS_PER_ROW:
        for moves in (discards, knocks):
            for start in range(0, len(moves), MAX_BUTTONS_PER_ROW):
                specs += [button(a, row) for a in moves[start : start + MAX_BUTTONS_PER_ROW]]
                row += 1
    elif discards:
        labels = replace(labels, choose=text(language, "dame.family.discard"))
        shown = action_menu(discards, "", table_id=table_id, round_no=round_no, labels=labels)
        specs += [replace(s, row=s.row + row) for s in shown]
        row += max(s.row for s in shown) + 1
        if ANNOUNCE in likely and len(discards) <= MAX_OPTIONS and row < MAX_ROWS:
            specs.append(_knock_select(table_id, round_no, discards, labels, row, language))
    return specs


def _meld_knock_button(
    table_id: int, round_no: int, action: str, labels: MenuText, row: int, language: str
) -> ButtonSpec:
    meld = action.split(THEN)[0]
    cards = " ".join(pretty(word) for word in meld.split()[1:])
    return ButtonSpec(
        play_id(table_id, round_no, action),
        text(language, "dame.menu.meld_and_knock", cards=cards),
        "success",
        row,
        labels.action_emoji(meld),
    )


def _rows_left(likely: list[str], lay: SelectSpec | None) -> int:
    """The rows left below the likely moves' buttons and the select of packs."""
    return MAX_ROWS - -(-len(likely) // MAX_BUTTONS_PER_ROW) - (lay is not None)


def _knock_select(
    table_id: int,
    round_no: int,
    discards: list[str],
    labels: MenuText,
    row: int,
    language: str,
) -> SelectSpec:
    """The discards in a select (a big hand), and below them the same discards with the knock
    (`announce;discard 7H`: "Knock and discard 7♥"), the turn's end in one choice. At most 25
    discards (a select's options); the Knock button stays (to knock before laying)."""
    options = tuple(
        (
            text(language, "dame.menu.knock_and_discard", card=pretty(d.split(" ")[1])),
            f"{ANNOUNCE}{THEN}{d}",
        )
        for d in discards
    )
    emojis = _or_none(tuple(labels.action_emoji(d) for d in discards))
    placeholder = text(language, "dame.menu.knock_and_discard_choose")
    return SelectSpec(select_id(table_id, round_no, ANNOUNCE), placeholder, options, row, emojis)


def _knocks_with_discards(likely: list[str], discards: list[str], lay: bool) -> list[str]:
    """With the knock offered, the turn's end as one click, "Knock and discard 7♥" below each
    discard (`announce;discard 7H`): when they fit the rows left (a hand of a few cards, when
    a knock is most likely), else none. The Knock button stays (to knock before laying)."""
    if ANNOUNCE not in likely or not discards:
        return []
    others = -(-len(likely) // MAX_BUTTONS_PER_ROW) + int(lay)
    discard_rows = -(-len(discards) // MAX_BUTTONS_PER_ROW)
    if others + 2 * discard_rows > MAX_ROWS:
        return []
    return [f"{ANNOUNCE}{THEN}{discard}" for discard in discards]


def _knock_button(
    table_id: int, round_no: int, action: str, labels: MenuText, row: int, language: str
) -> ButtonSpec:
    discard = action.split(THEN)[1]
    name = discard.split(" ")[1]
    return ButtonSpec(
        play_id(table_id, round_no, action),
        text(language, "dame.menu.knock_and_discard", card=pretty(name)),
        "danger",
        row,
        labels.action_emoji(discard),
    )


def _lay_select(
    private: PrivateSnapshot,
    view: DameView,
    legal: PlayOptions,
    round_no: int,
    row: int,
    language: str,
) -> SelectSpec | None:
    """One select of every new pack (its rank) and every team pack to add to: choosing one
    opens the pick of its cards."""
    options: list[tuple[str, str]] = []
    emojis: list[str | None] = []
    if legal.meld_ranks:
        groups = dict(render.hand_groups(view.hand))  # the hand by rank, read once
        wilds = len(groups.get(render.WILD, ()))
        for rank in legal.meld_ranks:
            options.append(
                (_rank_label(rank, groups.get(rank, ()), wilds, language), meld_step(rank))
            )
            emojis.append(_first_card(groups.get(rank) or groups.get(render.WILD, ())))
    if legal.add_ranks:
        packs = {p.rank: p for p in view.packs[render.team_of(private.seat)]}
        for rank in legal.add_ranks:
            count = len(packs[rank].cards) if rank in packs else 0
            label = text(language, "dame.menu.add_option", rank=rank, count=count)
            options.append((label, add_step(rank)))
            emojis.append(_first_card(packs[rank].cards if rank in packs else ()))
    if not options:
        return None
    placeholder = text(language, "dame.menu.lay")
    lay_id = select_id(private.table_id, round_no, LAY)
    return SelectSpec(lay_id, placeholder, tuple(options), row, _or_none(tuple(emojis)))


def _first_card(codes: Sequence[str]) -> str | None:
    """The picture of the first card of a group (a rank in hand, a pack), if any."""
    return card_emoji(render.name_of(codes[0])) if codes else None


def _or_none(emojis: tuple[str | None, ...]) -> tuple[str | None, ...]:
    """Per-option pictures, or none at all when cards are text."""
    return emojis if any(emojis) else ()


def _rank_label(rank: str, naturals: Sequence[str], wilds: int, language: str) -> str:
    """A new pack's option: the rank, the hand's cards of that rank and its wild cards."""
    cards = render.label_all(naturals)
    if not wilds:
        return text(language, "dame.menu.rank_option", rank=rank, cards=cards)
    return text(language, "dame.menu.rank_option_wild", rank=rank, cards=cards, count=wilds)


def _pick(
    table_id: int, round_no: int, view: DameView, prefix: str, rank: str, language: str
) -> list[ComponentSpec]:
    """One select of the cards that may go in the `rank` pack, any number chosen at once (the
    engine refuses a count the rules do not allow, with its reason), and a button back."""
    picked = candidates(view, rank, language)
    options = tuple((label, value) for value, label in picked)
    emojis = _or_none(tuple(card_emoji(render.name_of(value)) for value, _ in picked))
    legal = view.legal
    most = min(len(options), legal.max_lay if legal is not None else len(options))
    key = "dame.menu.pick_meld" if prefix == MELD else "dame.menu.pick_add"
    placeholder = text(language, key, rank=rank, least=PACK_MIN if prefix == MELD else 1, most=most)
    return [
        SelectSpec(
            pick_id(table_id, round_no, prefix),
            placeholder,
            options,
            0,
            emojis,
            min_values=1,
            max_values=len(options),
        ),
        ButtonSpec(navigate_id(table_id, round_no, ""), text(language, "menu.back"), row=1),
    ]
