"""The gateway half of the double: HELLO, IDENTIFY → READY (+ GUILD_CREATE), heartbeats, RESUME.

A *connection* is one websocket (its own zlib-stream context and writer task); a *session* is what
IDENTIFY creates and RESUME re-attaches: its sequence numbers and the buffer of dispatched events, so
events sent while the socket was down are replayed on RESUME.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import secrets
import time
import zlib
from collections import deque
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from aiohttp import WSMsgType, web

if TYPE_CHECKING:
    from .server import DiscordDouble

log = logging.getLogger("double.gateway")

DISPATCH, HEARTBEAT, IDENTIFY, PRESENCE, VOICE, RESUME, RECONNECT, REQUEST_MEMBERS, INVALID_SESSION, HELLO, ACK = (
    0, 1, 2, 3, 4, 6, 7, 8, 9, 10, 11)

INTENT_GUILDS = 1 << 0
INTENT_GUILD_MEMBERS = 1 << 1
INTENT_GUILD_MESSAGES = 1 << 9
INTENT_DIRECT_MESSAGES = 1 << 12


class Connection:
    """One websocket: serialises and (optionally) zlib-stream compresses every frame, in order."""

    def __init__(self, request: web.Request, ws: web.WebSocketResponse, compress: str | None) -> None:
        self.request = request
        self.ws = ws
        self.compress = compress
        self._z = zlib.compressobj() if compress == "zlib-stream" else None
        self.queue: asyncio.Queue[tuple[str, Callable[[], None] | None] | None] = asyncio.Queue()
        self.session: Session | None = None
        self.writer = asyncio.get_running_loop().create_task(self._write())
        self.closed = False

    def send(self, payload: dict[str, Any] | str, on_sent: Callable[[], None] | None = None) -> None:
        if self.closed:
            return
        text = payload if isinstance(payload, str) else json.dumps(payload, separators=(",", ":"))
        self.queue.put_nowait((text, on_sent))

    async def _write(self) -> None:
        while True:
            item = await self.queue.get()
            if item is None:
                return
            text, on_sent = item
            try:
                if self._z is not None:
                    data = self._z.compress(text.encode()) + self._z.flush(zlib.Z_SYNC_FLUSH)
                    await self.ws.send_bytes(data)
                else:
                    await self.ws.send_str(text)
            except (ConnectionResetError, RuntimeError) as exc:  # the socket went away
                log.debug("gateway write failed: %s", exc)
                self.closed = True
                return
            except Exception:
                log.exception("gateway write failed")
                self.closed = True
                return
            if on_sent is not None:
                on_sent()

    async def close(self, code: int | None) -> None:
        """``code=None`` drops the TCP connection without a close frame (a network failure)."""
        self.closed = True
        self.queue.put_nowait(None)
        if code is None:
            transport = self.request.transport
            if transport is not None:
                transport.abort()
        else:
            with contextlib.suppress(Exception):
                await self.ws.close(code=code, message=b"double")


class Session:
    def __init__(self, user_id: int, intents: int, shard: list[int] | None) -> None:
        self.id = secrets.token_hex(16)
        self.user_id = user_id
        self.intents = intents
        self.shard = shard
        self.seq = 0
        self.buffer: deque[tuple[int, str, Callable[[], None] | None]] = deque(maxlen=5000)
        self.conn: Connection | None = None
        self.disconnected_at: float | None = None
        self.invalid = False

    def dispatch(self, event: str, data: dict[str, Any], on_sent: Callable[[], None] | None = None) -> None:
        self.seq += 1
        text = json.dumps({"op": DISPATCH, "t": event, "s": self.seq, "d": data}, separators=(",", ":"))
        self.buffer.append((self.seq, text, on_sent))
        if self.conn is not None and not self.conn.closed:
            self.conn.send(text, on_sent)

    def wants(self, intent: int) -> bool:
        return bool(self.intents & intent)

    def carries(self, guild_id: int | None) -> bool:
        """Discord's routing: a guild's events go to shard ``(guild_id >> 22) % n``; DMs (no guild) to
        shard 0. An unsharded session gets everything."""
        if self.shard is None:
            return True
        shard_id, count = int(self.shard[0]), int(self.shard[1])
        if guild_id is None:
            return shard_id == 0
        return (int(guild_id) >> 22) % count == shard_id


GUILD_EVENTS_BY_ID = ("GUILD_CREATE", "GUILD_UPDATE", "GUILD_DELETE")


def event_guild(event: str, data: dict[str, Any]) -> int | None:
    """The guild an event belongs to (None: a DM or a global event, which shard 0 carries)."""
    gid = data.get("id") if event in GUILD_EVENTS_BY_ID else data.get("guild_id")
    return int(gid) if gid else None


class Gateway:
    def __init__(self, double: DiscordDouble) -> None:
        self.double = double
        self.sessions: dict[str, Session] = {}
        self.connections: list[Connection] = []
        self.identifies = 0
        self.resumes = 0
        self.compressions: list[str | None] = []  # per connection, what the client asked for and got
        self.heartbeat_interval_ms = 41250
        self.ready_event = asyncio.Event()

    # --- what the double dispatches -----------------------------------------------------------
    def live_sessions(self) -> list[Session]:
        return [s for s in self.sessions.values() if not s.invalid]

    def dispatch(self, event: str, data: dict[str, Any], intent: int = 0,
                 on_sent: Callable[[], None] | None = None) -> None:
        gid = event_guild(event, data)
        for s in self.live_sessions():
            if (intent == 0 or s.wants(intent)) and s.carries(gid):
                s.dispatch(event, data, on_sent)

    async def drop(self, code: int | None = None) -> int:
        conns = [c for c in self.connections if not c.closed]
        for c in conns:
            await c.close(code)
        return len(conns)

    def send_reconnect(self) -> None:
        for c in self.connections:
            c.send({"op": RECONNECT, "d": None})

    async def close_all(self) -> None:
        for c in list(self.connections):
            await c.close(1001)

    # --- the websocket ------------------------------------------------------------------------
    async def handle(self, request: web.Request) -> web.StreamResponse:
        ws = web.WebSocketResponse(autoping=True, max_msg_size=0)
        await ws.prepare(request)
        compress = request.query.get("compress")
        if compress not in (None, "zlib-stream"):
            compress = None  # e.g. zstd-stream without a zstd library here: plain text frames (clients accept them)
        if request.query.get("encoding", "json") != "json":
            await ws.close(code=4002, message=b"only json encoding")
            return ws
        conn = Connection(request, ws, compress)
        self.compressions.append(compress)
        self.connections.append(conn)
        conn.send({"op": HELLO, "d": {"heartbeat_interval": self.heartbeat_interval_ms}})
        try:
            async for msg in ws:
                if msg.type != WSMsgType.TEXT:
                    continue
                try:
                    payload = json.loads(msg.data)
                except ValueError:
                    await conn.close(4002)
                    break
                await self._on_message(conn, payload)
        finally:
            conn.closed = True
            conn.queue.put_nowait(None)
            if conn in self.connections:
                self.connections.remove(conn)
            if conn.session is not None and conn.session.conn is conn:
                conn.session.conn = None
                conn.session.disconnected_at = time.monotonic()
        return ws

    async def _on_message(self, conn: Connection, payload: dict[str, Any]) -> None:
        op, d = payload.get("op"), payload.get("d")
        if op == HEARTBEAT:
            conn.send({"op": ACK})
        elif op == IDENTIFY:
            await self._identify(conn, d or {})
        elif op == RESUME:
            await self._resume(conn, d or {})
        elif op == REQUEST_MEMBERS:
            self._request_members(conn, d or {})
        elif op in (PRESENCE, VOICE):
            pass
        else:
            await conn.close(4001)  # unknown opcode

    async def _identify(self, conn: Connection, d: dict[str, Any]) -> None:
        if conn.session is not None:
            await conn.close(4005)  # already authenticated
            return
        if d.get("token") != self.double.token:
            await conn.close(4004)  # authentication failed
            return
        shard = d.get("shard")
        if shard is not None and (not isinstance(shard, list) or len(shard) != 2
                                  or not 0 <= int(shard[0]) < int(shard[1])):
            await conn.close(4010)  # invalid shard
            return
        # a fresh IDENTIFY (e.g. the bot process restarted): the detached sessions of that shard are gone
        # (another process's shards keep theirs)
        for sid, s in list(self.sessions.items()):
            if s.conn is None and s.shard == shard:
                s.invalid = True
                del self.sessions[sid]
        dbl = self.double
        session = Session(dbl.bot.id, int(d.get("intents", 0)), shard)
        self.sessions[session.id] = session
        session.conn = conn
        conn.session = session
        self.identifies += 1
        host = conn.request.host
        guilds = [g for g in dbl.guilds.values() if dbl.bot.id in g.members and session.carries(g.id)]
        ready: dict[str, Any] = {
            "v": 10, "user": {**dbl.bot.to_json(), "verified": True, "mfa_enabled": False, "flags": 0},
            "guilds": [{"id": str(g.id), "unavailable": True} for g in guilds],
            "session_id": session.id, "resume_gateway_url": f"ws://{host}/",
            "application": {"id": str(dbl.application_id), "flags": 0},
            "private_channels": [], "relationships": [], "presences": [], "session_type": "normal",
            "user_settings": {}, "guild_join_requests": [], "geo_ordered_rtc_regions": [], "_trace": ["double"],
        }
        if session.shard is not None:
            ready["shard"] = session.shard
        session.dispatch("READY", ready)
        for g in guilds:
            members = None if session.wants(INTENT_GUILD_MEMBERS) else [dbl.bot.id]
            session.dispatch("GUILD_CREATE", g.create_json(members))
        self.ready_event.set()
        dbl.notify()

    async def _resume(self, conn: Connection, d: dict[str, Any]) -> None:
        session = self.sessions.get(str(d.get("session_id")))
        if session is None or session.invalid or d.get("token") != self.double.token:
            conn.send({"op": INVALID_SESSION, "d": False})
            return
        seq = int(d.get("seq") or 0)
        if session.buffer and seq < session.buffer[0][0] - 1:
            conn.send({"op": INVALID_SESSION, "d": False})  # too far behind to replay
            return
        if session.conn is not None and session.conn is not conn:
            old = session.conn
            session.conn = None
            await old.close(4000)
        session.conn = conn
        conn.session = session
        session.disconnected_at = None
        self.resumes += 1
        for s, text, on_sent in session.buffer:
            if s > seq:
                conn.send(text, on_sent)
        session.seq += 1
        conn.send({"op": DISPATCH, "t": "RESUMED", "s": session.seq, "d": {"_trace": ["double"]}})
        self.double.notify()

    def _request_members(self, conn: Connection, d: dict[str, Any]) -> None:
        session = conn.session
        if session is None:
            return
        gids = d.get("guild_id")
        for gid in gids if isinstance(gids, list) else [gids]:
            g = self.double.guilds.get(int(gid or 0))
            if g is None:
                continue
            wanted = d.get("user_ids")
            members = [m.to_json() for uid, m in g.members.items()
                       if not wanted or str(uid) in {str(w) for w in wanted}]
            query = d.get("query") or ""
            if query:
                members = [m for m in members if m["user"]["username"].startswith(query)]
            limit = int(d.get("limit") or 0)
            if limit:
                members = members[:limit]
            chunk: dict[str, Any] = {"guild_id": str(g.id), "members": members, "chunk_index": 0, "chunk_count": 1}
            if d.get("nonce") is not None:
                chunk["nonce"] = d["nonce"]
            session.dispatch("GUILD_MEMBERS_CHUNK", chunk)
