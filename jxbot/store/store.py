"""The async store: players, guild settings, wallets & ledger, hands & events, tables, leaderboards.

One writer connection serialises write transactions (an ``asyncio.Lock`` plus ``BEGIN IMMEDIATE``,
so other processes on the same file are excluded too); a second, read-only connection serves
queries from WAL snapshots so leaderboards never wait for a settlement.

Money rules (see docs/store.md): every silver change is a ledger row written in the same
transaction as the wallet update; the rows of one operation (a ``txn``) sum to zero against the
house account of the scope; a player's balance is never negative nor above 2^63−1.
"""

from __future__ import annotations

import asyncio
import functools
import json
import math
import sqlite3
import time
from collections.abc import AsyncIterator, Callable, Iterable, Sequence
from contextlib import asynccontextmanager, suppress
from dataclasses import replace
from typing import Any, Literal

import aiosqlite

from jxbot.i18n import norm_lang
from jxbot.store import pg
from jxbot.store.errors import (
    MAX_AMOUNT,
    MIN_HOUSE,
    AmountOverflow,
    DailyCooldown,
    EventConflict,
    EventOutOfOrder,
    FundsHeld,
    HandConflict,
    InsufficientFunds,
    InvalidAmount,
    InvalidArgument,
    SchemaTooNew,
    SchemaTooOld,
    ScopeMismatch,
    SelfTransfer,
    UnknownHand,
    UnknownPlayer,
    UnknownTable,
)
from jxbot.store.models import (
    AppliedTransfer,
    BestHand,
    DailyResult,
    GuildSettings,
    HandRecord,
    HandSummary,
    LeaderEntry,
    LeaderPage,
    PayResult,
    Player,
    PlayerStats,
    Problem,
    SettleResult,
    SitCheck,
    TableRecord,
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
# Rulesets whose hands are worth a multiplier of the stake (points = stake × 倍) rather than 台 and 番.
MULTIPLIER_RULESETS = frozenset({"caishen"})
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
            "SELECT h.hand_id, (SELECT COALESCE(MAX(e.idx) + 1, 0) FROM hand_events e WHERE e.hand_id = h.hand_id) "
            f"FROM hands h WHERE h.hand_id IN ({','.join('?' * len(hands))})", hands).fetchall()
        stored_next = {r[0]: int(r[1]) for r in rows}
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


def _retrying(method: Any) -> Any:
    """Re-run a write operation from the start when PostgreSQL aborts its transaction for a conflict with
    another connection (deadlock, serialisation failure, a unique key another process just took): every
    operation re-reads what it decides on, so the rerun gives the answer a serial order would. SQLite
    never raises these (one writer at a time)."""

    @functools.wraps(method)
    async def run(self: Store, *args: Any, **kw: Any) -> Any:
        if self._pool is None:
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


