"""The Activity bench's open pages, in a process of their own (activity_load.py).

WebSockets that note when each table version reached them. Run by
benchmarks/bot/activity_load.py as `python -m benchmarks.bot.activity_pages PLAN RESULT`: PLAN
is a JSON file `{"url": ws base, "pages": [[table id, token], ...]}`. It opens every page (in
the Activity instance `bench-<table id>`, which the bench's identity answers for),
prints `ready` once each has its first frame, and reads its standard input until it closes; then
it writes RESULT, `{"cpu": seconds, "arrivals": [[table id, version, when], ...]}` (`when`:
`time.perf_counter()`, the system's monotonic clock, which the bench's process reads too), and
exits. A page reads only the frame's table version: the browser's drawing is not what is
measured, and the pages' process shares the machine with the bot's.
"""

from __future__ import annotations

import asyncio
import json
import os
import re
import sys
import time
from pathlib import Path

import aiohttp

# `"version": 12` among the table's first fields (frames.public_frame's order)
VERSION = re.compile(r'"version":\s*(\d+)')
OPENING = 400  # characters of a frame the version is within


async def _page(
    session: aiohttp.ClientSession,
    url: str,
    table_id: int,
    arrivals: list[tuple[int, int, float]],
    opened: asyncio.Semaphore,
) -> aiohttp.ClientWebSocketResponse:
    socket = await session.ws_connect(url, heartbeat=None, max_msg_size=0)
    first = True
    async for message in socket:
        if message.type is not aiohttp.WSMsgType.TEXT:
            continue
        found = VERSION.search(message.data, 0, OPENING)
        if found is None:
            continue  # the greeting, or a refusal
        arrivals.append((table_id, int(found.group(1)), time.perf_counter()))
        if first:
            first = False
            opened.release()
    if first:  # closed before its first frame: refused; the bench reads this line, not "ready"
        print(f"page of table {table_id} refused: close code {socket.close_code}", flush=True)
        os._exit(1)
    return socket


async def run(plan_path: Path, result_path: Path) -> None:
    plan = json.loads(plan_path.read_text())
    arrivals: list[tuple[int, int, float]] = []
    opened = asyncio.Semaphore(0)
    connector = aiohttp.TCPConnector(limit=0)
    async with aiohttp.ClientSession(connector=connector) as session:
        readers = [
            asyncio.create_task(
                _page(
                    session,
                    f"{plan['url']}/ws?instance=bench-{table_id}&table={table_id}&token={token}",
                    table_id,
                    arrivals,
                    opened,
                )
            )
            for table_id, token in plan["pages"]
        ]
        for _ in readers:
            await opened.acquire()
        print("ready", flush=True)
        loop = asyncio.get_running_loop()
        await loop.run_in_executor(None, sys.stdin.read)  # until the bench closes it
        for reader in readers:
            reader.cancel()
        await asyncio.gather(*readers, return_exceptions=True)
    result = {"cpu": time.process_time(), "arrivals": arrivals}
    result_path.write_text(json.dumps(result))


if __name__ == "__main__":
    asyncio.run(run(Path(sys.argv[1]), Path(sys.argv[2])))
