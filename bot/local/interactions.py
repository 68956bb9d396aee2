"""The interactions' routes of the local Discord.

They serve an interaction's first answer (within `answer_deadline`, once), its follow-ups, and
its messages through the interaction's webhook (within `token_lifetime`), each request tied to
the interaction, and so to its user, with whether what it shows is ephemeral."""

from __future__ import annotations

import logging
import time
from typing import TYPE_CHECKING, Any

from aiohttp import web

from bot.local import payloads
from bot.local.records import (
    CALLBACK_DEFERRED_MESSAGE,
    CALLBACK_DEFERRED_UPDATE,
    CALLBACK_LAUNCH_ACTIVITY,
    CALLBACK_MESSAGE,
    CALLBACK_MODAL,
    CALLBACK_UPDATE,
    EPHEMERAL,
    LOADING,
    LocalInteraction,
    RecordedRequest,
    now_iso,
)
from bot.local.rest import Route, RouteError, refuse_invalid

if TYPE_CHECKING:
    from bot.local.server import LocalDiscord

log = logging.getLogger("bot.local")


class InteractionRoutes:
    """`/interactions/{id}/{token}/callback` and `/webhooks/{app_id}/{token}/…` over the
    server's interactions and messages."""

    def __init__(self, server: LocalDiscord) -> None:
        self._server = server

    def routes(self) -> list[Route]:
        return [
            ("POST", "/interactions/{interaction_id}/{token}/callback", self._callback),
            ("POST", "/webhooks/{app_id}/{token}", self._followup),
            ("GET", "/webhooks/{app_id}/{token}/messages/{message_id}", self._get_webhook_message),
            ("PATCH", "/webhooks/{app_id}/{token}/messages/{message_id}", self._patch_webhook_msg),
            (
                "DELETE",
                "/webhooks/{app_id}/{token}/messages/{message_id}",
                self._delete_webhook_msg,
            ),
        ]

    def _interaction(self, token: str) -> LocalInteraction:
        interaction = self._server.interactions.get(token)
        lifetime = self._server.token_lifetime
        if interaction is None or time.monotonic() - interaction.created_at > lifetime:
            raise RouteError(401, "Invalid Webhook Token", 50027)
        return interaction

    async def _callback(
        self, record: RecordedRequest, request: web.Request, interaction_id: str, token: str
    ) -> Any:
        server = self._server
        interaction = self._interaction(token)
        record.interaction = interaction
        if interaction.callback_type is not None:
            raise RouteError(400, "Interaction has already been acknowledged.", 40060)
        late = time.monotonic() - interaction.created_at
        if late > server.answer_deadline:
            log.error(
                "LOCAL DISCORD: interaction answered after %.2f s (%s %s)",
                late,
                interaction.kind,
                interaction.describe(),
            )
            raise RouteError(404, "Unknown interaction", 10062)
        payload = record.payload or {}
        kind = int(payload.get("type", 0))
        data = payload.get("data") or {}
        if payload.get("files"):  # a multipart answer: its files go with the message's data
            data = {**data, "files": payload["files"]}
        if kind == CALLBACK_MESSAGE:
            refuse_invalid(data, creating=True)
        elif kind == CALLBACK_UPDATE and interaction.message_id is not None:
            refuse_invalid(data, creating=False, stored=server.stored(interaction.message_id))
        interaction.callback_type = kind
        flags = int(data.get("flags") or 0)
        message: dict[str, Any] | None = None
        if kind in (CALLBACK_MESSAGE, CALLBACK_DEFERRED_MESSAGE):
            loading = LOADING if kind == CALLBACK_DEFERRED_MESSAGE else 0
            message = server.new_message(
                interaction.channel_id,
                data if kind == CALLBACK_MESSAGE else {},
                flags=(flags & EPHEMERAL) | loading,
                interaction=interaction,
                webhook=True,
            )
            if loading:
                message["flags"] = (flags & EPHEMERAL) | LOADING
            interaction.original_message_id = int(message["id"])
            record.message_id = int(message["id"]) if kind == CALLBACK_MESSAGE else None
            record.ephemeral = bool(flags & EPHEMERAL)
        elif kind in (CALLBACK_UPDATE, CALLBACK_DEFERRED_UPDATE):
            if interaction.message_id is None:
                raise RouteError(400, "Interaction has no message to update", 50035)
            message = server.stored(interaction.message_id)
            interaction.original_message_id = interaction.message_id
            record.ephemeral = bool(int(message["flags"]) & EPHEMERAL)
            if kind == CALLBACK_UPDATE:
                payloads.apply_message_data(message, data, server.files)
                message["edited_timestamp"] = now_iso()
                record.message_id = interaction.message_id
        elif kind == CALLBACK_MODAL:
            record.ephemeral = True  # a modal is only shown to the clicker
        elif kind == CALLBACK_LAUNCH_ACTIVITY:
            record.ephemeral = True  # the Activity opens for the clicker alone
            interaction.launched_activity = True
            launched = server.activities.launch(interaction.user, interaction.channel_id)
            interaction.activity_instance_id = launched.instance_id
        else:
            raise RouteError(400, f"unknown interaction callback type {kind}", 50035)
        body: dict[str, Any] = {
            "interaction": {
                "id": interaction_id,
                "type": 2 if interaction.kind == "command" else 3,
                "response_message_id": message["id"] if message else None,
                "response_message_loading": kind == CALLBACK_DEFERRED_MESSAGE,
                "response_message_ephemeral": bool(message and int(message["flags"]) & EPHEMERAL),
            }
        }
        if message is not None and kind != CALLBACK_DEFERRED_UPDATE:
            body["resource"] = {"type": kind, "message": message}
        if interaction.activity_instance_id is not None:
            body["interaction"]["activity_instance_id"] = interaction.activity_instance_id
            instance = {"id": interaction.activity_instance_id}
            body["resource"] = {"type": kind, "activity_instance": instance}
        interaction.answered.set()
        return 200, body, {}

    async def _followup(
        self, record: RecordedRequest, request: web.Request, app_id: str, token: str
    ) -> Any:
        server = self._server
        interaction = self._interaction(token)
        record.interaction = interaction
        if interaction.callback_type is None:
            raise RouteError(404, "Unknown Webhook (interaction not acknowledged)", 10015)
        payload = record.payload or {}
        refuse_invalid(payload, creating=True)
        original = server.messages.get(interaction.original_message_id or 0)
        if original is not None and int(original["flags"]) & LOADING:
            # The first follow-up after a "thinking" deferral replaces the loading message and
            # keeps ITS visibility: an ephemeral flag here cannot hide it any more.
            # (apply_message_data keeps the original's ephemeral bit whatever the payload says.)
            payloads.apply_message_data(original, payload, server.files)
            record.message_id = int(original["id"])
            record.ephemeral = bool(int(original["flags"]) & EPHEMERAL)
            return 200, original, {}
        flags = int(payload.get("flags") or 0)
        message = server.new_message(
            interaction.channel_id, payload, flags=flags, interaction=interaction, webhook=True
        )
        record.message_id = int(message["id"])
        record.ephemeral = bool(flags & EPHEMERAL)
        return 200, message, {}

    def _webhook_message(
        self, record: RecordedRequest, token: str, message_id: str
    ) -> dict[str, Any]:
        """The message a webhook route names ("@original" or an id), with the request tied
        to the interaction its token belongs to."""
        interaction = self._interaction(token)
        record.interaction = interaction
        if message_id == "@original":
            if interaction.original_message_id is None:
                raise RouteError(404, "Unknown Message", 10008)
            return self._server.stored(interaction.original_message_id)
        return self._server.stored(message_id)

    async def _get_webhook_message(
        self,
        record: RecordedRequest,
        request: web.Request,
        app_id: str,
        token: str,
        message_id: str,
    ) -> Any:
        return 200, self._webhook_message(record, token, message_id), {}

    async def _patch_webhook_msg(
        self,
        record: RecordedRequest,
        request: web.Request,
        app_id: str,
        token: str,
        message_id: str,
    ) -> Any:
        message = self._webhook_message(record, token, message_id)
        refuse_invalid(record.payload or {}, creating=False, stored=message)
        payloads.apply_message_data(message, record.payload, self._server.files)
        message["edited_timestamp"] = now_iso()
        record.message_id = int(message["id"])
        record.ephemeral = bool(int(message["flags"]) & EPHEMERAL)
        return 200, message, {}

    async def _delete_webhook_msg(
        self,
        record: RecordedRequest,
        request: web.Request,
        app_id: str,
        token: str,
        message_id: str,
    ) -> Any:
        message = self._webhook_message(record, token, message_id)
        record.ephemeral = bool(int(message["flags"]) & EPHEMERAL)
        self._server.forget(message)
        return 204, None, {}
