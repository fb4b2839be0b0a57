"""A table in a channel @everyone cannot see (a staff room, a private thread) or in DMs is not on the web: the
server's pages show only what the whole server could watch in Discord (docs/web.md)."""

from __future__ import annotations

from types import SimpleNamespace

import discord
from aiohttp.test_utils import TestClient, TestServer

from jxbot.shell.channels import is_private
from jxbot.shell.lobby import TableConfig
from jxbot.web.app import WebApp, WebConfig
from tests.web.helpers import CHANNEL, GUILD, TABLE, LiveTable, bot_table_state, played_store


async def test_a_private_channels_table_is_neither_listed_nor_served(tmp_path):
    store = await played_store(str(tmp_path / "played.sqlite3"))
    live = LiveTable(store)
    await live.open(40)
    wa = WebApp(store, WebConfig(rate=0, poll=0.05, delay=2))
    client = TestClient(TestServer(wa.app))
    await client.start_server()
    try:
        assert TABLE in await (await client.get(f"/g/{GUILD}")).text()  # a public channel's table: listed
        assert (await client.get(f"/api/t/{TABLE}")).status == 200
        # the same table, its channel now private (what the bot saves for a staff room's table)
        config = {**TableConfig(stake=5).to_json(), "private": True}
        await store.save_table(TABLE, GUILD, CHANNEL, config, bot_table_state(["Alice", "Bob"]))
        # what the caches' times do by themselves (a table does not change channels while it runs)
        wa.hub._tables = (0.0, [])
        wa.hub._snaps.clear()
        wa._guild_pages.clear()
        assert TABLE not in await (await client.get(f"/g/{GUILD}")).text()
        for path in (f"/t/{TABLE}", f"/api/t/{TABLE}"):
            assert (await client.get(path)).status == 404, path
    finally:
        await client.close()
        await store.close()


def _channel(view: bool, *, thread: str | None = None):
    everyone = SimpleNamespace(id=GUILD)
    guild = SimpleNamespace(default_role=everyone)
    perms = discord.Permissions(view_channel=view)
    ch = SimpleNamespace(guild=guild, permissions_for=lambda role: perms)
    return ch


def test_which_channels_are_private():
    assert is_private(_channel(True)) is False
    assert is_private(_channel(False)) is True
    assert is_private(None) is False  # unknown (not in the cache): as before the check
    assert is_private(SimpleNamespace(guild=None)) is False


async def test_a_private_tables_finished_hands_are_not_on_the_web(tmp_path):
    from tests.replay.helpers import played_hand

    store = await played_store(str(tmp_path / "played.sqlite3"))
    config = {**TableConfig(stake=5).to_json(), "private": True}
    await store.save_table("priv1", GUILD, CHANNEL + 1, config, {})
    hand = played_hand(21, hand_id="bbbbbbbbbbbb-1")
    await store.create_hand(hand.hand_id, GUILD, CHANNEL + 1, hand.ruleset.name, [None] * 4, hand.commitment,
                            table_id="priv1")
    for i, e in enumerate(hand.events_json()):
        await store.append_event(hand.hand_id, i, e)
    await store.settle_hand(hand.hand_id, GUILD, [None] * 4, hand.settlement, hand.result_view())
    wa = WebApp(store, WebConfig(rate=0, poll=0.05, delay=2))
    client = TestClient(TestServer(wa.app))
    await client.start_server()
    try:
        page = await (await client.get(f"/g/{GUILD}")).text()
        assert "0123456789ab-1" in page  # a public table's hands are listed
        assert "bbbbbbbbbbbb-1" not in page  # the staff room's are not
        assert (await client.get("/h/0123456789ab-1")).status == 200
        assert (await client.get("/h/bbbbbbbbbbbb-1")).status == 404
    finally:
        await client.close()
        await store.close()
