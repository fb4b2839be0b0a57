"""The shard settings of ``jxbot run`` and what they require of the database."""

from __future__ import annotations

import dataclasses

from jxbot.cluster.shards import ShardPlan, parse_shard_ids
from jxbot.config import ConfigError, Settings


def is_postgres(db: str | None) -> bool:
    return bool(db) and str(db).startswith(("postgresql://", "postgres://"))


def shard_settings(settings: Settings, shards: str | None, shard_count: int | None) -> tuple[Settings, bool]:
    """Apply ``--shards`` / ``--shard-count`` (they win over JXBOT_SHARD_IDS / JXBOT_SHARD_COUNT) and
    check the plan. Returns the settings and whether this process syncs the slash commands (the one
    holding shard 0, so a set of processes syncs once). A process with only some of the shards shares
    the bot with others: that needs the PostgreSQL store (shared silver, tables and the table leases),
    so with SQLite it is refused here, before anything else happens."""
    count = shard_count if shard_count is not None else settings.shard_count
    if count is not None and not 1 <= count <= 4096:
        raise ConfigError(f"--shard-count must be between 1 and 4096, not {count}")
    ids = settings.shard_ids
    if shards is not None:
        ids = parse_shard_ids(shards, count, "--shards")
    elif ids is not None and count is not None and max(ids) >= count:
        raise ConfigError(f"JXBOT_SHARD_IDS: shard {max(ids)} does not exist with a shard count of {count}")
    settings = dataclasses.replace(settings, shard_ids=ids, shard_count=count)
    plan = ShardPlan.of(ids, count)
    if plan is None:
        return settings, True
    if not plan.complete and not is_postgres(settings.db_path):
        raise ConfigError(
            f"{plan.label()}: the other shards run in other processes, which must share one database — "
            f"set JXBOT_DB=postgresql://… (SQLite, {settings.db_path}, is for a single process holding "
            f"every shard; see docs/bot.md, \"Running N processes\")")
    if not plan.complete and settings.silver_scope == "global":
        # a seated player's stake is held in the memory of the process that runs the table (RULES A10,
        # Store.hold); with one wallet for every server a /pay served by another process would not see it
        raise ConfigError(
            f"{plan.label()}: SILVER_SCOPE=global needs one process holding every shard (a stake held at a "
            "table lives in the process running it, and another process's /pay could spend it); use "
            "SILVER_SCOPE=guild with several processes")
    return settings, plan.has_dms
