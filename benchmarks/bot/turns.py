"""`python -m benchmarks.bot.turns`: clicks per turn, for each game, through the bot's own menus.

Four "humans" sit at a table of each game and preset; each plays the strong bot's choice for
its seat (`TableService.bot_choice`), and reaches it as a player does: on its "My cards"
message as the bot renders it (`render_private`), through the buttons, selects and picks it
offers, step by step (a select option that opens a step renders the message at that step).
The move finally played is the one those components send, through the table service's `act`,
as the controller plays a click: nothing is played that the menus do not offer. A button or
option that plays two moves (`announce;discard 7H`) is counted when the player wanted both and
it costs fewer clicks than the two moves apart (the second as the menus offer it then).

A player's only legal move is played for them by the service after its short moment (unless
`--no-auto-play`), and with `--auto-knock` Dame de Pique's knock too: such turns cost no click.
It also counts the messages the bot sends or edits for each player's "My cards" as its
follower does: a click's answer edits the clicked message (one per interaction); a waiting
player's message is edited when what it is about changes (`moment_of`); when a player's turn
comes, their hand is posted anew (one message; the old one's deletion is not counted). Hiding
revealed cards and the table message (one for the channel) are left out. It prints `report`.
"""

from __future__ import annotations

import argparse
import asyncio
import copy
import itertools
import random
import re
import statistics
import tempfile
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bot.custom_ids import Kind, moves, parse
from bot.render.actions import ButtonSpec, ComponentSpec, SelectSpec
from bot.render.private import render_private
from bot.runtime.policy import policy_for
from bot.service import FINISHED, PLAYING, ROUND_OVER, FakeClock, PlayerRef, TableService
from bot.service.choices import PlayerChoices
from bot.service.notifier import NullNotifier
from bot.service.timers import AUTO_PLAY_SECONDS
from bot.ui.following import Moment, moment_of
from games.registry import game_names, get_game
from storage import PlayerPreferences, Store

LANGUAGE = "en"
SEATS = 4
MENU_DEPTH = 5  # steps at most to reach a move (a family, its pieces, a group, the move)
STRONG_BUDGET = 0.02  # seconds of search for a strong bot's choice (Euchre searches deals)
_COPY = re.compile(r"#[0-9]+")
PEEK = "peek"
AUTO = "auto"  # a turn whose only legal move was played for the player
KNOCK = "announce"  # Dame de Pique's knock, made by the service for a player who chose it
MISSING = 1_000  # the clicks of a move the menus do not offer (never cheaper)


@dataclass(frozen=True, slots=True)
class Route:
    """How a move is reached on the menus: the notation they send, clicks and interactions.

    A click is what a player's hand does: a button is 1 click; a select is 2 (open it, choose);
    a pick (several cards ticked in one select) is 2 plus 1 per card (open, tick each, close).
    An interaction is what reaches the bot (a button, a choice, a pick): 1 each. Opening "My
    cards" is not counted: the message follows the game from turn to turn."""

    notation: str  # the first move's, as the menus send it
    clicks: int
    interactions: int
    then: tuple[str, ...] = ()  # further moves the same click plays (`swap 2;end`)


def same_move(offered: str, wanted: str) -> bool:
    """The same move, copies of a card aside (`7S#1` and `7S` lay the same card's twin)."""
    return offered == wanted or _COPY.sub("", offered) == _COPY.sub("", wanted)


def path_to(render: Callable[[str], Sequence[ComponentSpec]], wanted: str) -> Route | None:
    """The cheapest way (fewest clicks) to play `wanted` alone from the top of the menu, or
    None if the menus do not reach it. `render(prefix)` is the message's components there."""
    return routes_to(render, wanted).get(())


def routes_to(
    render: Callable[[str], Sequence[ComponentSpec]], wanted: str
) -> dict[tuple[str, ...], Route]:
    """The cheapest way to play `wanted`, by the further moves the same click plays: `()` for
    `wanted` alone, `("end",)` for a button `swap 2;end`."""
    best: dict[tuple[str, ...], Route] = {}
    for route in _search(render, wanted, "", MENU_DEPTH, set()):
        if route.then not in best or route.clicks < best[route.then].clicks:
            best[route.then] = route
    return best


