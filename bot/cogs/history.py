"""`/history [member] [game]`: a player's recent matches in this server, newest first.

The list is paged; any finished hand opens in a replay viewer; its records download as files.
Every answer goes to the one who asked alone.

Buttons carry their meaning in their custom ids (`hist:…` pages, `hist:open` the hand chooser,
`rp:…` the replay's steps and hands, `rpf:…` the records), so they answer after a restart.
"""

from __future__ import annotations

import asyncio
import io
import logging
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.app_commands import Choice
from discord.ext import commands

from bot.i18n import text
from bot.i18n.translator import command_text
from bot.render import colors
from bot.render.names import escape
from bot.render.replay import Replayer, replay_message
from bot.render.review import review_text
from bot.render.stats import game_title
from bot.render.table import RenderedMessage
from bot.runtime.pool_terms import TIMED_OUT, ChoreFailed
from bot.runtime.reviews import review_in_workers
from bot.ui.layout import shown_as
from bot.ui.replies import say, selected_values, user_language
from games.records import HandRecord, write_machine, write_text
from games.registry import game_names, get_game
from games.review import review_from_json, review_to_json
from storage.errors import StoreError
from storage.history import FinishedHand, HistoryEntry
from storage.privacy import FORMER_PLAYER

if TYPE_CHECKING:
    from bot.app import CardTableBot

log = logging.getLogger(__name__)

PAGE = 5  # matches per page
REVIEW_PROGRESS_EVERY = 1.0  # seconds between two edits of the review's progress line
# bot.runtime.reviews.review_in_workers's keywords (tests ask for a quick one)
REVIEW_OPTIONS: dict[str, Any] = {}
HANDS_KEPT = 256  # finished hands kept in memory for replays (they never change)

GAME_CHOICES = [
    Choice(name=command_text(get_game(name).title, f"{name}.name"), value=name)
    for name in game_names()
]


def _bot(interaction: discord.Interaction[Any]) -> CardTableBot:
    return interaction.client


def _cog(interaction: discord.Interaction[Any]) -> HistoryCog | None:
    cog = interaction.client.get_cog("history")
    return cog if isinstance(cog, HistoryCog) else None


# -- the history pages -----------------------------------------------------------------------
def _name(language: str, name: str) -> str:
    return escape(name) if name != FORMER_PLAYER else text(language, "player.former")


def _entry_line(language: str, entry: HistoryEntry) -> str:
    game = get_game(entry.game)
    sides = game.sides(entry.n_seats)
    own = game.side_of(entry.seat, entry.n_seats)
    partners = [_name(language, entry.players[s]) for s in sides[own] if s != entry.seat]
    others = [
        _name(language, entry.players[s]) for i, side in enumerate(sides) if i != own for s in side
    ]
    if entry.finished:
        outcome = text(language, "history.won" if entry.won else "history.lost")
    else:
        outcome = text(language, "history.stopped" if entry.stopped else "history.in_play")
    totals = " – ".join(
        str(t)
        for t in (
            [entry.final_totals[own]] + [t for i, t in enumerate(entry.final_totals) if i != own]
        )
    )
    hands = ", ".join(
        f"{h.points[own]:+d}" if own < len(h.points) else "?" for h in entry.hands[:12]
    )
    if len(entry.hands) > 12:
        hands += ", …"
    with_whom = (
        text(language, "history.with", names=", ".join(partners)) + " · " if partners else ""
    )
    return text(
        language,
        "history.entry",
        date=discord.utils.format_dt(entry.at, "d"),
        game=game_title(language, entry.game),
        table_id=entry.table_id,
        with_whom=with_whom,
        against=", ".join(others) or "—",
        outcome=outcome,
        totals=totals,
        hands=hands,
    )


