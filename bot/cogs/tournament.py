"""`/tournament create|show|cancel` (`/tournoi créer|voir|annuler`) and a tournament's buttons.

The buttons of a tournament's message (Sign up, Withdraw, Check in: `tn:<id>:<action>`) are
answered after a restart too. The event itself is run by `bot.tournaments.TournamentRunner`."""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.app_commands import Choice
from discord.ext import commands

from bot.custom_ids import TOURNAMENT_TEMPLATE
from bot.i18n import text
from bot.i18n.translator import command_text
from bot.render.tournaments import announcement, standings
from bot.tournaments import MOST_PLAYERS, embed_of, view_of
from bot.ui.replies import refuse, say, user_language
from games.registry import game_names, get_game
from games.tournament.event import FORMATS, NO_SHOW_BOT, NO_SHOWS, PARTNERS, SWISS
from games.tournament.event import TournamentError as EventError
from storage.errors import StoreError
from storage.tournaments import TournamentSettings

if TYPE_CHECKING:
    from bot.app import CardTableBot

log = logging.getLogger(__name__)

DEFAULT_ROUNDS = 3
DEFAULT_START_MINUTES = 30
DEFAULT_CHECKIN_MINUTES = 10

GAME_CHOICES = [
    Choice(name=command_text(text("en", f"{name}.name"), f"{name}.name"), value=name)
    for name in game_names()
]


def _choices(kind: str, values: tuple[str, ...]) -> list[Choice[str]]:
    return [
        Choice(
            name=command_text(
                text("en", f"tournament.choice.{kind}.{v}"), f"tournament.choice.{kind}.{v}"
            ),
            value=v,
        )
        for v in values
    ]


async def tell_error(interaction: discord.Interaction[Any], error: EventError) -> None:
    """One sentence for a refused tournament step, in the clicker's language."""
    await say(
        interaction,
        text(user_language(interaction), f"tournament.error.{error.rule}", **error.data),
    )


class TournamentButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]], template=TOURNAMENT_TEMPLATE
):
    """Sign up, Withdraw or Check in under a tournament's message."""

    def __init__(self, tournament_id: int, action: str) -> None:
        super().__init__(discord.ui.Button(custom_id=f"tn:{tournament_id}:{action}", label=action))
        self.tournament_id = tournament_id
        self.action = action

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: Any, /
    ) -> TournamentButton:
        return cls(int(match["tournament"]), str(match["action"]))

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        cog = interaction.client.get_cog(TournamentCog.__cog_name__)
        if not isinstance(cog, TournamentCog):
            await say(interaction, text(user_language(interaction), "error.bad_button"))
            return
        await cog.button(interaction, self.tournament_id, self.action)


