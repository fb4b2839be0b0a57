"""The store's base: opening (SQLite or PostgreSQL), migrations, transactions, validation helpers.

The domain parts (players.py, wallets.py, hands.py, tables.py, boards.py, checks.py) build on it;
``jxbot.store.store.Store`` puts them together. See docs/store.md ("Parts and the backend seam").
"""

from __future__ import annotations

import asyncio
import functools
import json
import math
import sqlite3
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Iterable, Sequence
from contextlib import asynccontextmanager, suppress
from typing import Any, Concatenate, Literal, ParamSpec, Self, TypeVar

import aiosqlite

from jxbot.store import pg
from jxbot.store.errors import (
    MAX_AMOUNT,
    AmountOverflow,
    EventConflict,
    EventOutOfOrder,
    HandSettled,
    InvalidAmount,
    InvalidArgument,
    SchemaTooNew,
    SchemaTooOld,
    ScopeMismatch,
    UnknownHand,
)
from jxbot.store.schema import MIGRATIONS, SCHEMA_VERSION

Scope = Literal["guild", "global"]
APPEND_BATCH = 200  # moves (of any tables) committed together at most (Store.append_events)
DAY = 86_400.0
SETTLEMENT_REASONS = {"win": ("loss", "win"), "fee": ("fee", "fee"), "escape": ("escape", "escape")}
LEADERBOARD_KINDS = ("balance", "net", "wins", "biggest", "points", "mult", "tai", "fan")
PERIODS = {"day": DAY, "week": 7 * DAY, "all": None}
_MEMBER_COLUMN = {"wins": "wins", "biggest": "best_points", "points": "best_points", "mult": "best_mult",
                  "tai": "best_tai", "fan": "best_fan", "net": "net"}


def multiplier_ruleset(name: object) -> bool:
    """Is a hand of this ruleset worth a multiplier of the stake (points = stake × 倍) rather than 台 and 番?"""
    from jxbot import rulesets

    p = rulesets.find(name) if isinstance(name, str) else None
    return p is not None and p.multiplier_scoring


_BEST_HAND_SQL = (
    "SELECT h.hand_id, h.ruleset, h.points, h.tai, h.fan, h.mult, h.self_draw, h.settled_at FROM hand_seats s "
    "JOIN hands h ON h.hand_id = s.hand_id WHERE s.guild_id = ? AND s.user_id = ? AND s.won = 1 "
    "AND h.{col} IS NOT NULL ORDER BY h.{col} DESC, h.points DESC, h.settled_at, h.hand_id LIMIT 1"
)


# ----------------------------------------------------------------------------- validation helpers
def _check_id(value: object, what: str = "id") -> int:
    if not isinstance(value, int) or isinstance(value, bool) or not 0 < value <= MAX_AMOUNT:
        raise InvalidArgument(f"{what} must be a positive integer")
    return value


def _check_amount(value: object, *, allow_negative: bool = False, allow_zero: bool = False) -> int:
    if not isinstance(value, int) or isinstance(value, bool):
        raise InvalidAmount("amount must be an integer")
    if value > MAX_AMOUNT or value < -MAX_AMOUNT:
        raise AmountOverflow("amount beyond 2^63-1")
    if value == 0 and not allow_zero:
        raise InvalidAmount("amount must not be zero")
    if value < 0 and not allow_negative:
        raise InvalidAmount("amount must be positive")
    return value


def _check_text(value: object, what: str, max_len: int = 200) -> str:
    if not isinstance(value, str) or not value.strip():
        raise InvalidArgument(f"{what} must be a non-empty string")
    return value.strip()[:max_len]


def _time(now: object) -> float:
    if now is None:
        return time.time()
    if hasattr(now, "timestamp"):
        return float(now.timestamp())
    if isinstance(now, bool) or not isinstance(now, int | float) or not math.isfinite(now):
        raise InvalidArgument("now must be a unix time")
    return float(now)


def _dumps(obj: Any) -> str:
    return json.dumps(obj, ensure_ascii=False, separators=(",", ":"))


