"""SIGKILL inside the last settlement's transaction leaves neither the hand's silver nor the rating; killed right
after the commit, both; the resumed settlement then rates the match exactly once."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from jxbot.ladder import Ladder, settle_ranked_hand
from jxbot.store import Store
from tests.store.conftest import settlement

from .helpers import G, open_match, view

REPO = Path(__file__).resolve().parents[2]
U = [11, 12, 13, 14]


def kill_when(db: str, when: str) -> None:
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    proc = subprocess.Popen([sys.executable, "-m", "tests.ladder.crash_ranked", db, when], cwd=REPO, env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        assert proc.stdout is not None
        line = proc.stdout.readline().strip()
        assert line == when, proc.stderr.read() if proc.stderr else line
    finally:
        proc.send_signal(signal.SIGKILL)
        proc.wait(timeout=30)
    assert proc.returncode == -signal.SIGKILL


@pytest.mark.skipif(not hasattr(signal, "SIGKILL"), reason="needs SIGKILL")
@pytest.mark.parametrize("when", ["inside", "after"])
async def test_kill_during_the_last_settlement(db_url, when):
    kill_when(db_url, when)
    store = await Store.open(db_url)
    try:
        lad = Ladder(store)
        settled = await store.hand_result("k-h1") is not None
        outcome = await lad.outcome("k")
        # never one without the other
        assert settled == (outcome is not None) == (when == "after")
        balances = [await store.balance(G, u) for u in U]
        # the resumed table settles the last hand again (as the bot does after a restart)
        m = await open_match(store, "k", U)
        res, out = await settle_ranked_hand(store, m, "k-h1", G, U, settlement((2, 3, 20, "win")),
                                            view(3, U, last=True, discarder=2))
        assert res.repeated == (when == "after") and out is not None and out.status == "rated"
        assert out.repeated == (when == "after")
        places = {c.user_id: c.place for c in out.changes}
        assert places == {14: 1, 11: 2, 12: 3, 13: 4}  # 11 +10, 12 -10, 13 -20, 14 +20
        for u in U:
            rd = await lad.rank_data(m.ladder, "jiaxing", u)
            assert rd.matches == 1 and len(rd.history) == 2  # rated once
        if when == "after":
            assert [await store.balance(G, u) for u in U] == balances  # the repeat paid nothing
        assert await store.check() == []
    finally:
        await store.close()


async def test_two_hands_claiming_the_last_rate_once(store):
    """Once per match id: a second "last" hand of the same match (a bug, a replayed table) rates nothing more."""
    m = await open_match(store, "d", U)
    for n in range(2):
        await store.create_hand(f"d-{n}", G, 2001, "jiaxing", U, "c", table_id="d")
        _, out = await settle_ranked_hand(store, m, f"d-{n}", G, U, settlement((1, 0, 10, "win")),
                                          view(0, U, last=True, discarder=1))
        assert out is not None and out.repeated == (n == 1)
    assert (await Ladder(store).rank_data(m.ladder, "jiaxing", 11)).matches == 1
