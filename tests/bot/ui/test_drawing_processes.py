"""The bot's children (its drawing processes, its bot workers) go with it, even when it is
killed outright and a worker is stuck in a decision: none is left waiting forever."""

from __future__ import annotations

import os
import select
import subprocess
import sys
import textwrap

# A bot that starts a drawing process and a worker, sends the worker a decision it never
# finishes, prints their process ids, and dies without a goodbye (as SIGKILL would end it).
BOT = textwrap.dedent(
    """
    import asyncio, os, pickle
    from bot.runtime.worker import Job, ProcessWorker
    from games.contract import RoundSetup
    from games.euchre import GAME
    from bot.ui.message_pictures import in_drawing_process
    from tests.bot.runtime import deciders

    class Events:
        def __init__(self):
            self.up = asyncio.get_running_loop().create_future()
            self.first = asyncio.get_running_loop().create_future()
        def ready(self):
            self.up.set_result(None)
        def answered(self, answer):
            self.first.set_result(None)
        def lost(self, reason):
            pass

    async def main():
        drawing = await in_drawing_process(os.getpid)
        events = Events()
        worker = ProcessWorker(events, deciders.hangs_after_first)
        await events.up
        round_ = pickle.dumps(GAME.new_round(GAME.options(), RoundSetup(n_seats=4), seed=1))
        worker.send(Job(1, round_, 0, "strong", 0))  # answered (an error: not its turn), then
        worker.send(Job(2, round_, 0, "strong", 0))  # one it never finishes, already sent
        await events.first
        print(drawing, worker.pid, flush=True)
        os._exit(0)

    asyncio.run(main())
    """
)


def test_the_bots_children_exit_once_it_is_killed_outright() -> None:
    bot = subprocess.Popen(
        [sys.executable, "-c", BOT], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True
    )
    try:
        assert bot.stdout is not None
        children = [int(pid) for pid in bot.stdout.readline().split()]
        assert len(children) == 2
        # the bot is not reaped meanwhile: a dead bot its parent has not waited for yet is gone
        for pid in children:
            try:
                gone = os.pidfd_open(pid)
            except ProcessLookupError:
                continue  # already gone
            try:  # readable once the process has exited
                readable, _, _ = select.select([gone], [], [], 30)
                assert readable, f"process {pid} outlived the bot"
            finally:
                os.close(gone)
    finally:
        bot.kill()
        bot.wait()


# A bot that starts a drawing process, presses Ctrl-C at it (the terminal signals the whole
# process group), then is killed with an answer still unread (its end of the socket resets).
QUIET = textwrap.dedent(
    """
    import os, pickle, select, signal, socket
    from bot.runtime.worker import forkserver_context, read_frame, write_frame
    from bot.ui.drawing import serve

    mine, theirs = socket.socketpair()
    drawing = forkserver_context().Process(target=serve, args=(theirs, os.getpid(), 0))
    drawing.start()
    theirs.close()
    job = pickle.dumps((os.getpid, ()))
    write_frame(mine, job)
    read_frame(mine)  # it is up and drawing
    os.kill(drawing.pid, signal.SIGINT)
    write_frame(mine, job)
    assert select.select([mine], [], [], 30)[0], "no answer after Ctrl-C"
    mine.close()  # the answer unread: the drawing process's next read is reset
    drawing.join(30)
    print(drawing.exitcode, flush=True)
    """
)


def test_a_drawing_process_stops_quietly_on_ctrl_c_and_a_reset_socket() -> None:
    done = subprocess.run(
        [sys.executable, "-c", QUIET], capture_output=True, text=True, timeout=120, check=False
    )
    assert done.stdout.split() == ["0"], done.stderr
    assert "Traceback" not in done.stderr