class TournamentCog(
    commands.GroupCog,
    name="tournament",
    group_name=command_text("tournament", "cmd.tournament"),
    group_description=command_text(
        "Tournaments: Swiss, round robin or elimination, played at the bot's tables",
        "cmd.tournament.desc",
    ),
):
    def __init__(self, bot: CardTableBot) -> None:
        self.bot = bot
        super().__init__()

    @app_commands.command(
        name=command_text("create", "cmd.tournament.create"),
        description=command_text(
            "Open a tournament in this channel (Manage Server)", "cmd.tournament.create.desc"
        ),
    )
    @app_commands.guild_only()
    @app_commands.describe(
        game=command_text("The game played", "cmd.tournament.opt.game"),
        preset=command_text("Its rules", "cmd.tournament.opt.preset"),
        format=command_text("Swiss, round robin or elimination", "cmd.tournament.opt.format"),
        rounds=command_text("Swiss: how many rounds", "cmd.tournament.opt.rounds"),
        partners=command_text("Fixed teams or rotating", "cmd.tournament.opt.partners"),
        start_in=command_text("Minutes to the start", "cmd.tournament.opt.start_in"),
        checkin=command_text("Minutes of check-in", "cmd.tournament.opt.checkin"),
        timer=command_text("Seconds per turn", "cmd.tournament.opt.timer"),
        no_show=command_text("A no-show's seat", "cmd.tournament.opt.no_show"),
        target=command_text("Each match's target", "cmd.tournament.opt.target"),
    )
    @app_commands.rename(
        game=command_text("game", "cmd.param.game"),
        preset=command_text("preset", "cmd.param.preset"),
        format=command_text("format", "cmd.param.format"),
        rounds=command_text("rounds", "cmd.param.rounds"),
        partners=command_text("partners", "cmd.param.partners"),
        start_in=command_text("start_in", "cmd.param.start_in"),
        checkin=command_text("checkin", "cmd.param.checkin"),
        timer=command_text("timer", "cmd.param.timer"),
        no_show=command_text("no_show", "cmd.param.no_show"),
        target=command_text("target", "cmd.param.target"),
    )
    @app_commands.choices(
        game=GAME_CHOICES,
        format=_choices("format", FORMATS),
        partners=_choices("partners", PARTNERS),
        no_show=_choices("no_show", NO_SHOWS),
    )
    async def create(
        self,
        interaction: discord.Interaction,
        game: str,
        preset: str | None = None,
        format: str = SWISS,
        rounds: app_commands.Range[int, 1, 15] = DEFAULT_ROUNDS,
        partners: str | None = None,
        start_in: app_commands.Range[int, 1, 10080] = DEFAULT_START_MINUTES,
        checkin: app_commands.Range[int, 1, 1440] = DEFAULT_CHECKIN_MINUTES,
        timer: app_commands.Range[int, 5, 3600] | None = None,
        no_show: str = NO_SHOW_BOT,
        target: app_commands.Range[int, 1, 100000] | None = None,
    ) -> None:
        guild_id, channel_id = interaction.guild_id, interaction.channel_id
        if guild_id is None or channel_id is None:
            await refuse(interaction, "guild_only")
            return
        language = user_language(interaction)
        if not interaction.permissions.manage_guild:
            await say(interaction, text(language, "tournament.error.manage_guild"))
            return
        rules = get_game(game)
        if preset is not None and preset not in rules.presets:
            await say(
                interaction,
                text(
                    language,
                    "tournament.error.bad_preset",
                    game_name=text(language, f"{game}.name"),
                    preset=preset,
                ),
            )
            return
        if checkin >= start_in:
            await say(interaction, text(language, "tournament.error.checkin_too_long"))
            return
        # a game of four seats is played by partnerships; any other heads-up (docs/tournaments.md)
        seats = 4 if rules.min_seats == 4 else 2
        now = self.bot.clock.now()
        try:
            settings = TournamentSettings(
                format=format,
                seats=seats,
                rounds=rounds,
                partners=(partners or "fixed") if seats == 4 else None,
                no_show=no_show,
                turn_seconds=timer,
            )
            stored = await self.bot.tournaments.create(
                guild_id=guild_id,
                channel_id=channel_id,
                created_by=interaction.user.id,
                game=game,
                preset=preset,
                target=target,
                settings=settings,
                signup_closes_at=now + 60 * (start_in - checkin),
                starts_at=now + 60 * start_in,
            )
        except EventError as error:
            await tell_error(interaction, error)
            return
        except StoreError:
            log.exception("a tournament could not be created")
            await say(interaction, text(language, "tournament.error.store"))
            return
        public = await self.bot.guild_settings.public_language(guild_id)
        shown = announcement(public, stored, MOST_PLAYERS)
        view = view_of(shown)
        if view is None:
            await interaction.response.send_message(embed=embed_of(shown))
        else:
            await interaction.response.send_message(embed=embed_of(shown), view=view)
        message = await interaction.original_response()
        stored.message_id = message.id
        try:
            await self.bot.store.tournaments.set_message(stored.id, message.id)
        except StoreError:  # its buttons still work; only its later edits are lost
            log.exception("tournament %s: its message id could not be stored", stored.id)

    @app_commands.command(
        name=command_text("show", "cmd.tournament.show"),
        description=command_text(
            "A tournament's players, status and standings, only to you",
            "cmd.tournament.show.desc",
        ),
    )
    @app_commands.guild_only()
    @app_commands.describe(
        tournament=command_text("The tournament's number", "cmd.tournament.opt.tournament")
    )
    @app_commands.rename(tournament=command_text("tournament", "cmd.param.tournament"))
    async def show(
        self,
        interaction: discord.Interaction,
        tournament: app_commands.Range[int, 1, 2**53] | None = None,
    ) -> None:
        language = user_language(interaction)
        stored = await self._find(interaction, tournament, open_only=False)
        if stored is None:
            return
        embeds = [embed_of(announcement(language, stored, MOST_PLAYERS))]
        done = [r for r in stored.event.rounds if r.done]
        if done:
            embeds.append(embed_of(standings(language, stored, done[-1].number)))
        await interaction.response.send_message(embeds=embeds, ephemeral=True)

    @app_commands.command(
        name=command_text("cancel", "cmd.tournament.cancel"),
        description=command_text(
            "Cancel a tournament (Manage Server)", "cmd.tournament.cancel.desc"
        ),
    )
    @app_commands.guild_only()
    @app_commands.describe(
        tournament=command_text("The tournament's number", "cmd.tournament.opt.tournament")
    )
    @app_commands.rename(tournament=command_text("tournament", "cmd.param.tournament"))
    async def cancel(
        self,
        interaction: discord.Interaction,
        tournament: app_commands.Range[int, 1, 2**53] | None = None,
    ) -> None:
        language = user_language(interaction)
        if not interaction.permissions.manage_guild:
            await say(interaction, text(language, "tournament.error.manage_guild"))
            return
        stored = await self._find(interaction, tournament, open_only=True)
        if stored is None:
            return
        try:
            await self.bot.tournaments.cancel(stored.id)
        except EventError as error:
            await tell_error(interaction, error)
            return
        except StoreError:
            await say(interaction, text(language, "tournament.error.store"))
            return
        await say(interaction, text(language, "tournament.cancelled", id=stored.id))

    async def _find(
        self, interaction: discord.Interaction[Any], number: int | None, *, open_only: bool
    ) -> Any:
        """The event asked for (else the newest open one, else the newest) in this server;
        None once the refusal is said."""
        language = user_language(interaction)
        guild_id = interaction.guild_id
        runner = self.bot.tournaments
        await runner.ready()
        if number is None:
            open_here = runner.open_in_guild(guild_id or 0)
            if open_here:
                return max(open_here, key=lambda t: t.id)
            newest = (
                [] if open_only else await self.bot.store.tournaments.of_guild(guild_id or 0, 1)
            )
            if not newest:
                await say(interaction, text(language, "tournament.none_here"))
                return None
            number = newest[0]
        try:
            stored = await runner.load(number)
        except StoreError:
            stored = None
        if (
            stored is None
            or stored.guild_id != guild_id
            or (open_only and number not in runner.events)
        ):
            await say(interaction, text(language, "tournament.error.no_tournament"))
            return None
        return stored

    async def button(
        self, interaction: discord.Interaction[Any], tournament_id: int, action: str
    ) -> None:
        """A click on Sign up, Withdraw or Check in: one sentence to the clicker, and the
        event's message brought up to date."""
        language = user_language(interaction)
        runner = self.bot.tournaments
        await runner.ready()
        stored = runner.events.get(tournament_id)
        if stored is None or stored.guild_id != interaction.guild_id:
            await say(interaction, text(language, "tournament.error.no_tournament"))
            return
        user = interaction.user
        try:
            if action == "signup":
                stored = await runner.sign_up(tournament_id, user.id, user.display_name)
                key = "tournament.signed_up"
            elif action == "withdraw":
                stored = await runner.withdraw(tournament_id, user.id)
                key = "tournament.withdrawn"
            else:
                stored = await runner.check_in(tournament_id, user.id)
                key = "tournament.checked_in"
        except EventError as error:
            await tell_error(interaction, error)
            return
        except StoreError:
            await say(interaction, text(language, "tournament.error.store"))
            return
        await say(interaction, text(language, key, id=tournament_id))
        await runner.refresh(stored)
