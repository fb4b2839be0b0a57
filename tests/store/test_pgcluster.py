"""The throwaway PostgreSQL server the store tests run against starts, answers and leaves nothing."""

import asyncio
import os

import asyncpg
import pytest

from jxbot.pgcluster import PgCluster, PgUnavailable


def test_throwaway_server_answers_and_is_removed() -> None:
    cluster = PgCluster()
    try:
        dsn = cluster.start()
    except PgUnavailable:
        if os.environ.get("CI"):
            raise  # CI installs PostgreSQL: not starting it there is a failure, not a skip
        pytest.skip("no PostgreSQL server binaries on this machine")
    folder = cluster.dir
    assert folder is not None and folder.exists()

    async def talk() -> str:
        conn = await asyncpg.connect(dsn)
        try:
            await conn.execute("CREATE TABLE t (x int)")
            await conn.execute("INSERT INTO t VALUES (7)")
            return str(await conn.fetchval("SELECT x FROM t")) + str(await conn.fetchval("SHOW server_version"))
        finally:
            await conn.close()

    try:
        out = asyncio.run(talk())
    finally:
        cluster.stop()
    assert out.startswith("7")
    assert not folder.exists()


def test_the_test_server_is_fast_and_the_durable_one_flushes_every_commit() -> None:
    """Settings given at start beat ALTER SYSTEM: durability is chosen by the constructor."""

    async def settings(dsn: str) -> dict[str, str]:
        conn = await asyncpg.connect(dsn)
        try:
            rows = await conn.fetch("SELECT name, setting FROM pg_settings WHERE name = ANY($1::text[])",
                                    ["fsync", "synchronous_commit", "full_page_writes"])
            return {r["name"]: r["setting"] for r in rows}
        finally:
            await conn.close()

    seen = {}
    for durable in (False, True):
        cluster = PgCluster(durable=durable)
        try:
            dsn = cluster.start()
        except PgUnavailable:
            if os.environ.get("CI"):
                raise
            pytest.skip("no PostgreSQL server binaries on this machine")
        try:
            seen[durable] = asyncio.run(settings(dsn))
        finally:
            cluster.stop()
    assert seen[False] == {"fsync": "off", "synchronous_commit": "off", "full_page_writes": "off"}
    assert seen[True] == {"fsync": "on", "synchronous_commit": "on", "full_page_writes": "on"}
