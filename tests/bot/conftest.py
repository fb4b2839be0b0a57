"""A real :class:`jxbot.bot.JxBot` fed with raw Discord interaction payloads.

Nothing goes over the network: ``bot.http.request`` (REST) and the webhook adapter (interaction
responses, follow-ups) are replaced by :class:`FakeDiscord`, which answers like Discord and keeps what a
client would show: channel and DM messages (content, buttons, attachments, edit counts), ephemeral
replies per user, and the interaction callbacks. Interactions enter exactly where the gateway puts them:
``ConnectionState.parse_interaction_create(payload)``.
"""

from __future__ import annotations

import asyncio
import dataclasses
import itertools
import json
from dataclasses import dataclass, field
from typing import Any

import discord
import discord.webhook.async_ as wh
import pytest

from jxbot.bot import JxBot
from jxbot.config import Settings

APP_ID = 900000000000000001
BOT_USER = {"id": str(APP_ID), "username": "jxbot", "discriminator": "0", "avatar": None, "bot": True,
            "global_name": "jxbot"}
GUILD = 800000000000000001
CHANNEL = 810000000000000001
ALL_PERMS = discord.Permissions.all()
_ids = itertools.count(1000)


def snow() -> str:
    return str(700000000000000000 + next(_ids))


def user_payload(uid: int, name: str | None = None) -> dict:
    return {"id": str(uid), "username": name or f"user{uid % 1000}", "discriminator": "0", "avatar": None,
            "global_name": name or f"User {uid % 1000}"}


class _Resp:
    def __init__(self, status: int, reason: str) -> None:
        self.status = status
        self.reason = reason


def http_error(status: int, code: int, message: str) -> discord.HTTPException:
    cls = {403: discord.Forbidden, 404: discord.NotFound}.get(status, discord.HTTPException)
    return cls(_Resp(status, message), {"code": code, "message": message})  # type: ignore[arg-type]


@dataclass
class Msg:
    id: int
    channel_id: int
    content: str | None
    components: list
    attachments: list[str]
    flags: int = 0
    edits: int = 0
    deleted: bool = False
    interaction_user: int | None = None  # for ephemeral messages: who sees it
    allowed_mentions: dict | None = None  # as last sent (None: not given, Discord then pings everything)
    content_history: list = field(default_factory=list)  # every content this message has shown

    @property
    def buttons(self) -> list[dict]:
        out = []
        for row in self.components:
            for c in row.get("components", ()):
                if c.get("type") == 2:
                    out.append(c)
        return out

    def button(self, label: str | None = None, prefix: str | None = None) -> dict:
        for b in self.buttons:
            if label is not None and b.get("label") == label:
                return b
            if prefix is not None and b.get("custom_id", "").startswith(prefix):
                return b
        raise AssertionError(f"no button {label or prefix!r} in {[b.get('label') for b in self.buttons]}")

    def payload(self) -> dict:
        return {"id": str(self.id), "channel_id": str(self.channel_id), "type": 0, "content": self.content or "",
                "author": BOT_USER, "attachments": [
                    {"id": snow(), "filename": f, "size": 1, "url": f"https://cdn.test/{f}", "proxy_url": "x"}
                    for f in self.attachments],
                "embeds": [], "mentions": [], "mention_roles": [], "pinned": False, "mention_everyone": False,
                "tts": False, "timestamp": "2026-01-01T00:00:00+00:00", "edited_timestamp": None,
                "flags": self.flags, "components": self.components,
                # Discord: a message made by an interaction response names whose interaction made it
                **({"interaction_metadata": {"id": snow(), "type": 3, "user": user_payload(self.interaction_user),
                                             "authorizing_integration_owners": {}}}
                   if self.interaction_user is not None else {})}


