from __future__ import annotations

import pytest

from jxbot.store import Store
from tests import pgdb
from tests.store.conftest import settlement, win_result  # noqa: F401 - shared helpers

G = 1001
CH = 2001


@pytest.fixture(params=["sqlite", "postgresql"])
async def db_url(request, tmp_path):
    if request.param == "sqlite":
        yield str(tmp_path / "jx.sqlite3")
        return
    yield await pgdb.empty_database()


@pytest.fixture
async def store(db_url):
    s = await Store.open(db_url)
    yield s
    await s.close()
