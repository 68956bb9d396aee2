"""Players' own choices (the deck their private messages draw cards in), on both backends:
kept across restarts, replaced by a new choice, exported with a player's data and deleted
when they are forgotten."""

from __future__ import annotations

from storage import PlayerPreferences, Store
from tests.storage.conftest import Location, raw_sql, resolve_toy

SNOWFLAKE = 1_200_000_000_000_000_123  # Discord ids do not fit in 32 bits
OTHER = 555000111


async def test_a_players_deck_is_read_back_after_a_restart(location: Location) -> None:
    async with await Store.open(location, games_resolver=resolve_toy) as store:
        assert await store.player_preferences() == []
        await store.save_player_preferences(PlayerPreferences(user_id=SNOWFLAKE, deck="four"))
    async with await Store.open(location, games_resolver=resolve_toy) as store:
        assert await store.player_preferences() == [
            PlayerPreferences(user_id=SNOWFLAKE, deck="four")
        ]


async def test_a_new_choice_replaces_the_last_and_leaves_other_players_alone(
    store: Store,
) -> None:
    await store.save_player_preferences(PlayerPreferences(user_id=SNOWFLAKE, deck="four"))
    await store.save_player_preferences(PlayerPreferences(user_id=OTHER, deck="four"))
    await store.save_player_preferences(PlayerPreferences(user_id=SNOWFLAKE, deck="two"))
    assert await store.player_preferences() == [
        PlayerPreferences(user_id=OTHER, deck="four"),
        PlayerPreferences(user_id=SNOWFLAKE, deck="two"),
    ]


async def test_a_damaged_choice_is_left_out_and_the_others_read(
    store: Store, location: Location
) -> None:
    await store.save_player_preferences(PlayerPreferences(user_id=OTHER, deck="four"))
    await raw_sql(
        location,
        "INSERT INTO player_preferences (user_id, deck, updated_at) VALUES (?, 'five', 'x')",
        (SNOWFLAKE,),
    )
    assert await store.player_preferences() == [PlayerPreferences(user_id=OTHER, deck="four")]


async def test_a_players_choice_is_in_their_data_and_goes_when_they_are_forgotten(
    store: Store, location: Location
) -> None:
    await store.save_player_preferences(PlayerPreferences(user_id=SNOWFLAKE, deck="four"))
    await store.save_player_preferences(PlayerPreferences(user_id=OTHER, deck="four"))
    data = await store.user_data(SNOWFLAKE)
    assert not data.empty
    [row] = data.extra["player_preferences"]
    assert row["user_id"] == SNOWFLAKE and row["deck"] == "four"
    assert (await store.forget_user(SNOWFLAKE)).extra == data.extra
    assert (await store.user_data(SNOWFLAKE)).empty
    assert await raw_sql(location, "SELECT user_id FROM player_preferences") == [(OTHER,)]


async def test_the_play_choices_are_kept_read_back_and_replaced(location: Location) -> None:
    async with await Store.open(location, games_resolver=resolve_toy) as store:
        await store.save_player_preferences(
            PlayerPreferences(user_id=SNOWFLAKE, deck="four", auto_play=False, auto_knock=True)
        )
        await store.save_player_preferences(PlayerPreferences(user_id=OTHER))
    async with await Store.open(location, games_resolver=resolve_toy) as store:
        assert await store.player_preferences() == [
            PlayerPreferences(user_id=OTHER, deck="two", auto_play=True, auto_knock=False),
            PlayerPreferences(user_id=SNOWFLAKE, deck="four", auto_play=False, auto_knock=True),
        ]
        await store.save_player_preferences(
            PlayerPreferences(user_id=SNOWFLAKE, deck="four", auto_play=True, auto_knock=True)
        )
        (_, again) = await store.player_preferences()
        assert again.auto_play and again.auto_knock


async def test_a_deck_chosen_before_v13_gets_the_play_choices_defaults(
    location: Location,
) -> None:
    async with await Store.open(location, games_resolver=resolve_toy, target_version=12):
        pass
    await raw_sql(
        location,
        "INSERT INTO player_preferences (user_id, deck, updated_at) VALUES (?, 'four', 'x')",
        (SNOWFLAKE,),
    )
    async with await Store.open(location, games_resolver=resolve_toy) as store:
        assert await store.player_preferences() == [
            PlayerPreferences(user_id=SNOWFLAKE, deck="four", auto_play=True, auto_knock=False)
        ]


async def test_the_play_choices_are_in_a_players_data_and_go_when_forgotten(
    store: Store, location: Location
) -> None:
    await store.save_player_preferences(
        PlayerPreferences(user_id=SNOWFLAKE, auto_play=False, auto_knock=True)
    )
    [row] = (await store.user_data(SNOWFLAKE)).extra["player_preferences"]
    assert not row["auto_play"] and row["auto_knock"]
    await store.forget_user(SNOWFLAKE)
    assert await raw_sql(location, "SELECT user_id FROM player_preferences") == []
