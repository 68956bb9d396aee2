"""The public table message: lobby, round in play, round over, match over, closed.

Built only from a `PublicSnapshot` (which holds the engine's *public* view), so no hidden card
can reach it. Public texts are in the guild's language. This module draws the frame (title,
seats of the lobby, timer, winners and totals, log field, buttons); the table's game plug-in
(`bot.games.plugin_for`) words what is on the table.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

import discord

from bot.custom_ids import Verb, review_id, seat_stats_id, verb_id
from bot.games import plugin_for
from bot.games.plugin import Field, GamePlugin, SeatLayout, TableContext
from bot.i18n import text
from bot.pictures.layout import CardPicture, CardRow
from bot.pictures.round_end import RoundEndRow, round_end_png
from bot.render import colors
from bot.render.actions import ButtonSpec, ComponentSpec, SectionSpec, SelectSpec
from bot.render.card_text import current_deck, fitting
from bot.render.limits import FIELD_VALUE, add_field, describe
from bot.render.names import escape
from bot.render.teams import match_over_lines, plays_in_teams, team_label
from bot.render.timestamps import clock
from bot.snapshots import (
    CLOSED,
    FINISHED,
    LOBBY,
    PLAYING,
    PublicSnapshot,
    SeatInfo,
)
from games.registry import get_game

LOG_LINES = 6


@dataclass(frozen=True, slots=True)
class RoundPicture:
    """The round-end picture a table message shows (drawn by the notifier, off the loop)."""

    filename: str
    rows: tuple[RoundEndRow, ...]
    points_label: str
    total_label: str

    def png(self) -> bytes:
        return round_end_png(self.rows, self.points_label, self.total_label)


@dataclass(frozen=True, slots=True)
class RenderedMessage:
    embed: discord.Embed
    components: tuple[ComponentSpec, ...]
    picture: RoundPicture | None = None  # the round's end, attached once after the edit
    # The cards in play (a hand, the table), attached with the message: its embed shows
    # `attachment://<cards.filename>`, a name that changes with what the picture shows.
    cards: CardPicture | None = None
    # Shown as a Components V2 message (`bot/ui/layout.py` lays the embed's parts out in a
    # container), else as the embed itself with its buttons under it.
    v2: bool = False
    # Moves laid beside what they concern (V2 only): a section each, after the picture; the
    # buttons in them are not in `components` too.
    sections: tuple[SectionSpec, ...] = ()
    # The table's seats, a section each under the heading with the button of the player's
    # statistics beside (V2). Their lines are the embed's description too, which a V2
    # layout showing them as sections leaves out of the heading.
    seats: tuple[SectionSpec, ...] = ()


def game_accent(game: str) -> int:
    """The accent of a table of this game in play: its plug-in's, else the green baize."""
    accent = plugin_for(game).accent
    return colors.TABLE if accent is None else accent


def with_cards(embed: discord.Embed, kind: str, rows: tuple[CardRow, ...]) -> CardPicture | None:
    """The picture of these rows in the deck being rendered, shown as the embed's image (None,
    and no image: no rows)."""
    if not rows:
        return None
    picture = CardPicture(kind, rows, current_deck())
    embed.set_image(url=f"attachment://{picture.filename}")
    return picture


def round_of(snapshot: PublicSnapshot) -> int:
    """The round number custom ids carry (0 before the first round)."""
    return snapshot.round_no or 0


def seat_marks(snapshot: PublicSnapshot, info: SeatInfo) -> str:
    marks = []
    if info.user_id is not None and info.user_id == snapshot.host_id:
        marks.append("👑")
    if info.is_bot:
        marks.append("🤖")
    if info.away:
        marks.append("💤")
    if info.left:
        marks.append("🚪")
    return " ".join(marks)


def _title(snapshot: PublicSnapshot, language: str) -> str:
    """The game, its rules (unless it has one rule set, or the options are changed ones) and
    the table's number; a practice table with a coach says it is one, and unrated."""
    game = text(language, f"{snapshot.game}.name")
    preset = snapshot.preset
    if not preset or len(get_game(snapshot.game).presets) < 2:
        title = text(language, "table.title_plain", game=game, table_id=snapshot.table_id)
    else:
        preset_name = text(language, f"{snapshot.game}.preset.{preset}")
        title = text(
            language, "table.title", game=game, preset=preset_name, table_id=snapshot.table_id
        )
    return text(language, "table.title_coached", title=title) if snapshot.coach else title


