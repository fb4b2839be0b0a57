"""Metrics and health (docs/ops.md): an optional HTTP listener, ``JXBOT_METRICS_PORT`` (off by default) on
``JXBOT_METRICS_HOST`` (127.0.0.1 by default), serving

- ``/metrics``: Prometheus figures (``prometheus-client``), from a registry of this bot's own (never the
  library's global one, so several bots in one process — the tests — keep their figures apart);
- ``/healthz``: ``200 ok`` when the bot is connected to Discord, its tables are resumed and the store
  answers; else ``503`` with a one-line reason.

The figures are read where they already are: the presses' timing (``jxbot/press_timing.py``), the drawing
lanes (``jxbot/drawing.py``), the store's transactions and settlements (its ``observer``), every REST call
to Discord (an aiohttp trace on discord.py's session), and, at each scrape, the tables of the bot's cogs and
its readiness gate. No label ever carries a tile, a token, an id or a user's text: labels are from fixed
sets (a stage, a picture kind, a REST route *template*, a rate-limit scope).
"""

from __future__ import annotations

import asyncio
import logging
import re
from collections.abc import Iterable, Iterator
from typing import Any

import aiohttp
import yarl
from aiohttp import web
from prometheus_client import CollectorRegistry, Counter, Histogram
from prometheus_client.core import CounterMetricFamily, GaugeMetricFamily
from prometheus_client.exposition import CONTENT_TYPE_LATEST, generate_latest
from prometheus_client.registry import Collector

from jxbot import drawing

log = logging.getLogger("jxbot.metrics")

# seconds: a press is answered in tens to hundreds of milliseconds; a bad one takes seconds
LATENCY_BUCKETS = (0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0)
STORE_BUCKETS = (0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1.0)
PRESS_STAGES = ("queue", "submit", "lock", "draw", "send")
PANEL_STAGES = ("lock", "draw", "send")  # the panel: waiting for it, drawing it, sending it
STORE_KINDS = ("write", "read")
RATE_LIMIT_SCOPES = ("user", "global", "shared")
HEALTH_TIMEOUT = 2.0  # seconds the store gets to answer /healthz

# a REST path segment kept as it is: a lowercase word (channels, messages, @original, callback …); anything
# else (an id, a token, an emoji, a name) becomes a placeholder
_WORD = re.compile(r"^@?[a-z][a-z_-]{0,31}$")


def route_of(method: str, url: Any) -> str:
    """``POST /channels/{id}/messages``: a REST call's route template, with no id, token or text in it."""
    parts = [p for p in yarl.URL(str(url)).path.split("/") if p]
    for i in range(len(parts) - 1):  # from after the API's base (/api/v10), wherever it is mounted
        if parts[i] == "api" and re.fullmatch(r"v\d+", parts[i + 1]):
            parts = parts[i + 2:]
            break
    out = []
    for p in parts[:10]:
        out.append(p if _WORD.match(p) else "{id}" if p.isdigit() else "{x}")
    m = method.upper() if method.upper() in ("GET", "POST", "PUT", "PATCH", "DELETE") else "OTHER"
    return f"{m} /{'/'.join(out)}"


class _Scraped(Collector):
    """What is read at each scrape: the tables and lobbies, the readiness, the drawing queue."""

    def __init__(self, metrics: Metrics) -> None:
        self.m = metrics

    def collect(self) -> Iterator[GaugeMetricFamily | CounterMetricFamily]:
        bot = self.m.bot
        running, lobbies = self.m.tables()
        yield GaugeMetricFamily("jxbot_tables_running", "Tables playing in this process", value=running)
        yield GaugeMetricFamily("jxbot_lobbies", "Lobbies open (tables not started) in this process", value=lobbies)
        ready = bot is not None and connected(bot) and not bot.gate.closed and not bot.gate.stopping
        yield GaugeMetricFamily("jxbot_ready", "1 when connected, every table resumed and not stopping; else 0",
                                value=1 if ready else 0)
        yield GaugeMetricFamily("jxbot_connected", "1 when connected to Discord", value=1 if bot is not None
                                and connected(bot) else 0)
        q = GaugeMetricFamily("jxbot_drawing_queue", "Pictures asked and not drawn yet, per lane", labels=["lane"])
        pending = drawing.drawing().pending
        q.add_metric(["now"], pending.get(True, 0))
        q.add_metric(["later"], pending.get(False, 0))
        yield q
        if bot is not None:
            yield CounterMetricFamily("jxbot_gate_refused", "Interactions told 'starting up' (the readiness gate)",
                                      value=bot.gate.refused)

    def describe(self) -> Iterable[Any]:
        return []


