"""A PostgreSQL server for the cluster tests: one throwaway server per test session (jxbot.pgcluster), or
``JXBOT_TEST_POSTGRES_DSN``; each test gets a database of its own on it. With ``CI`` set a test that
needs PostgreSQL and cannot start it fails rather than skips."""

from __future__ import annotations

import os
import secrets
from urllib.parse import urlsplit, urlunsplit

import pytest

from jxbot.pgcluster import PgCluster, PgUnavailable

_server: PgCluster | None = None
_dsn: str | None = None


def server_dsn() -> str:
    global _server, _dsn
    if _dsn is None:
        env = os.environ.get("JXBOT_TEST_POSTGRES_DSN")
        if env:
            _dsn = env
        else:
            _server = PgCluster()
            try:
                _dsn = _server.start()
            except PgUnavailable:
                _server = None
                if os.environ.get("CI"):
                    raise
                pytest.skip("no PostgreSQL server binaries on this machine")
    return _dsn


def stop_server() -> None:
    global _server, _dsn
    if _server is not None:
        _server.stop()
    _server, _dsn = None, None


async def fresh_database_async() -> str:
    import asyncpg

    base = server_dsn()
    name = f"jx_{secrets.token_hex(4)}"
    conn = await asyncpg.connect(base)
    try:
        await conn.execute(f'CREATE DATABASE "{name}"')
    finally:
        await conn.close()
    parts = urlsplit(base)
    return urlunsplit(parts._replace(path=f"/{name}"))
