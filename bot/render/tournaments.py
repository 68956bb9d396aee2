"""A tournament's messages: its announcement, the standings after a round, and the podium.

The announcement says what is played, when, and who signed up, with the Sign up / Withdraw /
Check in buttons. All are built from the stored event (never a live table), in the server's
language."""

from __future__ import annotations

from dataclasses import dataclass

from bot.custom_ids import tournament_button_id
from bot.i18n import text
from bot.render.timestamps import clock
from games.tournament.event import CANCELLED, CHECKIN, FINISHED, RUNNING, SIGNUP
from games.tournament.standings import Row
from storage.tournaments import StoredTournament

NAMES_SHOWN = 40  # entrants named in the announcement; the others counted
STANDINGS_SHOWN = 32  # lines of standings in one embed (an embed holds 4,096 characters)
EMBED_COLOUR = 0x2E7D32


@dataclass(frozen=True, slots=True)
class TournamentButton:
    custom_id: str
    label: str
    style: str  # "primary", "success", "secondary"


@dataclass(frozen=True, slots=True)
class TournamentMessage:
    """An embed's parts and the buttons under it."""

    title: str
    description: str
    fields: tuple[tuple[str, str], ...]
    buttons: tuple[TournamentButton, ...]


def points_text(language: str, half_points: int) -> str:
    """Half points as a player reads them: 3, 2.5 (2,5 in French)."""
    whole, half = divmod(half_points, 2)
    shown = f"{whole}.5" if half else str(whole)
    return shown.replace(".", ",") if language == "fr" else shown


def unit_name(stored: StoredTournament, unit: int) -> str:
    return " & ".join(stored.event.names(unit))


def title(language: str, stored: StoredTournament) -> str:
    game = text(language, f"{stored.game}.name")
    return text(language, "tournament.title", game=game, id=stored.id)


def how_played(language: str, stored: StoredTournament) -> str:
    event = stored.event
    kind = text(language, f"tournament.format.{event.format.format}")
    parts = [kind]
    if event.format.format == "swiss":
        parts.append(text(language, "tournament.rounds", count=event.format.rounds))
    if event.format.partners is not None:
        parts.append(text(language, f"tournament.partners.{event.format.partners}"))
    parts.append(text(language, f"tournament.no_show.{event.format.no_show}"))
    if stored.settings.turn_seconds is not None:
        parts.append(text(language, "tournament.timer", seconds=stored.settings.turn_seconds))
    return " · ".join(parts)


def status_line(language: str, stored: StoredTournament) -> str:
    event = stored.event
    if event.status == SIGNUP:
        return text(
            language,
            "tournament.status.signup",
            closes=clock(stored.signup_closes_at),
            starts=clock(stored.starts_at),
        )
    if event.status == CHECKIN:
        return text(language, "tournament.status.checkin", starts=clock(stored.starts_at))
    if event.status == RUNNING:
        current = event.current()
        return text(
            language,
            "tournament.status.running",
            round=current.number if current else 0,
            rounds=event.planned_rounds(),
        )
    if event.status == FINISHED:
        return text(language, "tournament.status.finished")
    assert event.status == CANCELLED
    return text(language, "tournament.status.cancelled")


def announcement(language: str, stored: StoredTournament, most: int) -> TournamentMessage:
    """The tournament's own message: kept up to date at every sign-up and transition."""
    event = stored.event
    names = []
    for entrant in event.entrants[:NAMES_SHOWN]:
        mark = " ✓" if event.status == CHECKIN and entrant.checked_in else ""
        names.append(f"{entrant.name}{mark}")
    if len(event.entrants) > NAMES_SHOWN:
        names.append(text(language, "tournament.more", count=len(event.entrants) - NAMES_SHOWN))
    players = text(language, "tournament.players", count=len(event.entrants), most=most)
    fields = [(players, ", ".join(names) or text(language, "tournament.nobody_yet"))]
    buttons: list[TournamentButton] = []
    if event.status == SIGNUP:
        buttons = [
            TournamentButton(
                tournament_button_id(stored.id, "signup"),
                text(language, "tournament.button.signup"),
                "primary",
            ),
            TournamentButton(
                tournament_button_id(stored.id, "withdraw"),
                text(language, "tournament.button.withdraw"),
                "secondary",
            ),
        ]
    elif event.status == CHECKIN:
        buttons = [
            TournamentButton(
                tournament_button_id(stored.id, "checkin"),
                text(language, "tournament.button.checkin"),
                "success",
            ),
            TournamentButton(
                tournament_button_id(stored.id, "withdraw"),
                text(language, "tournament.button.withdraw"),
                "secondary",
            ),
        ]
    description = "\n".join((how_played(language, stored), status_line(language, stored)))
    return TournamentMessage(title(language, stored), description, tuple(fields), tuple(buttons))


def standings_lines(language: str, stored: StoredTournament, rows: list[Row]) -> list[str]:
    lines = []
    for row in rows[:STANDINGS_SHOWN]:
        lines.append(
            text(
                language,
                "tournament.standing",
                place=row.place,
                name=unit_name(stored, row.unit),
                points=points_text(language, row.points),
                buchholz=points_text(language, row.buchholz),
                played=row.played,
            )
        )
    if len(rows) > STANDINGS_SHOWN:
        lines.append(text(language, "tournament.more", count=len(rows) - STANDINGS_SHOWN))
    return lines


def standings(language: str, stored: StoredTournament, round_no: int) -> TournamentMessage:
    """The standings after a round, tie-breaks named."""
    rows = stored.event.standings()
    heading = text(language, "tournament.standings", round=round_no, title=title(language, stored))
    body = "\n".join(
        [*standings_lines(language, stored, rows), text(language, "tournament.tie_breaks")]
    )
    return TournamentMessage(heading, body, (), ())


def podium(language: str, stored: StoredTournament) -> str:
    """The last message: the first three."""
    places = stored.event.podium()
    medals = ("🥇", "🥈", "🥉")
    named = [
        f"{medals[i]} {unit_name(stored, unit)}" for i, unit in enumerate(places[: len(medals)])
    ]
    heading = title(language, stored)
    return text(language, "tournament.podium", title=heading, places=" · ".join(named))
