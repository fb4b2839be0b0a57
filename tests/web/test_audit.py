"""Adversarial checks of the web companion (the audit): what a spectator, an admin and an attacker would notice."""

from __future__ import annotations

import asyncio
import time

from aiohttp.test_utils import TestClient, TestServer

from jxbot.watch_view import MOVE_TYPES
from jxbot.web.app import WebApp, WebConfig
from tests.web.helpers import GUILD, TABLE, LiveTable, played_store


async def _client(tmp_path, **cfg):
    store = await played_store(str(tmp_path / "played.sqlite3"))
    live = LiveTable(store)
    await live.open(40)
    wa = WebApp(store, WebConfig(**{"rate": 0, "poll": 0.05, **cfg}))
    client = TestClient(TestServer(wa.app))
    await client.start_server()
    return client, live, wa, store


async def test_a_servers_own_watch_delay_holds_on_the_web(tmp_path):
    """An admin who set /admin settings watch_delay:6 (say, for a tournament) must not find the web's live page
    showing the table 2 moves behind (the bot's JXBOT_WATCH_DELAY): docs/watch.md promises the same delay."""
    client, live, wa, store = await _client(tmp_path, delay=2)
    try:
        await store.update_guild_settings(GUILD, watch_delay=6)
        wa.data._guilds.clear()
        moves = sum(e["type"] in MOVE_TYPES for e in live.events[:live.written])
        state = await (await client.get(f"/api/t/{TABLE}?lang=en")).json()
        assert state["head"].endswith(f"{moves - 6}"), state["head"]
        page = await (await client.get(f"/t/{TABLE}?lang=en")).text()
        assert "6 moves" in page
    finally:
        await client.close()
        await store.close()


async def test_the_live_feed_stops_once_the_servers_pages_are_turned_off(tmp_path):
    """/admin web off hides a server's pages within 5 s (docs/web.md): an open live feed must end too, not go on
    for its 30 minutes."""
    client, live, wa, store = await _client(tmp_path, delay=2)
    try:
        async with client.get(f"/api/t/{TABLE}/events") as r:
            assert r.status == 200
            await asyncio.wait_for(r.content.readline(), 5)
            await store.update_guild_settings(GUILD, web=False)
            wa.data._guilds.clear()  # what GUILD_TTL (5 s) does by itself
            await live.write(live.written + 4)
            ended, deadline = False, time.monotonic() + 5
            while time.monotonic() < deadline:
                line = (await asyncio.wait_for(r.content.readline(), 5)).decode()
                if line.startswith("event: end") or not line:
                    ended = True
                    break
            assert ended
    finally:
        await client.close()
        await store.close()


async def test_odd_ids_in_an_address_are_not_found_and_a_failure_is_a_page(tmp_path, monkeypatch):
    """/g/<30 digits> and /g/5/p/<30 digits> gave a bare 500 (the store refuses ids beyond 64 bits) with no
    safety headers and a traceback in the log per request; a failure of the store is a localized page."""
    from jxbot.web.app import CSP

    client, _live, wa, store = await _client(tmp_path)
    try:
        big = "9" * 30
        for path in (f"/g/{big}", f"/g/5/p/{big}", f"/g/{2**63}", f"/g/5/p/{2**64}"):
            r = await client.get(path)
            assert r.status == 404, path
            assert r.headers["Content-Security-Policy"] == CSP
        async def broken(*a, **k):
            raise RuntimeError("the database went away")
        monkeypatch.setattr(store, "leaderboard", broken)
        wa._guild_pages.clear()
        r = await client.get("/g/5?lang=en")
        assert r.status == 500 and r.headers["Content-Security-Policy"] == CSP
        assert "try again" in await r.text()
    finally:
        await client.close()
        await store.close()


async def test_unknown_table_ids_leave_nothing_behind(tmp_path):
    """Every /api/t/<id> of a table that does not run left a lock in the hub, forever: a memory leak any
    visitor could drive (20 requests a second, each a new id)."""
    client, _live, wa, store = await _client(tmp_path)
    try:
        for i in range(300):
            assert (await client.get(f"/api/t/nope{i}")).status == 404
        assert len(wa.hub._locks) <= 1 and len(wa.hub._snaps) <= 1
    finally:
        await client.close()
        await store.close()


async def test_a_failed_settings_read_keeps_the_servers_delay(tmp_path, monkeypatch):
    """A store hiccup while reading the server's settings must not drop an admin's 6 moves to the bot's 2."""
    client, live, wa, store = await _client(tmp_path, delay=2)
    try:
        await store.update_guild_settings(GUILD, watch_delay=6)
        wa.data._guilds.clear()
        assert await wa.hub.delay_at(GUILD) == 6

        async def broken(gid):
            raise RuntimeError("the database went away")

        monkeypatch.setattr(wa.data, "settings", broken)
        wa.hub._settings = broken
        assert await wa.hub.delay_at(GUILD) == 6
    finally:
        await client.close()
        await store.close()


async def test_a_head_request_to_a_live_feed_holds_no_feed(tmp_path):
    """A link checker or a browser's preflight sends HEAD: the feed answered it by holding one of the address's
    eight live feeds for its 30 minutes (nothing to write), so nine HEADs locked the address out of watching."""
    from jxbot.web.app import SSE_PER_ADDRESS

    client, _live, wa, store = await _client(tmp_path, rate=50.0)
    try:
        for _ in range(SSE_PER_ADDRESS + 2):
            r = await asyncio.wait_for(client.head(f"/api/t/{TABLE}/events"), 5)
            assert r.status == 200 and r.headers["Content-Type"] == "text/event-stream"
            r.release()
        assert not wa._feeds
        async with client.get(f"/api/t/{TABLE}/events") as r:
            assert r.status == 200  # not 429: the address may still watch
            assert (await asyncio.wait_for(r.content.readline(), 5)).startswith(b"retry:")
    finally:
        await client.close()
        await store.close()