def _append_batch_sync(conn: sqlite3.Connection, batch: list[tuple[str, int, list[str], float, Any]]
                       ) -> list[int | Exception]:
    """Store.append_events' transaction for a batch of moves, in the connection's thread: one answer per
    move (how many events it wrote, or its own error); a failed commit raises for the whole batch."""
    hands = sorted({b[0] for b in batch})
    out: list[int | Exception] = []
    new: list[tuple[str, int, str, float]] = []
    queued: dict[tuple[str, int], str] = {}  # written by this batch (not inserted yet)
    conn.execute("BEGIN IMMEDIATE")
    try:
        rows = conn.execute(
            "SELECT h.hand_id, (SELECT COALESCE(MAX(e.idx) + 1, 0) FROM hand_events e WHERE e.hand_id = h.hand_id), "
            f"h.status FROM hands h WHERE h.hand_id IN ({','.join('?' * len(hands))})", hands).fetchall()
        stored_next = {r[0]: int(r[1]) for r in rows}
        settled = {r[0] for r in rows if r[2] != "running"}
        next_of = dict(stored_next)
        for hand_id, start, texts, at, _ in batch:
            if hand_id not in next_of:
                out.append(UnknownHand(f"hand {hand_id}"))
                continue
            next_index = next_of[hand_id]
            if start > next_index:
                out.append(EventOutOfOrder(f"hand {hand_id}: expected event {next_index}, got {start}"))
                continue
            if start < next_index:  # a retry of events already stored: they must be the same
                upto = min(next_index, start + len(texts))
                stored = dict(conn.execute(
                    "SELECT idx, event FROM hand_events WHERE hand_id = ? AND idx >= ? AND idx < ?",
                    (hand_id, start, upto)).fetchall()) if start < stored_next[hand_id] else {}
                stored.update({i: queued[(hand_id, i)] for i in range(start, upto) if (hand_id, i) in queued})
                bad = [start + i for i, text in enumerate(texts[: next_index - start])
                       if stored.get(start + i) != text
                       and (stored.get(start + i) is None or json.loads(stored[start + i]) != json.loads(text))]
                if bad:
                    out.append(EventConflict(f"hand {hand_id} event {bad[0]} differs from the stored one"))
                    continue
            rows_new = [(hand_id, start + i, text, at) for i, text in enumerate(texts) if start + i >= next_index]
            if rows_new and hand_id in settled:  # a settled (paid or void) hand's log is final
                out.append(HandSettled(f"hand {hand_id} is settled"))
                continue
            new.extend(rows_new)
            queued.update({(hand_id, r[1]): r[2] for r in rows_new})
            next_of[hand_id] = max(next_index, start + len(texts))
            out.append(len(rows_new))
        if new:
            conn.executemany("INSERT INTO hand_events(hand_id, idx, event, at) VALUES (?, ?, ?, ?)", new)
        conn.execute("COMMIT")
    except BaseException:
        with suppress(sqlite3.Error):  # (already rolled back by SQLite on some errors)
            conn.execute("ROLLBACK")
        raise
    return out


def _json_text(value: Any, what: str) -> str:
    """Accept a JSON string or a JSON-able object; return compact text."""
    if isinstance(value, str):
        try:
            json.loads(value)
        except ValueError:
            raise InvalidArgument(f"{what} is not valid JSON") from None
        return value
    try:
        return _dumps(value)
    except (TypeError, ValueError):
        raise InvalidArgument(f"{what} is not JSON-serialisable") from None


def _loads(text: str | None) -> Any:
    return None if text is None else json.loads(text)


_P = ParamSpec("_P")
_R = TypeVar("_R")
_S = TypeVar("_S")


def _retrying(method: Callable[Concatenate[_S, _P], Awaitable[_R]]) -> Callable[Concatenate[_S, _P], Awaitable[_R]]:
    """Re-run a write operation from the start when PostgreSQL aborts its transaction for a conflict with
    another connection (deadlock, serialisation failure, a unique key another process just took): every
    operation re-reads what it decides on, so the rerun gives the answer a serial order would. SQLite
    never raises these (one writer at a time)."""

    @functools.wraps(method)
    async def run(self: _S, *args: _P.args, **kw: _P.kwargs) -> _R:
        if self._pool is None:  # type: ignore[attr-defined]
            return await method(self, *args, **kw)
        for attempt in range(8):
            try:
                return await method(self, *args, **kw)
            except pg.RETRY_ERRORS:
                if attempt == 7:
                    raise
                await asyncio.sleep(0.002 * (attempt + 1))
        raise AssertionError("unreachable")

    return run


def _check_seats(seats: Sequence[int | None]) -> tuple[int | None, ...]:
    if not isinstance(seats, list | tuple) or len(seats) != 4:
        raise InvalidArgument("seats must be a list of 4 user ids or None")
    out = tuple(None if s is None else _check_id(s, "seat user id") for s in seats)
    humans = [s for s in out if s is not None]
    if len(set(humans)) != len(humans):
        raise InvalidArgument("a player cannot take two seats")
    return out


