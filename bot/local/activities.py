"""The local Discord's Activity instances: launched from a channel, joined by who opens them.

Discord runs one instance of an application's Activity per channel: the first launch (an
interaction answered by LAUNCH_ACTIVITY) starts it with the launching user in it, a later
launch in the same channel adds its user. A user who closes the Activity leaves it; the last
one leaving ends it. `GET /applications/{id}/activity-instances/{id}` answers for it with the
bot's token, as Discord does (404 for an instance it never started, or that ended)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from typing import TYPE_CHECKING, Any

from aiohttp import web

from bot.local.records import LocalUser, RecordedRequest
from bot.local.rest import Route, RouteError

if TYPE_CHECKING:
    from bot.local.server import LocalDiscord


@dataclass
class LocalInstance:
    """One running Activity: where it was launched and who opened it since."""

    instance_id: str
    launch_id: str
    channel_id: int
    guild_id: int
    users: list[int] = field(default_factory=list)

    def saved(self) -> dict[str, Any]:
        return asdict(self)

    def payload(self, application_id: int) -> dict[str, Any]:
        return {
            "application_id": str(application_id),
            "instance_id": self.instance_id,
            "launch_id": self.launch_id,
            "location": {
                "id": f"gc-{self.guild_id}-{self.channel_id}",
                "kind": "gc",
                "channel_id": str(self.channel_id),
                "guild_id": str(self.guild_id),
            },
            "users": [str(user) for user in self.users],
        }


class LocalActivities:
    """The running instances, by id and by channel."""

    def __init__(self, server: LocalDiscord) -> None:
        self._server = server
        self.instances: dict[str, LocalInstance] = {}
        self._in_channel: dict[int, str] = {}
        # told when an instance starts or gains a user: the state file keeps them, as Discord
        # keeps an Activity running while the bot restarts (its open pages reconnect to it)
        self.on_change: Callable[[], None] = lambda: None

    def keep(self, instance: LocalInstance) -> None:
        """An instance a previous run started (the state file's)."""
        self.instances[instance.instance_id] = instance
        self._in_channel[instance.channel_id] = instance.instance_id

    def launch(self, user: LocalUser, channel_id: int) -> LocalInstance:
        """The channel's instance with the user in it (started by this launch if none runs)."""
        known = self._in_channel.get(channel_id)
        if known is None:
            number = self._server.new_id()
            guild_id = self._server.guild_of_channel(channel_id)
            known = f"i-{number}-gc-{guild_id}-{channel_id}"
            self.instances[known] = LocalInstance(known, str(number), channel_id, guild_id)
            self._in_channel[channel_id] = known
            self.on_change()
        instance = self.instances[known]
        if user.id not in instance.users:
            instance.users.append(user.id)
            self.on_change()
        return instance

    def leave(
        self, user: LocalUser, channel_id: int | None = None, *, instance_id: str | None = None
    ) -> LocalInstance | None:
        """The user leaves the channel's instance (or the one named): the instance, which the
        last user leaving ends (None: no such instance ran)."""
        if instance_id is None and channel_id is not None:
            instance_id = self._in_channel.get(channel_id)
        instance = self.instances.get(instance_id or "")
        if instance is None:
            return None
        if user.id in instance.users:
            instance.users.remove(user.id)
            if not instance.users:
                del self.instances[instance.instance_id]
                self._in_channel.pop(instance.channel_id, None)
            self.on_change()
        return instance

    def routes(self) -> list[Route]:
        return [("GET", "/applications/{app_id}/activity-instances/{instance_id}", self._get)]

    async def _get(
        self, record: RecordedRequest, request: web.Request, app_id: str, instance_id: str
    ) -> Any:
        instance = self.instances.get(instance_id)
        if app_id != str(self._server.application_id) or instance is None:
            raise RouteError(404, "404: Not Found")
        return 200, instance.payload(self._server.application_id), {}