def _search(
    render: Callable[[str], Sequence[ComponentSpec]],
    wanted: str,
    prefix: str,
    depth: int,
    seen: set[str],
) -> list[Route]:
    if depth == 0 or prefix in seen:
        return []
    seen.add(prefix)
    found: list[Route] = []
    steps: list[tuple[str, int]] = []  # (prefix, clicks to open it)
    for spec in render(prefix):
        component = parse(spec.custom_id)
        if isinstance(spec, ButtonSpec):
            first, *then = moves(component.text) if component.kind is Kind.PLAY else [""]
            if component.kind is Kind.PLAY and same_move(first, wanted):
                found.append(Route(first, 1, 1, tuple(then)))
            elif component.kind is Kind.NAVIGATE and component.text:
                steps.append((component.text, 1))
            continue
        if component.kind is Kind.PICK:
            values = _pick_values(spec, component.text, wanted)
            if values is not None:
                notation = " ".join((component.text, *values))
                found.append(Route(notation, 2 + len(values), 1))
            continue
        for _, value in spec.options:
            first, *then = moves(value)  # `announce;discard 7H`: two moves in one choice
            if same_move(first, wanted):
                found.append(Route(first, 2, 1, tuple(then)))
            elif _leads_to(value, wanted):
                steps.append((value, 2))
    for step, clicks in steps:
        for further in _search(render, wanted, step, depth - 1, seen):
            found.append(
                Route(
                    further.notation,
                    clicks + further.clicks,
                    1 + further.interactions,
                    further.then,
                )
            )
    return found


def _leads_to(prefix: str, wanted: str) -> bool:
    """Does a step (`swap`, `look 1:`, `meld 7.`: a group prefix) lead toward `wanted`?"""
    wanted = _COPY.sub("", wanted)
    if prefix.endswith("."):
        return wanted.startswith(prefix[:-1])
    return wanted.startswith(prefix + " ") or (prefix.endswith(":") and wanted.startswith(prefix))


def _pick_values(spec: SelectSpec, prefix: str, wanted: str) -> tuple[str, ...] | None:
    """The options of a pick (`m=<prefix>`) that play `wanted`: each card of the move as an
    option names it (the same copy, else a twin), each option once."""
    if not wanted.startswith(prefix + " "):
        return None
    left = [value for _, value in spec.options]
    values: list[str] = []
    for word in wanted[len(prefix) + 1 :].split():
        match = next((v for v in left if v == word), None) or next(
            (v for v in left if same_move(v, word)), None
        )
        if match is None:
            return None
        left.remove(match)
        values.append(match)
    if not spec.min_values <= len(values) <= spec.max_values:
        return None
    return tuple(values)


@dataclass
class Tally:
    """Clicks per turn of one game and preset."""

    clicks: list[int] = field(default_factory=list)
    interactions: list[int] = field(default_factory=list)
    one_pack: list[int] = field(default_factory=list)  # Dame: turns laying exactly one pack
    by_kind: dict[str, list[int]] = field(default_factory=dict)  # clicks by `turn_kind`
    unreached: int = 0  # moves the menus did not offer (played by the service instead)
    rounds: int = 0  # rounds played to their end
    messages: Messages = field(default_factory=lambda: Messages())


@dataclass
class Messages:
    """The messages the bot sends or edits for the players (see the module docstring)."""

    answers: int = 0  # a click's answer: the clicked message edited
    edits: int = 0  # a waiting player's message redrawn by the follower
    moved: int = 0  # a player's turn came: their hand posted anew at the bottom
    moments: dict[int, Moment] = field(default_factory=dict)

    @property
    def total(self) -> int:
        return self.answers + self.edits + self.moved

    async def after(
        self, service: TableService, table_id: int, people: list[PlayerRef], clicker: int | None
    ) -> None:
        """A change at the table: each player's message as the follower treats it (the
        clicker's shows the change already: their click's answer)."""
        for person in people:
            private = await service.play.follow_view(table_id, person.user_id)
            if private is None:
                continue
            moment, before = moment_of(private), self.moments.get(person.user_id)
            self.moments[person.user_id] = moment
            if person.user_id == clicker or before is None or moment == before:
                continue
            if moment[2] and not before[2]:
                self.moved += 1
            else:
                self.edits += 1


