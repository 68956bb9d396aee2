"""Dame de Pique's "My cards" menu while laying: a new pack is its rank, then its cards picked
together in one select; an add is the pack, then its cards. Draw, take, knock and discard are
the shared action menu of the legal notations.

Why a menu of its own: the engine lists lays in canonical form (every 3-card meld, every
single-card add), so a pack of seven would take five clicks. A *pick* (`m=<prefix>`, a select
of several values) lays any number of cards in one action, `meld 7S 7H 2C JK`, which the
engine's check accepts or refuses like any click. Only the cards that may go in that pack are
offered (its rank's naturals and the wild cards), as many as the hand may lay.

A pick lists every candidate card once, so it fits a select: at most the 8 naturals of a rank
and the 12 wild cards of the two decks, 20 options (`MOST_CANDIDATES`, tested against the
deck), however large the hand.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from bot.games.dame import render
from bot.games.plugin import TableText
from bot.i18n import text
from bot.render.actions import ButtonSpec, ComponentSpec, MenuText, SelectSpec, action_menu, verb
from bot.render.cards import card_emoji, pretty
from bot.service.snapshots import PrivateSnapshot
from bot.ui.custom_ids import navigate_id, pick_id, select_id
from games.cards import card
from games.dame.rules import DECK, IS_WILD, NATURAL_RANKS, PACK_MIN
from games.dame.views import PLAY_PHASE, DameView, PlayOptions

MELD, ADD, DISCARD = "meld", "add", "discard"
STEP_MARK = "."  # "meld 7.": the step of the 7 pack (a group prefix of the legal 7 melds)
MOST_CANDIDATES = max(
    sum(1 for c in DECK if c.rank == rank or IS_WILD[c]) for rank in NATURAL_RANKS
)


def meld_step(rank: str) -> str:
    return f"{MELD} {rank}{STEP_MARK}"


def add_step(rank: str) -> str:
    return f"{ADD} {rank}"


def components(
    private: PrivateSnapshot, prefix: str, table: TableText
) -> list[ComponentSpec] | None:
    """The components of "My cards" at `prefix` while the player lays (None: the shared menu)."""
    view: DameView | None = private.view
    if view is None or view.legal is None or view.phase != PLAY_PHASE or not private.legal:
        return None
    legal = view.legal
    round_no = private.round_no or 0
    if not prefix:
        return _top(private, view, legal, round_no, table.language)
    kind, _, rest = prefix.partition(" ")
    if kind == MELD and rest.endswith(STEP_MARK) and rest[:-1] in legal.meld_ranks:
        rank = rest[: -len(STEP_MARK)]
        return _pick(private.table_id, round_no, view, legal, MELD, rank, table.language)
    if kind == ADD and rest in legal.add_ranks:
        return _pick(private.table_id, round_no, view, legal, add_step(rest), rest, table.language)
    return None


def candidates(view: DameView, rank: str) -> list[tuple[str, str]]:
    """The cards in hand that may go in a `rank` pack, naturals first (the hand's order): (value,
    label). A value names the card (`7S`: its lowest copy in hand) or, for a further copy, that
    copy (`7S#1`), so every card is one option and the values are distinct."""
    picked: list[tuple[str, str]] = []
    copies: dict[str, int] = {}
    for code in view.hand:
        if not render.is_wild(code) and card(code).rank != rank:
            continue
        name = render.name_of(code)
        copies[name] = copies.get(name, 0) + 1
        if copies[name] == 1:
            picked.append((name, pretty(name)))
        else:
            picked.append((code, f"{pretty(name)} #{copies[name]}"))
    return picked


def _top(
    private: PrivateSnapshot, view: DameView, legal: PlayOptions, round_no: int, language: str
) -> list[ComponentSpec]:
    """Knock (and any single move) first, then a select of ranks for a new pack and a select
    of the team's packs to add to, then the discard: at most four rows."""
    table_id = private.table_id
    labels = MenuText(
        action_label=render.action_labeler(view, language),
        piece_label=render.piece_labeler(view, language),
        choose=text(language, "menu.choose"),
        back=text(language, "menu.back"),
        action_emoji=render.action_emoji(view),
    )
    others: list[str] = []  # one pass over the legal actions (hundreds with a big hand)
    discards: list[str] = []
    for action in private.legal:
        kind = verb(action)
        if kind == DISCARD:
            discards.append(action)
        elif kind != MELD and kind != ADD:
            others.append(action)
    specs: list[ComponentSpec] = []
    row = 0
    if others:
        specs += action_menu(others, "", table_id=table_id, round_no=round_no, labels=labels)
        row = max(s.row for s in specs) + 1
    if legal.meld_ranks:
        groups = dict(render.hand_groups(view.hand))  # the hand by rank, read once
        wilds = len(groups.get(render.WILD, ()))
        options = tuple(
            (_rank_label(rank, groups.get(rank, []), wilds, language), meld_step(rank))
            for rank in legal.meld_ranks
        )
        emojis = tuple(
            _first_card(groups.get(rank) or groups.get(render.WILD, ()))
            for rank in legal.meld_ranks
        )
        placeholder = text(language, "dame.menu.meld")
        meld_id = select_id(table_id, round_no, MELD)
        specs.append(SelectSpec(meld_id, placeholder, options, row, _or_none(emojis)))
        row += 1
    if legal.add_ranks:
        packs = {p.rank: p for p in view.packs[render.team_of(private.seat)]}
        options = tuple(
            (
                text(
                    language,
                    "dame.menu.add_option",
                    rank=rank,
                    count=len(packs[rank].cards) if rank in packs else 0,
                ),
                add_step(rank),
            )
            for rank in legal.add_ranks
        )
        emojis = tuple(
            _first_card(packs[rank].cards if rank in packs else ()) for rank in legal.add_ranks
        )
        placeholder = text(language, "dame.menu.add")
        add_id = select_id(table_id, round_no, ADD)
        specs.append(SelectSpec(add_id, placeholder, options, row, _or_none(emojis)))
        row += 1
    if discards:
        labels = replace(labels, choose=text(language, "dame.family.discard"))
        shown = action_menu(discards, "", table_id=table_id, round_no=round_no, labels=labels)
        specs += [replace(s, row=s.row + row) for s in shown]
    return specs


