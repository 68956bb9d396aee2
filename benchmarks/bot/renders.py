"""`python -m benchmarks.bot.renders`: what a render costs.

It also tells whether a change to the renderers changed anything a player sees.

Random games of each game (seeded: four players, Dutch also three, each move drawn among the
legal ones) are played through the table service on a fake clock. At every state: the table
message, each player's "My cards" (in either deck and either language, in turn), every step
of its menu, and each click's answer with the cards it showed; each is turned into what
Discord is sent (the V2 layout, or the embed and its components; the picture's file name).
The same seeds give the same states, so two runs render the same messages.

Prints, per game, the CPU of one render with its payload (`render_private`, `render_table`:
the fastest of `--repeats` passes over every state, in µs), with cards written as text and as
the bot's emojis, and one digest of every payload (each state rendered both ways). A change
meant to make renders cheaper must change none: `--save` before it, `--compare` after.
"""

from __future__ import annotations

import argparse
import asyncio
import hashlib
import json
import random
import tempfile
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from itertools import count
from pathlib import Path

from bot.custom_ids import THEN, BadCustomId, Kind, parse
from bot.pictures.card_faces import (
    BACK,
    CARD_NAMES,
    FOUR_COLOUR_NAMES,
    FOUR_COLOURS,
    TWO_COLOURS,
    Deck,
)
from bot.render.actions import SelectSpec
from bot.render.card_text import use_pictures
from bot.render.private import render_private
from bot.render.table import RenderedMessage, render_table
from bot.service import FakeClock, PlayerRef, TableError, TableService
from bot.service.notifier import RecordingNotifier
from bot.snapshots import PLAYING, ROUND_OVER, PrivateSnapshot, PublicSnapshot, Reveal
from bot.ui.layout import shown_as
from storage import Store

GAMES = ("dame", "dutch", "euchre")
NAMES = ("Ann", "Bob", "Chloé", "Dan")
LANGUAGES = ("en", "fr")
MOST_STEPS = 30  # menu steps rendered under one "My cards" (a Dame hand offers dozens)


@dataclass(frozen=True, slots=True)
class PrivateRender:
    private: PrivateSnapshot
    public: PublicSnapshot
    language: str
    deck: Deck
    prefix: str = ""
    reveals: tuple[Reveal, ...] = ()
    hide_at: float | None = None

    def __call__(self) -> RenderedMessage:
        return render_private(
            self.private,
            self.public,
            self.language,
            reveals=self.reveals,
            hide_at=self.hide_at,
            prefix=self.prefix,
            deck=self.deck,
        )


@dataclass(frozen=True, slots=True)
class TableRender:
    public: PublicSnapshot
    language: str

    def __call__(self) -> RenderedMessage:
        return render_table(self.public, self.language)


Render = PrivateRender | TableRender


def payload(rendered: RenderedMessage) -> str:
    """What Discord is sent for this message (its V2 layout, or its embed and buttons), as one
    canonical text."""
    shown = shown_as(rendered)
    embed = shown.get("embed")
    return json.dumps(
        {
            "embed": None if embed is None else embed.to_dict(),
            "components": shown["view"].to_components(),
            "cards": None if rendered.cards is None else rendered.cards.filename,
            "picture": None if rendered.picture is None else rendered.picture.filename,
        },
        sort_keys=True,
        ensure_ascii=False,
    )


def menu_steps(render: PrivateRender, rendered: RenderedMessage) -> Iterator[PrivateRender]:
    """Every step of the menu under a "My cards" message (a button's `n=` prefix, a select's
    option that is a prefix rather than a move), at most `MOST_STEPS`."""
    waiting = list(_prefixes(rendered, render.private.legal))
    seen: set[str] = set()
    while waiting and len(seen) < MOST_STEPS:
        prefix = waiting.pop()
        if not prefix or prefix in seen:
            continue
        seen.add(prefix)
        step = PrivateRender(render.private, render.public, render.language, render.deck, prefix)
        yield step
        waiting += _prefixes(step(), render.private.legal)


