"""`python -m benchmarks.bot`: the click benchmark (benchmarks/bot/clicks.py)."""

from benchmarks.bot.clicks import main

if __name__ == "__main__":
    main()
