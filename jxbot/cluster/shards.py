"""Which Discord shards this process connects, and which tables it therefore owns.

Discord puts a server (guild) on shard ``(guild_id >> 22) % shard_count``; a table is owned by the
process holding its guild's shard. DM events and DM interactions arrive on shard 0 only.
"""

from __future__ import annotations

from dataclasses import dataclass

from jxbot.config import (
    parse_shard_ids as parse_shard_ids,  # (parsed with the settings, kept importable here)
)


def shard_of(guild_id: int, shard_count: int) -> int:
    """Discord's shard for a guild: ``(guild_id >> 22) % shard_count``."""
    return (int(guild_id) >> 22) % shard_count


@dataclass(frozen=True)
class ShardPlan:
    """The shards of this process out of ``count``."""

    ids: tuple[int, ...]
    count: int

    @classmethod
    def of(cls, shard_ids: tuple[int, ...] | None, shard_count: int | None) -> ShardPlan | None:
        """None when the process is not sharded (no setting): one session, every guild, as always."""
        if shard_ids is None and shard_count is None:
            return None
        count = shard_count if shard_count is not None else (max(shard_ids or (0,)) + 1)
        ids = shard_ids if shard_ids is not None else tuple(range(count))
        return cls(tuple(ids), count)

    @property
    def complete(self) -> bool:
        """Every shard in this one process (SQLite is enough)."""
        return set(self.ids) == set(range(self.count))

    @property
    def has_dms(self) -> bool:
        """This process holds shard 0, where Discord delivers DMs and DM interactions."""
        return 0 in self.ids

    def owns(self, guild_id: int | None) -> bool:
        if guild_id is None:
            return self.has_dms
        return shard_of(guild_id, self.count) in self.ids

    def label(self) -> str:
        return f"shards {','.join(map(str, self.ids))} of {self.count}"
