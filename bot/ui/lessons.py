"""Guided hands on Discord (`/<game> learn`, issue #40).

The lesson table is in a private thread, with the lesson's lines in it, and a wrong move is
answered with why.

`/<game> learn` opens a table of the game's lesson (`games.<game>.lesson`): the learner and the
lesson's bot players (the `lesson` level plays the script), its stacked deck, coached and so
unrated. It lives in a private thread only the learner is added to, so the table message, its
"My cards" and the lesson's lines read in order in one place nobody else sees, and stay there
to scroll back through; a wrong move is answered to the learner alone (ephemeral), in one or
two sentences, and nothing is played, so they try again.

The learner plays through the table's own buttons and the controller: `judge` is asked
before every move a click plays, `played` after one the lesson expected."""

from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Final

import discord

from bot.i18n import error_text, has_key, language_of, text
from bot.runtime.policy import LESSON_LEVEL
from bot.service.errors import TableError
from bot.service.lessons import judge_move, learner_step, lesson_at
from bot.snapshots import PlayerRef
from bot.ui.custom_ids import moves
from bot.ui.replies import refuse, say
from bot.ui.timing import within_deadline
from games.lesson import EXPECTED, ILLEGAL, WRONG, Lesson, Step, lesson_of

if TYPE_CHECKING:
    from bot.app import CardTableBot

log = logging.getLogger(__name__)

# a learner reads between moves: the turn timer of a lesson is long (a timeout plays the
# script's move, so the lesson goes on even then)
LESSON_TURN_SECONDS: Final = 900
THREAD_ARCHIVE_MINUTES: Final = 60
LINE_MARK: Final = "📘"


@dataclass(frozen=True, slots=True)
class Judged:
    """What a lesson made of a click: `answered` (a wrong or illegal move, told why: play
    nothing), else the lesson's `step` it plays (None: not a lesson table)."""

    answered: bool
    step: Step | None = None


NOT_A_LESSON: Final = Judged(answered=False)