class Tx:
    """One write transaction (or read snapshot) of the store, handed to the code that runs inside it: a capability
    above the store (the ladder's rating update inside ``settle_hand(..., then=…)``, ``Store.in_transaction``).
    The statements are the store's own dialect (SQLite; ``?`` placeholders; translated on PostgreSQL).
    ``lock`` is the row-lock suffix to add to a ``SELECT`` that reads what the transaction decides on
    (empty on SQLite, which has one writer)."""

    def __init__(self, db: Any, backend: str) -> None:
        self.db = db
        self.backend = backend
        self.lock = "" if backend == "sqlite" else " FOR NO KEY UPDATE"

    async def one(self, sql: str, params: Iterable[Any] = ()) -> Any:
        rows = await self.db.execute_fetchall(sql, tuple(params))
        return next(iter(rows), None)

    async def all(self, sql: str, params: Iterable[Any] = ()) -> list[Any]:
        return list(await self.db.execute_fetchall(sql, tuple(params)))

    async def execute(self, sql: str, params: Iterable[Any] = ()) -> int:
        """Run one statement; the number of rows it changed."""
        cur = await self.db.execute(sql, tuple(params))
        return int(cur.rowcount)

    async def executemany(self, sql: str, rows: Iterable[Sequence[Any]]) -> None:
        await self.db.executemany(sql, [tuple(r) for r in rows])


