"""Several bot processes: Discord shards per process, per-table leases and DM presses forwarded to
the table's owner over PostgreSQL (docs/bot.md, "Running N processes")."""

from jxbot.cluster.shards import ShardPlan, parse_shard_ids, shard_of

__all__ = ["ShardPlan", "parse_shard_ids", "shard_of"]
