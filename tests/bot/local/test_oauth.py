"""The local Discord's OAuth2 for the Activity: a code is exchanged once, with the
application's secret, for a token that names its user at `/users/@me`."""

from __future__ import annotations

from collections.abc import AsyncIterator

import aiohttp
import pytest

from bot.local.server import LocalDiscord


@pytest.fixture
async def fake() -> AsyncIterator[LocalDiscord]:
    server = LocalDiscord()
    await server.start()
    yield server
    await server.stop()


def _form(fake: LocalDiscord, code: str, secret: str | None = None) -> dict[str, str]:
    return {
        "client_id": str(fake.application_id),
        "client_secret": secret or fake.oauth.client_secret,
        "grant_type": "authorization_code",
        "code": code,
    }


async def test_a_code_is_exchanged_once_for_a_token_naming_its_user(fake: LocalDiscord) -> None:
    alice = fake.user("alice")
    code = fake.oauth.authorize(alice)
    async with aiohttp.ClientSession() as session:
        async with session.post(f"{fake.base_url}/oauth2/token", data=_form(fake, code)) as answer:
            assert answer.status == 200
            token = (await answer.json())["access_token"]
        headers = {"Authorization": f"Bearer {token}"}
        async with session.get(f"{fake.base_url}/users/@me", headers=headers) as answer:
            assert (await answer.json())["id"] == str(alice.id)
        async with session.post(f"{fake.base_url}/oauth2/token", data=_form(fake, code)) as again:
            assert again.status == 400


async def test_a_wrong_secret_or_token_is_refused(fake: LocalDiscord) -> None:
    code = fake.oauth.authorize(fake.user("bob"))
    async with aiohttp.ClientSession() as session:
        form = _form(fake, code, secret="guessed")
        async with session.post(f"{fake.base_url}/oauth2/token", data=form) as answer:
            assert answer.status == 401
        headers = {"Authorization": "Bearer guessed"}
        async with session.get(f"{fake.base_url}/users/@me", headers=headers) as answer:
            assert answer.status == 401
