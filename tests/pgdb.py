"""PostgreSQL for tests: one throwaway server per test process (xdist worker), a fresh database per test.

``server_dsn()`` starts the server the first time (or uses ``JXBOT_TEST_POSTGRES_DSN``) and returns the
DSN of its maintenance database. ``empty_database()`` gives this process's own database, migrated once
and emptied before each test (a few ``DELETE``s: milliseconds, where ``CREATE DATABASE`` costs ~0.5-1 s);
``fresh_database()`` makes a database of its own (from a migrated template) for a test that changes the
schema, ``drop_database()`` removes it. Without server binaries the tests skip, except under ``CI``, where not
having PostgreSQL is a failure: CI installs it (.ci/run).
"""

from __future__ import annotations

import atexit
import itertools
import os
from urllib.parse import urlsplit, urlunsplit

import asyncpg
import pytest

from jxbot.pgcluster import PgCluster, PgUnavailable

_cluster: PgCluster | None = None
_dsn: str | None = None
_failure: str | None = None
_template: str | None = None
_counter = itertools.count()
_tag = f"{os.environ.get('PYTEST_XDIST_WORKER', 'main')}_{os.getpid()}"


def with_database(dsn: str, name: str) -> str:
    p = urlsplit(dsn)
    return urlunsplit((p.scheme, p.netloc, f"/{name}", p.query, ""))


def server_dsn() -> str:
    """The server's DSN; skips (fails under CI) when there is no PostgreSQL."""
    global _cluster, _dsn, _failure
    if _dsn is None and _failure is None:
        env = os.environ.get("JXBOT_TEST_POSTGRES_DSN")
        if env:
            _dsn = env
            atexit.register(_drop_ours)  # a server that outlives the run: leave no database of ours on it
        else:
            cluster = PgCluster()
            try:
                _dsn = cluster.start()
            except PgUnavailable as exc:
                _failure = str(exc)
            else:
                _cluster = cluster
                atexit.register(cluster.stop)
    if _dsn is None:
        if os.environ.get("CI"):
            pytest.fail(f"PostgreSQL is needed in CI: {_failure}")
        pytest.skip(f"no PostgreSQL here: {_failure}")
    return _dsn


async def _template_db(admin: asyncpg.Connection, dsn: str) -> str:
    """A database with the current schema and no scope yet (Store.open sets the scope it is asked)."""
    global _template
    if _template is None:
        from jxbot.store import Store

        name = f"jxtpl_{_tag}"
        await admin.execute(f'DROP DATABASE IF EXISTS "{name}"')
        await admin.execute(f'CREATE DATABASE "{name}" TEMPLATE template0')
        s = await Store.open(with_database(dsn, name))
        await s._db.execute("DELETE FROM meta WHERE key = 'scope'")
        await s.close()
        _template = name
    return _template


_shared: str | None = None
_EMPTY = "; ".join(
    [f"DELETE FROM {t}" for t in ("ranked_queue", "coach_reviews", "event_tables", "event_players", "events", "arranged", "ladder_history", "ladder_matches", "ladder_ratings", "ladder_buckets", "ladder_seasons", "ladder_schedules", "ledger", "txns", "hand_events", "hand_seats", "member_patterns", "members",
                                   "hands", "tables", "wallets", "guild_settings", "players")]
    + ["DELETE FROM meta WHERE key = 'scope'"]
    + [f"SELECT setval(pg_get_serial_sequence('{t}', '{c}'), 1, false)"
       for t, c in (("wallets", "wallet_id"), ("txns", "txn_id"), ("ledger", "entry_id"), ("hands", "seq"))]
)


async def empty_database() -> str:
    """The DSN of this process's test database, with the current schema, no rows and no scope."""
    global _shared
    if _shared is None:
        _shared = await fresh_database()
    conn = await asyncpg.connect(_shared)
    try:  # DELETE beats TRUNCATE on tables this small (TRUNCATE makes new files for every table and index)
        await conn.execute(_EMPTY)
    finally:
        await conn.close()
    return _shared


async def fresh_database(*, migrated: bool = True) -> str:
    """A database of its own: with the current schema, or (``migrated=False``) with no table at all."""
    dsn = server_dsn()
    admin = await asyncpg.connect(dsn)
    try:
        template = await _template_db(admin, dsn) if migrated else "template0"
        name = f"jxt_{_tag}_{next(_counter)}"
        await admin.execute(f'CREATE DATABASE "{name}" TEMPLATE "{template}"')
    finally:
        await admin.close()
    return with_database(dsn, name)


def _drop_ours() -> None:
    import asyncio

    async def drop() -> None:
        admin = await asyncpg.connect(server_dsn())
        try:
            names = [r[0] for r in await admin.fetch(
                "SELECT datname FROM pg_database WHERE datname LIKE $1 OR datname LIKE $2",
                f"jxt_{_tag}_%", f"jxtpl_{_tag}")]
            for name in names:
                await admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        finally:
            await admin.close()

    asyncio.run(drop())


async def drop_database(db_dsn: str) -> None:
    name = urlsplit(db_dsn).path.lstrip("/")
    admin = await asyncpg.connect(server_dsn())
    try:
        await admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
    finally:
        await admin.close()
