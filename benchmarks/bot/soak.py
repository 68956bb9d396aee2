"""`python -m benchmarks.bot.soak`: thousands of matches through the bot, memory measured.

A whole `CardTableBot` (real store on a temporary file, fake clock, its notifier, table
locations, controller and edit coalescer) plays Dutch matches of one player and one bot player
to a target of 1 (one round). Discord is an in-process channel that takes every message and
edit. The player's clicks are the bot policy's choices, made through the service as the
controller makes them. Each match leaves memory one of the ways a table can, in turn:
expired (finished, nobody rematches, dropped after `finished_keep_seconds`), cancelled by its
host once finished, stopped by its host mid-round, abandoned by its only player mid-round, or
broken (held by the store but no longer replayable, its game retired: the bot is restarted on
the same file every `--restart-every` matches and finds them broken).

Prints the process's resident memory (RSS) and the size of every per-table map at the start,
the middle and the end: memory stays flat and every map comes back to its starting size.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import itertools
import logging
import random
import resource
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from types import SimpleNamespace
from typing import Any

from pydantic import SecretStr

from bot.app import CardTableBot, create_bot
from bot.runtime.runner import InlinePolicyRunner
from bot.service import FINISHED, PLAYING, ROUND_OVER, FakeClock, PlayerRef, TableError
from bot.settings import Settings
from storage import Store

ENDINGS = ("expired", "cancelled", "stopped", "abandoned", "broken")
GUILD, CHANNEL = 1, 10
RETIRED_GAME = "retired-game"  # what a broken table plays: no engine has that name
MAX_CLICKS = 500  # a one-round Dutch match takes a few dozen


class SoakChannel:
    """Discord, as far as the table messages go: every send gets a new message id; edits and
    deletions are taken and forgotten."""

    def __init__(self) -> None:
        self._ids = itertools.count(1_000_000)
        self.sends = 0

    async def send(self, *args: Any, **kwargs: Any) -> Any:
        self.sends += 1
        return SimpleNamespace(id=next(self._ids))

    def get_partial_message(self, message_id: int) -> Any:
        return _SoakMessage()


class _SoakMessage:
    async def edit(self, **kwargs: Any) -> None:
        return None

    async def delete(self) -> None:
        return None


def rss_mb() -> float:
    """The resident memory of this process now (Linux), else its peak."""
    try:
        with open("/proc/self/statm") as statm:
            pages = int(statm.read().split()[1])
        return pages * resource.getpagesize() / 2**20
    except OSError:
        return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def per_table_sizes(bot: CardTableBot) -> dict[str, int]:
    """How many tables each per-table map of every layer holds."""
    service = bot.service
    sizes = {
        "service.tables": len(service.tables.live),
        "service.seated": len(service.tables.seated),
        "service.following": len(service.followup.following),
        "service.restored_bots": len(service.followup.restored),
        **{f"notifier.{k}": v for k, v in bot.notifier.tracked().items()},
        "locations": len(bot.locations),
        "controller.hides": len(bot.tables._pending_hides),
        "controller.reveals": bot.tables.reveals.tracked(),
        "store.open_rounds": len(bot.store._open_rounds),
    }
    clock = bot.clock
    if isinstance(clock, FakeClock):
        # the season rollover's one timer is the bot's, not a table's
        bot_wide = int(bot.seasons.armed)
        sizes["clock.timers"] = clock.pending() - bot_wide
    return sizes


@dataclass
class SoakReport:
    lines: list[str] = field(default_factory=list)
    rss: list[float] = field(default_factory=list)
    sizes: list[dict[str, int]] = field(default_factory=list)
    endings: dict[str, int] = field(default_factory=lambda: dict.fromkeys(ENDINGS, 0))


async def start_bot(path: Path, clock: FakeClock, channel: SoakChannel) -> CardTableBot:
    store = await Store.open(path, synchronous="NORMAL")
    settings = Settings(_env_file=None, DISCORD_TOKEN=SecretStr("soak"))  # type: ignore[call-arg]
    bot = create_bot(
        settings,
        store=store,
        clock=clock,
        sync_commands=False,
        edit_delay=0.0,
        channel_edits=(1_000_000, 1.0),  # the soak's channel has no rate limit to keep to
        seed_source=itertools.count(1).__next__,
        # bot moves in this process: the fake clock drives the matches step by step, and the
        # memory measured is the bot's own
        policy_runner=InlinePolicyRunner(),
        # cards as text: the maps measured here are per table; pictures are drawn and timed by
        # `python -m benchmarks.bot`, and their caches are bounded by count
        card_pictures=False,
    )
    bot.get_partial_messageable = lambda channel_id, **_: channel  # type: ignore[method-assign,assignment]
    await bot.setup_hook()
    return bot


async def stop_bot(bot: CardTableBot) -> None:
    await bot.notifier.drain()
    await bot.stop_background()
    await bot.tables.close()
    await bot.notifier.close()
    await bot.store.close()


async def settle(bot: CardTableBot) -> None:
    """Let every pending message update run, then collect cycles (what is left is kept)."""
    await bot.notifier.drain()
    gc.collect()


async def play_match(bot: CardTableBot, match_no: int, ending: str) -> None:
    """Open, post, seat a bot player, start, and end the match the given way."""
    service = bot.service
    player = PlayerRef(10_000 + match_no, f"P{match_no}")
    if ending == "broken":
        await leave_broken_table(bot, player)
        return
    snapshot = await service.seating.open_table(GUILD, CHANNEL, player, "dutch", None, 1)
    table_id = snapshot.table_id
    await bot.notifier.post(table_id, CHANNEL)
    await service.seating.add_bot(table_id, player.user_id)
    await service.seating.start(table_id, player.user_id)
    await service.followup.settle(table_id)  # the bot's moves follow the start
    # stopped or left right after a click: while the bot's moves that follow it may be pending
    if ending == "stopped":
        await click(bot, table_id, player.user_id, 1, settle=False)
        await service.seating.stop(table_id, player.user_id, can_manage=False)
        return
    if ending == "abandoned":
        await click(bot, table_id, player.user_id, 1, settle=False)
        await service.seating.leave(table_id, player.user_id)
        return
    await click(bot, table_id, player.user_id, MAX_CLICKS)
    if service.public_snapshot(table_id).status != FINISHED:
        raise RuntimeError(f"table {table_id}: the match did not finish")
    if ending == "cancelled":
        await service.seating.cancel(table_id, player.user_id)
    # "expired": left finished; the clock expires it later


async def click(
    bot: CardTableBot, table_id: int, user_id: int, limit: int, *, settle: bool = True
) -> None:
    """Up to `limit` clicks of the player (the policy's choice), while the round runs; each
    awaits the bot's moves that follow it unless `settle` is False."""
    service = bot.service
    rng = random.Random(table_id)
    for _ in range(limit):
        snapshot = service.public_snapshot(table_id)
        if snapshot.status == ROUND_OVER:  # the target is not reached yet: one more round
            await service.play.next_round(table_id, user_id)
            await service.followup.settle(table_id)
            continue
        if snapshot.status != PLAYING or snapshot.round_no is None:
            return
        notation = service.bot_choice(table_id, user_id, rng)
        if notation is None:
            return
        try:
            await service.play.act(table_id, user_id, snapshot.round_no, notation)
        except TableError as error:
            raise RuntimeError(f"table {table_id}: click refused: {error.key}") from error
        if settle:
            await service.followup.settle(table_id)  # the bot's moves that follow the click


async def leave_broken_table(bot: CardTableBot, player: PlayerRef) -> None:
    """A running table of a game this bot no longer has, as an old file would hold one."""
    store = bot.store
    record = await store.create_table(GUILD, CHANNEL, RETIRED_GAME, {}, player.user_id)
    await store.update_table(record.id, status="playing", message_id=1)


async def run_soak(
    path: Path,
    matches: int,
    *,
    restart_every: int = 1_000,
    checkpoints: int = 2,
    echo: Callable[[str], None] = print,
) -> SoakReport:
    """Play `matches` matches; report memory at the start, at `checkpoints` - 1 points in the
    middle, and at the end (after every table has left)."""
    clock = FakeClock()
    channel = SoakChannel()
    report = SoakReport()
    bot = await start_bot(path, clock, channel)
    keep = bot.service.timers.finished_keep_seconds

    async def measure(label: str) -> None:
        await clock.advance(keep + 1)  # every finished table expires
        await settle(bot)
        sizes = per_table_sizes(bot)
        report.rss.append(rss_mb())
        report.sizes.append(sizes)
        shown = " ".join(f"{k}={v}" for k, v in sizes.items())
        line = f"{label:>14}  RSS {report.rss[-1]:7.1f} MB  {shown}"
        report.lines.append(line)
        echo(line)

    try:
        await measure("start")
        marks = {matches * k // checkpoints for k in range(1, checkpoints)}
        started = time.perf_counter()
        for match_no in range(matches):
            ending = ENDINGS[match_no % len(ENDINGS)]
            await play_match(bot, match_no, ending)
            report.endings[ending] += 1
            if (match_no + 1) % 50 == 0:
                await clock.advance(keep + 1)
                await bot.notifier.drain()
            if (match_no + 1) % restart_every == 0:
                await stop_bot(bot)
                bot = await start_bot(path, clock, channel)
            if match_no + 1 in marks:
                await measure(f"{match_no + 1} matches")
        # the last broken tables are found at one more restart
        await stop_bot(bot)
        bot = await start_bot(path, clock, channel)
        await measure(f"{matches} (end)")
        elapsed = time.perf_counter() - started
        echo(f"{matches} matches in {elapsed:.0f} s; endings {report.endings}")
    finally:
        await stop_bot(bot)
    return report


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.bot.soak", description=__doc__)
    parser.add_argument("--matches", type=int, default=20_000)
    parser.add_argument("--restart-every", type=int, default=1_000)
    parser.add_argument("--checkpoints", type=int, default=4, help="measurements after start")
    parser.add_argument("--short", action="store_true", help="a moment's run (the test suite's)")
    args = parser.parse_args(argv)
    if args.short:
        args.matches, args.restart_every, args.checkpoints = 20, 10, 1
    # one warning per broken table found at each restart is expected here: not shown
    logging.basicConfig(level=logging.ERROR)
    with tempfile.TemporaryDirectory() as tmp:
        asyncio.run(
            run_soak(
                Path(tmp) / "soak.sqlite3",
                args.matches,
                restart_every=args.restart_every,
                checkpoints=args.checkpoints,
            )
        )


if __name__ == "__main__":
    main()
