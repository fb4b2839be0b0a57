"""Issue 27, the metrics' collectors (jxbot/metrics.py; docs/ops.md): each figure an operator reads comes from
where the bot measures it, from a registry of each bot's own, and no label carries an id, a token or a name."""

from __future__ import annotations

import asyncio
import types

import aiohttp
import pytest
from aiohttp import web
from prometheus_client import generate_latest

from jxbot import drawing
from jxbot.metrics import Metrics, connected, route_of
from jxbot.press_timing import PressTimes
from jxbot.readiness import ReadinessGate
from jxbot.store import Store
from tests.store.conftest import CH, G, settlement, win_result


def value(m: Metrics, name: str, labels: dict[str, str] | None = None) -> float:
    v = m.registry.get_sample_value(name, labels or {})
    assert v is not None, f"{name} {labels} not collected:\n{generate_latest(m.registry).decode()[:2000]}"
    return v


def test_a_route_keeps_only_its_template_never_an_id_or_a_token():
    token = "aW50ZXJhY3Rpb246MTIzNDU2Nzg5OmFiY2RlZg"
    assert route_of("post", f"/api/v10/interactions/1234567890123/{token}/callback") == \
        "POST /interactions/{id}/{x}/callback"
    assert route_of("PATCH", f"http://h:1/api/v10/webhooks/42/{token}/messages/@original?wait=true") == \
        "PATCH /webhooks/{id}/{x}/messages/@original"
    assert route_of("PUT", "/api/v10/channels/5/messages/6/reactions/%F0%9F%80%84/@me") == \
        "PUT /channels/{id}/messages/{id}/reactions/{x}/@me"
    assert route_of("GET", "/api/v10/users/alice_Bob") == "GET /users/{x}"  # a mixed-case name is not a word


def test_each_bot_has_its_own_registry():
    a, b = Metrics(), Metrics()  # two bots in one process (the tests): no clash, no shared figures
    a.observe_press({"queue": 5.0, "submit": 3.0, "lock": 0.0, "draw": 20.0, "send": 30.0, "total": 60.0})
    assert value(a, "jxbot_presses_total") == 1
    assert value(b, "jxbot_presses_total") == 0
    assert value(a, "jxbot_press_seconds_sum") == pytest.approx(0.060)
    assert value(a, "jxbot_panel_seconds_sum") == pytest.approx(0.050)  # lock + draw + send
    assert value(a, "jxbot_press_stage_seconds_count", {"stage": "draw"}) == 1


def test_press_timing_tells_the_metrics_even_with_the_lag_log_off():
    m = Metrics()
    times = PressTimes(0)  # JXBOT_LAG_LOG off
    times.listener = m.observe_press
    times.record({"draw": 1.0, "send": 2.0, "total": 4.0})
    times.record({"draw": 1.0})  # a press not answered with a panel: not a press answered
    assert value(m, "jxbot_presses_total") == 1


def fake_bot(*, ready: bool = True, gate: ReadinessGate | None = None, store: object = None,
             tables: dict[str, str] | None = None) -> types.SimpleNamespace:
    manager = types.SimpleNamespace(tables={k: types.SimpleNamespace(state=s) for k, s in (tables or {}).items()})
    return types.SimpleNamespace(
        is_closed=lambda: False, is_ready=lambda: ready, ws=types.SimpleNamespace(open=ready),
        gate=gate or ReadinessGate(), store=store,
        cogs={"TablesCog": types.SimpleNamespace(manager=manager), "PlayCog": types.SimpleNamespace()})


def test_tables_lobbies_and_readiness_are_read_at_the_scrape():
    m = Metrics()
    gate = ReadinessGate()
    m.bind(fake_bot(gate=gate, tables={"a": "running", "b": "lobby", "c": "running", "d": "ended"}))
    assert value(m, "jxbot_tables_running") == 2
    assert value(m, "jxbot_lobbies") == 1
    assert value(m, "jxbot_ready") == 1
    gate.arm()
    gate.hold("tables")  # start-up: the tables being resumed
    assert value(m, "jxbot_ready") == 0
    gate.done("tables")
    assert value(m, "jxbot_ready") == 1
    m.bind(fake_bot(ready=False))
    assert value(m, "jxbot_ready") == 0 and value(m, "jxbot_connected") == 0


def test_connected_needs_every_shard_open():
    shard = types.SimpleNamespace
    bot = fake_bot()
    bot.shards = {0: shard(is_closed=lambda: False), 1: shard(is_closed=lambda: True)}
    assert not connected(bot)
    bot.shards[1] = shard(is_closed=lambda: False)
    assert connected(bot)