def _prefixes(rendered: RenderedMessage, legal: tuple[str, ...]) -> Iterator[str]:
    for spec in rendered.components:
        try:
            component = parse(spec.custom_id)
        except BadCustomId:
            continue
        if component.kind is Kind.NAVIGATE:
            yield component.text
        elif component.kind is Kind.SELECT and isinstance(spec, SelectSpec):
            # an option is a move (played), several moves (`announce;discard 7H`) or a step
            yield from (v for _, v in spec.options if v not in legal and THEN not in v)


async def played(game: str, seed: int, steps: int, renders: list[Render]) -> None:
    """One seeded random game of `game`, every render of every state appended to `renders`."""
    with tempfile.TemporaryDirectory() as folder:
        store = await Store.open(Path(folder) / "renders.sqlite3", synchronous="NORMAL")
        seeds = count(seed * 1_000)
        clock = FakeClock()
        service = TableService(store, clock, RecordingNotifier(), lambda: next(seeds))
        try:
            await _play(service, clock, game, seed, steps, renders)
        finally:
            await service.close()
            await store.close()


async def _play(
    service: TableService,
    clock: FakeClock,
    game: str,
    seed: int,
    steps: int,
    renders: list[Render],
) -> None:
    seats = 3 if game == "dutch" and seed % 2 else 4
    players = [PlayerRef(100 + i, name) for i, name in enumerate(NAMES[:seats])]
    opened = await service.seating.open_table(1, 10, players[0], game)
    table_id = opened.table_id
    for player in players[1:]:
        await service.seating.join(table_id, player)
    await service.seating.start(table_id, players[0].user_id)
    rng = random.Random(seed)
    decks = (TWO_COLOURS, FOUR_COLOURS)
    for step in range(steps):
        public = service.public_snapshot(table_id)
        language = LANGUAGES[step % 2]
        renders.append(TableRender(public, language))
        if public.status == ROUND_OVER:
            await service.play.next_round(table_id, public.host_id)
            continue
        if public.status != PLAYING:
            return
        for index, player in enumerate(players):
            private = await service.play.follow_view(table_id, player.user_id)
            if private is not None:
                mine = PrivateRender(private, public, language, decks[(step + index) % 2])
                renders.append(mine)
                renders.extend(menu_steps(mine, mine()))
        if not public.to_act or public.round_no is None:
            continue
        user_id = public.seats[public.to_act[0]].user_id
        if user_id is None:
            continue
        legal = (await service.play.private_view(table_id, user_id)).legal
        try:
            result = await service.play.act(table_id, user_id, public.round_no, rng.choice(legal))
        except TableError:
            continue  # a timer came first
        answer = service.public_snapshot(table_id)
        renders.append(
            PrivateRender(
                result.private,
                answer,
                language,
                TWO_COLOURS,
                reveals=result.reveals,
                hide_at=clock.now() + 8,
            )
        )
        await clock.advance(1)


def fastest(renders: Sequence[Render], repeats: int) -> float:
    """µs of CPU per render and payload: the fastest of `repeats` passes (the others were
    slowed by what else runs on the machine)."""
    if not renders:
        return 0.0
    passes = []
    for _ in range(repeats):
        started = time.thread_time()
        for render in renders:
            payload(render())
        passes.append(time.thread_time() - started)
    return 1e6 * min(passes) / len(renders)


@contextmanager
def card_pictures() -> Iterator[None]:
    """Cards written as emojis within the block, as once the bot's are uploaded (else text)."""
    names = (*CARD_NAMES, BACK)
    use_pictures(
        {name: f"<:ct1_{name}:{1000 + i}>" for i, name in enumerate(names)},
        {name: f"<:ct4_{name}:{2000 + i}>" for i, name in enumerate(FOUR_COLOUR_NAMES)},
    )
    try:
        yield
    finally:
        use_pictures({})


