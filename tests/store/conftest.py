from __future__ import annotations

import pytest

from jxbot.rules.contract import Settlement, Transfer
from jxbot.store import Store
from tests import pgdb

G = 1001  # a guild
CH = 2001  # a channel


def settlement(*transfers: tuple[int | None, int | None, int, str]) -> Settlement:
    """A Settlement from (payer, payee, amount, reason) with consistent deltas."""
    deltas = [0, 0, 0, 0]
    house = 0
    for payer, payee, amount, _ in transfers:
        if payer is None:
            house -= amount
        else:
            deltas[payer] -= amount
        if payee is None:
            house += amount
        else:
            deltas[payee] += amount
    return Settlement(
        transfers=tuple(Transfer(p, q, a, r) for p, q, a, r in transfers),
        deltas=tuple(deltas),  # type: ignore[arg-type]
        house_delta=house,
    )


def win_result(winner: int | None, *, self_draw: bool = False, tai: int = 3, fan: int = 1, stake: int = 5,
               patterns: tuple[str, ...] = ("half_flush",)) -> dict:
    if winner is None:
        return {"drawn_game": True, "winner": None, "score": None}
    return {
        "drawn_game": False,
        "winner": winner,
        "self_draw": self_draw,
        "score": {"total_tai": tai, "total_fan": fan, "stake": stake, "points": stake * tai * 2**fan,
                  "patterns": list(patterns)},
        "reveal": {"wall": [1, 2, 3], "salt": "s", "commitment": "c"},
    }


@pytest.fixture(params=["sqlite", "postgresql"])
async def db_url(request, tmp_path):
    """Where a test's database lives: a SQLite file, or a fresh PostgreSQL database (the same suite runs
    on both backends)."""
    if request.param == "sqlite":
        yield str(tmp_path / "jx.sqlite3")
        return
    yield await pgdb.empty_database()


@pytest.fixture
async def store(db_url):
    s = await Store.open(db_url)
    yield s
    await s.close()


@pytest.fixture
async def players(store):
    """Four players (ids 1-4) with 1000 silver each from the starting grant."""
    for uid in (1, 2, 3, 4):
        await store.ensure_player(uid, f"p{uid}")
        assert await store.grant_starting(G, uid) == 1000
    return (1, 2, 3, 4)
