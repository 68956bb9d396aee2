"""The compute runtime: bot players' decisions and reviews, run off the event loop.

See bot/runtime/README.md.
"""
