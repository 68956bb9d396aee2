"""Which guilds' tables one bot process owns when the bot runs as several processes.

Discord splits a bot's guilds into `count` shards, guild `g` on shard `(g >> 22) % count`; a
process connects some of them (`ids`) and owns exactly the tables of those guilds: it restores
only them and never writes another process's. One process with every shard owns everything.
"""

from __future__ import annotations

from dataclasses import dataclass

from storage.errors import StoreError


@dataclass(frozen=True, slots=True)
class Partition:
    count: int = 1
    ids: tuple[int, ...] = (0,)

    def __post_init__(self) -> None:
        if self.count < 1:
            raise StoreError(f"a shard count must be at least 1, not {self.count}.")
        if not self.ids or len(set(self.ids)) != len(self.ids):
            raise StoreError(f"shard ids must be given once each, not {list(self.ids)}.")
        outside = [shard for shard in self.ids if not 0 <= shard < self.count]
        if outside:
            raise StoreError(
                f"shard ids {outside} are not below the shard count {self.count} (ids run from "
                f"0 to {self.count - 1})."
            )

    @classmethod
    def all_of(cls, count: int = 1) -> Partition:
        return cls(count, tuple(range(count)))

    @property
    def whole(self) -> bool:
        """Every shard: one process serves every guild."""
        return len(self.ids) == self.count

    def shard_of(self, guild_id: int) -> int:
        return (guild_id >> 22) % self.count

    def owns(self, guild_id: int) -> bool:
        return self.whole or self.shard_of(guild_id) in self.ids

    def condition(self, column: str) -> str:
        """SQL (both backends) true for the rows of this process's guilds; the numbers are
        validated ints, so they are written inline."""
        if self.whole:
            return "1 = 1"
        ids = ", ".join(str(shard) for shard in sorted(self.ids))
        return f"(({column} >> 22) % {self.count}) IN ({ids})"

    def __str__(self) -> str:
        return f"shards {', '.join(map(str, self.ids))} of {self.count}"
