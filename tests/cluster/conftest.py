from __future__ import annotations

from collections.abc import AsyncIterator

import pytest_asyncio

from tests.bot.conftest import fake, game, store  # noqa: F401  (the bot tests' fixtures: a bot on a store)
from tests.pgdb import drop_database, fresh_database


@pytest_asyncio.fixture
async def pg_dsn() -> AsyncIterator[str]:
    """A database of its own on the tests' PostgreSQL server (tests/pgdb.py: skips without one, fails in CI)."""
    dsn = await fresh_database(migrated=False)
    yield dsn
    await drop_database(dsn)