class StoreBase:
    """Opening, closing, transactions and the backend (see ``Store``)."""

    def __init__(self, db: Any, rdb: Any, scope: Scope, path: str, *, pool: Any = None) -> None:
        self._db = db
        self._rdb = rdb
        self.scope: Scope = scope
        self.path = path
        # PostgreSQL (asyncpg pool) when set; ``_db`` is then a pg.PgPoolConn
        self._pool = pool
        self.backend: Literal["sqlite", "postgresql"] = "sqlite" if pool is None else "postgresql"
        # the row lock a write transaction takes on what it reads to decide (PostgreSQL; SQLite has one writer)
        self._lock = "" if pool is None else " FOR NO KEY UPDATE"
        self._wlock = asyncio.Lock()
        self._rlock = self._wlock if rdb is db else asyncio.Lock()
        # silver held for seated players (RULES A10): (scope, user) -> {hold key (a table id): amount}
        self._holds: dict[tuple[int, int], dict[str, int]] = {}
        self._appends: list[tuple[str, int, list[str], float, Any]] = []  # append_events waiting for a commit
        self._appender: asyncio.Future[None] | None = None
        # told of every transaction, ``("write"|"read", seconds from begin to commit)``, and of every hand settled,
        # ``("settlement", 0.0)``: the bot's metrics (jxbot/metrics.py); never raises into the store
        self.observer: Callable[[str, float], None] | None = None

    def _observe(self, what: str, seconds: float) -> None:
        if self.observer is not None:
            with suppress(Exception):
                self.observer(what, seconds)

    # ------------------------------------------------------------------------- open / close
    @classmethod
    async def open(
        cls,
        path: str,
        scope: Scope | None = "guild",
        *,
        synchronous: Literal["full", "normal"] = "full",
        busy_timeout_ms: int = 10_000,
    ) -> Self:
        """Open (creating and migrating as needed). ``scope=None`` adopts the database's scope.

        ``synchronous="full"`` (default) makes every commit durable across power loss; ``"normal"``
        is still atomic and crash-safe against a killed process, and faster.
        """
        if scope not in ("guild", "global", None):
            raise InvalidArgument("scope must be 'guild' or 'global'")
        if synchronous not in ("full", "normal"):
            raise InvalidArgument("synchronous must be 'full' or 'normal'")
        if pg.is_pg_dsn(path):
            return await cls._open_pg(path, scope)
        db = await aiosqlite.connect(path, isolation_level=None)
        try:
            await db.execute(f"PRAGMA busy_timeout = {int(busy_timeout_ms)}")
            await db.execute("PRAGMA journal_mode = WAL")
            await db.execute(f"PRAGMA synchronous = {synchronous.upper()}")
            await db.execute("PRAGMA foreign_keys = ON")
            db_scope = await cls._migrate(db, scope)
        except BaseException:
            await db.close()
            raise
        if path == ":memory:" or path.startswith("file::memory:"):
            rdb = db
        else:
            try:
                rdb = await aiosqlite.connect(path, isolation_level=None)
                await rdb.execute(f"PRAGMA busy_timeout = {int(busy_timeout_ms)}")
                await rdb.execute("PRAGMA foreign_keys = ON")
                await rdb.execute("PRAGMA query_only = ON")
            except BaseException:
                await db.close()
                raise
        return cls(db, rdb, db_scope, path)

    @classmethod
    async def open_readonly(cls, path: str, *, busy_timeout_ms: int = 10_000) -> Self:
        """Open an existing database for reading only (``jxbot store check``, ``info``): no migration and no
        write, so the file's bytes stay as they are, and it is safe beside a running bot. ``SchemaTooNew``
        or ``SchemaTooOld`` when its schema is not this program's; ``sqlite3.DatabaseError`` if it is not
        a database."""
        from pathlib import Path

        if pg.is_pg_dsn(path):
            return await cls._open_pg(path, None, readonly=True)
        db = await aiosqlite.connect(f"{Path(path).resolve().as_uri()}?mode=ro", uri=True, isolation_level=None)
        try:
            await db.execute(f"PRAGMA busy_timeout = {int(busy_timeout_ms)}")
            await db.execute("PRAGMA query_only = ON")
            (version,) = await (await db.execute("PRAGMA user_version")).fetchone()  # type: ignore[misc]
            if version > SCHEMA_VERSION:
                raise SchemaTooNew(f"database schema {version} > supported {SCHEMA_VERSION}")
            if version < SCHEMA_VERSION:
                raise SchemaTooOld(f"database schema {version} < {SCHEMA_VERSION}: `jxbot run` migrates it at start")
            row = await (await db.execute("SELECT value FROM meta WHERE key = 'scope'")).fetchone()
        except BaseException:
            await db.close()
            raise
        return cls(db, db, row[0] if row else "guild", path)

    @classmethod
    async def _open_pg(cls, dsn: str, scope: Scope | None, *, readonly: bool = False) -> Self:
        pool = await pg.connect_pool(dsn, readonly=readonly)
        try:
            if readonly:
                async with pg.pg_transaction(pool, readonly=True) as db:
                    version = await cls._pg_version(db)
                    if version > SCHEMA_VERSION:
                        raise SchemaTooNew(f"database schema {version} > supported {SCHEMA_VERSION}")
                    if version < SCHEMA_VERSION:
                        raise SchemaTooOld(
                            f"database schema {version} < {SCHEMA_VERSION}: `jxbot run` migrates it at start")
                    row = await cls._one(db, "SELECT value FROM meta WHERE key = 'scope'")
                db_scope: Scope = row[0] if row else "guild"
            else:
                db_scope = await cls._migrate_pg(pool, scope)
        except BaseException:
            await pool.close()
            raise
        conn = pg.PgPoolConn(pool)
        return cls(conn, conn, db_scope, dsn, pool=pool)

    @staticmethod
    async def _pg_version(db: Any) -> int:
        if (await StoreBase._one(db, "SELECT to_regclass('meta') IS NOT NULL"))[0] is False:
            return 0
        row = await StoreBase._one(db, "SELECT value FROM meta WHERE key = 'schema_version'")
        # a database made at version 1 or 2 before the version row existed cannot happen: the row is
        # written in the transaction that creates the schema
        return int(row[0]) if row else 0

    @staticmethod
    async def _migrate_pg(pool: Any, scope: Scope | None) -> Scope:
        """The migrations of schema.py in PostgreSQL's dialect, in one transaction under an advisory lock
        (two processes starting together: the second waits, then finds the schema current)."""
        async with pg.pg_transaction(pool) as db:
            await db.execute(f"SELECT pg_advisory_xact_lock({pg.MIGRATE_LOCK})")
            version = await StoreBase._pg_version(db)
            if version > SCHEMA_VERSION:
                raise SchemaTooNew(f"database schema {version} > supported {SCHEMA_VERSION}")
            steps = pg.pg_migrations()
            for v in range(version, SCHEMA_VERSION):
                for stmt in steps[v]:
                    await db.conn.execute(stmt)
            if version != SCHEMA_VERSION:
                await db.execute(
                    "INSERT INTO meta(key, value) VALUES ('schema_version', ?) "
                    "ON CONFLICT(key) DO UPDATE SET value = excluded.value", (str(SCHEMA_VERSION),))
            row = await StoreBase._one(db, "SELECT value FROM meta WHERE key = 'scope'")
            if row is None:
                db_scope: str = scope or "guild"
                await db.execute("INSERT INTO meta(key, value) VALUES ('scope', ?)", (db_scope,))
            else:
                db_scope = row[0]
                if scope is not None and scope != db_scope:
                    raise ScopeMismatch(f"database scope is {db_scope!r}, asked {scope!r}")
        return db_scope  # type: ignore[return-value]

    @staticmethod
    async def _migrate(db: aiosqlite.Connection, scope: Scope | None) -> Scope:
        await db.execute("BEGIN IMMEDIATE")
        try:
            (version,) = await (await db.execute("PRAGMA user_version")).fetchone()  # type: ignore[misc]
            if version > SCHEMA_VERSION:
                raise SchemaTooNew(f"database schema {version} > supported {SCHEMA_VERSION}")
            for v in range(version, SCHEMA_VERSION):
                for stmt in MIGRATIONS[v]:
                    await db.execute(stmt)
            if version != SCHEMA_VERSION:
                await db.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
            row = await (await db.execute("SELECT value FROM meta WHERE key = 'scope'")).fetchone()
            if row is None:
                db_scope: str = scope or "guild"
                await db.execute("INSERT INTO meta(key, value) VALUES ('scope', ?)", (db_scope,))
            else:
                db_scope = row[0]
                if scope is not None and scope != db_scope:
                    raise ScopeMismatch(f"database scope is {db_scope!r}, asked {scope!r}")
            await db.execute("COMMIT")
        except BaseException:
            await db.execute("ROLLBACK")
            raise
        return db_scope  # type: ignore[return-value]

    @property
    def pg_pool(self) -> Any:
        """The asyncpg pool on PostgreSQL (for what lives beside the store there: leases, LISTEN/NOTIFY),
        None on SQLite."""
        return self._pool

    async def close(self) -> None:
        if self._pool is not None:
            await self._pool.close()
            return
        if self._rdb is not self._db:
            await self._rdb.close()
        await self._db.close()

    async def __aenter__(self) -> Self:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    async def schema_version(self) -> int:
        if self._pool is not None:
            async with self._read() as db:
                return await self._pg_version(db)
        async with self._read() as db:
            (v,) = await (await db.execute("PRAGMA user_version")).fetchone()  # type: ignore[misc]
        return int(v)

    # ------------------------------------------------------------------------- transactions
    @asynccontextmanager
    async def _write(self) -> AsyncIterator[Any]:
        if self._pool is not None:  # concurrent transactions; the row locks order the conflicting ones
            async with pg.pg_transaction(self._pool) as pdb:
                t0 = time.perf_counter()
                yield pdb
            self._observe("write", time.perf_counter() - t0)
            return
        async with self._wlock:
            t0 = time.perf_counter()
            await self._db.execute("BEGIN IMMEDIATE")
            try:
                yield self._db
            except BaseException:
                with suppress(sqlite3.Error):  # already rolled back by SQLite
                    await self._db.execute("ROLLBACK")
                raise
            await self._db.execute("COMMIT")
            self._observe("write", time.perf_counter() - t0)

    @asynccontextmanager
    async def _read(self) -> AsyncIterator[Any]:
        """A consistent snapshot for multi-statement reads."""
        if self._pool is not None:
            async with pg.pg_transaction(self._pool, readonly=True) as pdb:
                t0 = time.perf_counter()
                yield pdb
            self._observe("read", time.perf_counter() - t0)
            return
        async with self._rlock:
            t0 = time.perf_counter()
            await self._rdb.execute("BEGIN")
            try:
                yield self._rdb
            finally:
                await self._rdb.execute("COMMIT")
            self._observe("read", time.perf_counter() - t0)

    @_retrying
    async def in_transaction(self, fn: Callable[[Tx], Awaitable[_R]]) -> _R:
        """Run ``fn(tx)`` in one write transaction (all or nothing); on PostgreSQL re-run from the start when the
        transaction loses a conflict with another connection (``fn`` must re-read what it decides on)."""
        async with self._write() as db:
            return await fn(Tx(db, self.backend))

    async def in_snapshot(self, fn: Callable[[Tx], Awaitable[_R]]) -> _R:
        """Run ``fn(tx)`` on one consistent read snapshot (no writes)."""
        async with self._read() as db:
            return await fn(Tx(db, self.backend))

    # execute_fetchall is one hop to the connection's thread (execute + fetch + close would be three)
    @staticmethod
    async def _one(db: Any, sql: str, params: Iterable[Any] = ()) -> Any:
        rows = await db.execute_fetchall(sql, tuple(params))
        return next(iter(rows), None)

    @staticmethod
    async def _all(db: Any, sql: str, params: Iterable[Any] = ()) -> list[Any]:
        return list(await db.execute_fetchall(sql, tuple(params)))

    def _scope_key(self, guild_id: int) -> int:
        return guild_id if self.scope == "guild" else 0
