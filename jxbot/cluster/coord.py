"""PostgreSQL coordination between bot processes: table leases and forwarded DM presses.

Two tables of its own (created at start with ``CREATE TABLE IF NOT EXISTS``, beside the store's):

``jx_table_leases`` — one row per table a process runs: ``owner`` (the process's node id) and
``expires_at``. **Acquire and renew are one conditional statement** (``INSERT … ON CONFLICT DO UPDATE
… WHERE owner = me OR expires_at < now()``): a table changes hands only when its lease has lapsed, so
two processes never both hold it. Every time is the database server's ``now()`` (the processes' clocks
play no part). The owner renews all its tables in one statement every :data:`HEARTBEAT_SECONDS`; a row
not renewed for :data:`LEASE_SECONDS` is free, and so is a row whose owner's LISTEN session (its backend
pid, ``owner_pid``) is no longer connected — a killed process's tables are free at once, while a live but
overloaded one keeps them for the whole lease; an owner that could not renew for :data:`FENCE_SECONDS`
stops its runners itself, before anyone else may take them.

``jx_pending_presses`` — a DM press on its way to the table's owner: the gateway payload (its
interaction token included), addressed to the owner, announced with ``NOTIFY jx_presses`` ("<owner>
<id>"; the payload itself is never in the notification, which any listener sees and which is capped at
8000 bytes). The owner takes the row with ``DELETE … RETURNING`` and answers the interaction; the
forwarding process withdraws it the same way when nobody took it in time, so a press is answered by
exactly one of them. Rows live for seconds; leftovers older than the 15 minutes an interaction token
lives are purged at start.
"""

from __future__ import annotations

import asyncio
import json
import logging
import os
import secrets
import socket
from collections.abc import Callable
from typing import Any

log = logging.getLogger("jxbot.cluster")

HEARTBEAT_SECONDS = 3.0  # every owner renews all its leases this often (one statement)
LEASE_SECONDS = 30.0  # a lease not renewed for this long is free: 10 beats, so an overloaded process keeps its tables
FENCE_SECONDS = 20.0  # an owner that could not renew for this long stops its runners (10 s before the lease lapses)
TAKE_SECONDS = 2.5  # a forwarded press not taken by its owner in this time is answered "this table is restarting"
CHANNEL = "jx_presses"

DDL = """
CREATE TABLE IF NOT EXISTS jx_table_leases (
    table_id    text PRIMARY KEY,
    guild_id    bigint NOT NULL,
    owner       text NOT NULL,
    acquired_at timestamptz NOT NULL DEFAULT now(),
    expires_at  timestamptz NOT NULL
);
ALTER TABLE jx_table_leases ADD COLUMN IF NOT EXISTS owner_pid integer NOT NULL DEFAULT 0;
CREATE TABLE IF NOT EXISTS jx_processes (
    node    text PRIMARY KEY,
    pid     integer NOT NULL,
    beat_at timestamptz NOT NULL DEFAULT now()
);
CREATE TABLE IF NOT EXISTS jx_pending_presses (
    id         bigserial PRIMARY KEY,
    owner      text NOT NULL,
    table_id   text NOT NULL,
    payload    jsonb NOT NULL,
    created_at timestamptz NOT NULL DEFAULT now()
);
"""

_RENEW = """
INSERT INTO jx_table_leases AS l (table_id, guild_id, owner, owner_pid, expires_at)
SELECT t, g, $3, $5, now() + make_interval(secs => $4) FROM unnest($1::text[], $2::bigint[]) AS u(t, g)
ON CONFLICT (table_id) DO UPDATE
    SET owner = EXCLUDED.owner, owner_pid = EXCLUDED.owner_pid, expires_at = EXCLUDED.expires_at,
        acquired_at = CASE WHEN l.owner = EXCLUDED.owner THEN l.acquired_at ELSE now() END
    WHERE l.owner = EXCLUDED.owner OR l.expires_at < now()
       OR NOT EXISTS (SELECT 1 FROM pg_stat_activity a WHERE a.pid = l.owner_pid)
RETURNING table_id
"""

