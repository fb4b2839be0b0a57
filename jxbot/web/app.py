"""The web companion's aiohttp application: routes, the safety headers, per-address rate limits.

Read-only: every route is GET (HEAD); nothing writes to the store. What each route may show is decided on
every request (docs/web.md, "Safe by construction"): a server's pages only when its pages are on, a hand
only once settled and as a stranger sees it (or the signed seat's own view), a running table only as its
delayed public view, and a live picture only of a step a spectator may already see.
"""

from __future__ import annotations

import asyncio
import json
import logging
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from aiohttp import web

from jxbot.web import links, pages
from jxbot.web.data import WebData
from jxbot.web.live import LiveHub
from jxbot.web.pictures import NoPicture, Pictures
from jxbot.web.texts import pick_lang

log = logging.getLogger("jxbot.web")

STATIC = Path(__file__).resolve().parent / "static"
STATIC_TYPES = {".css": "text/css; charset=utf-8", ".js": "text/javascript; charset=utf-8", ".png": "image/png"}
CSP = ("default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; font-src 'self'; "
       "connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'")
SSE_PER_ADDRESS = 8  # open live feeds one address may hold
SSE_SECONDS = 1800.0  # a feed ends after this long (the page's script reconnects)
GUILD_PAGE_TTL = 2.0
LIVE_PICTURE_EVERY = 2.0  # seconds: a live table's picture is drawn at most this often (per language)


def _ui_font() -> Path:
    from render.fonts import UI_FONT

    return UI_FONT


@dataclass
class WebConfig:
    delay: int = 2
    secret: str | None = None
    base_url: str | None = None
    all_servers: bool = False
    rate: float = 20.0  # requests per second per address (burst 4×); 0: no limit
    poll: float = 1.0  # how often a live table is read from the store


class RateLimiter:
    """A token bucket per address: ``rate`` per second, ``burst`` at most."""

    def __init__(self, rate: float, burst: float | None = None) -> None:
        self.rate = rate
        self.burst = burst if burst is not None else max(1.0, 4 * rate)
        self._buckets: dict[str, tuple[float, float]] = {}

    def allow(self, key: str, now: float | None = None) -> bool:
        if self.rate <= 0:
            return True
        now = time.monotonic() if now is None else now
        tokens, at = self._buckets.get(key, (self.burst, now))
        tokens = min(self.burst, tokens + (now - at) * self.rate)
        if tokens < 1.0:
            self._buckets[key] = (tokens, now)
            return False
        self._buckets[key] = (tokens - 1.0, now)
        if len(self._buckets) > 50_000:  # forget the addresses whose buckets are full again
            full = [k for k, (tk, a) in self._buckets.items() if tk + (now - a) * self.rate >= self.burst]
            for k in full:
                del self._buckets[k]
        return True


def _lang(request: web.Request) -> str:
    return pick_lang(request.query, request.headers.get("Accept-Language"))


def _id(text: str | None) -> int | None:
    """A Discord id from an address (a positive 64-bit integer), or None: anything else is "not found"."""
    n = _int(text)
    return n if n is not None and 0 < n < 2**63 else None


def _int(text: str | None, default: int | None = None) -> int | None:
    if text is None or text == "":
        return default
    try:
        return int(text)
    except ValueError:
        return None


