"""Dame de Pique's "My cards" menu.

The moves a player most often wants are single buttons, and menus hold the rest (draw or take,
lay, discard, knock: bot/games/README.md shows each).

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
from bot.render.card_text import card_emoji
from bot.snapshots import PrivateSnapshot
from games.cards import card
from games.dame.hints import discard_order
from games.dame.rules import DECK, IS_WILD, NATURAL_RANKS, PACK_MIN, card_value
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
    private: PrivateSnapshot[DameView], prefix: str, table: TableContext
) -> list[ComponentSpec] | None:
    """The components of "My cards" at `prefix` on the player's turn (None: the shared menu)."""
    view = private.view
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
    reads "a second 7♠" ("a third joker": four jokers)."""
    picked: list[tuple[str, str]] = []
    copies: dict[str, int] = {}
    for code in view.hand:
        if not render.is_wild(code) and card(code).rank != rank:
            continue
        name = render.name_of(code)
        count = copies[name] = copies.get(name, 0) + 1
        if count == 1:
            picked.append((name, render.label(name, language)))
        else:
            key = ORDINALS[min(count, len(ORDINALS) - 1)]
            picked.append((code, text(language, key, card=render.label(name, language))))
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
    private: PrivateSnapshot[DameView], view: DameView, prefix: str, round_no: int, language: str
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
    private: PrivateSnapshot[DameView],
    view: DameView,
    legal: PlayOptions,
    round_no: int,
    language: str,
) -> list[ComponentSpec]:
    """The turn laid out so the likely moves are found at once: the packs the hand lays whole
    as buttons, one select of every other pack, then the discards the player most likely
    wants as buttons (`games.dame.hints`; the Knock button after them, so it is never the
    first button in the way), a select of the other discards, and one of "Knock and
    discard", the turn's end in one choice."""
    table_id = private.table_id
    labels = _labels(view, language)
    offered = tuple(a for a in private.legal if verb(a) == DISCARD)
    discards = [
        f"{DISCARD} {c}" for c in discard_order(view, tuple(a[len(DISCARD) + 1 :] for a in offered))
    ]
    knocks = ANNOUNCE in private.legal
    # a knock made on the previous turn holds now: no Knock button for it, only a knock
    # again with the discard (one that holds for the next turn, if this one does not end it)
    knock_button = knocks and not legal.may_go_out
    lay = _lay_select(private, view, legal, round_no, 0, language)
    block = _discard_block(table_id, round_no, discards, knocks, knock_button, labels, language)
    likely = [a for a in likely_moves(view, private.legal) if a != ANNOUNCE]
    rows_left = MAX_ROWS - _rows_of(block) - (lay is not None)
    if likely and rows_left < 1 and knocks:  # a whole pack matters more than a shortcut
        block = _discard_block(table_id, round_no, discards, False, knock_button, labels, language)
        rows_left = MAX_ROWS - _rows_of(block) - (lay is not None)
    shown = likely[: max(rows_left, 0) * MAX_BUTTONS_PER_ROW]
    if knock_button:
        # "Lay 7♠ 7♥ 7♦ and knock" after each pack's button, when nothing else leaves
        with_knock = _and_knock(table_id, round_no, shown)
        if len(with_knock) <= max(rows_left, 0) * MAX_BUTTONS_PER_ROW:
            shown = with_knock
    specs: list[ComponentSpec] = []
    row = 0
    for start in range(0, len(shown), MAX_BUTTONS_PER_ROW):
        for action in shown[start : start + MAX_BUTTONS_PER_ROW]:
            if THEN in action:
                specs.append(_meld_knock_button(table_id, round_no, action, labels, row, language))
            else:
                specs.append(_button(table_id, round_no, action, labels, row))
        row += 1
    if lay is not None:
        specs.append(replace(lay, row=row))
        row += 1
    specs += [replace(spec, row=spec.row + row) if row else spec for spec in block]
    return specs


def _rows_of(specs: Sequence[ComponentSpec]) -> int:
    return max((spec.row for spec in specs), default=-1) + 1