@dataclass
class FakeDiscord:
    messages: dict[int, Msg] = field(default_factory=dict)
    callbacks: list[dict] = field(default_factory=list)  # {"id", "type", "data"}
    dm_closed: set[int] = field(default_factory=set)
    dm_channels: dict[int, int] = field(default_factory=dict)  # user -> dm channel
    users: dict[int, dict] = field(default_factory=dict)
    requests: list[tuple[str, str]] = field(default_factory=list)
    fail_next: dict[str, list[discord.HTTPException]] = field(default_factory=dict)  # method -> errors
    original: dict[str, int] = field(default_factory=dict)  # interaction token -> message id
    ephemeral_of: dict[str, int] = field(default_factory=dict)  # token -> user id
    synced: list = field(default_factory=list)  # command sync requests (method, path, json)
    dm_failures: dict[int, int] = field(default_factory=dict)  # user -> how many DM setups/sends fail with a 500

    # ---- what a client sees
    def channel(self, channel_id: int = CHANNEL) -> list[Msg]:
        return [m for m in self.messages.values() if m.channel_id == channel_id and not m.flags & 64
                and not m.deleted]

    def dms(self, user_id: int) -> list[Msg]:
        ch = self.dm_channels.get(user_id)
        return [m for m in self.messages.values() if m.channel_id == ch and not m.flags & 64] if ch else []

    def ephemerals(self, user_id: int) -> list[Msg]:
        return [m for m in self.messages.values() if m.flags & 64 and m.interaction_user == user_id]

    def last_ephemeral(self, user_id: int) -> str:
        eph = self.ephemerals(user_id)
        assert eph, "no ephemeral message"
        return eph[-1].content or ""

    def callback_types(self, interaction_id: str) -> list[int]:
        return [c["type"] for c in self.callbacks if c["id"] == interaction_id]

    # ---- message bodies
    @staticmethod
    def _body(payload: dict | None, form: Any, files: Any) -> tuple[dict, list[str]]:
        body = dict(payload or {})
        names: list[str] = []
        for part in form or ():
            if part.get("name") == "payload_json":
                body = json.loads(part["value"])
        for f in files or ():
            names.append(f.filename)
        return body, names

    def _new(self, channel_id: int, body: dict, names: list[str], *, user: int | None = None) -> Msg:
        m = Msg(int(snow()), channel_id, body.get("content"), body.get("components") or [], names,
                flags=int(body.get("flags") or 0), interaction_user=user,
                allowed_mentions=body.get("allowed_mentions"), content_history=[body.get("content")])
        self.messages[m.id] = m
        return m

    def _edit(self, m: Msg, body: dict, names: list[str]) -> Msg:
        if "content" in body:
            m.content = body["content"]
            m.content_history.append(body["content"])
        if "allowed_mentions" in body:
            m.allowed_mentions = body["allowed_mentions"]
        if "components" in body:
            m.components = body["components"] or []
        if "attachments" in body or names:
            m.attachments = names
        m.edits += 1
        return m

    def _maybe_fail(self, method: str) -> None:
        errs = self.fail_next.get(method)
        if errs:
            raise errs.pop(0)

    # ---- REST (bot.http.request)
    async def request(self, route: discord.http.Route, *, files: Any = None, form: Any = None, **kw: Any) -> Any:
        method, path = route.method, route.url.split("/api/v10", 1)[-1]
        self.requests.append((method, path))
        parts = path.strip("/").split("/")
        self._maybe_fail(method)
        if method == "POST" and self.dm_failures:
            to = (int(kw["json"]["recipient_id"]) if parts[:3] == ["users", "@me", "channels"] else
                  next((u for u, c in self.dm_channels.items() if parts[:2] == ["channels", str(c)]), None))
            if to is not None and self.dm_failures.get(to, 0) > 0:
                self.dm_failures[to] -= 1
                raise http_error(500, 0, "Internal Server Error")
        if parts[:2] == ["users", "@me"] and parts[2:] == ["channels"]:
            uid = int(kw["json"]["recipient_id"])
            ch = self.dm_channels.setdefault(uid, int(snow()))
            return {"id": str(ch), "type": 1, "recipients": [self.users.get(uid, user_payload(uid))],
                    "last_message_id": None}
        if parts[0] == "users" and len(parts) == 2:
            uid = int(parts[1])
            return self.users.get(uid, user_payload(uid))
        if parts[0] == "channels" and parts[2:3] == ["messages"]:
            ch = int(parts[1])
            body, names = self._body(kw.get("json"), form, files)
            if method == "POST":
                closed = [u for u, c in self.dm_channels.items() if c == ch and u in self.dm_closed]
                if closed:
                    raise http_error(403, 50007, "Cannot send messages to this user")
                return self._new(ch, body, names).payload()
            m = self.messages.get(int(parts[3]))
            if m is None or m.deleted:
                raise http_error(404, 10008, "Unknown Message")
            if method == "PATCH":
                return self._edit(m, body, names).payload()
            if method == "DELETE":
                m.deleted = True
                return None
            return m.payload()
        if parts[0] == "applications":
            self.synced.append((method, path, kw.get("json")))
            return [dict(c, id=snow(), application_id=str(APP_ID), version="1") for c in kw.get("json") or []]
        raise AssertionError(f"unexpected REST call {method} {path}")

    # ---- webhooks (interaction callbacks and follow-ups)
    async def webhook(self, route: Any, session: Any = None, *, payload: dict | None = None, multipart: Any = None,
                      files: Any = None, params: Any = None, **kw: Any) -> Any:
        method, path = route.method, route.url.split("/api/v10", 1)[-1]
        self.requests.append((method, path))
        parts = path.strip("/").split("/")
        body, names = self._body(payload, multipart, files)
        if parts[0] == "interactions":
            iid, token = parts[1], parts[2]
            typ = body.get("type")
            data = body.get("data") or {}
            self.callbacks.append({"id": iid, "type": typ, "data": data})
            inter: dict[str, Any] = {"id": iid, "type": 2, "response_message_loading": typ == 5,
                                     "response_message_ephemeral": bool(int(data.get("flags") or 0) & 64)}
            resource = None
            if typ == 4 or typ == 5:
                user = self.ephemeral_of.get(token)
                m = self._new(self._channel_of[token], {**data, "content": data.get("content")}, names, user=user)
                self.original[token] = m.id
                inter["response_message_id"] = str(m.id)
                if typ == 4:
                    resource = {"type": typ, "message": m.payload()}
            elif typ == 7:
                m = self.messages[self._message_of[token]]
                self._edit(m, data, names)
                resource = {"type": typ, "message": m.payload()}
            elif typ == 6:
                self.original.setdefault(token, self._message_of.get(token, 0))
            out: dict[str, Any] = {"interaction": inter}
            if resource:
                out["resource"] = resource
            return out
        if parts[0] == "webhooks":
            token = parts[2]
            if len(parts) == 3 and method == "POST":  # follow-up
                user = self.ephemeral_of.get(token)
                orig = self.messages.get(self.original.get(token, -1))
                if orig is not None and orig.content is None and not orig.edits and orig.interaction_user == user:
                    # the first follow-up after a "thinking" defer replaces the loading message
                    return self._edit(orig, body, names).payload()
                m = self._new(self._channel_of[token], body, names, user=user if int(body.get("flags") or 0) & 64
                              else None)
                return m.payload()
            mid = parts[4]
            m = self.messages[self.original[token]] if mid == "@original" else self.messages[int(mid)]
            if method == "PATCH":
                return self._edit(m, body, names).payload()
            return m.payload()
        raise AssertionError(f"unexpected webhook call {method} {path}")

    _channel_of: dict[str, int] = field(default_factory=dict)
    _message_of: dict[str, int] = field(default_factory=dict)