class WebApp:
    def __init__(self, store: Any, config: WebConfig) -> None:
        self.store = store
        self.config = config
        self.data = WebData(store, all_servers=config.all_servers)
        self.hub = LiveHub(store, delay=config.delay, ttl=config.poll, settings=self.data.settings)
        self.pictures = Pictures()
        self.limiter = RateLimiter(config.rate)
        self._feeds: dict[str, int] = {}
        self._live_ready: dict[tuple[str, str], tuple[str, int]] = {}  # (table, lang) -> (hand, step) drawn
        self._live_drawing: dict[tuple[str, str], asyncio.Task[None]] = {}
        self._live_drawn_at: dict[tuple[str, str], float] = {}
        self._guild_pages: dict[tuple, tuple[float, str]] = {}
        self.app = web.Application(middlewares=[self._guard])
        self.app.on_cleanup.append(self._close)  # the drawing lane's worker stops with the app
        r = self.app.router
        r.add_get("/", self.home)
        r.add_get("/healthz", self.healthz)
        r.add_get("/static/{name}", self.static)
        r.add_get("/font/ui.otf", self.font)
        r.add_get("/favicon.ico", self.favicon)
        r.add_get("/g/{guild}", self.guild)
        r.add_get("/g/{guild}/p/{user}", self.profile)
        r.add_get("/h/{hand}", self.hand)
        r.add_get("/h/{hand}/me", self.hand_private)
        r.add_get("/img/h/{hand}/{step}/{seat}/{kind}.png", self.hand_picture)
        r.add_get("/t/{table}", self.table)
        r.add_get("/api/t/{table}", self.table_json)
        r.add_get("/api/t/{table}/events", self.table_feed)
        r.add_get("/img/t/{table}/{hand}/{step}.png", self.table_picture)

    async def _close(self, app: web.Application) -> None:
        await self.pictures.aclose()

    # ------------------------------------------------------------------ safety
    @web.middleware
    async def _guard(self, request: web.Request, handler: Any) -> web.StreamResponse:
        if request.method not in ("GET", "HEAD"):
            resp: web.StreamResponse = web.Response(status=405, text="read-only\n", headers={"Allow": "GET, HEAD"})
        elif not self.limiter.allow(request.remote or "-"):
            resp = self._error(request, 429)
            resp.headers["Retry-After"] = "1"
        else:
            try:
                resp = await handler(request)
            except web.HTTPNotFound:
                resp = self._error(request, 404)
            except web.HTTPForbidden:
                resp = self._error(request, 403)
            except NoPicture:
                resp = web.Response(status=503, text="the picture could not be drawn\n",
                                    headers={"Cache-Control": "no-store", "Retry-After": "2"})
            except web.HTTPException:
                raise
            except Exception:  # a bug or a store that failed: the page says so, the log has the details
                log.exception("web: %s %s failed", request.method, request.path)
                resp = self._error(request, 500)
        if not resp.prepared:
            h = resp.headers
            h["Content-Security-Policy"] = CSP
            h["X-Content-Type-Options"] = "nosniff"
            h["Referrer-Policy"] = "no-referrer"  # a private link never leaks through a Referer
            h["X-Frame-Options"] = "DENY"
            h.setdefault("Cache-Control", "no-cache")
            h.setdefault("Vary", "Accept-Language")
        return resp

    def _error(self, request: web.Request, status: int) -> web.Response:
        return web.Response(status=status, text=pages.error(_lang(request), status), content_type="text/html",
                            headers={"Cache-Control": "no-store"})

    @staticmethod
    def _html(text: str, *, private: bool = False) -> web.Response:
        headers = {"Cache-Control": "private, no-store" if private else "no-cache"}
        return web.Response(text=text, content_type="text/html", headers=headers)

    def _base(self, request: web.Request) -> str:
        return self.config.base_url or f"{request.scheme}://{request.host}"

    async def _guild_or_404(self, guild_id: int | None) -> Any:
        if guild_id is None or guild_id <= 0:
            raise web.HTTPNotFound()
        gs = await self.data.guild(guild_id)
        if gs is None:
            raise web.HTTPNotFound()
        return gs

    @staticmethod
    def _title(gs: Any) -> str:
        return getattr(gs, "web_name", "") or str(gs.guild_id)

    # ------------------------------------------------------------------ plain pages
    async def home(self, request: web.Request) -> web.Response:
        return self._html(pages.home(_lang(request)))

    async def healthz(self, request: web.Request) -> web.Response:
        return web.Response(text="ok\n")

    async def static(self, request: web.Request) -> web.Response:
        name = request.match_info["name"]
        path = STATIC / name
        if "/" in name or name.startswith(".") or path.suffix not in STATIC_TYPES or not path.is_file():
            raise web.HTTPNotFound()
        return web.Response(body=path.read_bytes(), content_type=STATIC_TYPES[path.suffix].split(";")[0],
                            charset="utf-8" if "charset" in STATIC_TYPES[path.suffix] else None,
                            headers={"Cache-Control": "public, max-age=86400"})

    async def favicon(self, request: web.Request) -> web.Response:
        return web.Response(body=(STATIC / "blank.png").read_bytes(), content_type="image/png",
                            headers={"Cache-Control": "public, max-age=604800"})

    async def font(self, request: web.Request) -> web.Response:
        return web.Response(body=_ui_font().read_bytes(), content_type="font/otf",
                            headers={"Cache-Control": "public, max-age=604800, immutable"})

    async def guild(self, request: web.Request) -> web.Response:
        gid = _id(request.match_info["guild"])
        gs = await self._guild_or_404(gid)
        assert gid is not None
        lang = _lang(request)
        board = request.query.get("board", "balance")
        board = board if board in pages.BOARDS else "balance"
        period = request.query.get("period", "all")
        period = period if period in pages.BOARD_PERIODS and board == "net" else "all"
        key = (gid, board, period, lang)
        hit = self._guild_pages.get(key)
        if hit is not None and time.monotonic() - hit[0] < GUILD_PAGE_TTL:
            return self._html(hit[1])
        lb = await self.store.leaderboard(gid, kind=board, period=period, page=1, page_size=20)
        tables = []
        for rec in await self.hub.tables():
            if rec.guild_id != gid:
                continue
            seats = ((rec.state or {}).get("bot_table") or {}).get("seats") or []
            from jxbot.seatnames import display_name

            names = [display_name(s.get("name"), lang, s.get("is_computer")) for s in seats if isinstance(s, dict)]
            tables.append({"table_id": rec.table_id, "names": names})
        recent = await self._recent(gid, lang)
        ladder = await self.data.ladder_boards(gid, lang)
        html = pages.guild(lang, gid, self._title(gs), board, period, lb, ladder, tables, recent)
        self._guild_pages[key] = (time.monotonic(), html)
        if len(self._guild_pages) > 2000:
            self._guild_pages.clear()
        return self._html(html)

    async def _recent(self, gid: int, lang: str) -> list[dict]:
        from jxbot.seatnames import display_name

        hands = await self.store.guild_hands(gid, 15)
        hidden = await self.store.private_hands([h["hand_id"] for h in hands])  # a private table's: not shown
        hands = [h for h in hands if h["hand_id"] not in hidden]
        for h in hands:
            w = h.get("winner_seat")
            if isinstance(w, int) and 0 <= w < 4:
                uid = (h["seats"] or [None] * 4)[w]
                h["winner_name"] = display_name(h["names"][w], lang, uid is None) or None
        return hands

    async def profile(self, request: web.Request) -> web.Response:
        gid = _id(request.match_info["guild"])
        uid = _id(request.match_info["user"])
        gs = await self._guild_or_404(gid)
        if gid is None or uid is None or uid <= 0:
            raise web.HTTPNotFound()
        player = await self.store.get_player(uid)
        if player is None:
            raise web.HTTPNotFound()
        stats = await self.store.player_stats(gid, uid)
        history = await self.store.balance_history(gid, uid, 300)
        if stats.hands == 0 and not history:  # never played nor held silver here: not this server's player
            raise web.HTTPNotFound()
        recent = await self.store.recent_hands(gid, uid, 15)
        hidden = await self.store.private_hands([h.hand_id for h in recent])  # a private table's: not shown
        recent = [h for h in recent if h.hand_id not in hidden]
        lang = _lang(request)
        ratings = await self.data.rating_graphs(gid, uid, lang)
        return self._html(pages.profile(lang, gid, self._title(gs), player.name, stats, recent, history, ratings))

    # ------------------------------------------------------------------ hands
    async def _stored(self, request: web.Request) -> Any:
        hand_id = request.match_info["hand"]
        if not links.HAND_RE.match(hand_id):
            raise web.HTTPNotFound()
        stored = await self.data.hand(hand_id)
        if stored is None:
            raise web.HTTPNotFound()
        return stored

    async def hand(self, request: web.Request) -> web.Response:
        stored = await self._stored(request)
        rp = stored.replay
        k = _int(request.query.get("step"), 0)
        seat = _int(request.query.get("seat"), 0)
        if k is None or seat is None or not 0 <= seat < 4:
            raise web.HTTPNotFound()
        return self._html(pages.replay(_lang(request), stored, rp.clamp(k), seat, base=self._base(request)))

    def _signed_seat(self, request: web.Request, hand_id: str) -> int:
        q = request.query
        seat = links.check(self.config.secret, hand_id, q.get("seat"), q.get("exp"), q.get("sig"))
        if seat is None:
            raise web.HTTPForbidden()
        return seat

    async def hand_private(self, request: web.Request) -> web.Response:
        stored = await self._stored(request)
        seat = self._signed_seat(request, stored.replay.hand_id)
        q = request.query
        k = _int(q.get("step"), 0)
        if k is None:
            raise web.HTTPNotFound()
        private = {"seat": seat, "exp": q["exp"], "sig": q["sig"]}
        return self._html(pages.replay(_lang(request), stored, stored.replay.clamp(k), seat, base=self._base(request),
                                       private=private, private_days=links.PRIVATE_DAYS), private=True)

    async def hand_picture(self, request: web.Request) -> web.Response:
        stored = await self._stored(request)
        rp = stored.replay
        m = request.match_info
        k, seat, kind = _int(m["step"]), _int(m["seat"]), m["kind"]
        if k is None or seat is None or not 0 <= seat < 4 or not 0 <= k < len(rp) or kind not in ("table", "hand", "result"):
            raise web.HTTPNotFound()
        lang = _lang(request)
        concealed = False
        if "sig" in request.query:
            concealed = self._signed_seat(request, rp.hand_id) == seat
            if not concealed:
                raise web.HTTPForbidden()
        if kind == "hand" and not concealed:
            raise web.HTTPForbidden()
        if kind == "result":
            result = rp.result_view()
            if k != len(rp) - 1 or result is None:
                raise web.HTTPNotFound()
            png = await self.pictures.png(("h", rp.hand_id, "result"), "result", lambda: result, lang)
        else:
            png = await self.pictures.png(("h", rp.hand_id, k, seat, concealed), kind,
                                          lambda: rp.view(k, seat, concealed=concealed), lang)
        cache = "private, no-store" if concealed else "public, max-age=86400"
        return web.Response(body=png, content_type="image/png", headers={"Cache-Control": cache})

    # ------------------------------------------------------------------ live tables
    async def _snap(self, request: web.Request) -> Any:
        tid = request.match_info["table"]
        if not links.HAND_RE.match(tid):
            raise web.HTTPNotFound()
        snap = await self.hub.snapshot(tid)
        if snap is None or await self.data.guild(snap.guild_id) is None:
            raise web.HTTPNotFound()
        return snap

    def _live(self, snap: Any, lang: str) -> dict:
        """The live state a viewer is sent, its picture the newest one drawn. A picture is drawn ahead, once
        per table and language, for the newest step only: when moves come faster than drawings, steps
        between are skipped, and no viewer ever waits for a drawing."""
        key = (snap.table_id, lang)
        want = (snap.hand_id, snap.step)
        due = time.monotonic() - self._live_drawn_at.get(key, 0.0) >= LIVE_PICTURE_EVERY
        if snap.running and self._live_ready.get(key) != want and key not in self._live_drawing \
                and (due or self._live_ready.get(key, ("",))[0] != snap.hand_id):
            self._live_drawn_at[key] = time.monotonic()
            view, step = snap.view, snap.step

            async def draw() -> None:
                try:
                    await self.pictures.png(("t", want[0], step), "table", lambda: view, lang)
                    self._live_ready[key] = want
                finally:
                    self._live_drawing.pop(key, None)

            task = asyncio.get_running_loop().create_task(draw(), name=f"live-picture-{snap.table_id}")
            task.add_done_callback(lambda t_: t_.cancelled() or t_.exception())
            self._live_drawing[key] = task
            if len(self._live_ready) > 10_000:
                self._live_ready.clear()
                self._live_drawn_at.clear()
        ready = self._live_ready.get(key)
        return pages.live_state(snap, lang, ready if ready is not None and ready[0] == snap.hand_id else None)

    async def table(self, request: web.Request) -> web.Response:
        snap = await self._snap(request)
        gs = await self.data.guild(snap.guild_id)
        lang = _lang(request)
        delay = snap.delay if snap.delay is not None else await self.hub.delay_at(snap.guild_id)
        return self._html(pages.table(lang, snap, delay, guild_title=self._title(gs),
                                      state=self._live(snap, lang)))

    async def table_json(self, request: web.Request) -> web.Response:
        snap = await self._snap(request)
        return web.json_response(self._live(snap, _lang(request)), headers={"Cache-Control": "no-store"})

    async def table_feed(self, request: web.Request) -> web.StreamResponse:
        """Server-sent events: the table's public state each time the shown step changes."""
        snap = await self._snap(request)
        lang = _lang(request)
        addr = request.remote or "-"
        headers = {"Content-Type": "text/event-stream", "Cache-Control": "no-store", "Content-Security-Policy": CSP,
                   "X-Content-Type-Options": "nosniff"}
        if request.method == "HEAD":  # the headers only, at once: a HEAD holds no feed (it has no body to wait on)
            return web.Response(headers=headers)
        if self.config.rate > 0 and self._feeds.get(addr, 0) >= SSE_PER_ADDRESS:  # rate 0: no limits at all
            return self._error(request, 429)
        self._feeds[addr] = self._feeds.get(addr, 0) + 1
        resp = web.StreamResponse(headers=headers)
        try:
            await resp.prepare(request)
            last, quiet, end = None, 0.0, time.monotonic() + SSE_SECONDS
            await resp.write(b"retry: 2000\n\n")
            while time.monotonic() < end:
                if snap is None:
                    await resp.write(b"event: end\ndata: {}\n\n")
                    break
                state = self._live(snap, lang)
                if state["version"] != last:
                    last = state["version"]
                    await resp.write(f"data: {json.dumps(state, ensure_ascii=False)}\n\n".encode())
                    quiet = 0.0
                elif quiet >= 15.0:
                    await resp.write(b": keep-alive\n\n")
                    quiet = 0.0
                await asyncio.sleep(self.config.poll)
                quiet += self.config.poll
                snap = await self.hub.snapshot(snap.table_id)
                if snap is not None and await self.data.guild(snap.guild_id) is None:
                    snap = None  # the server's pages were turned off (/admin web off): its feeds end too
        except (ConnectionResetError, asyncio.CancelledError):
            pass
        finally:
            self._feeds[addr] -= 1
            if not self._feeds[addr]:
                del self._feeds[addr]
        return resp

    async def table_picture(self, request: web.Request) -> web.Response:
        snap = await self._snap(request)
        m = request.match_info
        k = _int(m["step"])
        lang_ = _lang(request)
        # only the hand on the table, and only the step shown now or one shown before (from the cache):
        # never a step a spectator does not already see
        if k is None or not snap.running or snap.hand_id != m["hand"] or not 0 <= k <= snap.step:
            raise web.HTTPNotFound()
        key = ("t", snap.hand_id, k)
        png = self.pictures.cached(key, "table", lang_)
        if png is None:
            if k != snap.step:
                raise web.HTTPNotFound()
            view = snap.view
            png = await self.pictures.png(key, "table", lambda: view, lang_)
        return web.Response(body=png, content_type="image/png", headers={"Cache-Control": "public, max-age=3600"})


def make_app(store: Any, config: WebConfig | None = None) -> web.Application:
    return WebApp(store, config or WebConfig()).app
