"""Stopping cleanly on SIGINT (Ctrl-C) and SIGTERM, however the process was started.

A process started in the background (`nohup`, `cmd &` in a non-interactive shell) inherits
SIGINT ignored, so Python installs no KeyboardInterrupt for it: the handlers are installed
here explicitly, each cancelling the main task, whose `finally` blocks then close the bot.
"""

from __future__ import annotations

import asyncio
import contextlib
import signal

STOP_SIGNALS = (signal.SIGINT, signal.SIGTERM)


def stop_on_signals() -> None:
    """From the main task: SIGINT and SIGTERM cancel it (a clean stop, `asyncio.run` then
    raises CancelledError, which the runner answers with exit code 0)."""
    main = asyncio.current_task()
    if main is None:
        return
    loop = asyncio.get_running_loop()
    for stop in STOP_SIGNALS:
        with contextlib.suppress(NotImplementedError, RuntimeError):  # Windows: no handlers
            loop.add_signal_handler(stop, main.cancel)
