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
