"""`python -m bot.bench`: the click benchmark (bot/bench/clicks.py)."""

from bot.bench.clicks import main

if __name__ == "__main__":
    main()
