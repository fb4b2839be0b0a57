"""The web companion over a played database: every page, who may see what, the safety headers, the limits."""

from __future__ import annotations

import asyncio
import re
import time

import pytest
from aiohttp.test_utils import TestClient, TestServer

from jxbot.watch_view import MOVE_TYPES, delayed_public_view
from jxbot.web import links
from jxbot.web.app import CSP, RateLimiter, WebApp, WebConfig
from jxbot.web.texts import pick_lang
from tests.web.helpers import EVIL, LIVE_HAND, TABLE, LiveTable, played_store

SECRET = "test-secret-0123456789"


@pytest.fixture
async def site(tmp_path):
    store = await played_store(str(tmp_path / "played.sqlite3"))
    live = LiveTable(store)
    await live.open(30)
    wa = WebApp(store, WebConfig(secret=SECRET, rate=0, poll=0.05, delay=2))
    client = TestClient(TestServer(wa.app))
    await client.start_server()
    try:
        yield client, live, wa
    finally:
        await client.close()
        await store.close()


async def test_every_page_answers_with_its_safety_headers(site):
    client, _live, _wa = site
    for path in ("/", "/g/5", "/g/5?board=net&period=week", "/g/5?board=wins", "/g/5?board=biggest", "/g/5/p/101",
                 "/h/0123456789ab-1", "/h/0123456789ab-2?step=7&seat=3", f"/t/{TABLE}", f"/api/t/{TABLE}"):
        r = await client.get(path)
        assert r.status == 200, path
        assert r.headers["Content-Security-Policy"] == CSP
        assert "'unsafe-inline'" not in CSP and "script-src 'self'" in CSP
        assert r.headers["X-Content-Type-Options"] == "nosniff"
        assert r.headers["Referrer-Policy"] == "no-referrer"
        text = await r.text()
        if path.startswith("/api/"):  # data for the script, which writes it with textContent
            assert r.headers["Content-Type"].startswith("application/json")
            continue
        assert "<script>alert" not in text, path  # a player's name is text, never markup
        assert "<b>server" not in text
        if path.startswith("/g/5") and "board" not in path:
            assert "&lt;script&gt;alert" in text  # the name is shown, escaped


async def test_a_page_carries_no_inline_script_or_style(site):
    client, _live, _wa = site
    for path in ("/g/5", "/g/5/p/101", "/h/0123456789ab-1", f"/t/{TABLE}"):
        text = await (await client.get(path)).text()
        assert re.findall(r"<script[^>]*>", text) == ['<script src="/static/web.js?v=1" defer>']
        assert " style=" not in text and "<style" not in text and "onclick" not in text.lower()


async def test_writes_are_refused(site):
    client, _live, _wa = site
    for method in ("POST", "PUT", "DELETE", "PATCH"):
        r = await client.request(method, "/g/5")
        assert r.status == 405


async def test_servers_without_pages_are_not_found(site):
    client, _live, _wa = site
    for path in ("/g/8", "/h/aaaaaaaaaaaa-1", "/g/999/p/101", "/g/5/p/999", "/h/nope-1", "/t/nope", "/g/x"):
        r = await client.get(path)
        assert r.status == 404, path


async def test_language_by_query_and_accept_language(site):
    client, _live, _wa = site
    zh = await (await client.get("/g/5")).text()
    en = await (await client.get("/g/5", headers={"Accept-Language": "en-GB,en;q=0.9"})).text()
    forced = await (await client.get("/g/5?lang=zh", headers={"Accept-Language": "en"})).text()
    assert "排行" in zh or "银子" in zh
    assert "Silver" in en and "银子" not in en
    assert "银子" in forced
    assert pick_lang({}, "fr, en;q=0.5, zh;q=0.8") == "zh"
    assert pick_lang({"lang": "en"}, "zh") == "en"


async def test_replay_steps_seats_and_share_links(site):
    client, _live, _wa = site
    text = await (await client.get("/h/0123456789ab-1?step=4&seat=1&lang=en")).text()
    assert "Move 4 of" in text
    assert 'data-key="ArrowRight" href="/h/0123456789ab-1?step=5&amp;seat=1&amp;lang=en"' in text
    assert 'data-key="ArrowLeft" href="/h/0123456789ab-1?step=3&amp;seat=1&amp;lang=en"' in text
    assert "/h/0123456789ab-1?step=4&amp;seat=1" in text  # the share link of this step
    assert "/hand.png" not in text  # a stranger never gets a seat's own hand
    r = await client.get("/img/h/0123456789ab-1/4/1/hand.png")
    assert r.status == 403
    r = await client.get("/img/h/0123456789ab-1/4/1/table.png")
    assert r.status == 200 and r.headers["Content-Type"] == "image/png"