_PARKED = {"Event.wait", "FakeClock.sleep", "BaseView.__timeout_task_impl"}  # a runner's own timers: they wait for players or the clock


class Harness:
    """Builds raw payloads and pushes them through the bot like the gateway does."""

    def __init__(self, bot: JxBot, fake: FakeDiscord) -> None:
        self.bot = bot
        self.fake = fake

    def _base(self, user_id: int, *, locale: str, channel_id: int, guild: bool, perms: discord.Permissions,
              member_perms: discord.Permissions | None = None) -> dict:
        iid = snow()
        token = f"tok{iid}"
        p: dict[str, Any] = {
            "id": iid, "application_id": str(APP_ID), "token": token, "version": 1, "locale": locale,
            "attachment_size_limit": 26214400, "entitlements": [], "authorizing_integration_owners": {},
            "app_permissions": str(perms.value), "channel_id": str(channel_id),
        }
        user = self.fake.users.setdefault(user_id, user_payload(user_id))
        if guild:
            p["guild_id"] = str(GUILD)
            p["guild_locale"] = "zh-CN"
            p["context"] = 0
            p["channel"] = {"id": str(channel_id), "type": 0, "guild_id": str(GUILD), "name": "mahjong",
                            "position": 0, "permission_overwrites": [], "nsfw": False, "parent_id": None}
            p["member"] = {"user": user, "roles": [], "joined_at": "2025-01-01T00:00:00+00:00", "deaf": False,
                           "mute": False, "flags": 0,
                           "permissions": str((member_perms or discord.Permissions(0x400 | 0x800)).value)}
        else:
            p["context"] = 1
            p["channel"] = {"id": str(channel_id), "type": 1, "recipients": [user]}
            p["user"] = user
        self.fake._channel_of[token] = channel_id
        return p

    async def _dispatch(self, payload: dict) -> str:
        before = asyncio.all_tasks()
        self.bot._connection.parse_interaction_create(payload)  # what the gateway does on INTERACTION_CREATE
        await self.settle(before)
        return payload["id"]

    async def settle(self, before: set | None = None, timeout: float = 10.0) -> None:
        """Wait until the work started by the last input is done (table runners excepted: they
        wait for players), then until every coalesced edit has been applied."""
        me = asyncio.current_task()
        before = before if before is not None else asyncio.all_tasks()
        loop = asyncio.get_running_loop()
        end = loop.time() + timeout
        while True:
            for _ in range(5):
                await asyncio.sleep(0)
            for runner in self.runners():
                await asyncio.wait_for(runner.wait_idle(), timeout=max(0.01, end - loop.time()))
            new = [t for t in asyncio.all_tasks() - before
                   if t is not me and not t.done() and not t.get_name().startswith("table:")
                   and getattr(t.get_coro(), "__qualname__", "") not in _PARKED]
            if not new:
                break
            if loop.time() > end:
                raise AssertionError(f"still busy: {new}")
            await asyncio.wait(new, timeout=max(0.01, end - loop.time()), return_when=asyncio.FIRST_COMPLETED)
        await self.bot.coalescer.flush()

    def runners(self) -> list:
        cog = self.bot.get_cog("TablesCog")
        return [t.session.runner for t in cog.manager.tables.values()
                if t.session is not None and t.session.runner is not None and t.session.runner.running]

    def table(self):
        cog = self.bot.get_cog("TablesCog")
        return next(iter(cog.manager.tables.values()))

    async def advance(self, seconds: float) -> None:
        """Move the tables' fake clock (claim windows, turn limits) and let everything settle."""
        before = asyncio.all_tasks()
        await self.bot.get_cog("TablesCog").clock.advance(seconds)
        await self.settle(before)

    async def command(self, user_id: int, path: str, *, locale: str = "en-US", channel_id: int = CHANNEL,
                      perms: discord.Permissions = ALL_PERMS, member_perms: discord.Permissions | None = None,
                      resolved_users: list[int] = (), guild: bool = True, ephemeral_user: bool = True,
                      **options: Any) -> str:
        """Run ``/a b`` with options, e.g. ``command(1, "mahjong create", stake=5)``."""
        p = self._base(user_id, locale=locale, channel_id=channel_id, guild=guild, perms=perms,
                       member_perms=member_perms)
        self.fake.ephemeral_of[p["token"]] = user_id
        names = path.split()
        opts = []
        for k, v in options.items():
            typ = 4 if isinstance(v, int) and not isinstance(v, bool) else 10 if isinstance(v, float) else 3
            if isinstance(v, UserRef):
                typ, v = 6, str(v.id)
            opts.append({"name": k, "type": typ, "value": v})
        data: dict[str, Any] = {"id": snow(), "name": names[0], "type": 1}
        if len(names) == 2:
            data["options"] = [{"name": names[1], "type": 1, "options": opts}]
        else:
            data["options"] = opts
        users = [u.id for u in options.values() if isinstance(u, UserRef)] + list(resolved_users)
        if users:
            data["resolved"] = {"users": {str(u): self.fake.users.setdefault(u, user_payload(u)) for u in users}}
        p["data"] = data
        p["type"] = 2
        return await self._dispatch(p)

    async def click(self, user_id: int, msg: Msg, label: str | None = None, *, custom_id: str | None = None,
                    prefix: str | None = None, locale: str = "en-US") -> str:
        """Press a button of a stored message (channel, DM or ephemeral), as ``user_id``."""
        if custom_id is None:
            custom_id = msg.button(label=label, prefix=prefix)["custom_id"]
        in_dm = msg.channel_id in self.fake.dm_channels.values()
        p = self._base(user_id, locale=locale, channel_id=msg.channel_id, guild=not in_dm, perms=ALL_PERMS)
        self.fake.ephemeral_of[p["token"]] = user_id
        self.fake._message_of[p["token"]] = msg.id
        p["type"] = 3
        p["message"] = msg.payload()
        p["data"] = {"custom_id": custom_id, "component_type": 2}
        return await self._dispatch(p)