def _first_card(codes: Sequence[str]) -> str | None:
    """The picture of the first card of a group (a rank in hand, a pack), if any."""
    return card_emoji(render.name_of(codes[0])) if codes else None


def _or_none(emojis: tuple[str | None, ...]) -> tuple[str | None, ...]:
    """Per-option pictures, or none at all when cards are text."""
    return emojis if any(emojis) else ()


def _rank_label(rank: str, naturals: list[str], wilds: int, language: str) -> str:
    """A new pack's option: the rank, the hand's cards of that rank and its wild cards."""
    cards = render.label_all(naturals)
    if not wilds:
        return text(language, "dame.menu.rank_option", rank=rank, cards=cards)
    return text(language, "dame.menu.rank_option_wild", rank=rank, cards=cards, count=wilds)


def _pick(
    table_id: int,
    round_no: int,
    view: DameView,
    legal: PlayOptions,
    prefix: str,
    rank: str,
    language: str,
) -> list[ComponentSpec]:
    """One select of the cards that may go in the `rank` pack, several chosen at once, and a
    button back to the whole menu."""
    picked = candidates(view, rank)
    options = tuple((label, value) for value, label in picked)
    emojis = _or_none(tuple(card_emoji(render.name_of(value)) for value, _ in picked))
    least = PACK_MIN if prefix == MELD else 1
    most = min(len(options), legal.max_lay)
    key = "dame.menu.pick_meld" if prefix == MELD else "dame.menu.pick_add"
    placeholder = text(language, key, rank=rank, least=least, most=most)
    return [
        SelectSpec(
            pick_id(table_id, round_no, prefix),
            placeholder,
            options,
            0,
            emojis,
            min_values=least,
            max_values=most,
        ),
        ButtonSpec(navigate_id(table_id, round_no, ""), text(language, "menu.back"), row=1),
    ]