class Store:
    """Use ``store = await Store.open(path)``; ``await store.close()`` (or ``async with``)."""

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

    # ------------------------------------------------------------------------- open / close
    @classmethod
    async def open(
        cls,
        path: str,
        scope: Scope | None = "guild",
        *,
        synchronous: Literal["full", "normal"] = "full",
        busy_timeout_ms: int = 10_000,
    ) -> Store:
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
    async def open_readonly(cls, path: str, *, busy_timeout_ms: int = 10_000) -> Store:
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
    async def _open_pg(cls, dsn: str, scope: Scope | None, *, readonly: bool = False) -> Store:
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
        if (await Store._one(db, "SELECT to_regclass('meta') IS NOT NULL"))[0] is False:
            return 0
        row = await Store._one(db, "SELECT value FROM meta WHERE key = 'schema_version'")
        # a database made at version 1 or 2 before the version row existed cannot happen: the row is
        # written in the transaction that creates the schema
        return int(row[0]) if row else 0

    @staticmethod
    async def _migrate_pg(pool: Any, scope: Scope | None) -> Scope:
        """The migrations of schema.py in PostgreSQL's dialect, in one transaction under an advisory lock
        (two processes starting together: the second waits, then finds the schema current)."""
        async with pg.pg_transaction(pool) as db:
            await db.execute(f"SELECT pg_advisory_xact_lock({pg.MIGRATE_LOCK})")
            version = await Store._pg_version(db)
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
            row = await Store._one(db, "SELECT value FROM meta WHERE key = 'scope'")
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

    async def close(self) -> None:
        if self._pool is not None:
            await self._pool.close()
            return
        if self._rdb is not self._db:
            await self._rdb.close()
        await self._db.close()

    async def __aenter__(self) -> Store:
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
                yield pdb
            return
        async with self._wlock:
            await self._db.execute("BEGIN IMMEDIATE")
            try:
                yield self._db
            except BaseException:
                with suppress(sqlite3.Error):  # already rolled back by SQLite
                    await self._db.execute("ROLLBACK")
                raise
            await self._db.execute("COMMIT")

    @asynccontextmanager
    async def _read(self) -> AsyncIterator[Any]:
        """A consistent snapshot for multi-statement reads."""
        if self._pool is not None:
            async with pg.pg_transaction(self._pool, readonly=True) as pdb:
                yield pdb
            return
        async with self._rlock:
            await self._rdb.execute("BEGIN")
            try:
                yield self._rdb
            finally:
                await self._rdb.execute("COMMIT")

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

    # ------------------------------------------------------------------------- players
    @_retrying
    async def ensure_player(self, user_id: int, name: str, lang: str | None = None) -> Player:
        """Create or refresh a player (display name; the language only when given)."""
        _check_id(user_id, "user id")
        name = _check_text(name, "name", 100)
        lang_n = None if lang is None else norm_lang(lang)
        now = time.time()
        async with self._write() as db:
            await db.execute(
                "INSERT INTO players(user_id, name, lang, created_at, updated_at) VALUES (?, ?, ?, ?, ?) "
                "ON CONFLICT(user_id) DO UPDATE SET name = excluded.name, "
                "lang = COALESCE(excluded.lang, players.lang), updated_at = excluded.updated_at",
                (user_id, name, lang_n, now, now),
            )
            row = await self._one(db, "SELECT user_id, name, lang, created_at FROM players WHERE user_id = ?", (user_id,))
        return Player(*row)

    @_retrying
    async def set_lang(self, user_id: int, lang: str | None) -> Player:
        """Set (or with ``None`` clear) a player's language preference."""
        _check_id(user_id, "user id")
        lang_n = None if lang is None else norm_lang(lang)
        async with self._write() as db:
            cur = await db.execute(
                "UPDATE players SET lang = ?, updated_at = ? WHERE user_id = ?", (lang_n, time.time(), user_id)
            )
            if cur.rowcount == 0:
                raise UnknownPlayer(f"user {user_id}")
            row = await self._one(db, "SELECT user_id, name, lang, created_at FROM players WHERE user_id = ?", (user_id,))
        return Player(*row)

    async def get_player(self, user_id: int) -> Player | None:
        _check_id(user_id, "user id")
        async with self._read() as db:
            row = await self._one(db, "SELECT user_id, name, lang, created_at FROM players WHERE user_id = ?", (user_id,))
        return Player(*row) if row else None

    async def _require_player(self, db: aiosqlite.Connection, user_id: int) -> None:
        if await self._one(db, "SELECT 1 FROM players WHERE user_id = ?", (user_id,)) is None:
            raise UnknownPlayer(f"user {user_id}")

    # ------------------------------------------------------------------------- guild settings
    async def get_guild_settings(self, guild_id: int) -> GuildSettings:
        _check_id(guild_id, "guild id")
        async with self._read() as db:
            return await self._settings(db, guild_id)

    async def _settings(self, db: aiosqlite.Connection, guild_id: int) -> GuildSettings:
        row = await self._one(db, "SELECT settings FROM guild_settings WHERE guild_id = ?", (guild_id,))
        return GuildSettings.from_json(guild_id, json.loads(row[0])) if row else GuildSettings(guild_id)

    @_retrying
    async def update_guild_settings(self, guild_id: int, **fields: Any) -> GuildSettings:
        """Change some settings; unknown names or out-of-range values raise ``InvalidArgument``."""
        _check_id(guild_id, "guild id")
        bad = sorted(set(fields) - set(GuildSettings.EDITABLE))
        if bad:
            raise InvalidArgument(f"unknown setting(s): {', '.join(bad)}")
        if "allowed_channels" in fields:
            ch = fields["allowed_channels"]
            if not isinstance(ch, list | tuple | set | frozenset):
                raise InvalidArgument("allowed_channels must be a list of channel ids")
            fields["allowed_channels"] = tuple(sorted(ch))
        async with self._write() as db:
            if self._lock:  # one change at a time per guild (the row may not exist yet: an advisory lock)
                await self._one(db, "SELECT pg_advisory_xact_lock(hashtextextended('settings:' || ?::text, 0))",
                                (str(guild_id),))
            old = await self._settings(db, guild_id)
            explicit = tuple(sorted(set(old.explicit) | set(fields)))
            new = replace(old, explicit=explicit, **fields).validated()
            await db.execute(
                "INSERT INTO guild_settings(guild_id, settings, updated_at) VALUES (?, ?, ?) "
                "ON CONFLICT(guild_id) DO UPDATE SET settings = excluded.settings, updated_at = excluded.updated_at",
                (guild_id, _dumps(new.to_json()), time.time()),
            )
        return new

    # ------------------------------------------------------------------------- wallets & ledger
    async def _wallet(self, db: aiosqlite.Connection, scope: int, user_id: int | None, now: float) -> tuple[int, int]:
        """(wallet_id, balance) of a player (user_id) or the house (None), created if missing."""
        params: tuple[int, ...]
        if user_id is None:
            sql, params = "SELECT wallet_id, balance FROM wallets WHERE scope = ? AND user_id IS NULL", (scope,)
        else:
            sql, params = "SELECT wallet_id, balance FROM wallets WHERE scope = ? AND user_id = ?", (scope, user_id)
        row = await self._one(db, sql + self._lock, params)
        if row is not None:
            return int(row[0]), int(row[1])
        cur = await db.execute(
            "INSERT INTO wallets(scope, user_id, balance, created_at) VALUES (?, ?, 0, ?)", (scope, user_id, now)
        )
        return int(cur.lastrowid), 0  # type: ignore[arg-type]

    async def _member(self, db: aiosqlite.Connection, guild_id: int, user_id: int, now: float) -> None:
        await db.execute(
            "INSERT OR IGNORE INTO members(guild_id, user_id, first_seen) VALUES (?, ?, ?)", (guild_id, user_id, now)
        )

    async def _txn(
        self,
        db: aiosqlite.Connection,
        kind: str,
        guild_id: int,
        now: float,
        hand_id: str | None = None,
        actor: int | None = None,
        note: str | None = None,
    ) -> int:
        cur = await db.execute(
            "INSERT INTO txns(kind, guild_id, hand_id, actor, note, at) VALUES (?, ?, ?, ?, ?, ?)",
            (kind, guild_id, hand_id, actor, note, now),
        )
        return int(cur.lastrowid)  # type: ignore[arg-type]

    async def _post(
        self,
        db: aiosqlite.Connection,
        txn_id: int,
        guild_id: int,
        now: float,
        entries: Sequence[tuple[int, int | None, int, str]],
        balances: dict[int, int],
        hand_id: str | None = None,
    ) -> dict[int, int]:
        """Write ledger rows ``(wallet_id, user_id, delta, reason)`` and the new wallet balances.

        ``balances`` holds the current balance of every wallet touched; it is updated and returned.
        The entries must sum to zero (checked); each running balance is range-checked.
        """
        if sum(e[2] for e in entries) != 0:
            raise AssertionError("ledger entries of one transaction must sum to zero")
        rows = []
        for wallet_id, user_id, delta, reason in entries:
            if delta == 0:
                continue
            new = balances[wallet_id] + delta
            if user_id is not None and new < 0:
                raise InsufficientFunds(needed=-delta, balance=balances[wallet_id])
            if new > MAX_AMOUNT or new < MIN_HOUSE:
                raise AmountOverflow("balance would exceed 2^63-1")
            balances[wallet_id] = new
            rows.append((txn_id, wallet_id, guild_id, user_id, delta, new, reason, hand_id, now))
        await db.executemany(
            "INSERT INTO ledger(txn_id, wallet_id, guild_id, user_id, delta, balance_after, reason, hand_id, at) "
            "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
            rows,
        )
        touched = {r[1] for r in rows}
        await db.executemany(
            "UPDATE wallets SET balance = ? WHERE wallet_id = ?", [(balances[w], w) for w in sorted(touched)]
        )
        return balances

    async def balance(self, guild_id: int, user_id: int) -> int:
        """A player's balance in this guild's scope (0 before any silver). Unknown player: error."""
        _check_id(guild_id, "guild id")
        _check_id(user_id, "user id")
        async with self._read() as db:
            await self._require_player(db, user_id)
            row = await self._one(
                db,
                "SELECT balance FROM wallets WHERE scope = ? AND user_id = ?",
                (self._scope_key(guild_id), user_id),
            )
        return int(row[0]) if row else 0

    async def house_balance(self, guild_id: int) -> int:
        """The house account of this guild's scope (negative: silver it has put into circulation)."""
        _check_id(guild_id, "guild id")
        async with self._read() as db:
            row = await self._one(
                db, "SELECT balance FROM wallets WHERE scope = ? AND user_id IS NULL", (self._scope_key(guild_id),)
            )
        return int(row[0]) if row else 0

    async def balances_for(self, guild_id: int, seats: Sequence[int | None]) -> list[int | None]:
        """Balances of the 4 seats for a settlement; ``None`` for computer seats (house-backed)."""
        _check_id(guild_id, "guild id")
        seats_t = _check_seats(seats)
        scope = self._scope_key(guild_id)
        out: list[int | None] = []
        async with self._read() as db:
            for uid in seats_t:
                if uid is None:
                    out.append(None)
                    continue
                await self._require_player(db, uid)
                row = await self._one(db, "SELECT balance FROM wallets WHERE scope = ? AND user_id = ?", (scope, uid))
                out.append(int(row[0]) if row else 0)
        return out

    @_retrying
    async def grant_starting(self, guild_id: int, user_id: int, now: float | None = None) -> int:
        """Give the guild's starting grant once per wallet (call on a player's first seat).

        Returns the amount granted: the grant the first time, 0 on every later call.
        """
        _check_id(guild_id, "guild id")
        _check_id(user_id, "user id")
        at = _time(now)
        scope = self._scope_key(guild_id)
        async with self._write() as db:
            await self._require_player(db, user_id)
            await self._member(db, guild_id, user_id, at)
            wid, bal = await self._wallet(db, scope, user_id, at)
            (granted,) = await self._one(db, "SELECT granted FROM wallets WHERE wallet_id = ?", (wid,))
            if granted:
                return 0
            await db.execute("UPDATE wallets SET granted = 1 WHERE wallet_id = ?", (wid,))
            amount = (await self._settings(db, guild_id)).starting_grant
            if amount:
                hid, hbal = await self._wallet(db, scope, None, at)
                txn = await self._txn(db, "starting_grant", guild_id, at)
                await self._post(
                    db,
                    txn,
                    guild_id,
                    at,
                    [(hid, None, -amount, "starting_grant"), (wid, user_id, amount, "starting_grant")],
                    {wid: bal, hid: hbal},
                )
            return amount

    @_retrying
    async def daily(self, guild_id: int, user_id: int, now: float | None = None) -> DailyResult:
        """Claim the daily silver: 24 h cooldown (``DailyCooldown`` with ``next_at``).

        A claim within 48 h of the previous one continues the streak; the amount is
        ``daily_amount + daily_streak_bonus × min(streak − 1, daily_streak_cap)``.
        """
        _check_id(guild_id, "guild id")
        _check_id(user_id, "user id")
        at = _time(now)
        scope = self._scope_key(guild_id)
        async with self._write() as db:
            await self._require_player(db, user_id)
            await self._member(db, guild_id, user_id, at)
            wid, bal = await self._wallet(db, scope, user_id, at)
            last, streak = await self._one(db, "SELECT daily_last, daily_streak FROM wallets WHERE wallet_id = ?", (wid,))
            if last is not None and at < last + DAY:
                raise DailyCooldown(next_at=last + DAY)
            streak = streak + 1 if last is not None and at < last + 2 * DAY else 1
            st = await self._settings(db, guild_id)
            amount = st.daily_amount + st.daily_streak_bonus * min(streak - 1, st.daily_streak_cap)
            await db.execute(
                "UPDATE wallets SET daily_last = ?, daily_streak = ? WHERE wallet_id = ?", (at, streak, wid)
            )
            balances = {wid: bal}
            if amount:
                hid, hbal = await self._wallet(db, scope, None, at)
                balances[hid] = hbal
                txn = await self._txn(db, "daily", guild_id, at)
                await self._post(
                    db, txn, guild_id, at, [(hid, None, -amount, "daily"), (wid, user_id, amount, "daily")], balances
                )
        return DailyResult(amount=amount, streak=streak, next_at=at + DAY, balance=balances[wid])

    @_retrying
    async def pay(
        self, guild_id: int, from_user: int, to_user: int, amount: int, now: float | None = None
    ) -> PayResult:
        """Move silver between two players (positive, not to yourself, not more than you have)."""
        _check_id(guild_id, "guild id")
        _check_id(from_user, "user id")
        _check_id(to_user, "user id")
        amount = _check_amount(amount)
        if from_user == to_user:
            raise SelfTransfer()
        at = _time(now)
        scope = self._scope_key(guild_id)
        async with self._write() as db:
            await self._require_player(db, from_user)
            await self._require_player(db, to_user)
            if self._lock:  # both wallets in one order (the lowest id first): two opposite payments cannot deadlock
                await self._all(db, "SELECT wallet_id FROM wallets WHERE scope = ? AND user_id IN (?, ?) "
                                "ORDER BY wallet_id" + self._lock, (scope, from_user, to_user))
            fw, fb = await self._wallet(db, scope, from_user, at)
            if fb < amount:
                raise InsufficientFunds(needed=amount, balance=fb)
            held = self._held(scope, from_user)
            if held and fb - amount < held:
                raise FundsHeld(needed=amount, balance=fb, held=held, free=max(0, fb - held))
            tw, tb = await self._wallet(db, scope, to_user, at)
            if tb > MAX_AMOUNT - amount:
                raise AmountOverflow("recipient balance would exceed 2^63-1")
            await self._member(db, guild_id, from_user, at)
            await self._member(db, guild_id, to_user, at)
            txn = await self._txn(db, "transfer", guild_id, at, actor=from_user)
            bals = await self._post(
                db,
                txn,
                guild_id,
                at,
                [(fw, from_user, -amount, "transfer"), (tw, to_user, amount, "transfer")],
                {fw: fb, tw: tb},
            )
        return PayResult(amount=amount, from_balance=bals[fw], to_balance=bals[tw])

    async def admin_grant(
        self,
        guild_id: int,
        user_id: int,
        amount: int,
        reason: str,
        actor: int | None = None,
        now: float | None = None,
    ) -> int:
        """Add (or with a negative amount, remove) silver, from/to the house. Returns the new balance."""
        amount = _check_amount(amount, allow_negative=True)
        return await self._house_move(guild_id, user_id, "grant", reason, actor, now, lambda bal: amount)

    async def admin_set(
        self,
        guild_id: int,
        user_id: int,
        amount: int,
        reason: str,
        actor: int | None = None,
        now: float | None = None,
    ) -> int:
        """Set a balance (≥ 0); the difference goes to/from the house. Returns the new balance."""
        amount = _check_amount(amount, allow_zero=True)
        return await self._house_move(guild_id, user_id, "admin", reason, actor, now, lambda bal: amount - bal)

    @_retrying
    async def _house_move(
        self,
        guild_id: int,
        user_id: int,
        kind: str,
        reason: str,
        actor: int | None,
        now: float | None,
        delta_of: Callable[[int], int],
    ) -> int:
        """An admin's silver change between the house and one wallet, in one transaction, with ledger rows of
        reason ``kind``; ``delta_of(balance)`` gives the change. Returns the new balance."""
        _check_id(guild_id, "guild id")
        _check_id(user_id, "user id")
        note = _check_text(reason, "reason")
        at = _time(now)
        scope = self._scope_key(guild_id)
        async with self._write() as db:
            await self._require_player(db, user_id)
            await self._member(db, guild_id, user_id, at)
            wid, bal = await self._wallet(db, scope, user_id, at)
            delta = delta_of(bal)
            if bal + delta < 0:
                raise InsufficientFunds(needed=-delta, balance=bal)
            if delta:
                hid, hbal = await self._wallet(db, scope, None, at)
                txn = await self._txn(db, kind, guild_id, at, actor=actor, note=note)
                await self._post(
                    db, txn, guild_id, at, [(hid, None, -delta, kind), (wid, user_id, delta, kind)], {wid: bal, hid: hbal}
                )
        return bal + delta

    # ------------------------------------------------------------------------- holds (RULES A10)
    def _held(self, scope: int, user_id: int) -> int:
        return sum(self._holds.get((scope, user_id), {}).values())

    def held(self, guild_id: int, user_id: int) -> int:
        """Silver held for a seated player in this guild's scope (0 when they sit nowhere)."""
        return self._held(self._scope_key(guild_id), user_id)

    @_retrying
    async def hold(self, guild_id: int, user_id: int, key: str, amount: int, *, check: bool = True) -> int:
        """Hold ``amount`` of a player's silver under ``key`` (a table id) while they sit: :meth:`pay` refuses
        to touch it (``FundsHeld``). A hold is not a ledger row: balances, the ledger and :meth:`check` are
        unchanged; settlements and fees are paid from the balance as always, so the held silver is there to
        pay them. Checked in the write transaction, so no payment runs between the check and the hold:
        ``InsufficientFunds`` when the balance, less the player's other holds, is below ``amount`` (nothing is
        held then). ``check=False`` re-installs a hold after a restart whatever the balance. Setting a hold
        again under the same key replaces it. Returns the balance."""
        _check_id(guild_id, "guild id")
        _check_id(user_id, "user id")
        if not isinstance(amount, int) or isinstance(amount, bool) or amount < 0:
            raise InvalidAmount("a hold is a whole amount >= 0")
        scope = self._scope_key(guild_id)
        async with self._write() as db:
            await self._require_player(db, user_id)
            row = await self._one(db, "SELECT balance FROM wallets WHERE scope = ? AND user_id = ?" + self._lock,
                                  (scope, user_id))
            bal = int(row[0]) if row else 0
            mine = self._holds.get((scope, user_id), {})
            others = sum(v for k, v in mine.items() if k != key)
            if check and bal - others < amount:
                raise InsufficientFunds(needed=amount, balance=max(0, bal - others))
            self._holds.setdefault((scope, user_id), {})[key] = amount
        return bal

    def release_hold(self, guild_id: int, user_id: int, key: str) -> None:
        """Release a hold (the player stood up, left, was kicked, or the table closed). No-op if none."""
        scope = self._scope_key(guild_id)
        mine = self._holds.get((scope, user_id))
        if mine is not None:
            mine.pop(key, None)
            if not mine:
                del self._holds[(scope, user_id)]

    async def can_sit(self, guild_id: int, user_id: int, stake: int) -> SitCheck:
        """Whether a player may sit at a table of this stake (within the guild's limits, enough silver).

        The minimum balance is ``stake × min_balance_multiplier + fee``.
        """
        _check_id(guild_id, "guild id")
        _check_id(user_id, "user id")
        stake = _check_amount(stake)
        async with self._read() as db:
            await self._require_player(db, user_id)
            st = await self._settings(db, guild_id)
            row = await self._one(
                db, "SELECT balance FROM wallets WHERE scope = ? AND user_id = ?", (self._scope_key(guild_id), user_id)
            )
        bal = int(row[0]) if row else 0
        required = st.min_balance(stake)
        if not st.stake_min <= stake <= st.stake_max:
            return SitCheck(False, "stake_out_of_range", stake, required, bal)
        if bal < required:
            return SitCheck(False, "insufficient_balance", stake, required, bal)
        return SitCheck(True, None, stake, required, bal)

    # ------------------------------------------------------------------------- hands & events
    _HAND_COLS = (
        "hand_id, guild_id, channel_id, table_id, ruleset, seats, commitment, reveal, status, created_at, settled_at"
    )

    @staticmethod
    def _hand(row: Any) -> HandRecord:
        return HandRecord(
            hand_id=row[0],
            guild_id=row[1],
            channel_id=row[2],
            table_id=row[3],
            ruleset=row[4],
            seats=tuple(json.loads(row[5])),
            commitment=row[6],
            reveal=_loads(row[7]),
            status=row[8],
            created_at=row[9],
            settled_at=row[10],
        )

    @_retrying
    async def create_hand(
        self,
        hand_id: str,
        guild_id: int,
        channel_id: int,
        ruleset: str,
        seats: Sequence[int | None],
        commitment: str,
        *,
        table_id: str | None = None,
        now: float | None = None,
    ) -> HandRecord:
        """Record a new hand (seats: 4 user ids, ``None`` for a computer). Idempotent for the same data;
        the same id with different data raises ``HandConflict``."""
        hand_id = _check_text(hand_id, "hand id", 200)
        _check_id(guild_id, "guild id")
        _check_id(channel_id, "channel id")
        ruleset = _check_text(ruleset, "ruleset", 50)
        seats_t = _check_seats(seats)
        commitment = _check_text(commitment, "commitment", 200)
        at = _time(now)
        async with self._write() as db:
            row = await self._one(db, f"SELECT {self._HAND_COLS} FROM hands WHERE hand_id = ?", (hand_id,))
            if row is not None:
                old = self._hand(row)
                same = (old.guild_id, old.channel_id, old.ruleset, old.seats, old.commitment) == (
                    guild_id,
                    channel_id,
                    ruleset,
                    seats_t,
                    commitment,
                ) and (table_id is None or table_id == old.table_id)
                if not same:
                    raise HandConflict(f"hand {hand_id} exists with other data")
                return old
            for uid in seats_t:
                if uid is not None:
                    await self._require_player(db, uid)
            if table_id is not None and await self._one(db, "SELECT 1 FROM tables WHERE table_id = ?", (table_id,)) is None:
                raise UnknownTable(f"table {table_id}")
            await db.execute(
                "INSERT INTO hands(hand_id, guild_id, channel_id, table_id, ruleset, seats, commitment, status, created_at) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, 'running', ?)",
                (hand_id, guild_id, channel_id, table_id, ruleset, _dumps(list(seats_t)), commitment, at),
            )
            await db.executemany(
                "INSERT INTO hand_seats(hand_id, seat, user_id, guild_id) VALUES (?, ?, ?, ?)",
                [(hand_id, i, uid, guild_id) for i, uid in enumerate(seats_t) if uid is not None],
            )
            row = await self._one(db, f"SELECT {self._HAND_COLS} FROM hands WHERE hand_id = ?", (hand_id,))
        return self._hand(row)

    async def get_hand(self, hand_id: str) -> HandRecord | None:
        async with self._read() as db:
            row = await self._one(db, f"SELECT {self._HAND_COLS} FROM hands WHERE hand_id = ?", (hand_id,))
        return self._hand(row) if row else None

    @_retrying
    async def append_event(self, hand_id: str, index: int, event: Any, now: float | None = None) -> bool:
        """Append event ``index`` (0, 1, 2, … in order) to a hand's log.

        Returns True when written, False when that exact event was already there (idempotent retry).
        A different event at an existing index raises ``EventConflict``; a gap ``EventOutOfOrder``.
        """
        if not isinstance(index, int) or isinstance(index, bool) or index < 0:
            raise InvalidArgument("event index must be a non-negative integer")
        text = _json_text(event, "event")
        at = _time(now)
        async with self._write() as db:
            row = await self._one(
                db,
                "SELECT (SELECT event FROM hand_events WHERE hand_id = ?1 AND idx = ?2), "
                "(SELECT COALESCE(MAX(idx) + 1, 0) FROM hand_events WHERE hand_id = ?1), "
                "EXISTS(SELECT 1 FROM hands WHERE hand_id = ?1)",
                (hand_id, index),
            )
            existing, next_index, known = row
            if not known:
                raise UnknownHand(f"hand {hand_id}")
            if existing is not None:
                if existing == text or json.loads(existing) == json.loads(text):
                    return False
                raise EventConflict(f"hand {hand_id} event {index} differs from the stored one")
            if index != next_index:
                raise EventOutOfOrder(f"hand {hand_id}: expected event {next_index}, got {index}")
            await db.execute("INSERT INTO hand_events(hand_id, idx, event, at) VALUES (?, ?, ?, ?)", (hand_id, index, text, at))
        return True

    @_retrying
    async def append_events(self, hand_id: str, start: int, events: Sequence[Any], now: float | None = None) -> int:
        """Append events ``start``, ``start + 1``, … in one transaction (a table's move is often two or
        three events: one commit instead of several). The rules of :meth:`append_event` hold for each:
        an index already stored must hold the same event (a retry), a gap raises ``EventOutOfOrder``.
        Returns how many were written.

        Group commit: the moves of every table that arrive while a write is in progress go into the next
        transaction together (at most APPEND_BATCH), four trips to the database thread and one commit for
        all of them, where one each would queue every table behind the others' trips under load. Each
        caller still returns only once its events are committed, and gets its own error."""
        if not isinstance(start, int) or isinstance(start, bool) or start < 0:
            raise InvalidArgument("event index must be a non-negative integer")
        texts = [_json_text(e, "event") for e in events]
        if not texts:
            return 0
        fut: asyncio.Future[int] = asyncio.get_running_loop().create_future()
        self._appends.append((hand_id, start, texts, _time(now), fut))
        if self._appender is None or self._appender.done():
            self._appender = asyncio.ensure_future(self._append_batches())
        return await fut

    async def _append_batches(self) -> None:
        while self._appends:
            batch = [b for b in self._appends[:APPEND_BATCH] if not b[4].done()]  # (a cancelled caller: skipped)
            del self._appends[:APPEND_BATCH]
            if not batch:
                continue
            try:
                results = await self._append_batch(batch)
            except BaseException as exc:  # the transaction failed: every move in it failed
                for *_, fut in batch:
                    if not fut.done():
                        fut.set_exception(exc)
                if isinstance(exc, asyncio.CancelledError):
                    raise
                continue
            for (*_, fut), res in zip(batch, results, strict=True):
                if not fut.done():
                    if isinstance(res, Exception):
                        fut.set_exception(res)
                    else:
                        fut.set_result(res)

    async def _append_batch(self, batch: list[tuple[str, int, list[str], float, Any]]) -> list[int | Exception]:
        # the whole transaction in ONE trip to the connection's thread (aiosqlite runs the function there):
        # a trip costs an event-loop turn, which is long when the bot is busy
        async with self._wlock:
            return await self._db._execute(_append_batch_sync, self._db._conn, batch)

    async def hand_events(self, hand_id: str) -> list[Any]:
        """The hand's events in order (parsed JSON)."""
        async with self._read() as db:
            if await self._one(db, "SELECT 1 FROM hands WHERE hand_id = ?", (hand_id,)) is None:
                raise UnknownHand(f"hand {hand_id}")
            rows = await self._all(db, "SELECT event FROM hand_events WHERE hand_id = ? ORDER BY idx", (hand_id,))
        return [json.loads(r[0]) for r in rows]

    @_retrying
    async def settle_hand(
        self,
        hand_id: str,
        guild_id: int,
        seats: Sequence[int | None],
        settlement: Any,
        result_json: Any,
        now: float | None = None,
    ) -> SettleResult:
        """Pay a hand: every ledger row, the stats and the result in ONE transaction, once per hand id.

        ``settlement`` is a ``jxbot.rules.contract.Settlement`` (transfers between seat indexes,
        ``None`` = house). Computer seats (``None`` in ``seats``) pay and are paid by the house.
        Transfers are applied in order; a player never goes below 0 (a payer short of silver pays
        what they have, and the payee receives that; ``capped`` is then True).
        A repeated call returns the first result unchanged (``repeated=True``), writing nothing.
        """
        _check_id(guild_id, "guild id")
        seats_t = _check_seats(seats)
        transfers = self._check_settlement(settlement)
        result_text = _json_text(result_json, "result")
        result_obj = json.loads(result_text)
        at = _time(now)
        scope = self._scope_key(guild_id)
        async with self._write() as db:
            row = await self._one(
                db, "SELECT guild_id, seats, status, result, ruleset FROM hands WHERE hand_id = ?" + self._lock,
                (hand_id,)
            )
            if row is None:
                raise UnknownHand(f"hand {hand_id}")
            h_guild, h_seats, status, stored, ruleset = row
            if status == "settled":
                return SettleResult.from_json(json.loads(stored), repeated=True)
            if h_guild != guild_id or tuple(json.loads(h_seats)) != seats_t:
                raise HandConflict(f"hand {hand_id}: guild or seats differ from the record")

            humans = [u for u in seats_t if u is not None]
            # the players' wallets (in wallet order), then the house: the order every operation locks them in
            found = {
                r[0]: (r[1], r[2])
                for r in await self._all(
                    db,
                    f"SELECT user_id, wallet_id, balance FROM wallets WHERE scope = ? "
                    f"AND user_id IN ({','.join('?' * len(humans))}) ORDER BY wallet_id{self._lock}",
                    (scope, *humans),
                )
            } if humans else {}
            house_id, house_bal = await self._wallet(db, scope, None, at)
            balances: dict[int, int] = {house_id: house_bal}
            seat_wallet: list[int] = []
            for uid in seats_t:
                if uid is None:
                    seat_wallet.append(house_id)
                    continue
                wid, bal = found[uid] if uid in found else await self._wallet(db, scope, uid, at)
                balances[wid] = bal
                seat_wallet.append(wid)

            def owner(seat: int | None) -> tuple[int, int | None]:
                if seat is None:
                    return house_id, None
                return seat_wallet[seat], seats_t[seat]

            txn = await self._txn(db, "settle", guild_id, at, hand_id=hand_id)
            running = dict(balances)
            entries: list[tuple[int, int | None, int, str]] = []
            applied: list[AppliedTransfer] = []
            deltas = [0, 0, 0, 0]
            house_delta = 0
            capped = False
            for payer, payee, asked, reason in transfers:
                pw, pu = owner(payer)
                qw, qu = owner(payee)
                amount = asked
                if pu is not None:
                    amount = min(amount, running[pw])
                capped = capped or amount != asked
                if amount > 0 and pw != qw:
                    if running[qw] > MAX_AMOUNT - amount:
                        raise AmountOverflow("a balance would exceed 2^63-1")
                    running[pw] -= amount
                    running[qw] += amount
                    out_reason, in_reason = SETTLEMENT_REASONS[reason]
                    entries.append((pw, pu, -amount, out_reason))
                    entries.append((qw, qu, amount, in_reason))
                for seat, sign in ((payer, -1), (payee, 1)):
                    if seat is None:
                        house_delta += sign * amount
                    else:
                        deltas[seat] += sign * amount
                        if seats_t[seat] is None:
                            house_delta += sign * amount
                applied.append(AppliedTransfer(payer, payee, amount, asked, reason))
            await self._post(db, txn, guild_id, at, entries, balances, hand_id=hand_id)

            res = SettleResult(
                hand_id=hand_id,
                deltas=tuple(deltas),
                house_delta=house_delta,
                balances=tuple(None if uid is None else balances[seat_wallet[i]] for i, uid in enumerate(seats_t)),
                transfers=tuple(applied),
                capped=capped,
                result=result_obj,
                settled_at=at,
            )
            await self._record_result(db, hand_id, guild_id, seats_t, deltas, result_obj, res, at, ruleset)
        return res

    @staticmethod
    def _check_settlement(settlement: Any) -> list[tuple[int | None, int | None, int, str]]:
        try:
            raw = list(settlement.transfers)
        except (AttributeError, TypeError):
            raise InvalidArgument("settlement must have transfers") from None
        out = []
        computed = [0, 0, 0, 0]
        for t in raw:
            try:
                payer, payee, amount, reason = t.payer, t.payee, t.amount, t.reason
            except AttributeError:
                raise InvalidArgument("a transfer needs payer, payee, amount and reason") from None
            for s in (payer, payee):
                if s is not None and (not isinstance(s, int) or isinstance(s, bool) or not 0 <= s <= 3):
                    raise InvalidArgument("transfer seats must be 0-3 or None")
            if payer == payee:
                raise InvalidArgument("a transfer needs two different parties")
            _check_amount(amount, allow_zero=True)
            if reason not in SETTLEMENT_REASONS:
                raise InvalidArgument(f"unknown transfer reason {reason!r}")
            if payer is not None:
                computed[payer] -= amount
            if payee is not None:
                computed[payee] += amount
            out.append((payer, payee, amount, reason))
        deltas = getattr(settlement, "deltas", None)
        if deltas is not None and list(deltas) != computed:
            raise InvalidArgument("settlement deltas do not match its transfers")
        house = getattr(settlement, "house_delta", None)
        if house is not None and deltas is not None and sum(deltas) + house != 0:
            raise InvalidArgument("settlement is not zero-sum")
        return out

    async def _record_result(
        self,
        db: aiosqlite.Connection,
        hand_id: str,
        guild_id: int,
        seats: tuple[int | None, ...],
        deltas: list[int],
        result: Any,
        res: SettleResult,
        at: float,
        ruleset: str = "jiaxing",
    ) -> None:
        r = result if isinstance(result, dict) else {}
        score: dict[str, Any] = r["score"] if isinstance(r.get("score"), dict) else {}

        def as_int(v: Any) -> int | None:
            return v if isinstance(v, int) and not isinstance(v, bool) and abs(v) <= MAX_AMOUNT else None

        drawn = bool(r.get("drawn_game")) or r.get("winner") is None
        winner = None if drawn else as_int(r.get("winner"))
        if winner is not None and not 0 <= winner <= 3:
            winner = None
        self_draw = bool(r.get("self_draw")) and winner is not None
        tai, fan, points = (as_int(score.get(k)) for k in ("total_tai", "total_fan", "points"))
        mult: int | None = None
        if ruleset in MULTIPLIER_RULESETS or r.get("ruleset") in MULTIPLIER_RULESETS:
            # caishen: the hand is worth stake × 倍; 台 and 番 do not apply (the score reports 0)
            stake = as_int(score.get("stake"))
            if points is not None and stake is not None and stake > 0 and points % stake == 0:
                mult = points // stake
            tai = fan = None
        if winner is None:
            tai = fan = points = mult = None
        patterns = [p for p in score.get("patterns") or [] if isinstance(p, str)] if winner is not None else []
        reveal = r.get("reveal")
        await db.execute(
            "UPDATE hands SET status = 'settled', result = ?, drawn = ?, winner_seat = ?, self_draw = ?, tai = ?, "
            "fan = ?, points = ?, mult = ?, reveal = COALESCE(?, reveal), settled_at = ? WHERE hand_id = ?",
            (
                _dumps(res.to_json()),
                int(drawn),
                winner,
                int(self_draw),
                tai,
                fan,
                points,
                mult,
                None if reveal is None else _dumps(reveal),
                at,
                hand_id,
            ),
        )
        seat_rows = []
        member_rows = []
        for i, uid in enumerate(seats):
            if uid is None:
                continue
            won = winner == i
            seat_rows.append((deltas[i], int(won), at, hand_id, i))
            member_rows.append(
                (
                    int(won),
                    int(won and self_draw),
                    deltas[i],
                    max(deltas[i], 0),
                    (points or 0) if won else 0,
                    (tai or 0) if won else 0,
                    (fan or 0) if won else 0,
                    (mult or 0) if won else 0,
                    at,
                    guild_id,
                    uid,
                )
            )
        await db.executemany(
            "INSERT OR IGNORE INTO members(guild_id, user_id, first_seen) VALUES (?, ?, ?)",
            [(guild_id, uid, at) for uid in seats if uid is not None],
        )
        await db.executemany(
            "UPDATE hand_seats SET delta = ?, won = ?, settled_at = ? WHERE hand_id = ? AND seat = ?", seat_rows
        )
        await db.executemany(
            "UPDATE members SET hands = hands + 1, wins = wins + ?1, self_draws = self_draws + ?2, net = net + ?3, "
            "biggest_win = MAX(biggest_win, ?4), best_points = MAX(best_points, ?5), best_tai = MAX(best_tai, ?6), "
            "best_fan = MAX(best_fan, ?7), best_mult = MAX(best_mult, ?8), last_played = ?9 "
            "WHERE guild_id = ?10 AND user_id = ?11",
            member_rows,
        )
        if winner is not None and seats[winner] is not None and patterns:
            await db.executemany(
                "INSERT INTO member_patterns(guild_id, user_id, pattern, count) VALUES (?, ?, ?, 1) "
                "ON CONFLICT(guild_id, user_id, pattern) DO UPDATE SET count = member_patterns.count + 1",
                [(guild_id, seats[winner], p) for p in dict.fromkeys(patterns)],
            )

    async def open_hands(self) -> list[HandRecord]:
        """Hands created but not settled (to resume after a restart)."""
        async with self._read() as db:
            rows = await self._all(
                db, f"SELECT {self._HAND_COLS} FROM hands WHERE status = 'running' ORDER BY created_at, hand_id"
            )
        return [self._hand(r) for r in rows]

    async def hand_result(self, hand_id: str) -> SettleResult | None:
        async with self._read() as db:
            row = await self._one(db, "SELECT status, result FROM hands WHERE hand_id = ?", (hand_id,))
        if row is None:
            raise UnknownHand(f"hand {hand_id}")
        return SettleResult.from_json(json.loads(row[1])) if row[0] == "settled" else None

    # ------------------------------------------------------------------------- tables (resume)
    @_retrying
    async def save_table(
        self,
        table_id: str,
        guild_id: int,
        channel_id: int,
        config_json: Any,
        state_json: Any,
        now: float | None = None,
    ) -> bool:
        """Insert or update a running table. Returns False (and writes nothing) if it was closed."""
        table_id = _check_text(table_id, "table id", 200)
        _check_id(guild_id, "guild id")
        _check_id(channel_id, "channel id")
        config = _json_text(config_json, "config")
        state = _json_text(state_json, "state")
        at = _time(now)
        async with self._write() as db:
            row = await self._one(db, "SELECT status, guild_id FROM tables WHERE table_id = ?" + self._lock, (table_id,))
            if row is None:
                await db.execute(
                    "INSERT INTO tables(table_id, guild_id, channel_id, config, state, status, created_at, updated_at) "
                    "VALUES (?, ?, ?, ?, ?, 'running', ?, ?)",
                    (table_id, guild_id, channel_id, config, state, at, at),
                )
                return True
            if row[0] != "running":
                return False
            if row[1] != guild_id:
                raise InvalidArgument(f"table {table_id} belongs to another guild")
            await db.execute(
                "UPDATE tables SET channel_id = ?, config = ?, state = ?, updated_at = ? WHERE table_id = ?",
                (channel_id, config, state, at, table_id),
            )
        return True

    @_retrying
    async def close_table(self, table_id: str, now: float | None = None) -> bool:
        """Mark a table closed. True if it was running; False if already closed."""
        at = _time(now)
        async with self._write() as db:
            row = await self._one(db, "SELECT status FROM tables WHERE table_id = ?" + self._lock, (table_id,))
            if row is None:
                raise UnknownTable(f"table {table_id}")
            if row[0] != "running":
                return False
            await db.execute(
                "UPDATE tables SET status = 'closed', closed_at = ?, updated_at = ? WHERE table_id = ?", (at, at, table_id)
            )
        return True

    async def running_tables(self) -> list[TableRecord]:
        """Every running table with its config, state and hand ids (oldest first)."""
        async with self._read() as db:
            rows = await self._all(
                db,
                "SELECT table_id, guild_id, channel_id, config, state, status, created_at, updated_at FROM tables "
                "WHERE status = 'running' ORDER BY created_at, table_id",
            )
            out = []
            for r in rows:
                hands = await self._all(
                    db, "SELECT hand_id, status FROM hands WHERE table_id = ? ORDER BY created_at, rowid", (r[0],)
                )
                open_ids = [h[0] for h in hands if h[1] == "running"]
                out.append(
                    TableRecord(
                        table_id=r[0],
                        guild_id=r[1],
                        channel_id=r[2],
                        config=json.loads(r[3]),
                        state=json.loads(r[4]),
                        status=r[5],
                        hand_ids=tuple(h[0] for h in hands),
                        open_hand_id=open_ids[-1] if open_ids else None,
                        created_at=r[6],
                        updated_at=r[7],
                    )
                )
        return out

    async def suspended_tables(self) -> list[dict[str, Any]]:
        """Tables a runner failure suspended (closed, with a ``suspended`` note in their state; see
        docs/table.md): ``{"table_id", "guild_id", "channel_id", "at", "error", "hand_id"}``, oldest first."""
        if self._pool is not None:
            return await self._suspended_tables_pg()
        async with self._read() as db:
            rows = await self._all(
                db,
                "SELECT table_id, guild_id, channel_id, json_extract(state, '$.suspended') FROM tables "
                "WHERE json_valid(state) AND json_extract(state, '$.suspended') IS NOT NULL ORDER BY updated_at, table_id",
            )
        out = []
        for r in rows:
            note = json.loads(r[3]) if isinstance(r[3], str) else {}
            out.append({"table_id": r[0], "guild_id": r[1], "channel_id": r[2], **(note if isinstance(note, dict) else {})})
        return out

    async def _suspended_tables_pg(self) -> list[dict[str, Any]]:
        async with self._read() as db:
            rows = await self._all(
                db,
                "SELECT table_id, guild_id, channel_id, state FROM tables WHERE state LIKE '%\"suspended\"%' "
                "ORDER BY updated_at, table_id",
            )
        out = []
        for r in rows:
            try:
                state = json.loads(r[3])
            except ValueError:
                continue
            note = state.get("suspended") if isinstance(state, dict) else None
            if note is None:
                continue
            out.append({"table_id": r[0], "guild_id": r[1], "channel_id": r[2], **(note if isinstance(note, dict) else {})})
        return out

    # ------------------------------------------------------------------------- leaderboards & stats
    async def leaderboard(
        self,
        guild_id: int,
        kind: str = "balance",
        period: str = "all",
        page: int = 1,
        page_size: int = 10,
        now: float | None = None,
    ) -> LeaderPage:
        """A page of a guild's leaderboard.

        kinds: ``balance``; ``net`` (silver won − lost in hands, fees included) over ``period``
        ``day`` / ``week`` (rolling, ending ``now``) or ``all``; ``wins``; the biggest hand: ``biggest``
        (= ``points``: stake × 台 × 2^番 in Jiaxing, stake × 倍 in caishen; every ruleset), ``mult`` (caishen
        倍), ``tai`` or ``fan`` (Jiaxing only: a caishen hand has no 台/番). For ``biggest``/``points``/``mult``
        each entry's ``best`` is the hand that holds the value. Players with nothing to show (0) are left
        out, except for balance.
        """
        _check_id(guild_id, "guild id")
        if kind not in LEADERBOARD_KINDS:
            raise InvalidArgument(f"kind must be one of {', '.join(LEADERBOARD_KINDS)}")
        if period not in PERIODS:
            raise InvalidArgument("period must be day, week or all")
        if not isinstance(page, int) or page < 1 or not isinstance(page_size, int) or not 1 <= page_size <= 100:
            raise InvalidArgument("page >= 1 and 1 <= page_size <= 100")
        offset = (page - 1) * page_size
        at = _time(now)
        async with self._read() as db:
            if kind == "balance":
                if self.scope == "guild":
                    base = "FROM wallets w WHERE w.scope = ?1 AND w.user_id IS NOT NULL"
                    params: tuple[Any, ...] = (guild_id,)
                else:
                    base = (
                        "FROM members m JOIN wallets w ON w.scope = 0 AND w.user_id = m.user_id WHERE m.guild_id = ?1"
                    )
                    params = (guild_id,)
                (total,) = await self._one(db, f"SELECT COUNT(*) {base}", params)
                rows = await self._all(
                    db,
                    f"SELECT w.user_id, w.balance {base} ORDER BY w.balance DESC, w.user_id LIMIT ?2 OFFSET ?3",
                    (*params, page_size, offset),
                )
            elif kind == "net" and period != "all":
                since = at - PERIODS[period]  # type: ignore[operator]
                base = (
                    "FROM ledger WHERE guild_id = ?1 AND at >= ?2 AND at <= ?3 "
                    "AND hand_id IS NOT NULL AND user_id IS NOT NULL GROUP BY user_id HAVING SUM(delta) != 0"
                )
                # one aggregation gives the page and (as a window count) the number of entries
                rows = await self._all(
                    db,
                    f"SELECT user_id, v, COUNT(*) OVER () FROM (SELECT user_id, SUM(delta) AS v {base}) AS t "
                    "ORDER BY v DESC, user_id LIMIT ?4 OFFSET ?5",
                    (guild_id, since, at, page_size, offset),
                )
                if rows:
                    total = rows[0][2]
                else:  # a page past the end: count separately
                    (total,) = await self._one(
                        db, f"SELECT COUNT(*) FROM (SELECT user_id {base}) AS t", (guild_id, since, at)
                    )
            else:
                col = _MEMBER_COLUMN[kind]
                base = f"FROM members WHERE guild_id = ?1 AND {col} != 0"
                (total,) = await self._one(db, f"SELECT COUNT(*) {base}", (guild_id,))
                rows = await self._all(
                    db,
                    f"SELECT user_id, {col} {base} ORDER BY {col} DESC, user_id LIMIT ?2 OFFSET ?3",
                    (guild_id, page_size, offset),
                )
            names = await self._names(db, [r[0] for r in rows])
            bests: dict[int, BestHand | None] = {}
            if kind in ("biggest", "points", "mult"):
                for r in rows:
                    bests[r[0]] = await self._best_hand(db, guild_id, r[0], "mult" if kind == "mult" else "points")
        entries = tuple(
            LeaderEntry(rank=offset + i + 1, user_id=r[0], name=names.get(r[0], str(r[0])), value=int(r[1]),
                        best=bests.get(r[0]))
            for i, r in enumerate(rows)
        )
        return LeaderPage(
            kind=kind,
            period=period if kind == "net" else "all",
            page=page,
            pages=max(1, -(-total // page_size)),
            total=total,
            entries=entries,
        )

    async def _best_hand(self, db: aiosqlite.Connection, guild_id: int, user_id: int, by: str) -> BestHand | None:
        """The player's biggest won hand in the guild by ``points`` or ``mult`` (ties: the first one won)."""
        r = await self._one(db, _BEST_HAND_SQL.format(col="mult" if by == "mult" else "points"), (guild_id, user_id))
        if r is None:
            return None
        return BestHand(hand_id=r[0], ruleset=r[1], points=r[2], tai=r[3], fan=r[4], mult=r[5],
                        self_draw=bool(r[6]), settled_at=r[7])

    async def _names(self, db: aiosqlite.Connection, ids: list[int]) -> dict[int, str]:
        if not ids:
            return {}
        marks = ",".join("?" * len(ids))
        rows = await self._all(db, f"SELECT user_id, name FROM players WHERE user_id IN ({marks})", ids)
        return {r[0]: r[1] for r in rows}

    async def player_stats(self, guild_id: int, user_id: int) -> PlayerStats:
        _check_id(guild_id, "guild id")
        _check_id(user_id, "user id")
        async with self._read() as db:
            await self._require_player(db, user_id)
            m = await self._one(
                db,
                "SELECT hands, wins, self_draws, net, biggest_win, best_points, best_tai, best_fan, best_mult FROM members "
                "WHERE guild_id = ? AND user_id = ?",
                (guild_id, user_id),
            )
            fav = await self._one(
                db,
                "SELECT pattern FROM member_patterns WHERE guild_id = ? AND user_id = ? ORDER BY count DESC, pattern LIMIT 1",
                (guild_id, user_id),
            )
            w = await self._one(
                db, "SELECT balance FROM wallets WHERE scope = ? AND user_id = ?", (self._scope_key(guild_id), user_id)
            )
            best = await self._best_hand(db, guild_id, user_id, "points")
        hands, wins, self_draws, net, biggest, bp, bt, bf, bm = m or (0,) * 9
        return PlayerStats(
            user_id=user_id,
            guild_id=guild_id,
            balance=int(w[0]) if w else 0,
            hands=hands,
            wins=wins,
            win_rate=wins / hands if hands else 0.0,
            self_draws=self_draws,
            biggest_win=biggest,
            best_points=bp,
            best_tai=bt,
            best_fan=bf,
            favourite_pattern=fav[0] if fav else None,
            net=net,
            best_mult=bm,
            best_hand=best,
        )

    async def recent_hands(self, guild_id: int, user_id: int, limit: int = 10) -> list[HandSummary]:
        """The player's last settled hands in this guild, newest first (for /history)."""
        _check_id(guild_id, "guild id")
        _check_id(user_id, "user id")
        if not isinstance(limit, int) or not 1 <= limit <= 100:
            raise InvalidArgument("limit must be 1-100")
        async with self._read() as db:
            await self._require_player(db, user_id)
            rows = await self._all(
                db,
                "SELECT s.hand_id, s.seat, s.settled_at, s.delta, s.won, h.drawn, h.self_draw, h.tai, h.fan, "
                "h.points, h.ruleset, h.mult FROM hand_seats s JOIN hands h ON h.hand_id = s.hand_id "
                "WHERE s.guild_id = ? AND s.user_id = ? AND s.settled_at IS NOT NULL "
                "ORDER BY s.settled_at DESC, s.hand_id DESC LIMIT ?",
                (guild_id, user_id, limit),
            )
        return [
            HandSummary(
                hand_id=r[0],
                seat=r[1],
                settled_at=r[2],
                delta=r[3],
                won=bool(r[4]),
                drawn=bool(r[5]),
                self_draw=bool(r[6]) and bool(r[4]),
                tai=r[7] if r[4] else None,
                fan=r[8] if r[4] else None,
                points=r[9] if r[4] else None,
                ruleset=r[10],
                mult=r[11] if r[4] else None,
            )
            for r in rows
        ]

    # ------------------------------------------------------------------------- consistency check
    async def check(self, limit: int = 20) -> list[Problem]:
        """Verify the books; return the problems found (empty list: consistent).

        Checks: SQLite integrity and foreign keys; every wallet balance equals the sum of its ledger
        rows and each row's running balance; no player below 0; every operation and every hand sums
        to zero; each scope's wallets (house included) sum to zero; no half-settled hand (ledger rows
        without a settled result or the reverse); per-guild stats match the ledger; event logs have
        no gaps.
        """
        problems: list[Problem] = []

        def add(code: str, rows: list[Any], fmt: Any) -> None:
            for r in rows[:limit]:
                problems.append(Problem(code, fmt(r)))
            if len(rows) > limit:
                problems.append(Problem(code, f"... and {len(rows) - limit} more"))

        async with self._read() as db:
            if self._pool is None:  # PostgreSQL checks its pages and enforces the foreign keys itself
                rows = await self._all(db, "PRAGMA quick_check")
                if [r[0] for r in rows] != ["ok"]:
                    add("integrity", rows, lambda r: str(r[0]))
                add(
                    "foreign_key",
                    await self._all(db, "PRAGMA foreign_key_check"),
                    lambda r: f"{r[0]} row {r[1]} references missing {r[2]}",
                )
            add(
                "balance_mismatch",
                await self._all(
                    db,
                    "SELECT * FROM (SELECT w.wallet_id, w.scope, w.user_id, w.balance, "
                    "(SELECT COALESCE(SUM(l.delta), 0) FROM ledger l WHERE l.wallet_id = w.wallet_id) AS s "
                    "FROM wallets w) AS x WHERE balance != s",
                ),
                lambda r: f"wallet {r[0]} (scope {r[1]}, {'house' if r[2] is None else 'user ' + str(r[2])}): "
                f"balance {r[3]} but ledger sum {r[4]}",
            )
            add(
                "running_balance",
                await self._all(
                    db,
                    "SELECT entry_id, wallet_id, balance_after, run FROM (SELECT entry_id, wallet_id, balance_after, "
                    "SUM(delta) OVER (PARTITION BY wallet_id ORDER BY entry_id) AS run FROM ledger) AS x "
                    "WHERE run != balance_after",
                ),
                lambda r: f"ledger row {r[0]} (wallet {r[1]}): balance_after {r[2]} but running sum {r[3]}",
            )
            add(
                "negative_balance",
                await self._all(
                    db,
                    "SELECT wallet_id, user_id, balance FROM wallets WHERE user_id IS NOT NULL AND balance < 0 "
                    "UNION ALL SELECT wallet_id, user_id, balance_after FROM ledger "
                    "WHERE user_id IS NOT NULL AND balance_after < 0",
                ),
                lambda r: f"wallet {r[0]} (user {r[1]}) at {r[2]}",
            )
            add(
                "txn_not_zero_sum",
                await self._all(db, "SELECT txn_id, SUM(delta) FROM ledger GROUP BY txn_id HAVING SUM(delta) != 0"),
                lambda r: f"operation {r[0]} sums to {r[1]}",
            )
            add(
                "hand_not_zero_sum",
                await self._all(
                    db,
                    "SELECT hand_id, SUM(delta) FROM ledger WHERE hand_id IS NOT NULL GROUP BY hand_id "
                    "HAVING SUM(delta) != 0",
                ),
                lambda r: f"hand {r[0]} sums to {r[1]}",
            )
            add(
                "scope_not_zero_sum",
                await self._all(db, "SELECT scope, SUM(balance) FROM wallets GROUP BY scope HAVING SUM(balance) != 0"),
                lambda r: f"scope {r[0]}: wallets and house sum to {r[1]}",
            )
            add(
                "half_settled",
                await self._all(
                    db,
                    "SELECT h.hand_id, 'has ledger rows but no settled result' FROM hands h "
                    "WHERE h.status != 'settled' AND (EXISTS(SELECT 1 FROM ledger l WHERE l.hand_id = h.hand_id) "
                    "OR EXISTS(SELECT 1 FROM txns t WHERE t.hand_id = h.hand_id)) "
                    "UNION ALL SELECT h.hand_id, 'settled without its settlement record' FROM hands h "
                    "WHERE h.status = 'settled' AND (SELECT COUNT(*) FROM txns t WHERE t.hand_id = h.hand_id "
                    "AND t.kind = 'settle') != 1 "
                    "UNION ALL SELECT DISTINCT s.hand_id, 'seat results missing' FROM hand_seats s "
                    "JOIN hands h ON h.hand_id = s.hand_id WHERE h.status = 'settled' AND s.settled_at IS NULL",
                ),
                lambda r: f"hand {r[0]}: {r[1]}",
            )
            add(
                "stats_mismatch",
                await self._all(
                    db,
                    "WITH seats AS (SELECT guild_id, user_id, COUNT(*) AS n, SUM(won) AS w, SUM(delta) AS d "
                    "FROM hand_seats WHERE settled_at IS NOT NULL GROUP BY guild_id, user_id), "
                    "led AS (SELECT guild_id, user_id, SUM(delta) AS d FROM ledger "
                    "WHERE hand_id IS NOT NULL AND user_id IS NOT NULL GROUP BY guild_id, user_id) "
                    "SELECT m.guild_id, m.user_id, m.hands, COALESCE(s.n, 0), m.net, COALESCE(s.d, 0), "
                    "COALESCE(l.d, 0), m.wins, COALESCE(s.w, 0) FROM members m "
                    "LEFT JOIN seats s ON s.guild_id = m.guild_id AND s.user_id = m.user_id "
                    "LEFT JOIN led l ON l.guild_id = m.guild_id AND l.user_id = m.user_id "
                    "WHERE m.hands != COALESCE(s.n, 0) OR m.net != COALESCE(s.d, 0) OR m.net != COALESCE(l.d, 0) "
                    "OR m.wins != COALESCE(s.w, 0)",
                ),
                lambda r: f"guild {r[0]} user {r[1]}: stats hands {r[2]} net {r[4]} wins {r[7]}, "
                f"records hands {r[3]} net {r[5]} (ledger {r[6]}) wins {r[8]}",
            )
            add(
                "event_gap",
                await self._all(
                    db,
                    "SELECT hand_id, COUNT(*), MAX(idx) FROM hand_events GROUP BY hand_id HAVING COUNT(*) != MAX(idx) + 1",
                ),
                lambda r: f"hand {r[0]}: {r[1]} events but last index {r[2]}",
            )
        return problems

    async def totals(self) -> dict[str, int]:
        """Counts for operators: players, wallets, ledger rows, hands (settled), events, running tables."""
        async with self._read() as db:
            row = await self._one(
                db,
                "SELECT (SELECT COUNT(*) FROM players), (SELECT COUNT(*) FROM wallets), (SELECT COUNT(*) FROM ledger), "
                "(SELECT COUNT(*) FROM hands), (SELECT COUNT(*) FROM hands WHERE status = 'settled'), "
                "(SELECT COUNT(*) FROM hand_events), (SELECT COUNT(*) FROM tables WHERE status = 'running')",
            )
        keys = ("players", "wallets", "ledger_rows", "hands", "settled_hands", "events", "running_tables")
        return dict(zip(keys, (int(v) for v in row), strict=True))