def history_page(
    language: str,
    who: str,
    user_id: int,
    game: str | None,
    page: int,
    entries: list[HistoryEntry],
    more: bool,
) -> tuple[discord.Embed, discord.ui.View]:
    embed = discord.Embed(
        title=text(language, "history.title", name=escape(who)), color=colors.INFO
    )
    if entries:
        embed.description = "\n\n".join(_entry_line(language, e) for e in entries)
    else:
        embed.description = text(language, "history.none")
    embed.set_footer(text=text(language, "history.page", page=page + 1))
    view = discord.ui.View(timeout=None)
    key = game or "-"
    view.add_item(HistoryButton(user_id, key, page - 1, "prev", label="◀", disabled=page == 0))
    view.add_item(HistoryButton(user_id, key, page + 1, "next", label="▶", disabled=not more))
    options: list[discord.SelectOption] = []
    for entry in entries:
        title = game_title(language, entry.game)
        for hand in entry.hands:
            if len(options) == 25:
                break
            options.append(
                discord.SelectOption(
                    label=text(
                        language,
                        "history.hand_option",
                        game=title,
                        table_id=entry.table_id,
                        hand=hand.round_no + 1,
                    )[:100],
                    # the time too: two tables of a day read apart (UTC: no zone is known)
                    description=entry.at.strftime("%Y-%m-%d %H:%M UTC")[:100],
                    value=f"{entry.table_id}:{hand.round_no}",
                )
            )
    if options:
        select: discord.ui.Select[Any] = discord.ui.Select(
            custom_id="hist:open",
            placeholder=text(language, "history.open"),
            options=options,
        )
        view.add_item(select)
    return embed, view


class HistoryButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"hist:(?P<user>[0-9]{1,20}):(?P<game>[a-z_-]{1,20}):(?P<page>-?[0-9]{1,6}):(?P<op>prev|next)",
):
    def __init__(
        self,
        user_id: int,
        game: str,
        page: int,
        op: str,
        *,
        label: str = "",
        disabled: bool = False,
    ) -> None:
        super().__init__(
            discord.ui.Button(
                style=discord.ButtonStyle.secondary,
                label=label or op,
                custom_id=f"hist:{user_id}:{game}:{page}:{op}",
                disabled=disabled,
            )
        )
        self.user_id, self.game, self.page = user_id, game, page

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: Any, /
    ) -> HistoryButton:
        return cls(int(match["user"]), match["game"], int(match["page"]), match["op"])

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        cog = _cog(interaction)
        if cog is None or interaction.guild_id is None or self.page < 0:
            await say(interaction, text(user_language(interaction), "error.bad_button"))
            return
        game = None if self.game == "-" else self.game
        await cog.show_history(interaction, self.user_id, None, game, self.page, edit=True)


class HandChooser(discord.ui.DynamicItem[discord.ui.Select[Any]], template=r"hist:open"):
    def __init__(self) -> None:
        super().__init__(
            discord.ui.Select(custom_id="hist:open", options=[discord.SelectOption(label="-")])
        )

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: Any, /
    ) -> HandChooser:
        return cls()

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        values = selected_values(interaction)
        cog = _cog(interaction)
        try:
            table_id, round_no = (int(part) for part in str(values[0]).split(":"))
        except (IndexError, ValueError):
            cog = None
        if cog is None:
            await say(interaction, text(user_language(interaction), "error.bad_button"))
            return
        await cog.show_replay(interaction, table_id, round_no, 0, new=True)


# -- the replay viewer -----------------------------------------------------------------------
class ReplayButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"rp:(?P<table>[0-9]{1,12}):(?P<round>[0-9]{1,6}):(?P<step>-?[0-9]{1,6}):(?P<op>[a-z]{1,6})",
):
    def __init__(
        self,
        table_id: int,
        round_no: int,
        step: int,
        op: str,
        *,
        label: str = "",
        disabled: bool = False,
        row: int | None = None,
    ) -> None:
        super().__init__(
            discord.ui.Button(
                style=discord.ButtonStyle.secondary,
                label=label or op,
                custom_id=f"rp:{table_id}:{round_no}:{step}:{op}",
                disabled=disabled,
            ),
            row=row,
        )
        self.table_id, self.round_no, self.step, self.op = table_id, round_no, step, op

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: Any, /
    ) -> ReplayButton:
        return cls(int(match["table"]), int(match["round"]), int(match["step"]), match["op"])

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        cog = _cog(interaction)
        if cog is None:
            await say(interaction, text(user_language(interaction), "error.bad_button"))
            return
        if self.op in ("prevh", "nexth"):
            await cog.neighbour(interaction, self.table_id, self.round_no, self.op == "nexth")
        else:
            await cog.show_replay(interaction, self.table_id, self.round_no, self.step)


