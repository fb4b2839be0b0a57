"""Discord shards: the double's routing, ``jxbot run --shards`` in one process on SQLite, and what a
partial set of shards requires. The two-process scenarios (PostgreSQL) are in test_processes.py."""

from __future__ import annotations

import asyncio
import json
import os
import sys
import zlib

import aiohttp
import pytest

from tests.e2e.players import AutoPlayer, Player, Style
from tests.e2e.scenario import (
    BOT_ARGV,
    REPO,
    Recorder,
    World,
    fast_env,
    gather_players,
    open_table,
    payments,
    result_messages,
    store_check,
    wait_match_over,
)

pytestmark = pytest.mark.e2e


async def run_cli(*argv: str, env: dict[str, str] | None = None, cwd: str | None = None) -> tuple[int, str]:
    full = {k: v for k, v in os.environ.items() if not k.startswith(("JXBOT_", "DISCORD_"))}
    full.update({"PYTHONPATH": str(REPO), **(env or {})})
    proc = await asyncio.create_subprocess_exec(sys.executable, "-m", "jxbot.cli", *argv, env=full, cwd=cwd,
                                                stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.STDOUT)
    out, _ = await asyncio.wait_for(proc.communicate(), 60)
    return proc.returncode or 0, out.decode(errors="replace")


async def test_some_shards_on_sqlite_are_refused_before_anything(tmp_path):
    rc, out = await run_cli("run", "--shards", "0-1", "--shard-count", "4",
                            env={"DISCORD_TOKEN": "x.y.z", "JXBOT_DB": str(tmp_path / "j.sqlite3")}, cwd=str(tmp_path))
    assert rc == 2, out
    assert "shards 0,1 of 4" in out and "JXBOT_DB=postgresql://" in out and "Traceback" not in out, out
    assert not (tmp_path / "j.sqlite3").exists(), "nothing was opened"
    rc, out = await run_cli("run", "--shards", "5", "--shard-count", "4", env={"DISCORD_TOKEN": "x.y.z"},
                            cwd=str(tmp_path))
    assert rc == 2 and "shard 5 does not exist with a shard count of 4" in out, out
    rc, out = await run_cli("run", env={"DISCORD_TOKEN": "x.y.z", "JXBOT_SHARD_IDS": "0-1"}, cwd=str(tmp_path))
    assert rc == 2 and "needs a shard count" in out, out


class GatewayClient:
    """A bare gateway session (IDENTIFY with ``shard``), collecting the dispatches it receives."""

    def __init__(self, double, shard: list[int]) -> None:
        self.double, self.shard = double, shard
        self.events: list[tuple[str, dict]] = []

    async def run(self, session: aiohttp.ClientSession, ready: asyncio.Event) -> None:
        async with session.ws_connect(self.double.gateway_url + "?v=10&encoding=json&compress=zlib-stream") as ws:
            z = zlib.decompressobj()
            async for msg in ws:
                p = json.loads(z.decompress(msg.data))
                if p["op"] == 10:
                    await ws.send_json({"op": 2, "d": {"token": self.double.token, "intents": 1, "shard": self.shard,
                                                       "properties": {}}})
                elif p["op"] == 0:
                    self.events.append((p["t"], p["d"]))
                    if p["t"] == "READY":
                        ready.set()

    def guild_ids(self, event: str) -> set[int]:
        return {int(d.get("guild_id") or d.get("id") or 0) for t, d in self.events if t == event}


async def test_the_double_routes_guilds_by_shard_and_dms_to_shard_0(double):
    double.shard_count = 2
    g0, g1 = double.add_guild("zero", shard=0), double.add_guild("one", shard=1)
    assert (g0.id >> 22) % 2 == 0 and (g1.id >> 22) % 2 == 1
    clients = [GatewayClient(double, [0, 2]), GatewayClient(double, [1, 2])]
    async with aiohttp.ClientSession() as http:
        readies = [asyncio.Event(), asyncio.Event()]
        tasks = [asyncio.create_task(c.run(http, r)) for c, r in zip(clients, readies, strict=True)]
        await asyncio.wait_for(asyncio.gather(*(r.wait() for r in readies)), 10)
        ch0, ch1 = double.add_text_channel(g0), double.add_text_channel(g1)
        alice = Player.join(double, "alice", g0, ch0)
        bob = Player.join(double, "bob", g1, ch1)
        press = {"custom_id": "mj:next:abc:x:0", "component_type": 2}
        double.create_interaction(3, alice.user, ch0, press)
        double.create_interaction(3, bob.user, ch1, press)
        double.create_interaction(3, bob.user, bob.dm_channel(), press)  # a press in a DM
        await double.wait_for(lambda: sum(t == "INTERACTION_CREATE" for c in clients for t, _ in c.events) >= 3,
                              5, "the interactions")
        for t in tasks:
            t.cancel()
    zero, one = clients
    assert zero.guild_ids("GUILD_CREATE") == {g0.id} and one.guild_ids("GUILD_CREATE") == {g1.id}
    assert zero.guild_ids("CHANNEL_CREATE") == {g0.id} and one.guild_ids("CHANNEL_CREATE") == {g1.id}
    inter0 = [d for t, d in zero.events if t == "INTERACTION_CREATE"]
    inter1 = [d for t, d in one.events if t == "INTERACTION_CREATE"]
    assert sorted(d.get("guild_id", "dm") for d in inter0) == sorted([str(g0.id), "dm"])  # the DM went to shard 0
    assert [d.get("guild_id") for d in inter1] == [str(g1.id)]
    assert [d["shard"] for t, d in zero.events if t == "READY"] == [[0, 2]]


async def test_one_process_with_every_shard_plays_on_sqlite(double, start_bot, tmp_path):
    """``--shards 0-1 --shard-count 2`` in one process (discord.py's AutoShardedBot, two gateway sessions):
    a table in a server on shard 1 plays to the end, its player's DM presses (which Discord delivers on
    shard 0) included; the books balance."""
    double.shard_count = 2
    guild = double.add_guild("shard one", shard=1)
    channel = double.add_text_channel(guild)
    alice = Player.join(double, "alice", guild, channel)
    db = tmp_path / "jxbot.sqlite3"
    recorder = Recorder(double)
    bot = await start_bot([*BOT_ARGV, "--shards", "0-1", "--shard-count", "2"], env=fast_env(db))
    await double.wait_for(lambda: len(double.gateway.live_sessions()) == 2, 30, "two shards")
    await double.wait_commands(timeout=30)
    await bot.wait_log("ready: every table resumed", timeout=30)  # the readiness gate open
    assert sorted(s.shard for s in double.gateway.live_sessions()) == [[0, 2], [1, 2]]
    w = World(double, guild, channel, [alice], bot, db, recorder)
    await open_table(w)
    ap = AutoPlayer(alice, Style()).start()
    await wait_match_over(w)
    await gather_players([ap])
    assert ap.clicks and not [c for c in ap.clicks if c[3].failed]
    assert all(c[3].interaction.guild is None for c in ap.clicks), "the presses were DM presses"
    (result,) = result_messages(w)
    assert "alice" in payments(result)
    rc, out = await store_check(db)
    assert rc == 0, out
    assert "Traceback" not in bot.log()
