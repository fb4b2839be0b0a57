"""``DiscordDouble``: a local stand-in for Discord's REST API v10 and gateway, with the state a client
would show and faults on request. Start it in-process (``await double.start()``) or with
``python -m tests.e2e.double --port P``.
"""

from __future__ import annotations

import asyncio
import functools
import json
import logging
import secrets
import time
from collections.abc import Callable, Hashable, Iterable
from typing import Any, TypeVar

from aiohttp import web
from aiohttp.helpers import parse_mimetype
from aiohttp.multipart import content_disposition_filename, parse_content_disposition

from . import state as st
from .faults import Faults, GlobalLimit, RateLimiter, RateLimitRule, RouteFault, counted
from .gateway import INTENT_DIRECT_MESSAGES, INTENT_GUILD_MESSAGES, INTENT_GUILDS, Gateway
from .state import Channel, Guild, Interaction, Member, Message, Overwrite, Role, User

log = logging.getLogger("double")
T = TypeVar("T")

API_PREFIX = "/api/v10"
MAX_FILE = 10 * 1024 * 1024
TOKEN_TTL = 15 * 60
FAST_MULTIPART_MAX = 2 * MAX_FILE  # larger bodies take aiohttp's streaming reader (its limits and answers)
POLL = 0.25  # a waiter re-checks its predicate at least this often (time-based predicates, unnotified state)
ARRIVED: Any = web.RequestKey("arrived", float) if hasattr(web, "RequestKey") else "arrived"


class ApiError(Exception):
    def __init__(self, status: int, code: int, message: str, errors: dict[str, Any] | None = None) -> None:
        super().__init__(message)
        self.status, self.code, self.message, self.errors = status, code, message, errors

    def response(self) -> web.Response:
        body: dict[str, Any] = {"message": self.message, "code": self.code}
        if self.errors:
            body["errors"] = self.errors
        return jresp(body, status=self.status)


def jresp(data: Any, status: int = 200, headers: dict[str, str] | None = None) -> web.Response:
    """JSON with exactly ``Content-Type: application/json`` (discord.py compares the header verbatim)."""
    return web.Response(body=json.dumps(data, separators=(",", ":")).encode(), status=status,
                        headers={**(headers or {}), "Content-Type": "application/json"})


def unknown(what: str, code: int) -> ApiError:
    return ApiError(404, code, f"Unknown {what}")


def split_multipart(raw: bytes, boundary: str) -> list[tuple[dict[str, str], bytes]]:
    """The parts of a multipart body: (headers by lower-case name, raw bytes), as aiohttp's reader reads
    them (``part.read(decode=False)``). Raises ValueError if it is not well formed."""
    pieces = (b"\r\n" + raw).split(b"\r\n--" + boundary.encode())
    out: list[tuple[dict[str, str], bytes]] = []
    for piece in pieces[1:]:
        if piece.startswith(b"--"):  # the close delimiter
            return out
        head, sep, body = piece.partition(b"\r\n\r\n")
        lines = head.decode("utf-8", "surrogateescape").split("\r\n")
        if not sep or lines[0].strip(" \t"):  # (only transport padding may follow a delimiter)
            raise ValueError("malformed multipart part")
        headers: dict[str, str] = {}
        for line in lines[1:]:
            key, colon, value = line.partition(":")
            if not colon:
                raise ValueError(f"malformed multipart header {line!r}")
            headers[key.strip().lower()] = value.strip()
        out.append((headers, body))
    raise ValueError("multipart body without its close delimiter")


@functools.lru_cache(maxsize=512)
def _disposition(header: str | None) -> tuple[str | None, str | None]:
    """A multipart part's name and filename, as aiohttp's ``part.name`` / ``part.filename`` read them; each
    of those parses the header again, and the bot sends the same few headers all the time."""
    _, params = parse_content_disposition(header)
    return content_disposition_filename(params, "name"), content_disposition_filename(params, "filename")


def _wake(fut: asyncio.Future[None]) -> None:
    if not fut.done():
        fut.set_result(None)