def connected(bot: Any) -> bool:
    """Connected to Discord: ready, and every gateway session open (the sharded bot has several)."""
    if bot.is_closed() or not bot.is_ready():
        return False
    shards = getattr(bot, "shards", None)
    if isinstance(shards, dict) and shards:
        return all(not s.is_closed() for s in shards.values())
    ws = getattr(bot, "ws", None)
    return ws is not None and bool(getattr(ws, "open", False))


class Metrics:
    """One bot's figures and its listener. Built before the client (the REST trace is a client option);
    :meth:`bind` then names the bot, :meth:`start` / :meth:`stop` run the listener."""

    def __init__(self) -> None:
        self.registry = r = CollectorRegistry()
        self.bot: Any = None
        self.presses = Counter("jxbot_presses", "Button presses answered with the updated panel", registry=r)
        self.press_seconds = Histogram("jxbot_press_seconds", "From a press to its panel answered",
                                       buckets=LATENCY_BUCKETS, registry=r)
        self.press_stage_seconds = Histogram("jxbot_press_stage_seconds", "A press's time per stage",
                                             ["stage"], buckets=LATENCY_BUCKETS, registry=r)
        self.panel_seconds = Histogram("jxbot_panel_seconds",
                                       "A pressed panel: waiting for it, drawing and sending it",
                                       buckets=LATENCY_BUCKETS, registry=r)
        self.rest = Counter("jxbot_discord_requests", "REST calls to Discord, by route template and status class",
                            ["route", "status"], registry=r)
        self.rate_limited = Counter("jxbot_discord_rate_limited", "REST answers 429 (rate limited), by scope",
                                    ["scope"], registry=r)
        self.drawing_seconds = Histogram("jxbot_drawing_seconds", "A picture: asked to drawn (its wait included)",
                                         ["kind"], buckets=LATENCY_BUCKETS, registry=r)
        self.drawing_cpu = Counter("jxbot_drawing_cpu_seconds", "CPU time spent drawing pictures", ["kind"],
                                   registry=r)
        self.store_seconds = Histogram("jxbot_store_transaction_seconds", "Store transactions, begin to commit",
                                       ["kind"], buckets=STORE_BUCKETS, registry=r)
        self.settlements = Counter("jxbot_settlements", "Hands settled (paid, or voided) by this process",
                                   registry=r)
        for stage in PRESS_STAGES:  # every series present from the start (a rate() needs a first sample)
            self.press_stage_seconds.labels(stage)
        for scope in RATE_LIMIT_SCOPES:
            self.rate_limited.labels(scope)
        for kind in STORE_KINDS:
            self.store_seconds.labels(kind)
        r.register(_Scraped(self))
        self._runner: web.AppRunner | None = None
        self.address: tuple[str, int] | None = None

    def bind(self, bot: Any) -> None:
        self.bot = bot

    # -- the sources
    def observe_press(self, row: dict[str, float]) -> None:
        """A press answered (``jxbot.press_timing`` row, milliseconds per stage)."""
        if "total" not in row:
            return
        self.presses.inc()
        self.press_seconds.observe(row["total"] / 1000.0)
        for stage in PRESS_STAGES:
            if stage in row:
                self.press_stage_seconds.labels(stage).observe(row[stage] / 1000.0)
        self.panel_seconds.observe(sum(row.get(s, 0.0) for s in PANEL_STAGES) / 1000.0)

    def observe_picture(self, kind: str, cpu: float, wall: float) -> None:
        kind = kind if _WORD.match(kind) else "other"
        self.drawing_seconds.labels(kind).observe(wall)
        self.drawing_cpu.labels(kind).inc(cpu)

    def observe_store(self, what: str, seconds: float) -> None:
        """The store's observer: ``("write"|"read", seconds)`` per transaction, ``("settlement", 0)``."""
        if what == "settlement":
            self.settlements.inc()
        elif what in STORE_KINDS:
            self.store_seconds.labels(what).observe(seconds)

    def http_trace(self) -> aiohttp.TraceConfig:
        """discord.py's ``http_trace``: every REST call (interaction answers and webhooks included), counted
        by route template; a 429 by its scope."""
        trace = aiohttp.TraceConfig()

        async def on_end(_session: Any, _ctx: Any, params: aiohttp.TraceRequestEndParams) -> None:
            status = params.response.status
            self.rest.labels(route_of(params.method, params.url), f"{status // 100}xx").inc()
            if status == 429:
                scope = params.response.headers.get("X-RateLimit-Scope", "user").lower()
                self.rate_limited.labels(scope if scope in RATE_LIMIT_SCOPES else "user").inc()

        trace.on_request_end.append(on_end)
        return trace

    def tables(self) -> tuple[int, int]:
        """(running, lobbies) over the managers of the bot's cogs (``cogs.tables``' ``TableManager``)."""
        running = lobbies = 0
        cogs = getattr(self.bot, "cogs", None) or {}
        seen: set[int] = set()
        for cog in list(cogs.values()):
            manager = getattr(cog, "manager", None)
            tables = getattr(manager, "tables", None)
            if not isinstance(tables, dict) or id(manager) in seen:
                continue
            seen.add(id(manager))
            for table in list(tables.values()):
                state = getattr(table, "state", None)
                running += state == "running"
                lobbies += state == "lobby"
        return running, lobbies

    # -- health
    async def health(self) -> tuple[bool, str]:
        """(healthy, a one-line reason)."""
        bot = self.bot
        if bot is None:
            return False, "not started"
        if bot.gate.stopping:
            return False, "stopping"
        if not connected(bot):
            return False, "not connected to Discord"
        if bot.gate.closed:
            return False, "starting: the tables are being resumed"
        store = getattr(bot, "store", None)
        if store is None:
            return False, "no store"
        try:
            await asyncio.wait_for(store.schema_version(), HEALTH_TIMEOUT)
        except TimeoutError:
            return False, f"the store did not answer within {HEALTH_TIMEOUT:.0f} s"
        except Exception as exc:  # the reason only by its kind: a message could name the database's address
            return False, f"the store failed: {type(exc).__name__}"
        return True, "ok"

    # -- the listener
    def app(self) -> web.Application:
        async def metrics(_request: web.Request) -> web.Response:
            body = generate_latest(self.registry)
            return web.Response(body=body, headers={"Content-Type": CONTENT_TYPE_LATEST})

        async def healthz(_request: web.Request) -> web.Response:
            ok, reason = await self.health()
            return web.Response(status=200 if ok else 503, text=reason + "\n")

        app = web.Application()
        app.router.add_get("/metrics", metrics)
        app.router.add_get("/healthz", healthz)
        return app

    async def start(self, host: str, port: int) -> None:
        """Listen on ``host:port`` (port 0: any free port, see :attr:`address`); the drawing lanes' pictures
        are counted from now on."""
        drawing.add_listener(self.observe_picture)
        runner = web.AppRunner(self.app(), access_log=None)
        await runner.setup()
        site = web.TCPSite(runner, host, port)
        try:
            await site.start()
        except BaseException:
            await runner.cleanup()
            drawing.remove_listener(self.observe_picture)
            raise
        self._runner = runner
        server = getattr(site, "_server", None)
        sockets = getattr(server, "sockets", None) or []
        self.address = sockets[0].getsockname()[:2] if sockets else (host, port)
        log.info("metrics and health on http://%s:%d/metrics and /healthz", *self.address)

    async def stop(self) -> None:
        drawing.remove_listener(self.observe_picture)
        runner, self._runner = self._runner, None
        if runner is not None:
            await runner.cleanup()