async def test_the_drawing_lanes_count_their_pictures_and_queue(monkeypatch):
    m = Metrics()
    d = drawing.Drawing(0)
    release = asyncio.Event()

    async def slow(kind, view, lang, urgent):
        await release.wait()
        return b"png", 0.004, None

    monkeypatch.setattr(d, "_draw", slow)
    monkeypatch.setattr(drawing, "_DRAWING", d)
    drawing.add_listener(m.observe_picture)
    try:
        task = asyncio.create_task(d.draw("hand", {}, "zh", urgent=True))
        await asyncio.sleep(0.01)
        assert value(m, "jxbot_drawing_queue", {"lane": "now"}) == 1
        release.set()
        assert await task == b"png"
    finally:
        drawing.remove_listener(m.observe_picture)
    assert value(m, "jxbot_drawing_queue", {"lane": "now"}) == 0
    assert value(m, "jxbot_drawing_seconds_count", {"kind": "hand"}) == 1
    assert value(m, "jxbot_drawing_cpu_seconds_total", {"kind": "hand"}) == pytest.approx(0.004)


async def test_the_store_reports_its_transactions_and_each_settlement_once(tmp_path):
    m = Metrics()
    store = await Store.open(str(tmp_path / "m.sqlite3"))
    try:
        store.observer = m.observe_store
        seats = [1, 2, 3, 4]
        for uid in seats:
            await store.ensure_player(uid, f"p{uid}")
            await store.grant_starting(G, uid)
        await store.create_hand("h1", G, CH, "jiaxing", seats, "c")
        s = settlement(*[(p, 0, 10, "win") for p in (1, 2, 3)])
        await store.settle_hand("h1", G, seats, s, win_result(0))
        assert (await store.settle_hand("h1", G, seats, s, win_result(0))).repeated
        await store.balance(G, 1)
    finally:
        await store.close()
    assert value(m, "jxbot_settlements_total") == 1  # the repeat settles nothing
    assert value(m, "jxbot_store_transaction_seconds_count", {"kind": "write"}) >= 6


async def test_rest_calls_by_route_and_429s_by_scope():
    m = Metrics()

    async def limited(request: web.Request) -> web.Response:
        return web.Response(status=429, headers={"X-RateLimit-Scope": "global"}, text="{}")

    async def ok(request: web.Request) -> web.Response:
        return web.Response(text="{}")

    app = web.Application()
    app.router.add_post("/api/v10/channels/{c}/messages", limited)
    app.router.add_get("/api/v10/users/@me", ok)
    runner = web.AppRunner(app)
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    port = site._server.sockets[0].getsockname()[1]  # type: ignore[union-attr]
    try:
        async with aiohttp.ClientSession(trace_configs=[m.http_trace()]) as http:
            async with http.post(f"http://127.0.0.1:{port}/api/v10/channels/987654321/messages"):
                pass
            async with http.get(f"http://127.0.0.1:{port}/api/v10/users/@me"):
                pass
    finally:
        await runner.cleanup()
    assert value(m, "jxbot_discord_rate_limited_total", {"scope": "global"}) == 1
    assert value(m, "jxbot_discord_rate_limited_total", {"scope": "user"}) == 0
    assert value(m, "jxbot_discord_requests_total",
                 {"route": "POST /channels/{id}/messages", "status": "4xx"}) == 1
    assert value(m, "jxbot_discord_requests_total", {"route": "GET /users/@me", "status": "2xx"}) == 1
    assert "987654321" not in generate_latest(m.registry).decode()


class _Store:
    def __init__(self, fail: BaseException | None = None, hang: bool = False) -> None:
        self.fail, self.hang = fail, hang

    async def schema_version(self) -> int:
        if self.hang:
            await asyncio.sleep(60)
        if self.fail is not None:
            raise self.fail
        return 9


async def test_healthz_over_http_says_why_in_one_line(monkeypatch):
    m = Metrics()
    gate = ReadinessGate()
    bot = fake_bot(gate=gate, store=_Store())
    m.bind(bot)
    await m.start("127.0.0.1", 0)
    assert m.address is not None and m.address[0] == "127.0.0.1"
    url = f"http://127.0.0.1:{m.address[1]}"
    try:
        async with aiohttp.ClientSession() as http:
            async def probe() -> tuple[int, str]:
                async with http.get(f"{url}/healthz") as r:
                    return r.status, await r.text()

            assert await probe() == (200, "ok\n")
            gate.arm()
            gate.hold("tables")
            assert await probe() == (503, "starting: the tables are being resumed\n")
            gate.done("tables")
            bot.store = _Store(fail=OSError("postgresql://u:secret@db/x unreachable"))
            status, text = await probe()
            assert (status, text) == (503, "the store failed: OSError\n")  # never the message (a DSN, a path)
            monkeypatch.setattr("jxbot.metrics.HEALTH_TIMEOUT", 0.05)
            bot.store = _Store(hang=True)
            assert (await probe())[0] == 503
            bot.store = _Store()
            bot.is_ready = lambda: False
            assert await probe() == (503, "not connected to Discord\n")
            gate.stopping = True
            assert await probe() == (503, "stopping\n")
            async with http.get(f"{url}/metrics") as r:
                assert r.status == 200 and "jxbot_tables_running" in await r.text()
    finally:
        await m.stop()
