"""Suite-wide guard: no test may leave a database in the repository root (a bot or command run without a store
of its own opens ``./jxbot.sqlite3``, the production default)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
STRAY = ROOT / "jxbot.sqlite3"
_FLAG = "JXBOT_TESTS_STRAY_DB_BEFORE"


def pytest_configure(config: pytest.Config) -> None:
    # decided once, before any test runs, by the first process (pytest-xdist's workers inherit the environment)
    os.environ.setdefault(_FLAG, "1" if STRAY.exists() else "0")


@pytest.fixture(autouse=True)
def _no_database_left_in_the_repository_root():
    yield
    if os.environ.get(_FLAG) == "0" and STRAY.exists():
        pytest.fail(f"{STRAY} appeared: give the bot or command a store of its own (tmp_path)", pytrace=False)