def _hand_button(
    prefix: str, style: discord.ButtonStyle, label: str, table_id: int, round_no: int
) -> discord.ui.Button[Any]:
    return discord.ui.Button(style=style, label=label, custom_id=f"{prefix}:{table_id}:{round_no}")


async def _on_hand_button(
    interaction: discord.Interaction[Any],
    act: Callable[[HistoryCog], Awaitable[None]],
) -> None:
    cog = _cog(interaction)
    if cog is None:
        await say(interaction, text(user_language(interaction), "error.bad_button"))
        return
    await act(cog)


class RecordsButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"rpf:(?P<table>[0-9]{1,12}):(?P<round>[0-9]{1,6})",
):
    """The hand's records, as two files."""

    def __init__(
        self, table_id: int, round_no: int, *, label: str = "", row: int | None = None
    ) -> None:
        style = discord.ButtonStyle.primary
        button = _hand_button("rpf", style, label or "records", table_id, round_no)
        super().__init__(button, row=row)
        self.table_id, self.round_no = table_id, round_no

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: Any, /
    ) -> RecordsButton:
        return cls(int(match["table"]), int(match["round"]))

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        await _on_hand_button(
            interaction, lambda cog: cog.send_records(interaction, self.table_id, self.round_no)
        )


class ReviewButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"rpr:(?P<table>[0-9]{1,12}):(?P<round>[0-9]{1,6})",
):
    """A review of the asker's play in the hand."""

    def __init__(
        self, table_id: int, round_no: int, *, label: str = "", row: int | None = None
    ) -> None:
        style = discord.ButtonStyle.success
        button = _hand_button("rpr", style, label or "review", table_id, round_no)
        super().__init__(button, row=row)
        self.table_id, self.round_no = table_id, round_no

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: Any, /
    ) -> ReviewButton:
        return cls(int(match["table"]), int(match["round"]))

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        await _on_hand_button(
            interaction, lambda cog: cog.review(interaction, self.table_id, self.round_no)
        )


def beside_picture(embed: discord.Embed, language: str) -> discord.Embed:
    """The viewer's words as they go with its picture: the hands are drawn face up in it, so
    their line of card emojis is left out (kept where the picture is not shown)."""
    if not embed.image.url:
        return embed
    shown = embed.copy()
    hands = text(language, "replay.hands")
    for index in reversed(range(len(shown.fields))):
        if shown.fields[index].name == hands:
            shown.remove_field(index)
    return shown