# a lease is live while it runs and its owner's LISTEN session is connected (a killed process's is gone at once)
_LIVE = "l.expires_at > now() AND EXISTS (SELECT 1 FROM pg_stat_activity a WHERE a.pid = l.owner_pid)"

_FORWARD = """
WITH p AS (
    INSERT INTO jx_pending_presses (owner, table_id, payload)
    SELECT owner, table_id, $2::jsonb FROM jx_table_leases l WHERE table_id = $1 AND """ + _LIVE + """
    RETURNING id, owner
)
SELECT id, owner, pg_notify($3, owner || ' ' || id) FROM p
"""


# the processes sharing the bot token's request budget: this one (its row written in the same statement) and
# every other whose row was beaten lately and whose LISTEN session is connected (a killed one drops out at once)
PROCESS_SECONDS = 15.0
_PROCESSES = """
WITH me AS (
    INSERT INTO jx_processes (node, pid, beat_at) VALUES ($1, $2, now())
    ON CONFLICT (node) DO UPDATE SET pid = EXCLUDED.pid, beat_at = now()
)
SELECT 1 + count(*) FROM jx_processes p
WHERE p.node <> $1 AND p.beat_at > now() - make_interval(secs => $3)
  AND EXISTS (SELECT 1 FROM pg_stat_activity a WHERE a.pid = p.pid)
"""


def node_id() -> str:
    """This process's name in the lease rows: host, pid and a random part (a restart is a new owner)."""
    return f"{socket.gethostname()[:40]}:{os.getpid()}:{secrets.token_hex(3)}"


PressHandler = Callable[[int], None]


