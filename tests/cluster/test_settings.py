"""Shard settings: what an operator types and what it refuses, with the message they read."""

import pytest

from jxbot.cluster.settings import shard_settings
from jxbot.cluster.shards import ShardPlan, parse_shard_ids, shard_of
from jxbot.config import ConfigError, Settings


def test_shard_ids_parse_ranges_and_lists():
    assert parse_shard_ids("0-3", 8) == (0, 1, 2, 3)
    assert parse_shard_ids("4,6-7, 5", 8) == (4, 5, 6, 7)
    for bad, why in (("8", "does not exist"), ("3-1", "not a range"), ("a", "such as 0-3"), (",", "names no shard")):
        with pytest.raises(ConfigError, match=why):
            parse_shard_ids(bad, 8)
    with pytest.raises(ConfigError, match="needs a shard count"):
        parse_shard_ids("0", None)


def test_a_guild_belongs_to_discords_shard_and_dms_to_shard_0():
    gid = (1234 << 22) | 77
    assert shard_of(gid, 8) == 1234 % 8
    plan = ShardPlan((2, 3), 4)
    assert plan.owns(6 << 22) and not plan.owns(5 << 22) and not plan.owns(None)
    assert ShardPlan((0,), 4).owns(None) and not plan.complete and ShardPlan((0, 1), 2).complete


def test_environment_and_flags():
    s = Settings.from_mapping({"JXBOT_SHARD_IDS": "1", "JXBOT_SHARD_COUNT": "2", "JXBOT_DB": "postgresql://h/db"})
    assert (s.shard_ids, s.shard_count) == ((1,), 2)
    s2, sync = shard_settings(s, None, None)
    assert s2.shard_ids == (1,) and sync is False, "only shard 0's process syncs the commands"
    s3, sync = shard_settings(s, "0", None)
    assert s3.shard_ids == (0,) and sync is True, "the flag wins over the environment"
    plain, sync = shard_settings(Settings.from_mapping({}), None, None)
    assert plain.shard_ids is None and plain.shard_count is None and sync is True, "no shards: as before"
    whole, _ = shard_settings(Settings.from_mapping({}), "0-1", 2)
    assert whole.shard_ids == (0, 1), "every shard in one process works on SQLite"
    with pytest.raises(ConfigError, match=r"shards 1 of 2.*JXBOT_DB=postgresql"):
        shard_settings(Settings.from_mapping({}), "1", 2)
    pg_global = Settings.from_mapping({"JXBOT_DB": "postgresql://h/db", "SILVER_SCOPE": "global"})
    with pytest.raises(ConfigError, match="SILVER_SCOPE=global needs one process holding every shard"):
        shard_settings(pg_global, "1", 2)  # held stakes are per process: another process's /pay would spend them
    assert shard_settings(pg_global, "0-1", 2)[0].silver_scope == "global", "one process with every shard: fine"
    with pytest.raises(ConfigError, match="JXBOT_SHARD_IDS needs a shard count"):
        Settings.from_mapping({"JXBOT_SHARD_IDS": "1"})


def test_no_shard_setting_is_the_bot_of_before_and_some_shards_load_the_cluster_part():
    from discord.ext import commands

    from jxbot.bot import JxBot
    from jxbot.cluster.bot import make_bot

    plain = make_bot(Settings())
    assert type(plain) is JxBot and not isinstance(plain, commands.AutoShardedBot) and plain.shard_plan is None
    assert plain.owns_guild(12345 << 22) and plain.press_forwarder is None
    alone = make_bot(Settings(shard_ids=(0, 1), shard_count=2))
    assert isinstance(alone, commands.AutoShardedBot) and (alone.shard_ids, alone.shard_count) == ([0, 1], 2)
    assert "cogs.cluster" not in alone._extensions, "one process with every shard on SQLite: nothing to share"
    one = make_bot(Settings(shard_ids=(1,), shard_count=2, db_path="postgresql://h/db"))
    assert "cogs.cluster" in one._extensions
    assert one.owns_guild(1 << 22) and not one.owns_guild(2 << 22) and not one.owns_guild(None)
