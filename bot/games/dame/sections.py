"""Dame de Pique's packs beside their buttons: the sections of "My cards" (Components V2).

Each pack the hand can lay, add to a team pack or take the pile with, as the menu offers it on
a button (`bot.games.dame.menu`), becomes a section: the pack's cards as their pictures (and,
for an add, whose pack it joins), with that same button beside them. The button keeps its
custom id and style, so a turn takes the clicks it took in rows; its label says only the verb
("Lay", "Add"), the cards being beside it. The other buttons and the selects stay in rows.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from bot.custom_ids import THEN, BadCustomId, Kind, parse
from bot.games.dame import render
from bot.games.plugin import TableContext
from bot.i18n import text
from bot.render.actions import ButtonSpec, ComponentSpec, SectionSpec
from bot.snapshots import PrivateSnapshot
from games.dame.views import DameView

# Sections a "My cards" shows at most: a screen of packs, each a line beside its button. The
# menu offers more only for a hand that could lay many packs at once; those stay buttons.
MOST_SECTIONS = 6
MELD, ADD, TAKE, ANNOUNCE = "meld", "add", "take", "announce"


def move_sections(
    private: PrivateSnapshot[DameView],
    prefix: str,
    table: TableContext,
    components: list[ComponentSpec],
) -> tuple[list[SectionSpec], list[ComponentSpec]]:
    """The pack buttons of `components` as sections, in the menu's order (up to
    MOST_SECTIONS; a rank's step, where a pack's choices are many, only when they all fit),
    and the components left, their rows closed up."""
    view = private.view
    if view is None or view.legal is None or not private.legal:
        return [], components
    sections: list[SectionSpec] = []
    rest: list[ComponentSpec] = []
    for spec in components:
        section = None
        if isinstance(spec, ButtonSpec) and len(sections) < MOST_SECTIONS:
            section = _section(spec, view, private.seat, table)
        if section is None:
            rest.append(spec)
        else:
            sections.append(section)
    if not sections:
        return [], components
    left = (s for s in rest if isinstance(s, ButtonSpec))
    if prefix and any(_section(s, view, private.seat, table) for s in left):
        # a rank's step offers its packs side by side: all beside their cards, or none
        return [], components
    return sections, _closed_up(rest)


def _section(
    spec: ButtonSpec, view: DameView, seat: int | None, table: TableContext
) -> SectionSpec | None:
    """The section of a pack's button, or None for any other button."""
    try:
        found = parse(spec.custom_id)
    except BadCustomId:
        return None
    if found.kind is not Kind.PLAY:
        return None
    moves = found.text.split(THEN)
    words = moves[0].split()
    then_knock = moves[1:] == [ANNOUNCE]
    if len(moves) > 1 and not then_knock:
        return None
    language = table.language
    kind, names = words[0], words[1:]
    if kind == MELD and names:
        rank = _rank_of(names)
        key = "dame.section.meld_and_knock" if then_knock else "dame.section.meld"
        line = text(language, key, rank=rank, cards=render.show_all(names))
        label = "dame.section.button.meld_and_knock" if then_knock else "dame.section.button.meld"
    elif kind == ADD and len(names) > 1 and not then_knock:
        line = _add_line(view, seat, names[0], names[1:], table)
        label = "dame.section.button.add"
    elif kind == TAKE and not then_knock and view.discard:
        top = render.show(view.discard[-1])
        count = len(view.discard)
        if names:
            cards = render.show_all(names)
            line = text(language, "dame.section.take", top=top, cards=cards, count=count)
        else:
            line = text(language, "dame.section.take_onto", top=top, count=count)
        label = "dame.section.button.take"
    else:
        return None
    return SectionSpec(line, replace(spec, label=text(language, label), emoji=None, row=0))


def _rank_of(names: Sequence[str]) -> str:
    """A new pack's rank: that of its first natural card."""
    for name in names:
        if not render.is_wild(name):
            return name[:-1]
    return "?"


def _add_line(
    view: DameView, seat: int | None, rank: str, names: Sequence[str], table: TableContext
) -> str:
    """The cards added, onto whose pack: the team's names and the pack's size."""
    team = render.team_of(seat) if seat is not None else 0
    packs = {p.rank: p for p in view.packs[team]}
    count = len(packs[rank].cards) if rank in packs else 0
    return text(
        table.language,
        "dame.section.add",
        cards=render.show_all(names),
        rank=rank,
        owners=render.team_name(team, table.names),
        count=count,
    )


def _closed_up(components: list[ComponentSpec]) -> list[ComponentSpec]:
    """The components with no empty row between them: the rows renumbered in order."""
    rows = {row: index for index, row in enumerate(sorted({c.row for c in components}))}
    return [c if rows[c.row] == c.row else replace(c, row=rows[c.row]) for c in components]
