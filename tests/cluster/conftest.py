from __future__ import annotations

from collections.abc import AsyncIterator, Iterator

import pytest
import pytest_asyncio

from tests.cluster.pg import fresh_database_async, server_dsn, stop_server


@pytest.fixture(scope="session")
def pg_server() -> Iterator[str]:
    dsn = server_dsn()
    yield dsn
    stop_server()


@pytest_asyncio.fixture
async def pg_dsn(pg_server: str) -> AsyncIterator[str]:
    yield await fresh_database_async()
