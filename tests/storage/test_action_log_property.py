"""Property: whatever mix of good and bad record_action calls arrives at once, the stored log is
exactly the accepted calls, and a call is accepted iff it follows the log's rules."""

from __future__ import annotations

import asyncio

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.contract import RoundRecord
from storage import Store, StoreError

N_TABLES = 3
SEATS = 2
DECK = ["AS"]  # record_action never replays: the deck is not read here

# (table index, round number: 0 open / 1 unknown, seq, seat, arrives in the same burst as the last)
calls = st.lists(
    st.tuples(
        st.integers(0, N_TABLES - 1),
        st.sampled_from([0, 0, 0, 1]),
        st.integers(0, 6),
        st.integers(-1, SEATS),
        st.booleans(),
    ),
    max_size=40,
)


@settings(
    max_examples=25,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)
@given(calls)
async def test_the_stored_log_is_exactly_the_accepted_calls(
    store: Store, script: list[tuple[int, int, int, int, bool]]
) -> None:
    # every example opens tables of its own in the one store
    table_ids = []
    for _ in range(N_TABLES):
        table = await store.create_table(1, 1, "toy", {}, host_id=1)
        await store.start_round(
            table.id,
            RoundRecord(
                game="toy", rules_version=1, options={}, n_seats=SEATS, dealer=0, deck=DECK
            ),
        )
        table_ids.append(table.id)
    model: dict[int, list[tuple[int, str]]] = {t: [] for t in table_ids}
    last: dict[int, int] = dict.fromkeys(table_ids, -1)
    bursts: list[list[tuple[int, int, int, int]]] = []
    for table, round_no, seq, seat, joined in script:
        if joined and bursts:
            bursts[-1].append((table_ids[table], round_no, seq, seat))
        else:
            bursts.append([(table_ids[table], round_no, seq, seat)])
    for burst in bursts:
        outcomes = await asyncio.gather(
            *(store.record_action(t, r, seq, seat, f"n{seq}") for t, r, seq, seat in burst),
            return_exceptions=True,
        )
        for (t, r, seq, seat), outcome in zip(burst, outcomes, strict=True):
            legal = r == 0 and 0 <= seat < SEATS and seq > last[t]
            if legal:
                last[t] = seq
                model[t].append((seat, f"n{seq}"))
                assert outcome is None
            else:
                assert isinstance(outcome, StoreError)
    for t in table_ids:
        assert (await store.load_round(t, 0)).actions == model[t]