class DiscordDouble:
    """The fake Discord. World building: ``add_guild``, ``add_text_channel``, ``add_user``.
    Faults: ``close_dms``, ``deny_permissions``, ``rate_limit``, ``slow``, ``fail``, ``drop_gateway``.
    Players (``tests.e2e.players``) create interactions with ``create_interaction``."""

    def __init__(self, *, token: str | None = None, ack_timeout: float = 3.0) -> None:
        self.token = token or f"double.{secrets.token_urlsafe(24)}"
        self.application_id = st.snowflake()
        self.bot = User(self.application_id, "jxbot", locale="en-US", bot=True)
        self.owner = User(st.snowflake(), "owner")
        self.users: dict[int, User] = {self.bot.id: self.bot, self.owner.id: self.owner}
        self.guilds: dict[int, Guild] = {}
        self.channels: dict[int, Channel] = {}
        self.dm_by_user: dict[int, Channel] = {}
        self.messages: dict[int, Message] = {}
        self.global_commands: dict[tuple[str, int], dict[str, Any]] = {}
        self.guild_commands: dict[int, dict[tuple[str, int], dict[str, Any]]] = {}
        self.command_syncs = 0
        self.interactions: dict[int, Interaction] = {}
        self.by_token: dict[str, Interaction] = {}
        self.ack_timeout = ack_timeout
        self.faults = Faults()
        self.requests: list[tuple[float, str, str, int]] = []  # (time, method, template, status)
        self.request_params: list[dict[str, str]] = []  # beside each of ``requests``: its route's parameters
        self.errors: list[str] = []  # unexpected server-side failures (bugs in the double or bad payloads)
        self.rejections: list[tuple[str, str, int, int, str]] = []  # (method, template, status, code, message)
        self.limiter = RateLimiter()
        self.global_limit: GlobalLimit | None = None  # enforce_global_limit(): Discord's 50 requests/s
        self.token_ttl = TOKEN_TTL  # an interaction token's life (s); tests shorten it
        # Discord's invalid requests (401, 403, and 429 but for a shared resource's): 10,000 in 10 minutes
        # ban the bot's IP for an hour; an expired interaction token retried is one each time
        self.invalid_requests: list[tuple[float, str, str, int]] = []
        self.gateway = Gateway(self)
        self.shard_count = 1  # what GET /gateway/bot recommends; add_guild(shard=i) picks an id on shard i
        # waiters by key (None: unkeyed, woken by every change); see notify()
        self._waiters: dict[Hashable, set[asyncio.Future[None]]] = {}
        self._runner: web.AppRunner | None = None
        self.port: int | None = None
        self.host = "127.0.0.1"

    # ------------------------------------------------------------------ lifecycle
    @property
    def api_base(self) -> str:
        return f"http://{self.host}:{self.port}{API_PREFIX}"

    @property
    def gateway_url(self) -> str:
        return f"ws://{self.host}:{self.port}/"

    def env(self) -> dict[str, str]:
        """Environment for a bot process pointed at this double."""
        return {"DISCORD_TOKEN": self.token, "DISCORD_API_BASE": self.api_base}

    def app(self) -> web.Application:
        app = web.Application(middlewares=[self._middleware], client_max_size=MAX_FILE * 3)
        self._routes(app)
        return app

    async def start(self, port: int = 0) -> DiscordDouble:
        self._runner = web.AppRunner(self.app(), access_log=None)
        await self._runner.setup()
        site = web.TCPSite(self._runner, self.host, port)
        await site.start()
        server = site._server
        assert server is not None and server.sockets  # type: ignore[attr-defined]
        self.port = server.sockets[0].getsockname()[1]  # type: ignore[attr-defined]
        return self

    async def stop(self) -> None:
        await self.gateway.close_all()
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    async def __aenter__(self) -> DiscordDouble:
        return await self.start()

    async def __aexit__(self, *exc: object) -> None:
        await self.stop()

    # ------------------------------------------------------------------ waiting for state
    def notify(self, *keys: Hashable) -> None:
        """A state change: wake every unkeyed waiter and the waiters of any of ``keys`` (without keys:
        every waiter). Keys: ``("ch", channel_id)`` a message of that channel, ``("user", user_id)`` a
        message that user alone sees (a DM or an ephemeral), ``("i", interaction_id)`` an interaction's
        answer. Keyed waiting keeps the load driver's cost linear in the number of players: a change
        wakes the few players it concerns, not all of them."""
        if keys:
            groups = [self._waiters.pop(k, None) for k in (None, *keys)]
        else:
            groups = list(self._waiters.values())
            self._waiters.clear()
        for g in groups:
            for fut in g or ():
                if not fut.done():
                    fut.set_result(None)

    def notify_message(self, msg: Message) -> None:
        """``msg`` was posted, edited or deleted."""
        ch = self.channels.get(msg.channel_id)
        if msg.ephemeral_for is not None:
            self.notify(("ch", msg.channel_id), ("user", msg.ephemeral_for))
        elif ch is not None and ch.recipient is not None:
            self.notify(("ch", msg.channel_id), ("user", ch.recipient.id))
        else:
            self.notify(("ch", msg.channel_id))

    async def wait_for(self, predicate: Callable[[], T | None], timeout: float = 5.0, what: str = "condition", *,
                       keys: Iterable[Hashable] | None = None) -> T:
        """Re-check ``predicate`` on every state change until it returns something truthy. With ``keys``
        (see :meth:`notify`), only changes under those keys (or notified without keys) wake it early: the
        predicate must read only what they cover. Every waiter re-checks at least every 0.25 s."""
        deadline = time.monotonic() + timeout
        loop = asyncio.get_running_loop()
        ks: tuple[Hashable, ...] = (None,) if keys is None else tuple(keys)
        while True:
            result = predicate()
            if result:
                return result
            left = deadline - time.monotonic()
            if left <= 0:
                raise TimeoutError(f"timed out after {timeout}s waiting for {what}")
            fut: asyncio.Future[None] = loop.create_future()
            for k in ks:
                self._waiters.setdefault(k, set()).add(fut)
            timer = loop.call_later(min(left, POLL), _wake, fut)
            try:
                await fut
            finally:
                timer.cancel()
                for k in ks:
                    if (g := self._waiters.get(k)) is not None:
                        g.discard(fut)
                        if not g:
                            del self._waiters[k]

    async def wait_ready(self, timeout: float = 15.0) -> None:
        """The bot identified on the gateway."""
        await self.wait_for(lambda: self.gateway.identifies > 0 and self.gateway.live_sessions(), timeout, "IDENTIFY")

    async def wait_commands(self, timeout: float = 15.0) -> None:
        await self.wait_for(lambda: self.command_syncs > 0, timeout, "application command sync")

    # ------------------------------------------------------------------ world building
    def add_guild(self, name: str = "jxbot test", locale: str = "zh-CN", bot_permissions: int = st.BOT_ROLE_DEFAULT,
                  everyone_permissions: int = st.EVERYONE_DEFAULT, shard: int | None = None) -> Guild:
        gid = st.snowflake()
        if shard is not None:  # an id Discord routes to ``shard`` of ``shard_count`` ((id >> 22) % count)
            gid = ((gid >> 22) - (gid >> 22) % self.shard_count + shard) << 22 | (gid & 0x3FFFFF)
        g = Guild(gid, name, owner_id=self.owner.id, locale=locale)
        g.roles[gid] = Role(gid, "@everyone", everyone_permissions, 0)
        bot_role = Role(st.snowflake(), self.bot.username, bot_permissions, 1, managed=True)
        g.roles[bot_role.id] = bot_role
        g.members[self.owner.id] = Member(self.owner)
        g.members[self.bot.id] = Member(self.bot, [bot_role.id])
        self.guilds[gid] = g
        if self.gateway.live_sessions():
            self._dispatch_guild_create(g)
        return g

    def _dispatch_guild_create(self, g: Guild) -> None:
        for s in self.gateway.live_sessions():
            if s.carries(g.id):
                s.dispatch("GUILD_CREATE", g.create_json(None if s.wants(1 << 1) else [self.bot.id]))

    def add_text_channel(self, guild: Guild, name: str = "mahjong") -> Channel:
        ch = Channel(st.snowflake(), 0, name=name, guild_id=guild.id, position=len(guild.channels))
        guild.channels[ch.id] = ch
        self.channels[ch.id] = ch
        self.gateway.dispatch("CHANNEL_CREATE", ch.to_json(), INTENT_GUILDS)
        return ch

    def add_user(self, name: str, *, guild: Guild | None = None, locale: str = "zh-CN", dms_open: bool = True) -> User:
        u = User(st.snowflake(), name, locale=locale, dms_open=dms_open)
        self.users[u.id] = u
        for g in [guild] if guild else list(self.guilds.values()):
            g.members[u.id] = Member(u)
            data = {**g.members[u.id].to_json(), "guild_id": str(g.id)}
            self.gateway.dispatch("GUILD_MEMBER_ADD", data, 1 << 1)
        return u

    def dm_channel(self, user: User) -> Channel:
        ch = self.dm_by_user.get(user.id)
        if ch is None:
            ch = Channel(st.snowflake(), 1, recipient=user)
            self.dm_by_user[user.id] = ch
            self.channels[ch.id] = ch
        return ch

    def guild_of(self, channel: Channel) -> Guild | None:
        return self.guilds.get(channel.guild_id) if channel.guild_id else None

    # ------------------------------------------------------------------ faults
    def close_dms(self, user: User, closed: bool = True) -> None:
        """Sending this user a DM fails with 50007 (the channel can still be opened, as on Discord)."""
        user.dms_open = not closed

    def deny_permissions(self, channel: Channel, perms: int = st.SEND_MESSAGES, user_id: int | None = None) -> None:
        """Add a member overwrite denying ``perms`` to the bot (default) on ``channel``; the bot hears a
        CHANNEL_UPDATE, and REST calls needing them answer 403 / 50013."""
        uid = self.bot.id if user_id is None else user_id
        for o in channel.overwrites:
            if o.type == 1 and o.id == uid:
                o.deny |= perms
                o.allow &= ~perms
                break
        else:
            channel.overwrites.append(Overwrite(uid, 1, 0, perms))
        self.gateway.dispatch("CHANNEL_UPDATE", channel.to_json(), INTENT_GUILDS)
        self.notify()

    def restore_permissions(self, channel: Channel, user_id: int | None = None) -> None:
        uid = self.bot.id if user_id is None else user_id
        channel.overwrites = [o for o in channel.overwrites if not (o.type == 1 and o.id == uid)]
        self.gateway.dispatch("CHANNEL_UPDATE", channel.to_json(), INTENT_GUILDS)
        self.notify()

    def rate_limit(self, pattern: str, times: int | None = 1, retry_after: float = 0.05,
                   is_global: bool = False) -> RouteFault:
        """The next ``times`` requests matching ``pattern`` get 429 with ``retry_after``."""
        return self.faults.add(RouteFault(pattern, "429", times, retry_after=retry_after, is_global=is_global))

    def enforce_rate_limits(self, pattern: str = "* /channels/{channel_id}/messages*", limit: int = 5,
                            per: float = 5.0) -> RateLimitRule:
        """Discord-like buckets (default: 5 per 5 s per channel for message sends and edits), with the
        X-RateLimit headers a client uses to pace itself; exceeding them is a 429."""
        rule = RateLimitRule(pattern, limit, per)
        self.limiter.rules.append(rule)
        return rule

    def enforce_global_limit(self, per_second: float = 50.0) -> GlobalLimit:
        """Discord's global limit: at most ``per_second`` counted requests a second (every route but the
        interaction callback and the interaction token's webhook routes); the rest are 429 with
        ``"global": true`` and ``X-RateLimit-Scope: global``."""
        self.global_limit = GlobalLimit(per_second)
        return self.global_limit

    def slow(self, pattern: str, delay: float, times: int | None = None) -> RouteFault:
        return self.faults.add(RouteFault(pattern, "slow", times, delay=delay))

    def fail(self, pattern: str, status: int = 500, code: int = 0, message: str = "Internal Server Error",
             times: int | None = 1) -> RouteFault:
        return self.faults.add(RouteFault(pattern, "error", times, status=status, code=code, message=message))

    async def drop_gateway(self, code: int | None = None) -> int:
        """Cut the bot's websocket(s): ``code=None`` drops TCP with no close frame; a code sends a close
        frame. The session stays resumable: events meanwhile are replayed on RESUME."""
        return await self.gateway.drop(code)

    # ------------------------------------------------------------------ what the bot would see / do
    def visible_channel_messages(self, channel: Channel, viewer: int | None) -> list[Message]:
        return channel.visible_messages(viewer)

    def commands_for(self, guild: Guild | None) -> dict[str, dict[str, Any]]:
        """Chat-input commands a user sees in ``guild`` (guild commands shadow global ones)."""
        out = {name: c for (name, t), c in self.global_commands.items() if t == 1}
        if guild is not None:
            out.update({name: c for (name, t), c in self.guild_commands.get(guild.id, {}).items() if t == 1})
        return out

    def app_permissions(self, channel: Channel) -> int:
        g = self.guild_of(channel)
        if g is None:
            return st.EVERYONE_DEFAULT & ~st.USE_APPLICATION_COMMANDS | st.SEND_MESSAGES
        return g.permissions_in(channel, self.bot.id)

    def create_interaction(self, itype: int, user: User, channel: Channel, data: dict[str, Any],
                           message: Message | None = None) -> Interaction:
        """Dispatch INTERACTION_CREATE as Discord does when ``user`` uses a command or a component."""
        guild = self.guild_of(channel)
        iid = st.snowflake()
        token = f"aW50ZXJhY3Rpb246{iid}:{secrets.token_urlsafe(48)}"
        payload: dict[str, Any] = {
            "id": str(iid), "application_id": str(self.application_id), "type": itype, "token": token,
            "version": 1, "locale": user.locale, "app_permissions": str(self.app_permissions(channel)),
            "entitlements": [], "entitlement_sku_ids": [], "attachment_size_limit": MAX_FILE,
            "channel_id": str(channel.id), "channel": channel.to_json(), "data": data,
        }
        if guild is not None:
            member = guild.members[user.id]
            perms = guild.permissions_in(channel, user.id)
            payload.update({
                "guild_id": str(guild.id), "guild_locale": guild.locale,
                "guild": {"id": str(guild.id), "locale": guild.locale, "features": []},
                "member": {**member.to_json(), "permissions": str(perms)},
                "context": 0, "authorizing_integration_owners": {"0": str(guild.id)},
            })
        else:
            payload.update({"user": user.to_json(), "context": 1,
                            "authorizing_integration_owners": {"0": "0", "1": str(user.id)}})
        if message is not None:
            payload["message"] = message.to_json()
        inter = Interaction(iid, token, itype, user, channel, guild, payload, message=message)
        self.interactions[iid] = inter
        self.by_token[token] = inter

        def sent() -> None:
            if inter.sent_at is None:
                inter.sent_at = time.monotonic()

        self.gateway.dispatch("INTERACTION_CREATE", payload, 0, sent)
        self.notify(("i", iid))
        return inter

    def latencies(self) -> list[float]:
        """Click → callback seconds of every answered interaction."""
        return [i.latency for i in self.interactions.values() if i.latency is not None]

    def shown_latencies(self, interactions: Any = None) -> list[float]:
        """Click → the answer in front of the user (the response, or for a deferred one the edit or
        follow-up that carried its result), in seconds."""
        items = self.interactions.values() if interactions is None else interactions
        return [i.shown_latency for i in items if i.shown_latency is not None]

    def latency_stats(self) -> dict[str, float | int]:
        """Click-to-response figures for the load test: answered/unanswered counts, p50/p99/max in ms."""
        lat = sorted(self.latencies())

        def q(f: float) -> float:
            return round(lat[min(len(lat) - 1, int(f * len(lat)))] * 1000, 1) if lat else 0.0
        return {"interactions": len(self.interactions), "answered": len(lat),
                "unanswered": len(self.interactions) - len(lat), "p50_ms": q(0.50), "p99_ms": q(0.99),
                "max_ms": round(lat[-1] * 1000, 1) if lat else 0.0}

    def public_messages(self) -> list[Message]:
        """Every message anyone in a guild channel can see (not DMs, not ephemerals): for leak checks."""
        return [m for ch in self.channels.values() if ch.type != 1 for m in ch.messages
                if m.ephemeral_for is None and not m.deleted]

    # ------------------------------------------------------------------ HTTP plumbing
    @web.middleware
    async def _middleware(self, request: web.Request, handler: Callable[[web.Request], Any]) -> web.StreamResponse:
        arrived = time.monotonic()
        request[ARRIVED] = arrived
        path = request.path
        if not path.startswith(API_PREFIX):
            return await handler(request)
        resource = request.match_info.route.resource
        template = resource.canonical[len(API_PREFIX):] if resource is not None else path[len(API_PREFIX):]
        method = request.method
        status = 500
        scope = ""
        try:
            if (f := self.faults.take(method, template, "slow")) is not None:
                await asyncio.sleep(f.delay)
            if (f := self.faults.take(method, template, "429")) is not None:
                self.notify()
                status = 429
                body = {"message": "You are being rate limited.", "retry_after": f.retry_after, "global": f.is_global}
                scope = "global" if f.is_global else "user"
                headers = {"Via": "1.1 google", "Retry-After": str(max(1, round(f.retry_after))),
                           "X-RateLimit-Scope": scope}
                if f.is_global:
                    headers["X-RateLimit-Global"] = "true"
                if not f.is_global:
                    headers.update({"X-RateLimit-Limit": "5", "X-RateLimit-Remaining": "0",
                                    "X-RateLimit-Reset-After": str(f.retry_after),
                                    "X-RateLimit-Reset": str(time.time() + f.retry_after),
                                    "X-RateLimit-Bucket": f"double-{abs(hash(template)) % 10**8}"})
                return jresp(body, status=429, headers=headers)
            if self.global_limit is not None and counted(template):
                after = self.global_limit.check(arrived)
                if after > 0:
                    status, scope = 429, "global"
                    body = {"message": "You are being rate limited.", "retry_after": round(after, 3), "global": True}
                    return jresp(body, 429, {"Via": "1.1 google", "X-RateLimit-Global": "true",
                                             "X-RateLimit-Scope": "global", "Retry-After": str(max(1, round(after)))})
            rl_headers: dict[str, str] = {}
            major = next((request.match_info[k] for k in ("channel_id", "guild_id", "token") if k in request.match_info), "")
            if (rl := self.limiter.check(method, template, major, arrived)) is not None:
                allowed, rl_headers, after = rl
                if not allowed:
                    status, scope = 429, rl_headers.get("X-RateLimit-Scope", "user")
                    body = {"message": "You are being rate limited.", "retry_after": round(after, 3), "global": False}
                    return jresp(body, 429, {"X-RateLimit-Scope": "user", **rl_headers, "Via": "1.1 google",
                                             "Retry-After": str(max(1, round(after)))})
            if (f := self.faults.take(method, template, "error")) is not None:
                self.notify()
                status = f.status
                return jresp({"message": f.message, "code": f.code}, status=f.status)
            needs_auth = not (template.startswith("/webhooks/") or template.startswith("/interactions/"))
            if needs_auth and request.headers.get("Authorization") != f"Bot {self.token}":
                status = 401
                return jresp({"message": "401: Unauthorized", "code": 0}, status=401)
            try:
                resp = await handler(request)
            except ApiError as e:
                self.rejections.append((method, template, e.status, e.code, e.message))
                resp = e.response()
            except web.HTTPException:
                raise
            except Exception as exc:  # a bug in the double or a payload it cannot read: visible to tests
                log.exception("double failed on %s %s", method, path)
                self.errors.append(f"{method} {template}: {exc!r}")
                resp = jresp({"message": "double error", "code": 0}, status=500)
            status = resp.status
            if rl_headers:
                resp.headers.update(rl_headers)
            return resp
        finally:
            self.requests.append((arrived, method, template, status))  # (state changes notify on their own)
            self.request_params.append(dict(request.match_info))
            if status in (401, 403) or (status == 429 and scope != "shared"):
                self.invalid_requests.append((arrived, method, template, status))

    def request_count(self, pattern: str, status: int | None = None) -> int:
        f = RouteFault(pattern, "count")
        return sum(1 for _, m, t, s in self.requests if f.matches(m, t) and (status is None or s == status))

    async def _read_body(self, request: web.Request) -> tuple[Any, list[tuple[str, str, bytes, str | None]]]:
        """JSON body, or multipart with ``payload_json`` and ``files[n]``: (payload, [(field, filename, bytes, type)])."""
        ctype = request.headers.get("Content-Type", "")  # (request.content_type's header parsing is slow)
        files: list[tuple[str, str, bytes, str | None]] = []
        if ctype.startswith("multipart/"):
            payload: dict[str, Any] = {}
            size = request.content_length
            if size is not None and size <= FAST_MULTIPART_MAX:  # one read, split in C (aiohttp's reader: 8 KiB steps)
                for headers, data in split_multipart(await request.read(), parse_mimetype(ctype).parameters["boundary"]):
                    if headers.get("content-type", "").startswith("multipart/"):
                        continue  # a nested multipart, skipped as below
                    name, filename = _disposition(headers.get("content-disposition"))
                    if name == "payload_json":
                        payload = json.loads(data.decode())
                    elif filename:
                        if len(data) > MAX_FILE:
                            raise ApiError(413, 40005, "Request entity too large")
                        files.append((name or "", filename, data, headers.get("content-type")))
                return payload, files
            reader = await request.multipart()
            while (part := await reader.next()) is not None:
                if not hasattr(part, "read"):
                    continue
                name, filename = _disposition(part.headers.get("Content-Disposition"))  # type: ignore[union-attr]
                name = name or ""
                data = await part.read(decode=False)  # type: ignore[union-attr]
                if name == "payload_json":
                    payload = json.loads(bytes(data).decode())
                elif filename:
                    if len(data) > MAX_FILE:
                        raise ApiError(413, 40005, "Request entity too large")
                    files.append((name, filename, bytes(data), part.headers.get("Content-Type")))  # type: ignore[union-attr]
            return payload, files
        if request.can_read_body:
            raw = await request.read()
            return (json.loads(raw) if raw else {}), files
        return {}, files

    # ------------------------------------------------------------------ messages
    def _validate(self, payload: dict[str, Any], files: list[Any], *, creating: bool) -> None:
        errors: dict[str, Any] = {}
        content = payload.get("content")
        if content is not None and len(content) > 2000:
            errors["content"] = {"_errors": [{"code": "BASE_TYPE_MAX_LENGTH", "message": "Must be 2000 or fewer in length."}]}
        comps = payload.get("components") or []
        v2 = bool((payload.get("flags") or 0) & (1 << 15))
        if not v2 and len(comps) > 5:
            errors["components"] = {"_errors": [{"code": "BASE_TYPE_MAX_LENGTH", "message": "Must be 5 or fewer in length."}]}
        seen: set[str] = set()

        def walk(items: list[dict[str, Any]], path: str) -> None:
            for i, c in enumerate(items):
                p = f"{path}.{i}"
                if c.get("type") == 1 and not v2 and len(c.get("components", [])) > 5:
                    errors[p] = {"_errors": [{"code": "BASE_TYPE_MAX_LENGTH", "message": "Must be 5 or fewer in length."}]}
                cid = c.get("custom_id")
                if cid is not None:
                    if len(cid) > 100:
                        errors[f"{p}.custom_id"] = {"_errors": [{"code": "BASE_TYPE_MAX_LENGTH", "message": "Must be 100 or fewer in length."}]}
                    if cid in seen:
                        errors[f"{p}.custom_id"] = {"_errors": [{"code": "COMPONENT_CUSTOM_ID_DUPLICATED", "message": "Component custom id cannot be duplicated"}]}
                    seen.add(cid)
                if c.get("type") == 2 and c.get("style") == 5 and (cid is not None or not str(c.get("url") or "").startswith(("http://", "https://"))):
                    errors[f"{p}.url"] = {"_errors": [{"code": "BUTTON_COMPONENT_INVALID_URL", "message": "A link button needs a url and no custom_id"}]}
                if c.get("type") == 2 and c.get("style") != 5 and c.get("url") is not None:
                    errors[f"{p}.url"] = {"_errors": [{"code": "BUTTON_COMPONENT_URL_NOT_ALLOWED", "message": "Only link buttons carry a url"}]}
                if c.get("type") == 2 and len(c.get("label") or "") > 80:
                    errors[f"{p}.label"] = {"_errors": [{"code": "BASE_TYPE_MAX_LENGTH", "message": "Must be 80 or fewer in length."}]}
                if isinstance(c.get("components"), list):
                    walk(c["components"], f"{p}.components")

        walk(comps, "components")
        if errors:
            raise ApiError(400, 50035, "Invalid Form Body", errors)
        if creating and not (content or payload.get("embeds") or files or comps or payload.get("sticker_ids")):
            raise ApiError(400, 50006, "Cannot send an empty message")

    def _attachments(self, channel_id: int, payload: dict[str, Any], files: list[tuple[str, str, bytes, str | None]],
                     existing: list[st.Attachment]) -> list[st.Attachment]:
        by_field = {name: (fn, data, ct) for name, fn, data, ct in files}
        keep = {a.id: a for a in existing}
        described = payload.get("attachments")
        out: list[st.Attachment] = []
        used: set[str] = set()
        if described is not None:
            for a in described:
                aid = str(a.get("id"))
                field = f"files[{aid}]"
                if field in by_field:
                    fn, data, ct = by_field[field]
                    used.add(field)
                    out.append(self._new_attachment(channel_id, a.get("filename") or fn, data, ct, a.get("description")))
                elif aid.isdigit() and int(aid) in keep:
                    out.append(keep[int(aid)])
        else:
            out = list(existing)
        for name, fn, data, ct in files:
            if name not in used:
                out.append(self._new_attachment(channel_id, fn, data, ct, None))
        return out

    def _new_attachment(self, channel_id: int, filename: str, data: bytes, ctype: str | None, desc: str | None) -> st.Attachment:
        aid = st.snowflake()
        if ctype in (None, "application/octet-stream") and st.png_size(data):
            ctype = "image/png"
        url = f"http://{self.host}:{self.port}/attachments/{channel_id}/{aid}/{filename}"
        return st.Attachment(aid, filename, data, ctype, url, desc)

    def post_message(self, channel: Channel, payload: dict[str, Any], files: list[Any], *, author: User | None = None,
                     ephemeral_for: int | None = None, webhook: bool = False,
                     interaction: Interaction | None = None, flags_extra: int = 0) -> Message:
        self._validate(payload, files, creating=not (flags_extra & st.LOADING))
        msg = Message(st.snowflake(), channel.id, author or self.bot, guild_id=channel.guild_id)
        msg.content = payload.get("content") or ""
        msg.embeds = payload.get("embeds") or []
        msg.components = payload.get("components") or []
        msg.flags = (int(payload.get("flags") or 0) & ~st.EPHEMERAL) | flags_extra
        msg.allowed_mentions = payload.get("allowed_mentions")
        if ephemeral_for is not None:
            msg.flags |= st.EPHEMERAL
            msg.ephemeral_for = ephemeral_for
        msg.attachments = self._attachments(channel.id, payload, files, [])
        if webhook:
            msg.webhook_id = self.application_id
        if interaction is not None:
            msg.type = 20 if interaction.type == 2 else 19 if interaction.type == 3 else 0
            meta: dict[str, Any] = {"id": str(interaction.id), "type": interaction.type, "user": interaction.user.to_json(),
                                    "authorizing_integration_owners": interaction.payload["authorizing_integration_owners"]}
            if interaction.type == 2:
                meta["name"] = interaction.payload["data"].get("name")
                meta["command_type"] = 1
            if interaction.message is not None:
                meta["interacted_message_id"] = str(interaction.message.id)
            msg.interaction_metadata = meta
        channel.messages.append(msg)
        self.messages[msg.id] = msg
        if ephemeral_for is None:
            self._message_event("MESSAGE_CREATE", channel, msg.to_json)
        self.notify_message(msg)
        return msg

    def edit_message(self, msg: Message, payload: dict[str, Any], files: list[Any]) -> Message:
        self._validate(payload, files, creating=False)
        if "content" in payload:
            msg.content = payload["content"] or ""
        if "embeds" in payload:
            msg.embeds = payload["embeds"] or []
        if "components" in payload:
            msg.components = payload["components"] or []
        if "attachments" in payload or files:
            msg.attachments = self._attachments(msg.channel_id, payload, files, msg.attachments)
        if payload.get("flags") is not None:
            keep = msg.flags & st.EPHEMERAL
            msg.flags = (int(payload["flags"]) & ~st.EPHEMERAL) | keep
        msg.flags &= ~st.LOADING
        msg.edit_count += 1
        msg.edit_times.append(time.monotonic())
        msg.edited_timestamp = st.iso_now()
        if msg.ephemeral_for is None:
            ch = self.channels[msg.channel_id]
            self._message_event("MESSAGE_UPDATE", ch, msg.to_json)
        self.notify_message(msg)
        return msg

    def delete_message(self, msg: Message) -> None:
        msg.deleted = True
        if msg.ephemeral_for is None:
            ch = self.channels[msg.channel_id]
            data = {"id": str(msg.id), "channel_id": str(ch.id)}
            if ch.guild_id:
                data["guild_id"] = str(ch.guild_id)
            self._message_event("MESSAGE_DELETE", ch, lambda: data)
        self.notify_message(msg)

    def _message_event(self, event: str, channel: Channel, data: Callable[[], dict[str, Any]]) -> None:
        """Dispatch a MESSAGE_* event to the sessions with the intent (its JSON is built only if one has it)."""
        intent = INTENT_DIRECT_MESSAGES if channel.type == 1 else INTENT_GUILD_MESSAGES
        if any(s.wants(intent) for s in self.gateway.live_sessions()):
            self.gateway.dispatch(event, data(), intent)

    # ------------------------------------------------------------------ routes
    def _routes(self, app: web.Application) -> None:
        a = API_PREFIX
        r = app.router
        r.add_get("/", self.gateway.handle)
        r.add_get("/attachments/{channel_id}/{attachment_id}/{filename}", self.h_attachment)
        r.add_get(a + "/gateway", self.h_gateway)
        r.add_get(a + "/gateway/bot", self.h_gateway_bot)
        r.add_get(a + "/users/@me", self.h_me)
        r.add_get(a + "/oauth2/applications/@me", self.h_app)
        r.add_get(a + "/applications/@me", self.h_app)
        r.add_get(a + "/users/{user_id}", self.h_user)
        r.add_post(a + "/users/@me/channels", self.h_create_dm)
        r.add_get(a + "/applications/{app_id}/commands", self.h_get_commands)
        r.add_put(a + "/applications/{app_id}/commands", self.h_put_commands)
        r.add_post(a + "/applications/{app_id}/commands", self.h_post_command)
        r.add_get(a + "/applications/{app_id}/guilds/{guild_id}/commands", self.h_get_commands)
        r.add_put(a + "/applications/{app_id}/guilds/{guild_id}/commands", self.h_put_commands)
        r.add_post(a + "/applications/{app_id}/guilds/{guild_id}/commands", self.h_post_command)
        r.add_get(a + "/channels/{channel_id}", self.h_get_channel)
        r.add_get(a + "/channels/{channel_id}/messages", self.h_list_messages)
        r.add_post(a + "/channels/{channel_id}/messages", self.h_post_message)
        r.add_get(a + "/channels/{channel_id}/messages/{message_id}", self.h_get_message)
        r.add_patch(a + "/channels/{channel_id}/messages/{message_id}", self.h_patch_message)
        r.add_delete(a + "/channels/{channel_id}/messages/{message_id}", self.h_delete_message)
        r.add_post(a + "/channels/{channel_id}/typing", self.h_typing)
        r.add_put(a + "/channels/{channel_id}/messages/{message_id}/reactions/{emoji}/@me", self.h_react)
        r.add_post(a + "/channels/{channel_id}/threads", self.h_create_thread)
        r.add_post(a + "/channels/{channel_id}/messages/{message_id}/threads", self.h_create_thread)
        r.add_put(a + "/channels/{channel_id}/thread-members/{user_id}", self.h_thread_member)
        r.add_get(a + "/guilds/{guild_id}", self.h_get_guild)
        r.add_get(a + "/guilds/{guild_id}/channels", self.h_guild_channels)
        r.add_get(a + "/guilds/{guild_id}/roles", self.h_guild_roles)
        r.add_get(a + "/guilds/{guild_id}/members", self.h_guild_members)
        r.add_get(a + "/guilds/{guild_id}/members/{user_id}", self.h_guild_member)
        r.add_post(a + "/interactions/{interaction_id}/{token}/callback", self.h_callback)
        r.add_post(a + "/webhooks/{app_id}/{token}", self.h_followup)
        r.add_get(a + "/webhooks/{app_id}/{token}/messages/{message_id}", self.h_webhook_message)
        r.add_patch(a + "/webhooks/{app_id}/{token}/messages/{message_id}", self.h_webhook_message)
        r.add_delete(a + "/webhooks/{app_id}/{token}/messages/{message_id}", self.h_webhook_message)
        r.add_get("/_double/state", self.h_debug_state)
        r.add_post("/_double/faults", self.h_debug_fault)

    # --- helpers
    def _channel(self, request: web.Request) -> Channel:
        ch = self.channels.get(int(request.match_info["channel_id"]))
        if ch is None:
            raise unknown("Channel", 10003)
        return ch

    def _require(self, channel: Channel, perms: int) -> None:
        g = self.guild_of(channel)
        if g is None:
            return
        have = g.permissions_in(channel, self.bot.id)
        if not have & st.VIEW_CHANNEL:
            raise ApiError(403, 50001, "Missing Access")
        if have & perms != perms:
            raise ApiError(403, 50013, "Missing Permissions")

    def _message(self, channel: Channel, request: web.Request) -> Message:
        msg = self.messages.get(int(request.match_info["message_id"]))
        if msg is None or msg.deleted or msg.channel_id != channel.id or msg.ephemeral_for is not None:
            raise unknown("Message", 10008)
        return msg

    # --- misc
    async def h_attachment(self, request: web.Request) -> web.StreamResponse:
        ch = self.channels.get(int(request.match_info["channel_id"]))
        aid = int(request.match_info["attachment_id"])
        for m in ch.messages if ch else []:
            for att in m.attachments:
                if att.id == aid:
                    return web.Response(body=att.data, content_type=att.content_type or "application/octet-stream")
        raise web.HTTPNotFound()

    async def h_gateway(self, request: web.Request) -> web.Response:
        return jresp({"url": f"ws://{request.host}/"})

    async def h_gateway_bot(self, request: web.Request) -> web.Response:
        return jresp({"url": f"ws://{request.host}/", "shards": self.shard_count, "session_start_limit": {
            "total": 1000, "remaining": 999, "reset_after": 86400000, "max_concurrency": 1}})

    async def h_me(self, request: web.Request) -> web.Response:
        return jresp({**self.bot.to_json(), "verified": True, "mfa_enabled": False, "locale": "en-US"})

    async def h_app(self, request: web.Request) -> web.Response:
        return jresp({
            "id": str(self.application_id), "name": self.bot.username, "icon": None, "description": "",
            "rpc_origins": [], "bot_public": True, "bot_require_code_grant": False, "owner": self.owner.to_json(),
            "team": None, "verify_key": "0" * 64, "flags": 0, "summary": "", "tags": [],
            "bot": self.bot.to_json(), "approximate_guild_count": len(self.guilds),
            "interactions_endpoint_url": None, "redirect_uris": [], "install_params": None,
            "integration_types_config": {"0": {}}, "guild_id": None, "primary_sku_id": None, "slug": None,
            "cover_image": None, "custom_install_url": None, "role_connections_verification_url": None,
            "terms_of_service_url": None, "privacy_policy_url": None, "approximate_user_install_count": 0,
        })

    async def h_user(self, request: web.Request) -> web.Response:
        u = self.users.get(int(request.match_info["user_id"]))
        if u is None:
            raise unknown("User", 10013)
        return jresp(u.to_json())

    async def h_create_dm(self, request: web.Request) -> web.Response:
        body, _ = await self._read_body(request)
        u = self.users.get(int(body.get("recipient_id", 0)))
        if u is None:
            raise unknown("User", 10013)
        return jresp(self.dm_channel(u).to_json())

    # --- application commands
    def _command_table(self, request: web.Request) -> dict[tuple[str, int], dict[str, Any]]:
        if int(request.match_info["app_id"]) != self.application_id:
            raise unknown("Application", 10002)
        gid = request.match_info.get("guild_id")
        if gid is None:
            return self.global_commands
        if int(gid) not in self.guilds:
            raise unknown("Guild", 10004)
        return self.guild_commands.setdefault(int(gid), {})

    def _store_command(self, table: dict[tuple[str, int], dict[str, Any]], c: dict[str, Any], gid: str | None,
                       old: dict[tuple[str, int], dict[str, Any]]) -> dict[str, Any]:
        ctype = int(c.get("type", 1))
        name = c["name"]
        if ctype == 1 and not (1 <= len(c.get("description", "")) <= 100):
            raise ApiError(400, 50035, "Invalid Form Body", {"description": {"_errors": [{"code": "BASE_TYPE_BAD_LENGTH", "message": "Must be between 1 and 100 in length."}]}})
        prev = old.get((name, ctype))
        cmd = {
            "id": prev["id"] if prev else str(st.snowflake()), "application_id": str(self.application_id),
            "version": str(st.snowflake()), "type": ctype, "name": name,
            "name_localizations": c.get("name_localizations"), "description": c.get("description", ""),
            "description_localizations": c.get("description_localizations"), "options": c.get("options", []),
            "default_member_permissions": c.get("default_member_permissions"), "dm_permission": c.get("dm_permission", True),
            "nsfw": c.get("nsfw", False), "contexts": c.get("contexts"), "integration_types": c.get("integration_types", [0]),
        }
        if gid is not None:
            cmd["guild_id"] = gid
        table[(name, ctype)] = cmd
        return cmd

    async def h_get_commands(self, request: web.Request) -> web.Response:
        return jresp(list(self._command_table(request).values()))

    async def h_put_commands(self, request: web.Request) -> web.Response:
        table = self._command_table(request)
        body, _ = await self._read_body(request)
        old = dict(table)
        table.clear()
        out = [self._store_command(table, c, request.match_info.get("guild_id"), old) for c in body]
        self.command_syncs += 1
        return jresp(out)

    async def h_post_command(self, request: web.Request) -> web.Response:
        table = self._command_table(request)
        body, _ = await self._read_body(request)
        cmd = self._store_command(table, body, request.match_info.get("guild_id"), dict(table))
        self.command_syncs += 1
        return jresp(cmd, status=201)

    # --- channels & messages
    async def h_get_channel(self, request: web.Request) -> web.Response:
        ch = self._channel(request)
        if ch.type != 1:
            self._require(ch, 0)
        return jresp(ch.to_json())

    async def h_list_messages(self, request: web.Request) -> web.Response:
        ch = self._channel(request)
        self._require(ch, st.READ_MESSAGE_HISTORY)
        msgs = ch.visible_messages(None)
        q = request.query
        if "before" in q:
            msgs = [m for m in msgs if m.id < int(q["before"])]
        if "after" in q:
            msgs = [m for m in msgs if m.id > int(q["after"])]
        limit = min(100, int(q.get("limit", 50)))
        msgs = sorted(msgs, key=lambda m: m.id, reverse="after" not in q)[:limit]
        if "after" in q:
            msgs.reverse()
        return jresp([m.to_json() for m in msgs])

    async def h_post_message(self, request: web.Request) -> web.Response:
        ch = self._channel(request)
        payload, files = await self._read_body(request)
        if ch.type == 1:
            assert ch.recipient is not None
            if not ch.recipient.dms_open:
                raise ApiError(403, 50007, "Cannot send messages to this user")
        else:
            self._require(ch, st.SEND_MESSAGES | (st.ATTACH_FILES if files else 0))
        msg = self.post_message(ch, payload, files)
        return jresp(msg.to_json())

    async def h_get_message(self, request: web.Request) -> web.Response:
        ch = self._channel(request)
        self._require(ch, st.READ_MESSAGE_HISTORY)
        return jresp(self._message(ch, request).to_json())

    async def h_patch_message(self, request: web.Request) -> web.Response:
        ch = self._channel(request)
        self._require(ch, 0)
        msg = self._message(ch, request)
        if msg.author.id != self.bot.id:
            raise ApiError(403, 50005, "Cannot edit a message authored by another user")
        payload, files = await self._read_body(request)
        out = self.edit_message(msg, payload, files)
        # REST edits alone (they count against the bot's rate limit; interaction responses do not)
        out.rest_edits.append((time.monotonic(), tuple(b.get("custom_id") or "" for b in out.buttons())))
        return jresp(out.to_json())

    async def h_delete_message(self, request: web.Request) -> web.Response:
        ch = self._channel(request)
        msg = self._message(ch, request)
        if msg.author.id != self.bot.id:
            self._require(ch, st.MANAGE_MESSAGES)
        self.delete_message(msg)
        return web.Response(status=204)

    async def h_typing(self, request: web.Request) -> web.Response:
        ch = self._channel(request)
        self._require(ch, st.SEND_MESSAGES)
        return web.Response(status=204)

    async def h_react(self, request: web.Request) -> web.Response:
        ch = self._channel(request)
        self._require(ch, st.ADD_REACTIONS | st.READ_MESSAGE_HISTORY)
        self._message(ch, request)
        return web.Response(status=204)

    async def h_create_thread(self, request: web.Request) -> web.Response:
        parent = self._channel(request)
        body, _ = await self._read_body(request)
        on_message = "message_id" in request.match_info
        ttype = 11 if on_message else int(body.get("type", 12))
        self._require(parent, st.CREATE_PUBLIC_THREADS if ttype == 11 else st.SEND_MESSAGES)
        th = Channel(st.snowflake(), ttype, name=body.get("name", "thread"), guild_id=parent.guild_id,
                     parent_id=parent.id, owner_id=self.bot.id)
        g = self.guild_of(parent)
        assert g is not None
        g.channels[th.id] = th
        self.channels[th.id] = th
        self.gateway.dispatch("THREAD_CREATE", {**th.to_json(), "newly_created": True}, INTENT_GUILDS)
        self.notify()
        return jresp(th.to_json(), status=201)

    async def h_thread_member(self, request: web.Request) -> web.Response:
        self._channel(request)
        return web.Response(status=204)

    # --- guilds
    def _guild(self, request: web.Request) -> Guild:
        g = self.guilds.get(int(request.match_info["guild_id"]))
        if g is None or self.bot.id not in g.members:
            raise unknown("Guild", 10004)
        return g

    async def h_get_guild(self, request: web.Request) -> web.Response:
        g = self._guild(request)
        return jresp({**g.to_json(), "approximate_member_count": len(g.members)})

    async def h_guild_channels(self, request: web.Request) -> web.Response:
        return jresp([c.to_json() for c in self._guild(request).channels.values() if c.type == 0])

    async def h_guild_roles(self, request: web.Request) -> web.Response:
        return jresp([r.to_json() for r in self._guild(request).roles.values()])

    async def h_guild_members(self, request: web.Request) -> web.Response:
        g = self._guild(request)
        limit = int(request.query.get("limit", 1))
        return jresp([m.to_json() for m in list(g.members.values())[:limit]])

    async def h_guild_member(self, request: web.Request) -> web.Response:
        g = self._guild(request)
        m = g.members.get(int(request.match_info["user_id"]))
        if m is None:
            raise unknown("Member", 10007)
        return jresp(m.to_json())

    # --- interactions
    def _interaction_by_token(self, request: web.Request) -> Interaction:
        inter = self.by_token.get(request.match_info["token"])
        if inter is None or int(request.match_info["app_id"]) != self.application_id:
            raise unknown("Webhook", 10015)
        if time.monotonic() - inter.created_at > self.token_ttl:  # Discord: 15 minutes, then refused
            inter.expired_uses += 1
            raise ApiError(401, 50027, "Invalid Webhook Token")
        return inter

    async def h_callback(self, request: web.Request) -> web.Response:
        inter = self.interactions.get(int(request.match_info["interaction_id"]))
        arrived = request[ARRIVED]
        if inter is None or inter.token != request.match_info["token"]:
            raise unknown("interaction", 10062)
        if inter.response_type is not None:
            raise ApiError(400, 40060, "Interaction has already been acknowledged.")
        if arrived - inter.created_at > self.ack_timeout:
            inter.error = f"callback after {arrived - inter.created_at:.2f}s"
            self.notify(("i", inter.id))
            raise unknown("interaction", 10062)
        body, files = await self._read_body(request)
        rtype = int(body.get("type", 0))
        data = body.get("data") or {}
        ephemeral = bool(int(data.get("flags") or 0) & st.EPHEMERAL)
        is_component = inter.type == 3 or (inter.type == 5 and inter.message is not None)
        if rtype in (6, 7) and not is_component:
            raise ApiError(400, 40043, "Interaction response type is not valid for this interaction")
        if rtype == 9 and inter.type == 5:
            raise ApiError(400, 40043, "Cannot respond to a modal submit with a modal")
        resource_msg: Message | None = None
        viewer = inter.user.id if ephemeral else None
        if rtype == 4:
            resource_msg = self.post_message(inter.channel, data, files, ephemeral_for=viewer, webhook=True,
                                             interaction=inter)
            inter.original = resource_msg
        elif rtype == 5:
            resource_msg = self.post_message(inter.channel, {"flags": data.get("flags")}, [], ephemeral_for=viewer,
                                             webhook=True, interaction=inter, flags_extra=st.LOADING)
            inter.original = resource_msg
        elif rtype == 6:
            inter.original = inter.message
        elif rtype == 7:
            assert inter.message is not None
            resource_msg = self.edit_message(inter.message, data, files)
            inter.original = resource_msg
        elif rtype == 9:
            for key in ("custom_id", "title", "components"):
                if key not in data:
                    raise ApiError(400, 50035, "Invalid Form Body", {key: {"_errors": [{"code": "BASE_TYPE_REQUIRED", "message": "This field is required"}]}})
            inter.modal = data
        else:
            raise ApiError(400, 50035, "Invalid Form Body", {"type": {"_errors": [{"code": "BASE_TYPE_CHOICES", "message": "Value must be one of {4, 5, 6, 7, 9}."}]}})
        inter.response_type = rtype
        inter.acked_at = arrived
        if rtype in (4, 7, 9):
            inter.shown_at = arrived  # the answer itself is what the user sees
        self.notify(("i", inter.id))
        if request.query.get("with_response") not in ("1", "true", "True"):
            return web.Response(status=204)
        out: dict[str, Any] = {"interaction": {
            "id": str(inter.id), "type": inter.type, "activity_instance_id": None,
            "response_message_id": str(resource_msg.id) if resource_msg else None,
            "response_message_loading": rtype == 5, "response_message_ephemeral": ephemeral}}
        if resource_msg is not None:
            out["resource"] = {"type": rtype, "message": resource_msg.to_json()}
        elif rtype in (6, 9):
            out["resource"] = {"type": rtype}
        return jresp(out)

    async def h_followup(self, request: web.Request) -> web.Response:
        inter = self._interaction_by_token(request)
        if inter.response_type is None:
            raise unknown("Webhook", 10015)
        payload, files = await self._read_body(request)
        if inter.shown_at is None:
            inter.shown_at = request[ARRIVED]
        orig = inter.original
        if inter.response_type == 5 and orig is not None and orig.flags & st.LOADING:
            msg = self.edit_message(orig, payload, files)  # the first followup fills the "thinking" message
        else:
            eph = inter.user.id if int(payload.get("flags") or 0) & st.EPHEMERAL else None
            msg = self.post_message(inter.channel, payload, files, ephemeral_for=eph, webhook=True, interaction=inter)
            inter.followups.append(msg)
        self.notify(("i", inter.id))
        if request.query.get("wait") in ("1", "true", "True"):
            return jresp(msg.to_json())
        return web.Response(status=204)

    async def h_webhook_message(self, request: web.Request) -> web.Response:
        inter = self._interaction_by_token(request)
        mid = request.match_info["message_id"]
        msg: Message | None
        if mid == "@original":
            msg = inter.original
        else:
            candidates = [m for m in [inter.original, *inter.followups] if m is not None]
            msg = next((m for m in candidates if m.id == int(mid)), None)
        if msg is None or msg.deleted:
            raise unknown("Message", 10008)
        if request.method == "GET":
            return jresp(msg.to_json())
        if request.method == "DELETE":
            self.delete_message(msg)
            self.notify(("i", inter.id))
            return web.Response(status=204)
        payload, files = await self._read_body(request)
        if inter.shown_at is None:
            inter.shown_at = request[ARRIVED]  # a deferred press: its result edits the original
        out = self.edit_message(msg, payload, files)
        self.notify(("i", inter.id))
        return jresp(out.to_json())

    # --- out-of-process control (python -m tests.e2e.double)
    async def h_debug_state(self, request: web.Request) -> web.Response:
        lat = sorted(self.latencies())
        return jresp({
            "api_base": self.api_base, "token": self.token, "identifies": self.gateway.identifies,
            "resumes": self.gateway.resumes, "command_syncs": self.command_syncs,
            "interactions": len(self.interactions), "answered": len(lat), "errors": self.errors,
            "guilds": [{"id": str(g.id), "name": g.name, "channels": {str(c.id): c.name for c in g.channels.values()},
                        "members": {str(u): m.user.username for u, m in g.members.items()}} for g in self.guilds.values()],
            "channels": {str(c.id): [m.to_json() for m in c.messages if not m.deleted] for c in self.channels.values()},
        })

    async def h_debug_fault(self, request: web.Request) -> web.Response:
        body = await request.json()
        kind = body.get("kind")
        if kind == "drop_gateway":
            return jresp({"dropped": await self.drop_gateway(body.get("code"))})
        if kind in ("429", "slow", "error"):
            f = self.faults.add(RouteFault(body["pattern"], kind, body.get("times", 1), retry_after=body.get("retry_after", 0.05),
                                           delay=body.get("delay", 0.0), status=body.get("status", 500),
                                           code=body.get("code", 0), message=body.get("message", "error")))
            return jresp({"pattern": f.pattern, "kind": f.kind})
        if kind == "close_dms":
            self.close_dms(self.users[int(body["user_id"])], body.get("closed", True))
            return jresp({"ok": True})
        if kind == "deny_permissions":
            self.deny_permissions(self.channels[int(body["channel_id"])], int(body.get("perms", st.SEND_MESSAGES)))
            return jresp({"ok": True})
        raise web.HTTPBadRequest(text="unknown fault kind")
