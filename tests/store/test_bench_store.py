"""bench/store.py says what it measured: the durability settings in force, read back from the databases,
and settlements that really settle (fresh hands, also on the big database copied to PostgreSQL)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from jxbot.pgcluster import PgUnavailable, find_bin_dir

REPO = Path(__file__).resolve().parents[2]
QUICK = ["--players", "200", "--rows", "2000", "--settle", "20", "--events", "20"]


def run_bench(*extra: str) -> dict:
    r = subprocess.run([sys.executable, str(REPO / "bench" / "store.py"), *QUICK, *extra], capture_output=True,
                       text=True, timeout=300, cwd=REPO, env={**os.environ, "PYTHONPATH": str(REPO)})
    assert r.returncode == 0, r.stderr[-3000:]
    return json.loads(r.stdout)


def test_sqlite_figures_carry_the_journal_mode_and_synchronous_they_ran_with() -> None:
    out = run_bench()
    assert out["sqlite_journal_mode"] == "wal"
    assert out["sqlite_synchronous"] == "full" and out["sqlite_synchronous_sync_normal"] == "normal"
    assert out["settlements_big_db_repeated"] == 0


def test_pg_figures_are_durable_and_time_fresh_settlements_on_the_big_database() -> None:
    try:
        find_bin_dir()
    except PgUnavailable:
        if os.environ.get("CI"):
            raise
        pytest.skip("no PostgreSQL server binaries on this machine")
    out = run_bench("--pg")
    # as read from pg_settings by the bench's own store connections, not as asked for
    assert out["pg_fsync"] == "on" and out["pg_synchronous_commit"] == "on"
    assert out["pg_full_page_writes"] == "on" and out["pg_wal_sync_method"]
    # the big database is a copy of SQLite's, which the SQLite half already settled hands on
    assert out["pg_settlements_big_db_repeated"] == 0 and out["settlements_big_db_repeated"] == 0