@dataclass
class Turn:
    """A player's moves until another player is to act (Dutch's start peek is a turn of its
    own), with the clicks and interactions they took."""

    seat: int
    clicks: int = 0
    interactions: int = 0
    kinds: list[str] = field(default_factory=list)


async def play_rounds(service: TableService, game: str, preset: str, rounds: int) -> Tally:
    """Four humans play `rounds` rounds of `game` clicking the strong bot's choices; a move
    played for them (their only legal one, with `auto_play` on) costs no click."""
    clock = service.clock
    assert isinstance(clock, FakeClock)
    rng = random.Random(f"{game}/{preset}")
    strong = policy_for(get_game(game), "strong")
    tally = Tally()
    people = [PlayerRef(100 + p, f"P{p}") for p in range(SEATS)]
    table_id = await _open(service, game, preset, people)
    played = 0
    turn: Turn | None = None
    chosen: str | None = None  # the next move, when already asked for
    paid: list[str] = []  # moves a click already played with the one before (`swap 2;end`)

    def decide(round_: Any, seat: int, g: random.Random) -> str:
        move = str(strong.choose(round_, seat, g, budget=STRONG_BUDGET))
        if move == KNOCK and service.choices.auto_knock(people[seat].user_id):
            # the knock is left to the service (made before the discard when it may serve):
            # the player's next move is the one the bot would make after knocking
            ahead = copy.deepcopy(round_)
            ahead.apply(seat, move)
            move = str(strong.choose(ahead, seat, g, budget=STRONG_BUDGET))
        return move

    def choice(user_id: int) -> str:
        wanted = service.bot_choice(table_id, user_id, rng, choose=decide)
        assert wanted is not None
        return wanted

    while played < rounds:
        snapshot = service.public_snapshot(table_id)
        if snapshot.status in (ROUND_OVER, FINISHED):
            _close(turn, game, tally)
            turn, chosen, paid = None, None, []
            played += 1
            tally.rounds += 1
            if snapshot.status == ROUND_OVER:
                await service.play.next_round(table_id, people[0].user_id)
            else:
                await service.seating.rematch(table_id, people[0].user_id)
            await tally.messages.after(service, table_id, people, None)
            continue
        assert snapshot.status == PLAYING and snapshot.to_act and snapshot.round_no is not None
        seat = snapshot.to_act[0]
        user_id = snapshot.seats[seat].user_id
        assert user_id is not None
        mine = await service.play.follow_view(table_id, user_id)
        if mine is not None and mine.auto_play is not None:
            # the only legal move plays by itself in a moment (the player's `auto_play`)
            _close(turn, game, tally)
            turn, chosen, paid = Turn(seat, kinds=[AUTO]), None, []
            await clock.advance(AUTO_PLAY_SECONDS)
            await tally.messages.after(service, table_id, people, None)
            continue
        wanted, chosen = chosen or choice(user_id), None
        opening = wanted.startswith(PEEK)  # Dutch's start peek: a turn of its own
        if turn is None or turn.seat != seat or opening or turn.kinds[-1].startswith(PEEK):
            _close(turn, game, tally)
            turn, paid = Turn(seat), []
        if paid and same_move(paid[0], wanted):
            paid.pop(0)  # the previous click played it too
            await service.play.act(table_id, user_id, snapshot.round_no, wanted)
            turn.kinds.append(_kind(wanted))
            await tally.messages.after(service, table_id, people, user_id)
            continue
        paid = []
        routes = await _routes_now(service, table_id, user_id, wanted)
        plain = routes.get(())
        notation = plain.notation if plain is not None else wanted
        await service.play.act(table_id, user_id, snapshot.round_no, notation)
        turn.kinds.append(_kind(notation))
        route = plain
        after = service.public_snapshot(table_id)
        if after.status == PLAYING and seat in after.to_act:
            chosen = choice(user_id)  # did the player want what a one-click choice adds?
            compounds = [(t, r) for t, r in routes.items() if t and same_move(t[0], chosen)]
            if compounds:
                # the two moves apart (the next as the menus offer it then), or both at once
                alone = (await _routes_now(service, table_id, user_id, chosen)).get(())
                apart = (route.clicks if route else MISSING) + (alone.clicks if alone else MISSING)
                for then, compound in compounds:
                    if compound.clicks < apart:
                        route, paid, apart = compound, list(then), compound.clicks
        if route is None:
            tally.unreached += 1
        else:
            turn.clicks += route.clicks
            turn.interactions += route.interactions
            tally.messages.answers += route.interactions
        await tally.messages.after(service, table_id, people, user_id)
    await service.seating.stop(table_id, people[0].user_id, can_manage=True)
    return tally