def _discard_block(
    table_id: int,
    round_no: int,
    discards: list[str],
    knocks: bool,
    knock_button: bool,
    labels: MenuText,
    language: str,
) -> list[ComponentSpec]:
    """The discards, likeliest first, from row 0: as buttons when they fit a row (then a row
    of "Knock and discard 7♥" buttons, the Knock button last); else the likeliest as buttons
    with Knock last in their row, a select of the others, and a select of "Knock and discard"
    (up to 25 discards, a select's options). `knocks`: offer the knock with the discard."""
    again = not knock_button  # a knock that holds this turn: the new one is "again"
    specs: list[ComponentSpec] = []
    if not discards:
        if knock_button:
            specs.append(_button(table_id, round_no, ANNOUNCE, labels, 0))
        return specs
    if len(discards) + knock_button * (not knocks) <= MAX_BUTTONS_PER_ROW:
        specs += [_button(table_id, round_no, d, labels, 0) for d in discards]
        if knocks:
            combos = [f"{ANNOUNCE}{THEN}{d}" for d in discards]
            if len(combos) + knock_button > MAX_BUTTONS_PER_ROW:
                combos = combos[: MAX_BUTTONS_PER_ROW - 1]
            specs += [
                _knock_button(table_id, round_no, c, labels, 1, language, again=again)
                for c in combos
            ]
        if knock_button:
            specs.append(_button(table_id, round_no, ANNOUNCE, labels, 1 if knocks else 0))
        return specs
    first = MAX_BUTTONS_PER_ROW - knock_button
    specs += [_button(table_id, round_no, d, labels, 0) for d in discards[:first]]
    if knock_button:
        specs.append(_button(table_id, round_no, ANNOUNCE, labels, 0))
    rest = discards[first:]
    row = 1
    if rest:
        choose = text(language, "dame.menu.discard_other")
        if len(rest) <= MAX_OPTIONS:
            options = tuple((labels.action_label(d), d) for d in rest)
            emojis = _or_none(tuple(labels.action_emoji(d) for d in rest))
            specs.append(
                SelectSpec(select_id(table_id, round_no, DISCARD), choose, options, row, emojis)
            )
            row += 1
        else:  # a huge hand: its discards by rank first, then the card
            menu = action_menu(
                rest,
                "",
                table_id=table_id,
                round_no=round_no,
                labels=replace(labels, choose=choose),
            )
            specs += [replace(s, row=s.row + row) for s in menu]
            row += _rows_of(menu)
    if knocks and len(discards) <= MAX_OPTIONS and row < MAX_ROWS:
        specs.append(
            _knock_select(table_id, round_no, discards, labels, row, language, again=again)
        )
    return specs


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


def _meld_knock_button(
    table_id: int, round_no: int, action: str, labels: MenuText, row: int, language: str
) -> ButtonSpec:
    meld = action.split(THEN)[0]
    cards = render.label_all(meld.split()[1:], language)
    return ButtonSpec(
        play_id(table_id, round_no, action),
        text(language, "dame.menu.meld_and_knock", cards=cards),
        "success",
        row,
        labels.action_emoji(meld),
    )


def _knock_select(
    table_id: int,
    round_no: int,
    discards: list[str],
    labels: MenuText,
    row: int,
    language: str,
    *,
    again: bool,
) -> SelectSpec:
    """The discards with the knock (`announce;discard 7H`: "Knock and discard 7♥"), the turn's
    end in one choice. At most 25 discards (a select's options). `again`: the knock made on
    the previous turn holds now; this one is for the next turn."""
    key = "dame.menu.knock_again_and_discard" if again else "dame.menu.knock_and_discard"
    options = tuple(
        (text(language, key, card=render.label(d.split(" ")[1], language)), f"{ANNOUNCE}{THEN}{d}")
        for d in discards
    )
    emojis = _or_none(tuple(labels.action_emoji(d) for d in discards))
    placeholder = text(language, f"{key}_choose")
    return SelectSpec(select_id(table_id, round_no, ANNOUNCE), placeholder, options, row, emojis)