def _button(
    snapshot: PublicSnapshot, verb: Verb, key: str, style: str, language: str, row: int = 0
) -> ButtonSpec:
    return ButtonSpec(
        verb_id(snapshot.table_id, round_of(snapshot), verb), text(language, key), style, row
    )


def render_table(snapshot: PublicSnapshot, language: str) -> RenderedMessage:
    """The table message, a Components V2 message in every state."""
    return replace(_render_table(snapshot, language), v2=True)


def _render_table(snapshot: PublicSnapshot, language: str) -> RenderedMessage:
    if snapshot.status == LOBBY:
        return _lobby(snapshot, language)
    if snapshot.status == CLOSED:
        return _closed(snapshot, language)
    if snapshot.status != PLAYING:  # round over or finished
        return _after_round(snapshot, language)
    return _playing(snapshot, language)


def _names(snapshot: PublicSnapshot) -> list[str]:
    return [escape(info.name) for info in snapshot.seats]


def _lobby(snapshot: PublicSnapshot, language: str) -> RenderedMessage:
    host = next((s.name for s in snapshot.seats if s.user_id == snapshot.host_id), "?")
    layout = plugin_for(snapshot.game).seat_layout
    embed = discord.Embed(
        title=_title(snapshot, language),
        description=text(
            language,
            "table.lobby" if layout is None else "table.lobby_fixed",
            host=escape(host),
            target=snapshot.target,
            goal=plugin_for(snapshot.game).lobby_goal(snapshot.target, language),
            min=snapshot.min_seats,
            max=snapshot.max_seats,
        ),
        color=colors.LOBBY,
    )
    names = _names(snapshot)
    free = snapshot.max_seats - len(snapshot.seats)
    if layout is not None:
        lines = _places(snapshot, layout, language)
    else:
        lines = [
            f"{info.seat + 1}. {names[info.seat]} {seat_marks(snapshot, info)}".rstrip()
            for info in snapshot.seats
        ]
        if free > 0:
            lines.append(text(language, "table.free_seats", count=free))
    add_field(
        embed,
        text(language, "table.players", count=len(snapshot.seats), max=snapshot.max_seats),
        "\n".join(lines),
        inline=False,
    )
    # what members who watch the match will see (the table option `spectators`)
    watching = text(language, f"table.spectators.{snapshot.spectators}")
    add_field(embed, text(language, "table.spectators"), watching, inline=False)
    _add_log(embed, table_text(snapshot, language))
    # A full table offers no seat to take or fill; a game of a fixed number of seats needs
    # every one taken, so the host fills the empty ones in one click.
    join = (_button(snapshot, Verb.JOIN, "button.join", "success", language),) if free else ()
    add_bots: tuple[ButtonSpec, ...] = (
        _button(snapshot, Verb.ADD_BOT, "button.add_bot", "secondary", language),
    )
    if free > 1 and snapshot.min_seats == snapshot.max_seats:
        fill = _button(snapshot, Verb.FILL_BOTS, "button.fill_bots", "secondary", language)
        add_bots += (fill,)
    components = (
        *join,
        _button(snapshot, Verb.LEAVE, "button.leave", "secondary", language),
        *(add_bots if free else ()),
        _button(snapshot, Verb.START, "button.start", "primary", language, row=1),
        _button(snapshot, Verb.CANCEL, "button.cancel", "danger", language, row=1),
    )
    if layout is not None:
        components += _seat_selects(snapshot, layout, language)
    return RenderedMessage(embed, components)


def _places(snapshot: PublicSnapshot, layout: SeatLayout, language: str) -> list[str]:
    """A fixed-size game's seats by place (N, E, …), free ones too, then the teams."""
    by_place = {info.position: info for info in snapshot.seats}
    names = _names(snapshot)
    lines = []
    for position, key in enumerate(layout.labels):
        info = by_place.get(position)
        who = (
            f"{names[info.seat]} {seat_marks(snapshot, info)}".rstrip()
            if info is not None
            else text(language, "lobby.free")
        )
        team = text(
            language,
            "lobby.team_places",
            team=team_label(layout, layout.team_of(position), language),
        )
        lines.append(
            text(language, "lobby.place_line", place=text(language, key), who=who, team=team)
        )
    return lines


