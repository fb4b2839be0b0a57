"""The PostgreSQL side of the store's backend seam (asyncpg with a connection pool).

:class:`~jxbot.store.store.Store` is written against the small part of aiosqlite's connection it uses
(``execute`` → a cursor with ``rowcount``/``lastrowid``, ``executemany``, ``execute_fetchall``). On
PostgreSQL a :class:`PgConn` offers the same calls over one asyncpg connection (inside the store's
transaction) and translates each statement once (cached): ``?``/``?N`` placeholders become ``$N``,
``INSERT OR IGNORE`` becomes ``ON CONFLICT DO NOTHING``, SQLite's two-argument ``MAX(a, b)`` becomes
``GREATEST``, an ``INSERT`` into a table with a generated key gets ``RETURNING`` its key (``lastrowid``),
and ``NUMERIC`` sums come back as ``int``. The schema is the SQLite one translated (:func:`pg_migrations`),
versioned in ``meta.schema_version``. Locking: see docs/store.md ("PostgreSQL: row locks").
"""

from __future__ import annotations

import re
from collections.abc import AsyncIterator, Iterable, Sequence
from contextlib import asynccontextmanager
from decimal import Decimal
from functools import lru_cache
from typing import Any

import asyncpg

from jxbot.store.dsn import PG_SCHEMES, is_pg_dsn, redact  # noqa: F401 - re-exported
from jxbot.store.schema import MIGRATIONS

# tables whose key the database generates (SQLite's INTEGER PRIMARY KEY rowid alias)
GENERATED_KEYS = {"wallets": "wallet_id", "txns": "txn_id", "ledger": "entry_id"}
# serialisation failure, deadlock, unique violation: the operation is re-run from the start
RETRY_ERRORS: tuple[type[BaseException], ...] = (
    asyncpg.SerializationError,
    asyncpg.DeadlockDetectedError,
    asyncpg.UniqueViolationError,
)
MIGRATE_LOCK = 0x6A78626F74  # pg_advisory_xact_lock key of the schema migration ("jxbot")


# ----------------------------------------------------------------------------- statement translation
_NUMBERED = re.compile(r"\?(\d+)")
_INSERT_INTO = re.compile(r"^\s*INSERT\s+INTO\s+(\w+)", re.I)
_QUERY = re.compile(r"\s*(SELECT|WITH)\b", re.I)
_MAX2 = re.compile(r"\bMAX\((\w+), (\$\d+)\)")


@lru_cache(maxsize=512)
def translate(sql: str) -> str:
    out = _NUMBERED.sub(r"$\1", sql)
    if "?" in out:
        n = 0

        def seq(_m: re.Match[str]) -> str:
            nonlocal n
            n += 1
            return f"${n}"

        out = re.sub(r"\?", seq, out)
    if re.match(r"^\s*INSERT OR IGNORE INTO", out, re.I):
        out = re.sub(r"INSERT OR IGNORE INTO", "INSERT INTO", out, count=1, flags=re.I) + " ON CONFLICT DO NOTHING"
    out = _MAX2.sub(r"GREATEST(\1, \2)", out)
    out = out.replace("ORDER BY created_at, rowid", "ORDER BY created_at, seq")
    return out


@lru_cache(maxsize=512)
def _with_returning(sql: str) -> tuple[str, bool]:
    m = _INSERT_INTO.match(sql)
    if m and m.group(1) in GENERATED_KEYS and "RETURNING" not in sql.upper():
        return f"{sql} RETURNING {GENERATED_KEYS[m.group(1)]}", True
    return sql, False


def _row(rec: asyncpg.Record) -> tuple[Any, ...]:
    return tuple(int(v) if isinstance(v, Decimal) else v for v in rec.values())


def _status_count(status: str) -> int:
    tail = status.rsplit(" ", 1)[-1]
    return int(tail) if tail.isdigit() else -1


class PgCursor:
    def __init__(self, rowcount: int, lastrowid: int | None, rows: list[tuple[Any, ...]]) -> None:
        self.rowcount = rowcount
        self.lastrowid = lastrowid
        self._rows = rows

    async def fetchone(self) -> tuple[Any, ...] | None:
        return self._rows[0] if self._rows else None

    async def fetchall(self) -> list[tuple[Any, ...]]:
        return list(self._rows)