async def _routes_now(
    service: TableService, table_id: int, user_id: int, wanted: str
) -> dict[tuple[str, ...], Route]:
    """The routes to `wanted` on the player's "My cards" as the bot renders it now."""
    private = await service.play.follow_view(table_id, user_id)
    assert private is not None
    public = service.public_snapshot(table_id)

    def render(prefix: str) -> Any:
        rendered = render_private(private, public, LANGUAGE, prefix=prefix)
        # a move laid beside its card (a V2 section) is the menu's own button
        return (*rendered.components, *(section.button for section in rendered.sections))

    return routes_to(render, wanted)


def _kind(notation: str) -> str:
    """`meld+` for a move naming cards or places, `draw` for a bare one (Dame's turn kinds)."""
    return notation.split(" ")[0] + ("+" if " " in notation else "")


PLAIN_DUTCH = {"draw", "take", "swap+", "discard", "discard+", "end"}


def turn_kind(game: str, kinds: Sequence[str]) -> str:
    """What a turn was, in the words of the clicks-per-turn goals: Dame's turns that lay one
    pack (with a knock or not), Dutch's plain turns (draw or take, then swap or discard) apart
    from those with a match or a card's power, Euchre's plays apart from its bids."""
    if game == "dame":
        packs = sum(kind in ("meld+", "take+") for kind in kinds)
        if packs == 1 and "add+" not in kinds:
            return "one pack, knock" if "announce" in kinds else "one pack"
        return "other"
    if game == "dutch":
        if any(kind.startswith(PEEK) for kind in kinds):
            return "start peek"
        if set(kinds) <= PLAIN_DUTCH:
            return "draw, swap or discard"
        return "with a match" if "match+" in kinds else "with a card's power"
    if game == "euchre":
        if kinds == [AUTO]:
            return "card played by itself"
        return "play a card" if set(kinds) == {"play+"} else "bid"
    return "turn"


def _close(turn: Turn | None, game: str, tally: Tally) -> None:
    if turn is None:
        return
    tally.clicks.append(turn.clicks)
    tally.interactions.append(turn.interactions)
    kind = turn_kind(game, turn.kinds)
    tally.by_kind.setdefault(kind, []).append(turn.clicks)
    if kind.startswith("one pack"):
        tally.one_pack.append(turn.clicks)


async def _open(service: TableService, game: str, preset: str, people: list[PlayerRef]) -> int:
    snapshot = await service.seating.open_table(
        1, 10, people[0], game, preset=preset, target=10_000
    )
    for person in people[1:]:
        await service.seating.join(snapshot.table_id, person)
    await service.seating.start(snapshot.table_id, people[0].user_id)
    return snapshot.table_id


def summary(values: Sequence[int]) -> str:
    if not values:
        return "no turn"
    ordered = sorted(values)
    p90 = ordered[min(len(ordered) - 1, int(0.9 * len(ordered)))]
    return (
        f"mean {statistics.fmean(values):.2f}, median {statistics.median(values):g}, "
        f"p90 {p90}, max {max(values)}"
    )


