"""Moves of many tables arriving together are committed together (group commit): under load each table
no longer waits behind every other table's own transaction, and each move still gets its own answer."""

from __future__ import annotations

import asyncio

import pytest

from jxbot.store.errors import EventConflict, EventOutOfOrder, UnknownHand

from .test_hands import CH, SEATS, G


@pytest.fixture
def db_url(tmp_path):
    """SQLite only: the group commit is SQLite's (one writer); on PostgreSQL each move is its own concurrent
    transaction (the store suite's other event tests run there)."""
    return str(tmp_path / "jx.sqlite3")


async def test_concurrent_moves_of_many_tables_share_commits_and_keep_their_own_errors(store, players):
    n = 40
    for i in range(n):
        await store.create_hand(f"h{i}", G, CH, "jiaxing", SEATS, "c")
        await store.append_events(f"h{i}", 0, [{"type": "deal", "n": i}])
    commits = 0
    real_write = store._write

    def counting_write():
        nonlocal commits
        commits += 1
        return real_write()

    store._write = counting_write
    moves = [store.append_events(f"h{i}", 1, [{"type": "discard", "n": i}, {"type": "draw", "n": i}])
             for i in range(n)]
    # in the same rush: a retry, a second move of a table queued behind its first, and three bad moves
    moves += [store.append_events("h0", 1, [{"type": "discard", "n": 0}]),
              store.append_events("h1", 3, [{"type": "pass", "n": 1}]),
              store.append_events("h2", 1, [{"type": "discard", "n": 99}]),
              store.append_events("h3", 9, [{"type": "x"}]),
              store.append_events("nope", 0, [{"type": "x"}])]
    got = await asyncio.gather(*moves, return_exceptions=True)
    store._write = real_write
    assert got[:n] == [2] * n
    assert got[n:n + 2] == [0, 1]
    assert isinstance(got[n + 2], EventConflict)
    assert isinstance(got[n + 3], EventOutOfOrder)
    assert isinstance(got[n + 4], UnknownHand)
    assert commits <= 3, commits  # one transaction for the rush (the first caller's may go alone)
    for i in range(n):
        want = [{"type": "deal", "n": i}, {"type": "discard", "n": i}, {"type": "draw", "n": i}]
        assert await store.hand_events(f"h{i}") == want + ([{"type": "pass", "n": 1}] if i == 1 else [])


async def test_a_failed_commit_fails_every_move_in_it_and_the_next_moves_go_on(store, players):
    for i in range(3):
        await store.create_hand(f"f{i}", G, CH, "jiaxing", SEATS, "c")
    real = store._append_batch
    calls = 0

    async def broken(batch):
        nonlocal calls
        calls += 1
        if calls == 1:
            raise OSError("disk full")
        return await real(batch)

    store._append_batch = broken
    got = await asyncio.gather(*(store.append_events(f"f{i}", 0, [{"type": "deal"}]) for i in range(3)),
                               return_exceptions=True)
    assert all(isinstance(g, OSError) for g in got)
    assert await store.append_events("f0", 0, [{"type": "deal"}]) == 1
    with pytest.raises(UnknownHand):
        await store.append_events("nope", 0, [{"type": "x"}])
