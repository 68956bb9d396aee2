"""The bot's benchmark and soak scripts, each printing numbers.

Each has a short mode the test suite runs (tests/benchmarks/bot); `python -m benchmarks` lists
them.

`python -m benchmarks.bot` runs the click benchmark (clicks.py), whose parts are `set_up.py`
(thousands of tables seated and started, the service's clock held meanwhile),
`discord_path.py` (the glue's work for each change, short of the network) and
`clicks_report.py` (what it prints); `latency.py` is how every script reports latencies.
"""