def _knock_button(
    table_id: int,
    round_no: int,
    action: str,
    labels: MenuText,
    row: int,
    language: str,
    *,
    again: bool,
) -> ButtonSpec:
    discard = action.split(THEN)[1]
    name = discard.split(" ")[1]
    key = "dame.menu.knock_again_and_discard" if again else "dame.menu.knock_and_discard"
    return ButtonSpec(
        play_id(table_id, round_no, action),
        text(language, key, card=render.label(name, language)),
        "danger",
        row,
        labels.action_emoji(discard),
    )


def _lay_select(
    private: PrivateSnapshot[DameView],
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
    cards = render.label_all(naturals, language)
    if not wilds:
        return text(language, "dame.menu.rank_option", rank=rank, cards=cards)
    return text(language, "dame.menu.rank_option_wild", rank=rank, cards=cards, count=wilds)


PICK_BUTTON_ROWS = 3  # below the pick's select, above the button back


def pack_choices(view: DameView, rank: str, adding: bool) -> list[tuple[str, ...]]:
    """The packs of `rank` the hand can lay (`adding`: add to the team's pack), each as the
    card names it takes, up to the buttons a rank's step holds: every count of the hand's
    naturals (the most valuable first, so a Q♠ is laid) with every count of its 2s and its
    jokers, fewest wild cards first, then most naturals. Suits of a rank score alike, so these
    are every pack that scores differently, in a hand with few wild cards."""
    legal = view.legal
    most = legal.max_lay if legal is not None else 0
    groups = dict(render.hand_groups(view.hand))
    naturals = sorted(
        (render.name_of(c) for c in groups.get(rank, ())), key=lambda n: -card_value(card(n))
    )
    wilds = [render.name_of(c) for c in groups.get(render.WILD, ())]
    twos = [n for n in wilds if card(n).rank == "2"]
    jokers = [n for n in wilds if card(n).rank != "2"]
    least = 1 if adding else PACK_MIN
    fewest_naturals = 0 if adding else 1
    choices: list[tuple[str, ...]] = []
    for wild_count in range(len(wilds) + 1):
        for count in range(len(naturals), fewest_naturals - 1, -1):
            for joker_count in range(min(wild_count, len(jokers)) + 1):
                two_count = wild_count - joker_count
                if two_count > len(twos) or not least <= count + wild_count <= most:
                    continue
                choices.append((*naturals[:count], *twos[:two_count], *jokers[:joker_count]))
    return choices[: PICK_BUTTON_ROWS * MAX_BUTTONS_PER_ROW]


def _pick(
    table_id: int, round_no: int, view: DameView, prefix: str, rank: str, language: str
) -> list[ComponentSpec]:
    """A rank's step: each pack of its cards the hand can lay as a button (a pack in three
    clicks: the select, the rank, the button), above them one select of every card that may
    go in the pack, any number chosen at once (the engine refuses a count the rules do not
    allow, with its reason), and a button back."""
    picked = candidates(view, rank, language)
    options = tuple((label, value) for value, label in picked)
    emojis = _or_none(tuple(card_emoji(render.name_of(value)) for value, _ in picked))
    legal = view.legal
    most = min(len(options), legal.max_lay if legal is not None else len(options))
    key = "dame.menu.pick_meld" if prefix == MELD else "dame.menu.pick_add"
    placeholder = text(language, key, rank=rank, least=PACK_MIN if prefix == MELD else 1, most=most)
    specs: list[ComponentSpec] = [
        SelectSpec(
            pick_id(table_id, round_no, prefix),
            placeholder,
            options,
            0,
            emojis,
            min_values=1,
            max_values=len(options),
        )
    ]
    labels = _labels(view, language)
    adding = prefix != MELD
    packs: list[str] = []
    for names in pack_choices(view, rank, adding):
        action = " ".join((ADD, rank, *names) if adding else (MELD, *names))
        try:
            play_id(table_id, round_no, action)
        except ValueError:  # longer than a custom id may be: the select above lays it
            continue
        packs.append(action)
    for index, action in enumerate(packs):
        specs.append(_button(table_id, round_no, action, labels, 1 + index // MAX_BUTTONS_PER_ROW))
    back_row = 1 + -(-len(packs) // MAX_BUTTONS_PER_ROW)
    specs.append(
        ButtonSpec(navigate_id(table_id, round_no, ""), text(language, "menu.back"), row=back_row)
    )
    return specs
