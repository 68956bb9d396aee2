"""The action menu of a player's private message, built from the legal actions in notation.

The glue never decides what is legal: it lays out the notations the engine listed. A family of
one action becomes a button; a family of actions (`swap 1` … `swap 4`) becomes a row of
buttons when short, a select when longer, and, past 25 choices (a Jack among ten players), a
chain of selects that narrows one piece at a time (own card, then seat, then slot). A piece
with more than 25 values (a card among a hand of 40) is chosen by its first character first
(a group prefix `discard 1.`: the 10s), so no choice is ever dropped.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass

from bot.custom_ids import navigate_id, play_id, select_id

MAX_ROWS = 5
MAX_BUTTONS_PER_ROW = 5
MAX_OPTIONS = 25

ActionLabel = Callable[[str], str]  # full notation -> label
PieceLabel = Callable[[str, str], str]  # (prefix, piece) -> label


@dataclass(frozen=True, slots=True)
class ButtonSpec:
    custom_id: str
    label: str
    style: str = "secondary"  # primary, secondary, success, danger
    row: int = 0
    emoji: str | None = None  # a custom emoji's markup (`<:name:id>`) or a unicode emoji
    disabled: bool = False  # shown greyed (a replay's step past its end), never clicked


@dataclass(frozen=True, slots=True)
class SelectSpec:
    custom_id: str
    placeholder: str
    options: tuple[tuple[str, str], ...]  # (label, value)
    row: int = 0
    emojis: tuple[str | None, ...] = ()  # per option, when some show a card
    # How many options a choice takes: one, except in a pick (`m=`: several cards at once).
    min_values: int = 1
    max_values: int = 1


ComponentSpec = ButtonSpec | SelectSpec


@dataclass(frozen=True, slots=True)
class SectionSpec:
    """A move beside what it concerns: a line naming a card, a pack or a slot (cards as their
    emojis) with the button that plays it. A Components V2 message lays it out as a section
    whose accessory is the button; the button is the menu's own (same custom id), so a click
    on it is the click the menu's row would take."""

    text: str
    button: ButtonSpec


GROUP_MARK = "."  # a prefix ending so names a group of pieces by their first character


def under(legal: Sequence[str], prefix: str) -> list[str]:
    """The legal actions that start with `prefix` (a whole piece: `swap` is not under `sw`;
    a group prefix `discard 1.` takes the pieces starting with `1`)."""
    if not prefix:
        return list(legal)
    if prefix.endswith(GROUP_MARK):
        return [a for a in legal if a.startswith(prefix[: -len(GROUP_MARK)])]
    return [
        a
        for a in legal
        if a == prefix or a.startswith(prefix if prefix.endswith(":") else prefix + " ")
    ]


def join(prefix: str, piece: str) -> str:
    if not prefix or prefix.endswith(":"):
        return prefix + piece
    return f"{prefix} {piece}"


def next_piece(prefix: str, action: str) -> str:
    """The next piece of `action` after `prefix`: a word, or a `seat:` before its slot."""
    rest = action[len(prefix) :].lstrip(" ")
    word = rest.split(" ", 1)[0]
    seat, colon, _ = word.partition(":")
    return seat + colon if colon else word


def verb(action: str) -> str:
    return action.split(" ", 1)[0]


@dataclass(frozen=True, slots=True)
class MenuText:
    action_label: ActionLabel
    piece_label: PieceLabel
    choose: str  # select placeholder
    back: str  # label of the button back to the top level
    action_emoji: Callable[[str], str | None] = lambda _: None  # a card shown on the action


def action_menu(
    legal: Sequence[str],
    prefix: str,
    *,
    table_id: int,
    round_no: int,
    labels: MenuText,
    styles: Mapping[str, str] | None = None,
    buttons: Collection[str] = (),
) -> list[ComponentSpec]:
    """The components for the actions under `prefix` ("" for the whole menu). Families named
    in `buttons` are laid out as buttons (five a row, coloured by `styles`), never a select."""
    if prefix:
        return _stage(legal, prefix, table_id, round_no, labels)
    return _top(legal, table_id, round_no, labels, styles or {}, buttons)


