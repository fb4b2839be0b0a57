"""Kill a writer process (SIGKILL) at random points, many times; the books must stay consistent."""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from jxbot.store import Store

REPO = Path(__file__).resolve().parents[2]
KILLS = 60


@pytest.mark.skipif(not hasattr(signal, "SIGKILL"), reason="needs SIGKILL")
async def test_killed_writers_leave_consistent_books(db_url):
    path = db_url
    pg = "://" in path
    kills = KILLS // 3 if pg else KILLS  # PostgreSQL: a third as many, living longer (each start opens a pool)
    rng = random.Random(2026)
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    after_ready = 0
    resumed = 0  # hands a killed writer had started, finished by the next one
    for k in range(kills):
        proc = subprocess.Popen(
            [sys.executable, "-m", "tests.store.crash_writer", path, str(k)],
            cwd=REPO, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
        )
        if k % 10 == 9:
            time.sleep(rng.uniform(0.0, 0.15))  # now and then: kill during start-up / migration
        else:
            assert proc.stdout is not None
            line = proc.stdout.readline()
            assert line.startswith(b"ready "), proc.stderr.read().decode() if proc.stderr else line
            after_ready += 1
            resumed += int(line.split()[1])
            time.sleep(rng.uniform(0.0, 0.12) + (0.15 if pg else 0.0))
        if proc.poll() is not None:  # it died by itself: a bug in the writer or the store
            pytest.fail(f"writer exited with {proc.returncode}: {proc.stderr.read().decode()}")  # type: ignore[union-attr]
        proc.send_signal(signal.SIGKILL)
        proc.wait()
        assert proc.returncode == -signal.SIGKILL

    store = await Store.open(path)
    try:
        assert await store.check() == []
        totals = await store.totals()
        # the writers really did work between kills
        assert totals["settled_hands"] >= kills and totals["ledger_rows"] >= 10 * kills, totals
        assert after_ready >= kills * 5 // 6
        assert resumed > 0  # kills did land between a hand's creation and its settlement
        # any hand left open by the last kill has no money moved (check() verified) and settles once
        for h in await store.open_hands():
            assert await store.hand_result(h.hand_id) is None
    finally:
        await store.close()
