"""The Discord the Activity bench's own process asks who a page is, in a process of its own.

Run by benchmarks/bot/activity_load.py as `python -m benchmarks.bot.activity_discord PLAN`:
PLAN is a JSON file `{"instance id": {"channel": id, "users": [id, ...]}, ...}`. It answers
`GET /users/@me` for the token `bench-<user id>` and `GET
/applications/<id>/activity-instances/<instance id>` from the plan, as Discord would; prints
the port it listens on, and serves until its standard input closes. The identity's questions are
not what is measured, so they are answered away from the bot's process.
"""

from __future__ import annotations

import asyncio
import json
import sys
from pathlib import Path
from typing import Any

from aiohttp import web


def create_app(instances: dict[str, dict[str, Any]]) -> web.Application:
    async def me(request: web.Request) -> web.Response:
        token = request.headers.get("Authorization", "").removeprefix("Bearer ")
        if not token.startswith("bench-"):
            return web.json_response({"message": "401: Unauthorized"}, status=401)
        user = token.removeprefix("bench-")
        return web.json_response({"id": user, "username": f"B{user}", "locale": "en-US"})

    async def instance(request: web.Request) -> web.Response:
        found = instances.get(request.match_info["instance"])
        if found is None:
            return web.json_response({"message": "Unknown Activity instance"}, status=404)
        return web.json_response(
            {
                "instance_id": request.match_info["instance"],
                "location": {"channel_id": str(found["channel"])},
                "users": [str(user) for user in found["users"]],
            }
        )

    app = web.Application()
    app.router.add_get("/users/@me", me)
    app.router.add_get("/applications/{application}/activity-instances/{instance}", instance)
    return app


async def serve(plan: Path) -> None:
    runner = web.AppRunner(create_app(json.loads(plan.read_text())), access_log=None)
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    print(site._server.sockets[0].getsockname()[1], flush=True)  # type: ignore[union-attr]
    await asyncio.get_running_loop().run_in_executor(None, sys.stdin.read)
    await runner.cleanup()


if __name__ == "__main__":
    asyncio.run(serve(Path(sys.argv[1])))