def configurations() -> list[tuple[str, str]]:
    """Every registered game four can play, with each of its presets."""
    found = []
    for name in game_names():
        game = get_game(name)
        if game.min_seats <= SEATS <= game.max_seats:
            found += [(name, preset) for preset in game.presets]
    return found


async def run(
    rounds: int,
    games: Sequence[str] | None = None,
    *,
    auto_play: bool = True,
    auto_knock: bool = False,
) -> dict[tuple[str, str], Tally]:
    """`auto_play`, `auto_knock`: the players' choices that their only legal move be played
    for them, and that the knock be made for them (then they never click it)."""
    results: dict[tuple[str, str], Tally] = {}
    with tempfile.TemporaryDirectory() as folder:
        store = await Store.open(Path(folder) / "turns.sqlite3", synchronous="NORMAL")
        seeds = itertools.count(1)
        choices = PlayerChoices()
        choices.load(
            PlayerPreferences(user_id=100 + p, auto_play=auto_play, auto_knock=auto_knock)
            for p in range(SEATS)
        )
        service = TableService(
            store, FakeClock(), NullNotifier(), lambda: next(seeds), choices=choices
        )
        try:
            for game, preset in configurations():
                if games and game not in games:
                    continue
                results[(game, preset)] = await play_rounds(service, game, preset, rounds)
        finally:
            await service.close()
            await store.close()
    return results


def report(results: dict[tuple[str, str], Tally], rounds: int) -> None:
    """Per game and preset, the turns played and clicks per turn (mean, median, 90th
    percentile, max), interactions per turn and clicks per round; for Dame de Pique also the
    turns that lay exactly one pack (a new pack or a take, no add); then the same by kind of
    turn (`turn_kind`: Dame's one pack with or without a knock, Dutch's plain turns, those with
    a match or a card's power, Euchre's plays, its cards played by themselves and its bids)."""
    print(f"clicks per turn through the menus, {rounds} round(s) of strong bots' choices:")
    for (game, preset), tally in results.items():
        interactions = statistics.fmean(tally.interactions) if tally.interactions else 0.0
        print(
            f"  {game:7} {preset:9} {len(tally.clicks):5} turns: clicks {summary(tally.clicks)}; "
            f"interactions {interactions:.2f}"
            + (f"; not offered {tally.unreached}" if tally.unreached else "")
        )
        if tally.rounds:
            print(
                f"  {'':17} clicks per round (four players): {sum(tally.clicks) / tally.rounds:.1f}"
            )
        if tally.clicks:
            sent = tally.messages
            per = len(tally.clicks) * SEATS
            print(
                f"  {'':17} messages per turn per player: {sent.total / per:.2f} "
                f"(answers {sent.answers / per:.2f}, follower's edits {sent.edits / per:.2f}, "
                f"hands moved down {sent.moved / per:.2f})"
            )
        if game == "dame":
            within = sum(c <= 3 for c in tally.one_pack)
            print(
                f"  {'':17} {len(tally.one_pack):5} turns laying one pack: clicks "
                f"{summary(tally.one_pack)}; {within} within 3 clicks"
            )
        for kind, clicks in sorted(tally.by_kind.items()):
            print(f"  {'':17} {len(clicks):5} × {kind}: clicks {summary(clicks)}")


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--short", action="store_true", help="one round of each game")
    parser.add_argument("--rounds", type=int, default=20, help="rounds of each game")
    parser.add_argument("--games", nargs="*", help="only these games (default: all)")
    parser.add_argument(
        "--no-auto-play",
        action="store_true",
        help="the players click their only legal move too (`/deck auto_play:False`)",
    )
    parser.add_argument(
        "--auto-knock",
        action="store_true",
        help="the knock is made for the players (`/deck auto_knock:True`), before their discard "
        "when the cards they keep could go out next turn: they never click it",
    )
    args = parser.parse_args(argv)
    rounds = 1 if args.short else args.rounds
    results = run(rounds, args.games, auto_play=not args.no_auto_play, auto_knock=args.auto_knock)
    report(asyncio.run(results), rounds)


if __name__ == "__main__":
    main()