@dataclass(frozen=True)
class UserRef:
    id: int


class _NoSession:
    closed = False

    async def close(self) -> None:
        self.closed = True


@pytest.fixture
def fake() -> FakeDiscord:
    return FakeDiscord()


async def make_bot(fake: FakeDiscord, monkeypatch: pytest.MonkeyPatch, *, store: Any = None,
                   settings: Settings | None = None) -> JxBot:
    settings = settings or Settings.from_mapping({"JXBOT_EDIT_INTERVAL": "0", "JXBOT_NEXT_HAND_SECONDS": "0"})
    if settings.draw_processes is None:  # in-process bots draw in threads (tests/bot/test_drawing.py: processes)
        settings = dataclasses.replace(settings, draw_processes=0)
    bot = JxBot(settings, store=store, sync=False)
    monkeypatch.setattr(bot.http, "request", fake.request)
    monkeypatch.setattr(wh.async_context.get(), "request", fake.webhook)
    bot.http._HTTPClient__session = _NoSession()  # type: ignore[attr-defined]  # never used: requests are faked
    await bot._async_setup_hook()
    state = bot._connection
    state.user = discord.ClientUser(state=state, data=BOT_USER)  # type: ignore[arg-type]
    state.application_id = APP_ID
    await bot.setup_hook()
    return bot


