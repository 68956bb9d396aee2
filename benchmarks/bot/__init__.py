"""The bot's benchmark and soak scripts, each printing numbers, each with a short mode the test
suite runs (tests/benchmarks/bot):

- `python -m benchmarks.bot` (clicks.py): clicks at a steady rate on many tables, of humans and of
  bot players;
- `python -m benchmarks.bot.soak`: thousands of matches through the bot, memory measured;
- `python -m benchmarks.bot.restart`: how soon a restarted bot answers a click, with a big history;
- `python -m benchmarks.bot.restart_channel`: a restart with 1,000 tables in one channel, Discord's
  per-channel limits enforced: how soon moves show, which mentions are posted, how many 429s;
- `python -m benchmarks.bot.bots`: how long a human waits for their click at tables of bot players;
- `python -m benchmarks.bot.turns`: clicks per turn of each game through the menus (the strong
  bots' choices reached by the buttons and selects a player is shown).

`latency.py` is how they report latencies; `set_up.py` (thousands of tables seated and
started, the service's clock held meanwhile), `discord_path.py` (the glue's work for each
change, short of the network) and `clicks_report.py` (what it prints) are the click
benchmark's parts.
"""