def drawing(renders: Sequence[Render], most: int) -> str:
    """The CPU of drawing the card pictures these renders carry (their hand or table picture,
    the round end's): each distinct picture once, `most` of them at most, in ms."""
    pictures: dict[str, Callable[[], bytes]] = {}
    for render in renders:
        rendered = render()
        for picture in (rendered.cards, rendered.picture):
            if picture is not None and len(pictures) < most:
                pictures.setdefault(_picture_key(picture), picture.png)
    if not pictures:
        return "no picture"
    times = []
    for draw in pictures.values():
        started = time.thread_time()
        draw()
        times.append(1e3 * (time.thread_time() - started))
    mean = sum(times) / len(times)
    return f"{len(times)} pictures drawn {mean:.1f} ms each, {max(times):.1f} ms at most"


def _picture_key(picture: object) -> str:
    return getattr(picture, "filename", None) or repr(picture)


def digests(renders: list[Render]) -> list[str]:
    return [hashlib.sha256(payload(render()).encode()).hexdigest()[:20] for render in renders]


def compared(found: list[str], saved: list[str], renders: list[Render]) -> list[str]:
    """A line per render whose payload differs from the saved run's."""
    if len(found) != len(saved):
        return [f"{len(found)} renders, the saved run had {len(saved)}: not the same states"]
    return [
        f"render {i} ({_what(renders[i % len(renders)])}{' with emojis' * (i >= len(renders))}) "
        "differs"
        for i, (a, b) in enumerate(zip(found, saved, strict=True))
        if a != b
    ]


def _what(render: Render) -> str:
    if isinstance(render, TableRender):
        return f"{render.public.game} table message, {render.language}"
    menu = f", menu step {render.prefix!r}" if render.prefix else ""
    return f"{render.public.game} seat {render.private.seat}'s cards, {render.language}{menu}"


async def collect(games: tuple[str, ...], seeds: int, steps: int) -> dict[str, list[Render]]:
    found: dict[str, list[Render]] = {}
    for game in games:
        renders = found[game] = []
        for seed in range(seeds):
            await played(game, seed, steps, renders)
    return found


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.bot.renders", description=__doc__)
    parser.add_argument("--games", default=",".join(GAMES))
    parser.add_argument("--seeds", type=int, default=3, help="games of each game")
    parser.add_argument("--steps", type=int, default=150, help="moves per game")
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--save", type=Path, help="write each payload's digest here, one a line")
    parser.add_argument("--compare", type=Path, help="name the renders unlike this saved run")
    parser.add_argument("--short", action="store_true", help="one short game of each")
    parser.add_argument(
        "--pictures", type=int, default=0, help="also draw this many card pictures of each game"
    )
    args = parser.parse_args(argv)
    games = tuple(args.games.split(","))
    seeds, steps, repeats = (1, 8, 1) if args.short else (args.seeds, args.steps, args.repeats)
    by_game = asyncio.run(collect(games, seeds, steps))
    every: list[Render] = [render for renders in by_game.values() for render in renders]
    for game, renders in by_game.items():
        tables = [r for r in renders if isinstance(r, TableRender)]
        privates = [r for r in renders if isinstance(r, PrivateRender)]
        with card_pictures():
            pictured = fastest(privates, repeats), fastest(tables, repeats)
        print(
            f"{game}: {len(privates):,} private renders {fastest(privates, repeats):.0f} µs "
            f"({pictured[0]:.0f} µs with card emojis), {len(tables):,} table renders "
            f"{fastest(tables, repeats):.0f} µs ({pictured[1]:.0f} µs) "
            "(CPU per render and payload, fastest pass)"
        )
        if args.pictures:
            print(f"{game}: {drawing(renders, args.pictures)} (CPU, first drawing of each)")
    found = digests(every)  # cards as text, then as emojis
    with card_pictures():
        found += digests(every)
    whole = hashlib.sha256("\n".join(found).encode()).hexdigest()[:20]
    print(f"{len(found):,} payloads (cards as text, then as emojis), digest {whole}")
    if args.save is not None:
        args.save.write_text("\n".join(found) + "\n")
    if args.compare is not None:
        differ = compared(found, args.compare.read_text().split(), every)
        print(f"{len(differ)} renders differ from {args.compare}")
        for line in differ[:20]:
            print(f"  {line}")
        if differ:
            raise SystemExit(1)


if __name__ == "__main__":
    main()