class Coordinator:
    """The leases and pending presses of one process (``node``) over an asyncpg pool."""

    def __init__(self, pool: Any, node: str, listener: Any = None, dsn: str | None = None, pid: int = 0) -> None:
        self.pool = pool
        self.node = node
        self._listener = listener
        self._dsn = dsn
        self.pid = pid  # the LISTEN session's backend pid: the lease rows' sign of life
        self.on_press: PressHandler | None = None
        self.on_lost: Callable[[], None] | None = None  # the LISTEN session ended: every lease may be taken now
        self._closing = False

    @classmethod
    async def open(cls, dsn: str, node: str | None = None) -> Coordinator:
        import asyncpg

        pool = await asyncpg.create_pool(dsn, min_size=1, max_size=4)
        try:
            async with pool.acquire() as conn, conn.transaction():
                await conn.execute("SELECT pg_advisory_xact_lock(7319041)")  # two processes starting at once
                await conn.execute(DDL)
                await conn.execute("DELETE FROM jx_pending_presses WHERE created_at < now() - interval '15 minutes'")
                await conn.execute("DELETE FROM jx_processes WHERE beat_at < now() - interval '1 hour'")
            listener = await asyncpg.connect(dsn)
            pid = int(await listener.fetchval("SELECT pg_backend_pid()"))
        except BaseException:
            await pool.close()
            raise
        self = cls(pool, node or node_id(), listener, dsn, pid)
        await self._listen(listener)
        return self

    async def _listen(self, conn: Any) -> None:
        await conn.add_listener(CHANNEL, self._notified)
        conn.add_termination_listener(self._terminated)

    def _terminated(self, conn: Any) -> None:
        if self._closing or conn is not self._listener:
            return
        log.warning("cluster: the LISTEN session ended: this process's leases are no longer its own")
        if self.on_lost is not None:
            self.on_lost()

    async def keep_listening(self) -> None:
        """Reconnect the LISTEN connection if it was lost (the database restarted): without it no forwarded
        press would reach this process."""
        if self._dsn is None or (self._listener is not None and not self._listener.is_closed()):
            return
        import asyncpg

        log.warning("cluster: the LISTEN connection was lost; reconnecting")
        self._listener = await asyncpg.connect(self._dsn)
        self.pid = int(await self._listener.fetchval("SELECT pg_backend_pid()"))  # the next renew records it
        await self._listen(self._listener)

    async def close(self) -> None:
        self._closing = True
        if self._listener is not None:
            try:
                await self._listener.close()
            except Exception:
                log.debug("closing the listener connection failed", exc_info=True)
        await self.pool.close()

    # ------------------------------------------------------------------ leases
    async def renew(self, tables: dict[str, int]) -> set[str]:
        """Acquire or renew the leases of ``tables`` (id → guild id) in one statement; returns the ids this
        process holds now. One missing from the answer is held by another, live process."""
        if not tables:
            return set()
        ids = list(tables)
        rows = await self.pool.fetch(_RENEW, ids, [int(tables[i]) for i in ids], self.node, LEASE_SECONDS, self.pid)
        return {r["table_id"] for r in rows}

    async def live_processes(self) -> int:
        """Mark this process alive and count the live processes of the deployment (itself included): they
        split the bot token's request budget (docs/bot.md, "The request budget")."""
        return int(await self.pool.fetchval(_PROCESSES, self.node, self.pid, PROCESS_SECONDS))

    async def acquire(self, table_id: str, guild_id: int) -> bool:
        return table_id in await self.renew({table_id: guild_id})

    async def release(self, table_ids: list[str]) -> None:
        if table_ids:
            await self.pool.execute("DELETE FROM jx_table_leases WHERE owner = $1 AND table_id = ANY($2::text[])",
                                    self.node, table_ids)

    async def release_all(self) -> None:
        """At a clean stop: the leases lapse now, so the next process takes the tables at once (the rows stay:
        a press meanwhile is told the table is restarting, not that it ended)."""
        await self.pool.execute("UPDATE jx_table_leases SET expires_at = now() WHERE owner = $1", self.node)
        await self.pool.execute("DELETE FROM jx_processes WHERE node = $1", self.node)  # its share goes to the others

    async def lease_known(self, table_id: str) -> bool:
        """A lease row exists, live or lapsed: some process runs or ran the table and it has not ended."""
        return await self.pool.fetchval("SELECT 1 FROM jx_table_leases WHERE table_id = $1", table_id) is not None

    async def owner_of(self, table_id: str) -> str | None:
        return await self.pool.fetchval(f"SELECT owner FROM jx_table_leases l WHERE table_id = $1 AND {_LIVE}",
                                        table_id)

    # ------------------------------------------------------------------ pending presses
    async def forward(self, table_id: str, payload: dict[str, Any]) -> tuple[int, str] | None:
        """Address ``payload`` to the table's live owner and notify it, in one statement. None: no process
        holds the table's lease now (it is restarting)."""
        row = await self.pool.fetchrow(_FORWARD, table_id, json.dumps(payload), CHANNEL)
        return None if row is None else (int(row["id"]), str(row["owner"]))

    async def take(self, press_id: int) -> dict[str, Any] | None:
        """The owner takes a press addressed to it (None: withdrawn meanwhile, or not this process's)."""
        raw = await self.pool.fetchval("DELETE FROM jx_pending_presses WHERE id = $1 AND owner = $2 RETURNING payload",
                                       press_id, self.node)
        return None if raw is None else json.loads(raw)

    async def withdraw(self, press_id: int) -> bool:
        """The forwarder takes back a press nobody took: True if it was still there (so nobody answers it)."""
        return await self.pool.fetchval("DELETE FROM jx_pending_presses WHERE id = $1 RETURNING id",
                                        press_id) is not None

    async def wait_taken(self, press_id: int, timeout: float = TAKE_SECONDS, every: float = 0.25) -> bool:
        """Whether the owner took the press within ``timeout`` (else it is withdrawn: False)."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while loop.time() < deadline:
            await asyncio.sleep(every)
            if await self.pool.fetchval("SELECT 1 FROM jx_pending_presses WHERE id = $1", press_id) is None:
                return True
        return not await self.withdraw(press_id)

    def _notified(self, conn: Any, pid: int, channel: str, payload: str) -> None:
        owner, _, sid = payload.rpartition(" ")
        if owner != self.node or self.on_press is None:
            return
        try:
            self.on_press(int(sid))
        except Exception:
            log.exception("handling the notification of press %s failed", sid)