async def test_private_link_opens_its_own_seat_only_and_expires(site):
    client, _live, _wa = site
    path = links.private_path(SECRET, "0123456789ab-1", 0)
    r = await client.get(path + "&step=6&lang=en")
    assert r.status == 200 and r.headers["Cache-Control"] == "private, no-store"
    text = await r.text()
    assert "/hand.png" in text and "private link" in text
    q = links.sign(SECRET, "0123456789ab-1", 0)
    r = await client.get("/img/h/0123456789ab-1/6/0/hand.png", params=q)
    assert r.status == 200 and r.headers["Cache-Control"] == "private, no-store"
    assert (await client.get("/img/h/0123456789ab-1/6/1/hand.png", params=q)).status == 403  # another seat
    bad = dict(q, sig="0" * 64)
    assert (await client.get("/h/0123456789ab-1/me", params=bad)).status == 403
    old = links.sign(SECRET, "0123456789ab-1", 0, now=time.time() - 8 * 86400)
    assert (await client.get("/h/0123456789ab-1/me", params=old)).status == 403
    other = links.sign(SECRET, "0123456789ab-2", 0)  # a link for another hand
    assert (await client.get("/h/0123456789ab-1/me", params=other)).status == 403


async def test_live_table_is_delayed_and_public(site):
    client, live, wa = site
    state = await (await client.get(f"/api/t/{TABLE}")).json()
    for _ in range(200):  # the picture is drawn ahead, once for every viewer; announced when ready
        if state["image"]:
            break
        await asyncio.sleep(0.05)
        state = await (await client.get(f"/api/t/{TABLE}")).json()
    assert set(state) == {"version", "head", "caption", "image", "last_hand", "ended"}
    # the view is Discord's Watch view (jxbot.watch_view): two moves behind, public only
    seats = [{"name": n, "is_computer": c} for n, c in zip([EVIL, "Bob", "cpu:normal:2", "cpu:normal:3"],
                                                            [False, False, True, True], strict=True)]
    view = delayed_public_view(live.events[:live.written], 2, seats=seats)
    moves = sum(e["type"] in MOVE_TYPES for e in live.events[:live.written])
    shown = view["delayed"]["shown"]
    assert shown == moves - 2 and not view["delayed"]["ended"]
    assert state["image"].startswith(f"/img/t/{TABLE}/{LIVE_HAND}/{shown}.png")
    assert all("hand" not in sv for sv in view["seats"]) and "hand" not in view and "drawn" not in view
    # the picture is that public view, drawn by the live renderer
    import render

    png = await (await client.get(state["image"])).read()
    assert png == render.render_table(view, "zh")
    # the moves after it are not served
    for k in (shown + 1, shown + 2, moves):
        assert (await client.get(f"/img/t/{TABLE}/{LIVE_HAND}/{k}.png")).status == 404
    for body in (await (await client.get(f"/t/{TABLE}")).text(), str(state)):
        for secret in live.secrets:
            assert secret not in body


async def test_sse_feed_follows_the_table_while_it_plays(site):
    client, live, _wa = site
    seen: list[str] = []
    async with client.get(f"/api/t/{TABLE}/events?lang=en") as r:
        assert r.headers["Content-Type"] == "text/event-stream"
        player = asyncio.create_task(live.play(12, every=0.08))
        deadline = time.monotonic() + 8
        while time.monotonic() < deadline and sum('"image": "/img/t/' in s for s in seen) < 2:
            line = (await asyncio.wait_for(r.content.readline(), 5)).decode()
            for secret in live.secrets:
                assert secret not in line
            if line.startswith("data: "):
                seen.append(line)
        await player
    assert len(seen) >= 3  # several moves were pushed as they happened, each a few moves late
    assert sum('"image": "/img/t/' in s for s in seen) >= 2  # pictures follow as they are drawn


def test_rate_limiter_refuses_a_flood_and_recovers():
    lim = RateLimiter(10.0)
    allowed = sum(lim.allow("1.2.3.4", now=100.0) for _ in range(100))
    assert allowed == 40  # the burst
    assert lim.allow("5.6.7.8", now=100.0)  # another address is not affected
    assert not lim.allow("1.2.3.4", now=100.05)
    assert lim.allow("1.2.3.4", now=100.2)


