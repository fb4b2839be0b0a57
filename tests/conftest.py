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


# The longest tests first (measured: `pytest -n 4 --durations`), then the rest of the end-to-end tests, then the
# others: with the work-stealing scheduler (pyproject's addopts) the short, CPU-bound tests fill the workers in
# at the end instead of a two-minute test starting last and running alone.
_LONGEST_FIRST = (
    "test_chaos_restart.py", "test_budget_processes.py", "test_tournament.py::test_swiss", "test_processes.py",
    "test_ranked_global.py", "test_watch.py::test_refresh", "test_feel.py", "test_restart_window.py",
    "test_ranked.py", "test_scenarios.py", "test_tournament_timing.py", "test_review_sanity.py",
    "test_tournament_processes.py", "test_integrity.py", "test_graceful_stop.py", "test_tournament_global.py",
    "test_review_cli.py",
)


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    def rank(item: pytest.Item) -> tuple[int, int]:
        for i, key in enumerate(_LONGEST_FIRST):
            if key in item.nodeid:
                return (0, i)
        return (1, 0) if "/e2e/" in item.nodeid or item.nodeid.startswith("tests/e2e") else (2, 0)

    items.sort(key=rank)  # stable: the order within each rank is pytest's
