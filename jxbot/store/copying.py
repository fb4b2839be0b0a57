"""Moving a whole database between the backends: ``jxbot store copy SQLITE postgresql://…`` and the
PostgreSQL ``jxbot store backup`` (a SQLite file written from one snapshot).

Both read the source inside one transaction (SQLite: one read snapshot; PostgreSQL: ``REPEATABLE READ
READ ONLY``) and write the target inside one transaction, so a copy is all or nothing and never mixes
two moments of a running bot. Rows keep their ids; the target's id sequences are moved past them.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import asyncpg

from jxbot.store.schema import SCHEMA_VERSION

# every table in foreign-key order (a row's references are copied before it), with its key for the order
TABLES: tuple[tuple[str, str], ...] = (
    ("players", "user_id"),
    ("guild_settings", "guild_id"),
    ("wallets", "wallet_id"),
    ("tables", "table_id"),
    ("hands", "rowid"),  # creation order: a table's hands created in one instant keep their order
    ("hand_seats", "hand_id, seat"),
    ("hand_events", "hand_id, idx"),
    ("txns", "txn_id"),
    ("ledger", "entry_id"),
    ("members", "guild_id, user_id"),
    ("member_patterns", "guild_id, user_id, pattern"),
    ("ladder_seasons", "ladder, season"),
    ("ladder_schedules", "ladder"),
    ("ladder_ratings", "ladder, ruleset, season, user_id"),
    ("ladder_buckets", "ladder, ruleset, season, bucket"),
    ("ladder_matches", "match_id"),
    ("ladder_history", "match_id, user_id"),
    ("arranged", "key"),
    ("events", "event_id"),
    ("event_players", "event_id, user_id"),
    ("event_tables", "event_id, round, table_no"),
    ("coach_reviews", "hand_id, seat"),
    ("ranked_queue", "user_id"),
)
SEQUENCES = (("wallets", "wallet_id"), ("txns", "txn_id"), ("ledger", "entry_id"), ("hands", "seq"))


class CopyError(Exception):
    """A copy cannot be made; ``str(exc)`` is one line for the operator."""


def sqlite_columns(con: sqlite3.Connection, table: str) -> list[str]:
    return [r[1] for r in con.execute(f"PRAGMA table_info({table})")]


def _sqlite_source(path: str) -> sqlite3.Connection:
    con = sqlite3.connect(f"{Path(path).resolve().as_uri()}?mode=ro", uri=True, isolation_level=None)
    con.execute("PRAGMA busy_timeout = 10000")
    (version,) = con.execute("PRAGMA user_version").fetchone()
    if version != SCHEMA_VERSION:
        con.close()
        raise CopyError(f"{path} has schema {version}, this jxbot copies schema {SCHEMA_VERSION} "
                        "(open it once with this version: `jxbot store migrate --db PATH`)")
    return con


async def target_rows(conn: asyncpg.Connection) -> int:
    """How many rows the PostgreSQL database holds besides its schema (0: empty)."""
    total = 0
    for table, _ in TABLES:
        total += int(await conn.fetchval(f"SELECT COUNT(*) FROM (SELECT 1 FROM {table} LIMIT 1) AS t"))
    return total


async def sqlite_to_pg(path: str, conn: asyncpg.Connection, *, replace: bool = False) -> dict[str, int]:
    """Copy every row of the SQLite database at ``path`` into the (migrated) PostgreSQL database of
    ``conn``, in one transaction. Refuses a target with rows unless ``replace`` (then they are deleted
    first, in the same transaction). Returns the rows copied per table."""
    src = _sqlite_source(path)
    counts: dict[str, int] = {}
    try:
        src.execute("BEGIN")  # one snapshot of the source for every table
        scope_row = src.execute("SELECT value FROM meta WHERE key = 'scope'").fetchone()
        async with conn.transaction():
            if await target_rows(conn):
                if not replace:
                    raise CopyError("the target database is not empty (use --replace to delete its rows first)")
                for table, _ in reversed(TABLES):
                    await conn.execute(f"DELETE FROM {table}")
            await conn.execute("DELETE FROM meta WHERE key = 'scope'")
            if scope_row is not None:
                await conn.execute("INSERT INTO meta(key, value) VALUES ('scope', $1)", scope_row[0])
            for table, order in TABLES:
                cols = sqlite_columns(src, table)
                rows = src.execute(f"SELECT {', '.join(cols)} FROM {table} ORDER BY {order}").fetchall()
                if rows:
                    await conn.copy_records_to_table(table, records=rows, columns=cols)
                counts[table] = len(rows)
            for table, col in SEQUENCES:
                await conn.execute(
                    f"SELECT setval(pg_get_serial_sequence('{table}', '{col}'), "
                    f"COALESCE((SELECT MAX({col}) FROM {table}), 0) + 1, false)")
        src.execute("COMMIT")
    finally:
        src.close()
    # fresh statistics and visibility map for the planner (index-only counts on the leaderboards)
    await conn.execute("VACUUM (ANALYZE)")
    return counts


async def pg_to_sqlite(conn: asyncpg.Connection, dest: str) -> dict[str, int]:
    """Write every row of the PostgreSQL database of ``conn`` into the new SQLite database ``dest`` (made
    with the current schema by the caller), reading one REPEATABLE READ snapshot."""
    out = sqlite3.connect(dest, isolation_level=None)
    counts: dict[str, int] = {}
    try:
        out.execute("PRAGMA foreign_keys = ON")
        async with conn.transaction(isolation="repeatable_read", readonly=True):
            scope = await conn.fetchval("SELECT value FROM meta WHERE key = 'scope'")
            out.execute("BEGIN IMMEDIATE")
            if scope is not None:
                out.execute("INSERT OR REPLACE INTO meta(key, value) VALUES ('scope', ?)", (scope,))
            for table, order in TABLES:
                cols = sqlite_columns(out, table)
                pg_order = "seq" if order == "rowid" else order
                rows: Iterable[Any] = [tuple(r) for r in await conn.fetch(
                    f"SELECT {', '.join(cols)} FROM {table} ORDER BY {pg_order}")]
                rows = list(rows)
                out.executemany(f"INSERT INTO {table}({', '.join(cols)}) VALUES ({', '.join('?' * len(cols))})", rows)
                counts[table] = len(rows)
            out.execute("COMMIT")
    finally:
        out.close()
    return counts