def _rows(name: str, actions: Sequence[str], buttons: Collection[str]) -> int:
    if name in buttons:
        return -(-len(actions) // MAX_BUTTONS_PER_ROW)
    return 1


def _top(
    legal: Sequence[str],
    table_id: int,
    round_no: int,
    labels: MenuText,
    styles: Mapping[str, str],
    buttons: Collection[str] = (),
) -> list[ComponentSpec]:
    families: dict[str, list[str]] = {}
    for action in legal:
        families.setdefault(verb(action), []).append(action)
    singles = [acts[0] for acts in families.values() if len(acts) == 1]
    groups = [(name, acts) for name, acts in families.items() if len(acts) > 1]
    specs: list[ComponentSpec] = []
    row = 0
    for start in range(0, len(singles), MAX_BUTTONS_PER_ROW):
        for action in singles[start : start + MAX_BUTTONS_PER_ROW]:
            style = styles.get(action, "secondary")
            label = labels.action_label(action)
            emoji = labels.action_emoji(action)
            specs.append(ButtonSpec(play_id(table_id, round_no, action), label, style, row, emoji))
        row += 1
    if row + sum(_rows(name, acts, buttons) for name, acts in groups) > MAX_ROWS:
        # Too many families for one message: a select of families, each opening its own stage.
        options = tuple((labels.piece_label("", name), name) for name, _ in groups[:MAX_OPTIONS])
        specs.append(SelectSpec(select_id(table_id, round_no, ""), labels.choose, options, row))
        return specs
    for name, acts in groups:
        if name in buttons:
            for start in range(0, len(acts), MAX_BUTTONS_PER_ROW):
                for action in acts[start : start + MAX_BUTTONS_PER_ROW]:
                    style = styles.get(action, "secondary")
                    label = labels.action_label(action)
                    emoji = labels.action_emoji(action)
                    specs.append(
                        ButtonSpec(play_id(table_id, round_no, action), label, style, row, emoji)
                    )
                row += 1
            continue
        if len(acts) <= MAX_BUTTONS_PER_ROW and all(len(a.split(" ")) == 2 for a in acts):
            for action in acts:
                specs.append(
                    ButtonSpec(
                        play_id(table_id, round_no, action),
                        labels.action_label(action),
                        "secondary",
                        row,
                        labels.action_emoji(action),
                    )
                )
        else:
            specs.append(_select_for(legal, name, table_id, round_no, labels, row))
        row += 1
    return specs


def _stage(
    legal: Sequence[str], prefix: str, table_id: int, round_no: int, labels: MenuText
) -> list[ComponentSpec]:
    return [
        _select_for(legal, prefix, table_id, round_no, labels, 0),
        ButtonSpec(navigate_id(table_id, round_no, ""), labels.back, "secondary", 1),
    ]


def _select_for(
    legal: Sequence[str], prefix: str, table_id: int, round_no: int, labels: MenuText, row: int
) -> SelectSpec:
    actions = under(legal, prefix)
    emojis: tuple[str | None, ...] = ()
    if len(actions) <= MAX_OPTIONS:
        options = tuple((labels.action_label(a), a) for a in actions)
        emojis = tuple(labels.action_emoji(a) for a in actions)
        if not any(emojis):
            emojis = ()
        return SelectSpec(
            select_id(table_id, round_no, prefix), labels.choose, options, row, emojis
        )
    base = prefix
    if prefix.endswith(GROUP_MARK):  # the pieces of a group: back to the whole prefix
        base = prefix[: -len(GROUP_MARK)].rpartition(" ")[0]
    pieces: list[str] = []
    for action in actions:
        piece = next_piece(base, action)
        if piece not in pieces:
            pieces.append(piece)
    if len(pieces) <= MAX_OPTIONS:
        options = tuple((labels.piece_label(base, p), join(base, p)) for p in pieces)
        # A piece that ends an action (a card to discard) shows that action's card picture.
        emojis = tuple(labels.action_emoji(value) for _, value in options)
        if not any(emojis):
            emojis = ()
    else:
        # More pieces than a select holds (a big hand): first choose by their first character
        # (a card's rank), then the piece; nothing is dropped.
        groups: dict[str, list[str]] = {}
        for piece in pieces:
            groups.setdefault(piece[0], []).append(piece)
        options = tuple(
            (
                _clip(", ".join(labels.piece_label(base, p) for p in members)),
                join(base, first) + GROUP_MARK,
            )
            for first, members in list(groups.items())[:MAX_OPTIONS]
        )
        # A group shows the picture of its first piece (a rank's first card).
        emojis = tuple(
            labels.action_emoji(join(base, members[0]))
            for members in list(groups.values())[:MAX_OPTIONS]
        )
        if not any(emojis):
            emojis = ()
    return SelectSpec(select_id(table_id, round_no, prefix), labels.choose, options, row, emojis)


def _clip(label: str, limit: int = 100) -> str:
    """A select option's label fits Discord's 100 characters."""
    return label if len(label) <= limit else label[: limit - 1] + "…"