async def restarted(fake: FakeDiscord, monkeypatch: pytest.MonkeyPatch, store: Any) -> tuple[JxBot, Harness, Any]:
    """A second bot on the same store (the process after a restart), with a fake clock and no computer delay,
    not resumed yet: ``await cog.resume_all()`` brings its tables back."""
    from jxbot.table import FakeClock

    bot = await make_bot(fake, monkeypatch, store=store)
    cog = bot.get_cog("TablesCog")
    cog.clock, cog.computer_delay = FakeClock(), 0.0
    return bot, Harness(bot, fake), cog


@pytest.fixture
async def store(tmp_path):
    from jxbot.store import Store

    st = await Store.open(str(tmp_path / "bot.sqlite3"))
    yield st
    await st.close()


@pytest.fixture
async def game(fake: FakeDiscord, monkeypatch: pytest.MonkeyPatch, store: Any):
    """A bot on the store with a fake clock, no computer delay and a fixed seed (a module may define its own)."""
    from jxbot.table import FakeClock

    bot = await make_bot(fake, monkeypatch, store=store)
    cog = bot.get_cog("TablesCog")
    cog.clock, cog.computer_delay, cog.seed = FakeClock(), 0.0, 7
    yield Harness(bot, fake)
    await _shutdown(bot)


@pytest.fixture
async def harness(fake: FakeDiscord, monkeypatch: pytest.MonkeyPatch, store: Any):
    bot = await make_bot(fake, monkeypatch, store=store)
    yield Harness(bot, fake)
    await _shutdown(bot)


async def _shutdown(bot: JxBot) -> None:
    cog = bot.get_cog("TablesCog")
    for table in list(cog.manager.tables.values()) if cog else []:
        if table.session is not None and table.session.runner is not None:
            await table.session.runner.pause()
    for task in list(bot.coalescer._tasks.values()):
        task.cancel()