class HistoryCog(commands.Cog, name="history"):
    def __init__(self, bot: CardTableBot) -> None:
        self.bot = bot
        self._hands: OrderedDict[tuple[int, int], FinishedHand] = OrderedDict()
        self._reviewing: set[tuple[int, int, int]] = set()  # (table, hand, seat) asked now
        self.replayer = Replayer()
        self._following: set[asyncio.Task[None]] = set()  # pictures that follow their words

    @app_commands.command(
        name=command_text("history", "cmd.history"),
        description=command_text(
            "A player's recent matches here, and replays of their hands", "cmd.history.desc"
        ),
    )
    @app_commands.guild_only()
    @app_commands.describe(
        member=command_text("Whose matches (you by default)", "cmd.history.member"),
        game=command_text("Only this game", "cmd.history.game"),
    )
    @app_commands.rename(
        member=command_text("member", "cmd.param.member"),
        game=command_text("game", "cmd.param.game"),
    )
    @app_commands.choices(game=GAME_CHOICES)
    async def history(
        self,
        interaction: discord.Interaction,
        member: discord.User | None = None,
        game: str | None = None,
    ) -> None:
        who = member or interaction.user
        await self.show_history(interaction, who.id, who.display_name, game, 0, edit=False)

    async def show_history(
        self,
        interaction: discord.Interaction[Any],
        user_id: int,
        name: str | None,
        game: str | None,
        page: int,
        *,
        edit: bool,
    ) -> None:
        language = user_language(interaction)
        guild_id = interaction.guild_id
        if guild_id is None:
            await say(interaction, text(language, "error.guild_only"))
            return
        try:
            found = await self.bot.store.match_history(
                guild_id, user_id, game, limit=PAGE + 1, offset=page * PAGE
            )
        except StoreError:
            log.exception("reading the history of user %s failed", user_id)
            await say(interaction, text(language, "error.unknown"))
            return
        if name is None:
            member = interaction.guild.get_member(user_id) if interaction.guild else None
            name = (
                member.display_name
                if member is not None
                else str(next((e.players[e.seat] for e in found), "") or user_id)
            )
        embed, view = history_page(
            language, name, user_id, game, page, found[:PAGE], len(found) > PAGE
        )
        if edit:
            await interaction.response.edit_message(embed=embed, view=view)
        else:
            await interaction.response.send_message(embed=embed, view=view, ephemeral=True)

    async def hand(self, table_id: int, round_no: int) -> FinishedHand:
        key = (table_id, round_no)
        found = self._hands.get(key)
        if found is None:
            found = await self.bot.store.finished_hand(table_id, round_no)
            self._hands[key] = found
            if len(self._hands) > HANDS_KEPT:
                self._hands.popitem(last=False)
        else:
            self._hands.move_to_end(key)
        return found

    async def _hand_here(
        self, interaction: discord.Interaction[Any], table_id: int, round_no: int
    ) -> FinishedHand | None:
        """The finished hand if it was played in this server; else one sentence."""
        language = user_language(interaction)
        try:
            hand = await self.hand(table_id, round_no)
        except StoreError:
            await say(interaction, text(language, "replay.not_finished"))
            return None
        if hand.guild_id != interaction.guild_id:
            await say(interaction, text(language, "error.bad_button"))
            return None
        return hand

    async def show_replay(
        self,
        interaction: discord.Interaction[Any],
        table_id: int,
        round_no: int,
        step: int,
        *,
        new: bool = False,
    ) -> None:
        hand = await self._hand_here(interaction, table_id, round_no)
        if hand is None:
            return
        language = user_language(interaction)
        shown = self.replayer.frame(hand, step)
        seat = await self._seat_of(hand, interaction.user.id)
        deck = _bot(interaction).decks.of(interaction.user.id)
        rendered = replay_message(shown, language, deck, reviewable=seat is not None)
        pictures = self.bot.pictures
        message = interaction.message
        key = message.id if not new and message is not None else None
        # The picture if drawn already (or the message carries it), else the words now and the
        # picture in place once drawn, if the viewer still shows that step: never a wait.
        cards = pictures.answer(key, rendered)
        shown_embed = beside_picture(cards.embed, language)
        if new:
            response = await interaction.response.send_message(
                **shown_as(rendered, shown_embed), files=cards.attachments or [], ephemeral=True
            )
            key = response.message_id or interaction.id
            pictures.posted(key, rendered, cards)
        else:
            # Shown as V2 whatever it was: a viewer sent as an embed before turns V2 in place
            # (an edit clearing content and embeds); one without its picture drops the old.
            files = cards.edit_files() if cards.embed.image.url else {"attachments": []}
            await interaction.response.edit_message(**shown_as(rendered, shown_embed), **files)
        if cards.waiting is not None and key is not None:

            async def edit(latest: RenderedMessage, files: list[discord.File]) -> None:
                shown = beside_picture(latest.embed, language)
                await interaction.edit_original_response(
                    **shown_as(latest, shown), attachments=files
                )

            task = asyncio.create_task(pictures.follow_up(key, cards.waiting, edit))
            self._following.add(task)
            task.add_done_callback(self._following.discard)

    async def cog_unload(self) -> None:
        for task in list(self._following):
            task.cancel()

    async def neighbour(
        self, interaction: discord.Interaction[Any], table_id: int, round_no: int, forward: bool
    ) -> None:
        found = await self.bot.store.neighbour_hand(table_id, round_no, 1 if forward else -1)
        if found is None:
            await say(interaction, text(user_language(interaction), "replay.no_more_hands"))
            return
        await self.show_replay(interaction, table_id, found, 0)

    async def send_records(
        self, interaction: discord.Interaction[Any], table_id: int, round_no: int
    ) -> None:
        hand = await self._hand_here(interaction, table_id, round_no)
        if hand is None:
            return
        language = user_language(interaction)
        record = HandRecord(hand.record, list(hand.names), tuple(hand.points), dict(hand.detail))
        game = get_game(hand.record.game)
        title = f"{game.title}, table {table_id}, hand {round_no + 1}, {hand.finished_at:%Y-%m-%d}"
        stem = f"{hand.record.game}-{table_id}-{round_no + 1}"
        files = [
            discord.File(
                io.BytesIO(write_text(record, title=title).encode()), filename=f"{stem}.txt"
            ),
            discord.File(io.BytesIO(write_machine(record).encode()), filename=f"{stem}.hand"),
        ]
        await interaction.response.send_message(
            text(language, "replay.records_sent"), files=files, ephemeral=True
        )

    async def _seat_of(self, hand: FinishedHand, user_id: int) -> int | None:
        """The user's seat at the hand's table (None: not a player of it)."""
        seats = await self.bot.store.get_seats(hand.table_id)
        seat = next((s.seat for s in seats if s.user_id == user_id), None)
        return seat if seat is not None and seat < hand.record.n_seats else None

    async def review(
        self, interaction: discord.Interaction[Any], table_id: int, round_no: int
    ) -> None:
        """A review of the asker's play in this hand: the stored one at once, else computed
        in the bot players' workers, after their moves (`bot.runtime.reviews`), with a progress
        line, then stored."""
        hand = await self._hand_here(interaction, table_id, round_no)
        if hand is None:
            return
        language = user_language(interaction)
        seat = await self._seat_of(hand, interaction.user.id)
        if seat is None:
            await say(interaction, text(language, "review.not_seated"))
            return
        stored = await self.bot.store.hand_review(table_id, round_no, seat)
        if stored is not None:
            answer = review_text(language, hand, review_from_json(stored), replayer=self.replayer)
            await interaction.response.send_message(answer, ephemeral=True)
            return
        key = (table_id, round_no, seat)
        if key in self._reviewing:
            await say(interaction, text(language, "review.busy"))
            return
        self._reviewing.add(key)
        try:
            await self._compute_review(interaction, hand, seat, language)
        finally:
            self._reviewing.discard(key)

    async def _compute_review(
        self, interaction: discord.Interaction[Any], hand: FinishedHand, seat: int, language: str
    ) -> None:
        progress = [0, 0]

        def note(done: int, total: int) -> None:
            progress[0], progress[1] = done, total

        await interaction.response.send_message(
            text(language, "review.running", done=0, total="…"), ephemeral=True
        )
        work = asyncio.ensure_future(
            review_in_workers(
                self.bot.policy_runner, hand.record, seat, progress=note, **REVIEW_OPTIONS
            )
        )
        shown = (0, 0)
        while True:
            done, _ = await asyncio.wait({work}, timeout=REVIEW_PROGRESS_EVERY)
            if done:
                break
            if (progress[0], progress[1]) != shown and progress[1]:
                shown = (progress[0], progress[1])
                words = text(language, "review.running", done=shown[0], total=shown[1])
                await interaction.edit_original_response(content=words)
        try:
            review = work.result()
        except ChoreFailed as failure:  # a worker died or hung, or the workers were too busy
            log.warning(
                "reviewing hand %s of table %s stopped: %s",
                hand.round_no,
                hand.table_id,
                failure.reason,
            )
            key = "review.timed_out" if failure.reason == TIMED_OUT else "review.failed"
            await interaction.edit_original_response(content=text(language, key))
            return
        except Exception:
            log.exception("reviewing hand %s of table %s failed", hand.round_no, hand.table_id)
            await interaction.edit_original_response(content=text(language, "review.failed"))
            return
        await self.bot.store.save_hand_review(
            hand.table_id, hand.round_no, seat, review_to_json(review)
        )
        await interaction.edit_original_response(
            content=review_text(language, hand, review, replayer=self.replayer)
        )