def _seat_selects(
    snapshot: PublicSnapshot, layout: SeatLayout, language: str
) -> tuple[ComponentSpec, ...]:
    """ "Sit at…" (the free places) and the host's "Swap seats…" (every pair with someone)."""
    round_no = round_of(snapshot)
    taken = {info.position: info for info in snapshot.seats}
    names = _names(snapshot)
    labels = [text(language, key) for key in layout.labels]

    def who(position: int) -> str:
        info = taken.get(position)
        return names[info.seat] if info is not None else text(language, "lobby.free")

    specs: list[ComponentSpec] = []
    free = [p for p in range(len(labels)) if p not in taken]
    if free:
        options = tuple((text(language, "lobby.sit_at", place=labels[p]), str(p)) for p in free)
        placeholder = text(language, "lobby.pick_seat")
        seat_id = verb_id(snapshot.table_id, round_no, Verb.SEAT)
        specs.append(SelectSpec(seat_id, placeholder, options, 2))
    pairs = [
        (a, b)
        for a in range(len(labels))
        for b in range(a + 1, len(labels))
        if a in taken or b in taken
    ]
    if pairs:
        options = tuple(
            (
                text(
                    language,
                    "lobby.swap_option",
                    first=labels[a],
                    second=labels[b],
                    first_name=who(a),
                    second_name=who(b),
                ),
                f"{a} {b}",
            )
            for a, b in pairs
        )
        swap_id = verb_id(snapshot.table_id, round_no, Verb.SWAP)
        specs.append(SelectSpec(swap_id, text(language, "lobby.swap"), options, 3))
    return tuple(specs)


def table_text(snapshot: PublicSnapshot, language: str) -> TableContext:
    """The names and marks every plug-in method words its lines with."""
    return TableContext(
        snapshot=snapshot,
        language=language,
        names=tuple(_names(snapshot)),
        marks=tuple(seat_marks(snapshot, info) for info in snapshot.seats),
    )


def _add_fields(embed: discord.Embed, fields: list[Field]) -> None:
    for field in fields:
        add_field(embed, field.name, field.value, inline=field.inline)


def _playing(snapshot: PublicSnapshot, language: str) -> RenderedMessage:
    embed = discord.Embed(title=_title(snapshot, language), color=game_accent(snapshot.game))
    view = snapshot.view
    table = table_text(snapshot, language)
    plugin = plugin_for(snapshot.game)
    cards = None
    seats: tuple[SectionSpec, ...] = ()
    if view is not None:
        cards = with_cards(embed, "table", plugin.table_picture(view, table))
        lines = plugin.seat_lines(view, table)
        describe(embed, "\n".join(lines))
        seats = seat_sections(snapshot, lines)
        _add_fields(embed, plugin.piece_fields(view, table))
        status = plugin.status_line(view, table)
        if snapshot.turn_deadline is not None:
            when = clock(snapshot.turn_deadline)  # public: a time, not "in 1 minute"
            status = f"{status} {text(language, 'table.deadline', when=when)}".strip()
        add_field(embed, text(language, "table.now"), status or "—", inline=False)
        _add_fields(embed, plugin.notice_fields(view, table))
    else:
        describe(embed, text(language, "table.in_play"))
    _add_log(embed, table, plugin)
    _add_watchers(embed, snapshot, language)
    components = (
        _button(snapshot, Verb.HAND, "button.hand", "primary", language),
        _button(snapshot, Verb.LEAVE, "button.leave", "secondary", language),
        _button(snapshot, Verb.WATCH, "button.watch", "secondary", language),
    )
    return RenderedMessage(embed, components, cards=cards, seats=seats)


STATS_EMOJI, BOT_EMOJI = "📊", "🤖"


def seat_sections(snapshot: PublicSnapshot, lines: list[str]) -> tuple[SectionSpec, ...]:
    """Each seat's line beside its button: a member's statistics here, or a greyed robot for
    a bot player (who keeps none). None when the lines are not one a seat."""
    if len(lines) != len(snapshot.seats):
        return ()
    return tuple(
        SectionSpec(
            line,
            ButtonSpec(
                seat_stats_id(snapshot.table_id, seat),
                "",
                emoji=BOT_EMOJI if info.is_bot else STATS_EMOJI,
                disabled=info.is_bot,
            ),
        )
        for seat, (line, info) in enumerate(zip(lines, snapshot.seats, strict=True))
    )