class LessonGuide:
    """The lessons of one bot: opens them, judges the learner's moves, posts their lines."""

    def __init__(self, bot: CardTableBot) -> None:
        self.bot = bot
        self._languages: dict[int, str] = {}  # table id -> the learner's language
        self._listening = False

    def _listen(self) -> None:
        if not self._listening:
            self.bot.service.match_listeners.append(self._match_over)
            self._listening = True

    # -- `/<game> learn` ------------------------------------------------------------------
    async def start(self, interaction: discord.Interaction[Any], game: str) -> None:
        """Open the game's lesson for the user in a private thread of this channel."""
        lesson = lesson_of(game)
        channel = interaction.channel
        if lesson is None:
            await refuse(interaction, "lesson.none")
            return
        if interaction.guild_id is None or channel is None:
            await refuse(interaction, "guild_only")
            return
        if not isinstance(channel, discord.TextChannel):
            await refuse(interaction, "lesson.no_thread")
            return
        self._listen()
        language = language_of(interaction.locale)
        service, user = self.bot.service, interaction.user
        try:
            settings = await self.bot.guild_settings.get(interaction.guild_id)
            service.seating.may_open(interaction.guild_id, channel.id, user.id, settings)
            snapshot = await within_deadline(
                service.seating.open_table(
                    interaction.guild_id,
                    channel.id,
                    PlayerRef(user.id, user.display_name),
                    game,
                    lesson.preset,
                    lesson.target,
                    LESSON_LEVEL,
                    coach=True,
                    turn_seconds=LESSON_TURN_SECONDS,
                ),
                lambda: interaction.response.defer(ephemeral=True, thinking=True),
            )
        except TableError as error:
            await refuse(interaction, error.key, **error.params)
            return
        table_id = snapshot.table_id
        if not interaction.response.is_done():
            await interaction.response.defer(ephemeral=True, thinking=True)
        try:
            for _ in range(lesson.seats - 1):
                await service.seating.add_bot(table_id, user.id)
            service.stack_deck(table_id, lesson.cards())
            thread = await channel.create_thread(
                name=text(language, "lesson.thread_name", game=text(language, f"{game}.name")),
                type=discord.ChannelType.private_thread,
                invitable=False,
                auto_archive_duration=THREAD_ARCHIVE_MINUTES,
            )
            await thread.add_user(user)
        except (TableError, discord.HTTPException) as error:
            log.info("lesson table %s could not open: %s", table_id, error)
            await service.seating.cancel(table_id, user.id)
            await refuse(interaction, "lesson.no_thread")
            return
        self._languages[table_id] = language
        await self.bot.locations.set_thread(table_id, thread.id)
        await self._line(table_id, lesson, lesson.intro, language)
        self.bot.notifier.clicked(table_id)
        await self.bot.notifier.post(table_id, thread.id)
        await service.seating.start(table_id, user.id)
        first = lesson.learner_step(())
        if first is not None and first.say is not None:
            await self._line(table_id, lesson, first.say, language)
        await say(interaction, text(language, "lesson.opened", where=f"<#{thread.id}>"))

    # -- the learner's moves -------------------------------------------------------------
    async def judge(
        self, interaction: discord.Interaction[Any], table_id: int, notation: str
    ) -> Judged:
        """Before a click plays `notation` (one move or several): at a lesson table, a wrong
        or illegal move is answered here with why, to the learner alone, and nothing is to
        be played; the lesson's move is let through with its step."""
        if lesson_at(self.bot.service, table_id) is None:
            return NOT_A_LESSON
        self._listen()  # a lesson restored after a restart: its end still gets its line
        verdict = await judge_move(self.bot.service, table_id, interaction.user.id, moves(notation))
        if verdict is None or verdict.step is None:
            return NOT_A_LESSON
        game = self.bot.service.game_of(table_id).name
        language = language_of(interaction.locale)
        self._languages[table_id] = language
        if verdict.kind == EXPECTED:
            return Judged(answered=False, step=verdict.step)
        then = text(language, f"{game}.lesson.{verdict.step.say}.do")
        if verdict.kind == WRONG:
            key = f"{game}.lesson.{verdict.key}"
            # a move the game does not list (any pack, in some games) may have no line of its own
            why = text(language, key) if has_key(key) else None
            await say(interaction, why or text(language, "lesson.other_move", then=then))
            return Judged(answered=True)
        assert verdict.kind == ILLEGAL
        why = error_text(language, f"illegal:{verdict.rule}", game=game)
        await say(interaction, f"{why} {then}")
        return Judged(answered=True)

    async def hint(self, interaction: discord.Interaction[Any], table_id: int) -> bool:
        """The Hint button at a lesson table (coached, so it has one): the lesson's own next
        move, never a search's, which could tell the learner something else. False: not a
        lesson table (the coach answers)."""
        if lesson_at(self.bot.service, table_id) is None:
            return False
        step = await learner_step(self.bot.service, table_id, interaction.user.id)
        if step is None or step.say is None:
            return False
        game = self.bot.service.game_of(table_id).name
        language = language_of(interaction.locale)
        then = text(language, f"{game}.lesson.{step.say}.do")
        await say(interaction, text(language, "lesson.hint", then=then))
        return True

    async def played(self, table_id: int, step: Step) -> None:
        """The learner played the lesson's move `step`: the line of their next one."""
        lesson = lesson_at(self.bot.service, table_id)
        if lesson is None:
            return
        after = lesson.step_after(step)
        if after is not None and after.say is not None:
            await self._line(table_id, lesson, after.say, await self._language(table_id))

    async def _match_over(self, table_id: int) -> None:
        lesson = lesson_at(self.bot.service, table_id)
        if lesson is not None:
            await self._line(table_id, lesson, lesson.done, await self._language(table_id))
            self._languages.pop(table_id, None)

    # -- lines in the lesson's thread ----------------------------------------------------
    async def _language(self, table_id: int) -> str:
        known = self._languages.get(table_id)
        if known is not None:
            return known
        guild_id = self.bot.service.public_snapshot(table_id).guild_id
        return await self.bot.guild_settings.public_language(guild_id)

    async def _line(self, table_id: int, lesson: Lesson, key: str, language: str) -> None:
        location = await self.bot.locations.get(table_id)
        where = self.bot.get_partial_messageable(location.post_channel_id)
        line = text(language, f"{lesson.game}.lesson.{key}")
        try:
            await where.send(f"{LINE_MARK} {line}")
        except discord.HTTPException as error:
            log.warning("a lesson line at table %s was not posted: %s", table_id, error)
