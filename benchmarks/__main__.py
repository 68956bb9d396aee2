"""`python -m benchmarks`: list the benchmark, soak and strength scripts and what each prints."""

from __future__ import annotations

SCRIPTS = (
    ("python -m benchmarks.games GAME [--short]", "engine: rounds or hands per second"),
    ("python -m benchmarks.strength GAME [--help]", "bot strength: matches of strong v simple"),
    ("python -m benchmarks.storage [--url auto|URL]", "store: durable actions/s, load time"),
    ("python -m benchmarks.bot", "clicks at many tables of humans and bots (clicks.py)"),
    ("python -m benchmarks.bot.bots", "a human's click at tables of strong bots"),
    ("python -m benchmarks.bot.turns", "clicks per turn through the menus"),
    ("python -m benchmarks.bot.renders", "CPU per rendered message; what a change altered"),
    ("python -m benchmarks.bot.replays", "replay pages drawn per second"),
    ("python -m benchmarks.bot.review", "a hand's review in a bot worker"),
    ("python -m benchmarks.bot.soak", "thousands of matches through the bot, memory"),
    ("python -m benchmarks.bot.restart", "a restart with a big history: first click"),
    ("python -m benchmarks.bot.restart_channel", "a restart with 1,000 tables in one channel"),
    ("python -m benchmarks.bot.tournament", "a 256-player Swiss through the real bot"),
    ("python -m benchmarks.bot.activity", "open Activity pages: a move to every page"),
)


def main() -> None:
    width = max(len(command) for command, _ in SCRIPTS)
    for command, what in SCRIPTS:
        print(f"{command:<{width}}  {what}")
    print("Figures measured so far: docs/performance.md")


if __name__ == "__main__":
    main()
