"""What one member or server can make the bot do: a cool-down between two tables a member
opens, and caps on the tables open at once in a channel and in a server (server settings)."""

from __future__ import annotations

import pytest

from bot.service import FakeClock, PlayerRef, TableError, TableService
from bot.service.seating import OPEN_COOLDOWN_SECONDS
from storage.models import GuildSettings
from tests.bot.service.conftest import ANN, CHANNEL, GUILD

DEFAULTS = GuildSettings(guild_id=GUILD)


def refusal(
    service: TableService,
    user_id: int,
    settings: GuildSettings = DEFAULTS,
    channel_id: int = CHANNEL,
) -> TableError | None:
    try:
        service.seating.may_open(GUILD, channel_id, user_id, settings)
    except TableError as error:
        return error
    return None


async def test_a_member_waits_between_two_tables_they_open(
    service: TableService, clock: FakeClock
) -> None:
    assert refusal(service, ANN.user_id) is None
    table = await service.seating.open_table(GUILD, CHANNEL, ANN, "dutch")
    await service.seating.cancel(table.table_id, ANN.user_id)
    refused = refusal(service, ANN.user_id)
    assert refused is not None and refused.key == "opening_too_fast"
    assert refused.params == {"seconds": int(OPEN_COOLDOWN_SECONDS)}
    await clock.advance(OPEN_COOLDOWN_SECONDS - 1)
    assert refusal(service, ANN.user_id).params == {"seconds": 1}  # type: ignore[union-attr]
    await clock.advance(1)
    assert refusal(service, ANN.user_id) is None
    assert refusal(service, ANN.user_id + 1) is None  # another member never waited


async def test_a_channel_and_a_server_hold_as_many_open_tables_as_their_settings_allow(
    service: TableService, clock: FakeClock
) -> None:
    settings = DEFAULTS.model_copy(update={"max_tables_channel": 2, "max_tables_server": 3})
    hosts = [PlayerRef(900 + i, f"H{i}") for i in range(4)]
    for host in hosts[:2]:
        assert refusal(service, host.user_id, settings) is None
        await service.seating.open_table(GUILD, CHANNEL, host, "dutch")
    refused = refusal(service, hosts[2].user_id, settings)
    assert refused is not None and refused.key == "too_many_tables_channel"
    assert refused.params == {"limit": 2}
    assert refusal(service, hosts[2].user_id, settings, CHANNEL + 1) is None
    third = await service.seating.open_table(GUILD, CHANNEL + 1, hosts[2], "dutch")
    refused = refusal(service, hosts[3].user_id, settings, CHANNEL + 2)
    assert refused is not None and refused.key == "too_many_tables_server"
    assert refused.params == {"limit": 3}
    await service.seating.cancel(third.table_id, hosts[2].user_id)  # a closed table counts no more
    assert refusal(service, hosts[3].user_id, settings, CHANNEL + 2) is None


@pytest.mark.parametrize("field", ["max_tables_channel", "max_tables_server"])
def test_the_caps_have_safe_bounds(field: str) -> None:
    with pytest.raises(ValueError):
        GuildSettings(guild_id=1, **{field: 0})
    assert getattr(DEFAULTS, field) >= 1