async def test_rate_limit_answers_429(tmp_path):
    store = await played_store(str(tmp_path / "db.sqlite3"))
    wa = WebApp(store, WebConfig(rate=2.0))
    async with TestClient(TestServer(wa.app)) as client:
        codes = [(await client.get("/")).status for _ in range(12)]
    await store.close()
    assert codes[:8] == [200] * 8 and 429 in codes[8:]


async def test_all_servers_shows_a_server_without_pages(tmp_path):
    store = await played_store(str(tmp_path / "db.sqlite3"))
    wa = WebApp(store, WebConfig(all_servers=True))
    async with TestClient(TestServer(wa.app)) as client:
        assert (await client.get("/h/aaaaaaaaaaaa-1")).status == 200
    await store.close()


async def test_admin_turning_pages_off_hides_them(site):
    client, _live, wa = site
    assert (await client.get("/h/0123456789ab-1")).status == 200
    await wa.store.update_guild_settings(5, web=False)
    wa.data._guilds.clear()  # what GUILD_TTL (5 s) does by itself
    assert (await client.get("/h/0123456789ab-1")).status == 404
    assert (await client.get(f"/t/{TABLE}")).status == 404


def test_every_web_text_is_inside_the_pages_font():
    import jxbot.web.texts  # noqa: F401 - registers the texts
    from jxbot.i18n import _CATALOG
    from render.fonts import missing_chars

    missing = {(k, lang): sorted(missing_chars(text)) for k, texts in _CATALOG.items()
               if k.startswith(("web.", "replay.")) for lang, text in texts.items() if missing_chars(text)}
    assert not missing  # a character the font lacks would show as a box in a browser without CJK fonts


async def test_the_ladder_hook_shows_a_ratings_board(site, monkeypatch):
    """With a ratings package of the documented interface (jxbot.ladder: Ladder, ladder_key), the server's
    page shows its current season's boards; without one, nothing (the rest of this file)."""
    import sys
    import types
    from dataclasses import dataclass

    @dataclass
    class Tier:
        key: str

        def name(self, lang):
            return "雀豪" if lang == "zh" else "Master"

    @dataclass
    class Entry:
        user_id: int
        name: str
        rating: int
        tier: Tier

    class Ladder:
        def __init__(self, store):
            self.store = store

        async def current_season(self, key):
            return types.SimpleNamespace(season=3) if key == "5" else None

        async def leaderboard(self, key, ruleset, season, page, size, guild_id=None):
            rows = (Entry(102, "<i>Bob</i>", 1960, Tier("master")),) if ruleset == "jiaxing" else ()
            return types.SimpleNamespace(entries=rows)

    fake = types.ModuleType("jxbot.ladder")
    fake.Ladder = Ladder
    fake.ladder_key = lambda gid, scope: str(gid)
    monkeypatch.setitem(sys.modules, "jxbot.ladder", fake)
    client, _live, _wa = site
    text = await (await client.get("/g/5?lang=en")).text()
    assert "Ratings · Jiaxing · season 3" in text and "1,960 · Master" in text
    assert "&lt;i&gt;Bob&lt;/i&gt;" in text and "<i>Bob" not in text


async def test_a_rated_player_has_the_ladders_board_and_a_rating_graph(tmp_path):
    """The real ladder (jxbot.ladder), no stand-in: after a rated match the server's page shows the season's
    ratings board, and a rated player's profile a rating graph beside the silver one; an unrated player's
    profile has none."""
    from jxbot.store import Store
    from tests.ladder.helpers import G, open_match, play_hand

    store = await Store.open(str(tmp_path / "rated.sqlite3"))
    users = [11, 12, 13, 14]
    m = await open_match(store, "rt1", users)
    await play_hand(store, m, 0, users, 0, 10, last=False, discarder=1)
    await play_hand(store, m, 1, users, 2, 5, last=True)
    await store.ensure_player(99, "p99")
    await store.grant_starting(G, 99)
    wa = WebApp(store, WebConfig(rate=0, all_servers=True))
    client = TestClient(TestServer(wa.app))
    await client.start_server()
    try:
        guild = await (await client.get(links.guild_path(G) + "?lang=en")).text()
        assert "Ratings · Jiaxing · season 1" in guild and "p13" in guild
        prof = await (await client.get(links.profile_path(G, 13) + "?lang=en")).text()
        assert "Rating over time · Jiaxing · season 1" in prof and prof.count('<svg class="graph"') == 2
        assert "Rating from 0 to" in prof  # a newcomer shows 0, then the rating after the match
        other = await client.get(links.profile_path(G, 99) + "?lang=en")
        assert other.status == 404 or "Rating over time" not in await other.text()
    finally:
        await client.close()
        await store.close()