def _add_watchers(embed: discord.Embed, snapshot: PublicSnapshot, language: str) -> None:
    """How many members watch the table (nothing while nobody does)."""
    if snapshot.watchers:
        embed.set_footer(text=text(language, "table.watchers", count=snapshot.watchers))


def _after_round(snapshot: PublicSnapshot, language: str) -> RenderedMessage:
    finished = snapshot.status == FINISHED
    embed = discord.Embed(
        title=_title(snapshot, language),
        color=colors.FINISHED if finished else game_accent(snapshot.game),
    )
    table = table_text(snapshot, language)
    names = list(table.names)
    plugin = plugin_for(snapshot.game)
    last = snapshot.last_round
    picture = None
    if last is not None and last.view is not None:
        lines = plugin.round_end_lines(last, table)
        add_field(
            embed,
            text(language, "table.round_over"),
            "\n".join(lines),
            inline=False,
        )
        rows = plugin.round_end_picture(last, table)
        if rows:
            picture = RoundPicture(
                f"round-{snapshot.round_no or 0}.png",
                rows,
                text(language, "picture.points"),
                text(language, "picture.total"),
            )
            embed.set_image(url=f"attachment://{picture.filename}")
    if finished:
        _match_over(embed, snapshot, plugin.seat_layout, names, language)
        components: tuple[ComponentSpec, ...] = (
            _button(snapshot, Verb.REMATCH, "button.rematch", "success", language),
        )
    else:
        if snapshot.next_round_at is not None:
            when = clock(snapshot.next_round_at)
            describe(embed, text(language, "table.next_round_at", when=when))
        components = (
            _button(snapshot, Verb.NEXT_ROUND, "button.next_round", "primary", language),
            _button(snapshot, Verb.HAND, "button.hand", "secondary", language),
            _button(snapshot, Verb.WATCH, "button.watch", "secondary", language),
        )
    if snapshot.coach and last is not None:  # a practice table offers each player a review
        review = review_id(snapshot.table_id, last.round_no)
        components += (ButtonSpec(review, text(language, "replay.review"), "success"),)
    _add_log(embed, table, plugin)
    _add_watchers(embed, snapshot, language)
    return RenderedMessage(embed, components, picture)


def _match_over(
    embed: discord.Embed,
    snapshot: PublicSnapshot,
    layout: SeatLayout | None,
    names: list[str],
    language: str,
) -> None:
    """The winners and the final totals: per team where partners share a score, else per seat."""
    if layout is not None and plays_in_teams(layout):
        lower_is_better = get_game(snapshot.game).lower_is_better
        headline, lines = match_over_lines(
            snapshot, layout, names, language, lower_is_better=lower_is_better
        )
        describe(embed, headline)
    else:
        winners = ", ".join(f"**{names[s]}**" for s in snapshot.winners if 0 <= s < len(names))
        describe(embed, text(language, "table.winners", names=winners or "—"))
        lines = [
            text(language, "table.total_line", name=names[i], total=snapshot.totals[i])
            for i in _ranked(snapshot)
        ]
    add_field(embed, text(language, "table.final_totals"), "\n".join(lines), inline=False)


def _ranked(snapshot: PublicSnapshot) -> list[int]:
    lower_is_better = get_game(snapshot.game).lower_is_better
    order = sorted(range(len(snapshot.totals)), key=lambda i: snapshot.totals[i])
    return order if lower_is_better else order[::-1]


def _closed(snapshot: PublicSnapshot, language: str) -> RenderedMessage:
    embed = discord.Embed(
        title=_title(snapshot, language),
        description=text(language, "table.closed"),
        color=colors.CLOSED,
    )
    _add_log(embed, table_text(snapshot, language))
    return RenderedMessage(embed, ())


def _add_log(embed: discord.Embed, table: TableContext, plugin: GamePlugin | None = None) -> None:
    snapshot = table.snapshot
    plugin = plugin or plugin_for(snapshot.game)

    def build() -> str:
        # Cards as pictures take room: the oldest lines give way first (half of them at
        # most), then the cards are written as text.
        lines = plugin.recent_log_lines(snapshot.log, table, LOG_LINES)
        while len(lines) > LOG_LINES // 2 and len("\n".join(lines)) > FIELD_VALUE:
            lines.pop(0)
        return "\n".join(lines)

    value = fitting(build, FIELD_VALUE)
    if value:
        add_field(embed, text(table.language, "table.log"), value, inline=False)