class PgConn:
    """aiosqlite-shaped calls over one asyncpg connection."""

    def __init__(self, conn: Any) -> None:
        self.conn = conn

    async def execute(self, sql: str, params: Iterable[Any] = ()) -> PgCursor:
        q, returning = _with_returning(translate(sql))
        args = tuple(params)
        if returning:
            key = await self.conn.fetchval(q, *args)
            return PgCursor(1, int(key), [])
        if _QUERY.match(q):  # a query: keep its rows for fetchone/fetchall
            rows = [_row(r) for r in await self.conn.fetch(q, *args)]
            return PgCursor(len(rows), None, rows)
        status = await self.conn.execute(q, *args)
        return PgCursor(_status_count(status), None, [])

    async def executemany(self, sql: str, rows: Iterable[Sequence[Any]]) -> None:
        rows = [tuple(r) for r in rows]
        if rows:
            await self.conn.executemany(translate(sql), rows)

    async def execute_fetchall(self, sql: str, params: Iterable[Any] = ()) -> list[tuple[Any, ...]]:
        return [_row(r) for r in await self.conn.fetch(translate(sql), *tuple(params))]


class PgPoolConn:
    """The same calls, each on a pooled connection of its own (autocommit): ``Store._db`` on PostgreSQL."""

    def __init__(self, pool: asyncpg.Pool) -> None:
        self.pool = pool

    async def execute(self, sql: str, params: Iterable[Any] = ()) -> PgCursor:
        async with self.pool.acquire() as c:
            return await PgConn(c).execute(sql, params)

    async def executemany(self, sql: str, rows: Iterable[Sequence[Any]]) -> None:
        async with self.pool.acquire() as c:
            await PgConn(c).executemany(sql, rows)

    async def execute_fetchall(self, sql: str, params: Iterable[Any] = ()) -> list[tuple[Any, ...]]:
        async with self.pool.acquire() as c:
            return await PgConn(c).execute_fetchall(sql, params)


@asynccontextmanager
async def pg_transaction(pool: asyncpg.Pool, *, readonly: bool = False) -> AsyncIterator[PgConn]:
    """A write transaction (READ COMMITTED; the store takes row locks) or a read-only REPEATABLE READ
    snapshot for multi-statement reads."""
    async with pool.acquire() as c:
        if readonly:
            tr = c.transaction(isolation="repeatable_read", readonly=True)
        else:
            tr = c.transaction()
        async with tr:
            yield PgConn(c)


# ----------------------------------------------------------------------------- schema
_PG_V2_UPDATE = (
    "UPDATE hands SET mult = points / ((result::jsonb #>> '{result,score,stake}')::numeric)::bigint, "
    "tai = NULL, fan = NULL WHERE ruleset = 'caishen' AND status = 'settled' AND points IS NOT NULL "
    "AND winner_seat IS NOT NULL AND (result::jsonb #>> '{result,score,stake}')::numeric > 0"
)


def _ddl(stmt: str) -> str:
    s = stmt
    for table, key in GENERATED_KEYS.items():
        if re.match(rf"\s*CREATE TABLE {table}\b", s):
            s = s.replace(f"{key} INTEGER PRIMARY KEY", f"{key} BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY")
    if re.match(r"\s*CREATE TABLE hands\b", s):  # SQLite's rowid orders a table's hands created in the same instant
        s = s.replace("hand_id TEXT PRIMARY KEY,", "hand_id TEXT PRIMARY KEY,\n        seq BIGSERIAL,")
    s = re.sub(r"\bINTEGER\b", "BIGINT", s)
    s = re.sub(r"\bREAL\b", "DOUBLE PRECISION", s)
    s = s.replace(") WITHOUT ROWID", ")")
    if "json_extract" in s:
        return _PG_V2_UPDATE
    return s


def pg_migrations() -> list[list[str]]:
    """The SQLite migrations in PostgreSQL's dialect, one list per version (same numbering)."""
    return [[_ddl(s) for s in step] for step in MIGRATIONS]


class _StoreConnection(asyncpg.Connection):  # type: ignore[misc]
    """A pooled connection returned to the pool without the reset round trip (UNLISTEN, RESET ALL, …):
    the store keeps no session state (its advisory locks are transaction-scoped)."""

    def get_reset_query(self) -> str:
        return ""


async def connect_pool(dsn: str, *, readonly: bool = False, min_size: int = 1, max_size: int = 10) -> asyncpg.Pool:
    settings = {"application_name": "jxbot"}
    if readonly:
        settings["default_transaction_read_only"] = "on"
    pool = await asyncpg.create_pool(dsn, min_size=min_size, max_size=max_size, server_settings=settings,
                                     command_timeout=60, connection_class=_StoreConnection)
    assert pool is not None
    return pool
