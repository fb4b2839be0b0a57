"""The consistency check of the books (``jxbot store check``) and the operators' counts."""

from __future__ import annotations

from typing import Any

from jxbot.store.base import (
    StoreBase,
)
from jxbot.store.models import (
    Problem,
)


class CheckPart(StoreBase):
    # ------------------------------------------------------------------------- consistency check
    async def check(self, limit: int = 20) -> list[Problem]:
        """Verify the books; return the problems found (empty list: consistent).

        Checks: SQLite integrity and foreign keys; every wallet balance equals the sum of its ledger
        rows and each row's running balance; no player below 0; every operation and every hand sums
        to zero; each scope's wallets (house included) sum to zero; no half-settled hand (ledger rows
        without a settled result or the reverse); per-guild stats match the ledger; event logs have
        no gaps; a ranked rating's match count is its history, the board's bucket counts are its rows, and no
        rated match has an unsettled hand.
        """
        problems: list[Problem] = []

        def add(code: str, rows: list[Any], fmt: Any) -> None:
            for r in rows[:limit]:
                problems.append(Problem(code, fmt(r)))
            if len(rows) > limit:
                problems.append(Problem(code, f"... and {len(rows) - limit} more"))

        async with self._read() as db:
            if self._pool is None:  # PostgreSQL checks its pages and enforces the foreign keys itself
                rows = await self._all(db, "PRAGMA quick_check")
                if [r[0] for r in rows] != ["ok"]:
                    add("integrity", rows, lambda r: str(r[0]))
                add(
                    "foreign_key",
                    await self._all(db, "PRAGMA foreign_key_check"),
                    lambda r: f"{r[0]} row {r[1]} references missing {r[2]}",
                )
            add(
                "balance_mismatch",
                await self._all(
                    db,
                    "SELECT * FROM (SELECT w.wallet_id, w.scope, w.user_id, w.balance, "
                    "(SELECT COALESCE(SUM(l.delta), 0) FROM ledger l WHERE l.wallet_id = w.wallet_id) AS s "
                    "FROM wallets w) AS x WHERE balance != s",
                ),
                lambda r: f"wallet {r[0]} (scope {r[1]}, {'house' if r[2] is None else 'user ' + str(r[2])}): "
                f"balance {r[3]} but ledger sum {r[4]}",
            )
            add(
                "running_balance",
                await self._all(
                    db,
                    "SELECT entry_id, wallet_id, balance_after, run FROM (SELECT entry_id, wallet_id, balance_after, "
                    "SUM(delta) OVER (PARTITION BY wallet_id ORDER BY entry_id) AS run FROM ledger) AS x "
                    "WHERE run != balance_after",
                ),
                lambda r: f"ledger row {r[0]} (wallet {r[1]}): balance_after {r[2]} but running sum {r[3]}",
            )
            add(
                "negative_balance",
                await self._all(
                    db,
                    "SELECT wallet_id, user_id, balance FROM wallets WHERE user_id IS NOT NULL AND balance < 0 "
                    "UNION ALL SELECT wallet_id, user_id, balance_after FROM ledger "
                    "WHERE user_id IS NOT NULL AND balance_after < 0",
                ),
                lambda r: f"wallet {r[0]} (user {r[1]}) at {r[2]}",
            )
            add(
                "txn_not_zero_sum",
                await self._all(db, "SELECT txn_id, SUM(delta) FROM ledger GROUP BY txn_id HAVING SUM(delta) != 0"),
                lambda r: f"operation {r[0]} sums to {r[1]}",
            )
            add(
                "hand_not_zero_sum",
                await self._all(
                    db,
                    "SELECT hand_id, SUM(delta) FROM ledger WHERE hand_id IS NOT NULL GROUP BY hand_id "
                    "HAVING SUM(delta) != 0",
                ),
                lambda r: f"hand {r[0]} sums to {r[1]}",
            )
            add(
                "scope_not_zero_sum",
                await self._all(db, "SELECT scope, SUM(balance) FROM wallets GROUP BY scope HAVING SUM(balance) != 0"),
                lambda r: f"scope {r[0]}: wallets and house sum to {r[1]}",
            )
            add(
                "half_settled",
                await self._all(
                    db,
                    "SELECT h.hand_id, 'has ledger rows but no settled result' FROM hands h "
                    "WHERE h.status != 'settled' AND (EXISTS(SELECT 1 FROM ledger l WHERE l.hand_id = h.hand_id) "
                    "OR EXISTS(SELECT 1 FROM txns t WHERE t.hand_id = h.hand_id)) "
                    "UNION ALL SELECT h.hand_id, 'settled without its settlement record' FROM hands h "
                    "WHERE h.status = 'settled' AND (SELECT COUNT(*) FROM txns t WHERE t.hand_id = h.hand_id "
                    "AND t.kind = 'settle') != 1 "
                    "UNION ALL SELECT DISTINCT s.hand_id, 'seat results missing' FROM hand_seats s "
                    "JOIN hands h ON h.hand_id = s.hand_id WHERE h.status = 'settled' AND s.settled_at IS NULL",
                ),
                lambda r: f"hand {r[0]}: {r[1]}",
            )
            add(
                "stats_mismatch",
                await self._all(
                    db,
                    "WITH seats AS (SELECT guild_id, user_id, COUNT(*) AS n, SUM(won) AS w, SUM(delta) AS d "
                    "FROM hand_seats WHERE settled_at IS NOT NULL GROUP BY guild_id, user_id), "
                    "led AS (SELECT guild_id, user_id, SUM(delta) AS d FROM ledger "
                    "WHERE hand_id IS NOT NULL AND user_id IS NOT NULL GROUP BY guild_id, user_id) "
                    "SELECT m.guild_id, m.user_id, m.hands, COALESCE(s.n, 0), m.net, COALESCE(s.d, 0), "
                    "COALESCE(l.d, 0), m.wins, COALESCE(s.w, 0) FROM members m "
                    "LEFT JOIN seats s ON s.guild_id = m.guild_id AND s.user_id = m.user_id "
                    "LEFT JOIN led l ON l.guild_id = m.guild_id AND l.user_id = m.user_id "
                    "WHERE m.hands != COALESCE(s.n, 0) OR m.net != COALESCE(s.d, 0) OR m.net != COALESCE(l.d, 0) "
                    "OR m.wins != COALESCE(s.w, 0)",
                ),
                lambda r: f"guild {r[0]} user {r[1]}: stats hands {r[2]} net {r[4]} wins {r[7]}, "
                f"records hands {r[3]} net {r[5]} (ledger {r[6]}) wins {r[8]}",
            )
            add(
                "event_gap",
                await self._all(
                    db,
                    "SELECT hand_id, COUNT(*), MAX(idx) FROM hand_events GROUP BY hand_id HAVING COUNT(*) != MAX(idx) + 1",
                ),
                lambda r: f"hand {r[0]}: {r[1]} events but last index {r[2]}",
            )
            # the ranked ladders (docs/ranked.md): each rating's match count is its history, its board bucket counted
            add(
                "ladder_mismatch",
                await self._all(
                    db,
                    "SELECT r.ladder, r.ruleset, r.season, r.user_id, r.matches, COUNT(h.match_id) FROM ladder_ratings r "
                    "LEFT JOIN ladder_history h ON h.ladder = r.ladder AND h.ruleset = r.ruleset AND "
                    "h.season = r.season AND h.user_id = r.user_id GROUP BY r.ladder, r.ruleset, r.season, r.user_id, "
                    "r.matches HAVING r.matches != COUNT(h.match_id) "
                    "UNION ALL SELECT b.ladder, b.ruleset, b.season, b.bucket, b.players, (SELECT COUNT(*) FROM "
                    "ladder_ratings r WHERE r.ladder = b.ladder AND r.ruleset = b.ruleset AND r.season = b.season AND "
                    "r.bucket = b.bucket) FROM ladder_buckets b WHERE b.players != (SELECT COUNT(*) FROM ladder_ratings r "
                    "WHERE r.ladder = b.ladder AND r.ruleset = b.ruleset AND r.season = b.season AND r.bucket = b.bucket)",
                ),
                lambda r: f"ladder {r[0]} {r[1]} season {r[2]}: {r[3]} counts {r[4]} but the records hold {r[5]}",
            )
            add(
                "ladder_unsettled",
                await self._all(
                    db,
                    "SELECT m.match_id FROM ladder_matches m WHERE m.status = 'rated' AND EXISTS(SELECT 1 FROM hands h "
                    "WHERE h.table_id = m.match_id AND h.status != 'settled')",
                ),
                lambda r: f"ranked match {r[0]} is rated but has a hand not settled",
            )
        return problems

    async def totals(self) -> dict[str, int]:
        """Counts for operators: players, wallets, ledger rows, hands (settled), events, running tables."""
        async with self._read() as db:
            row = await self._one(
                db,
                "SELECT (SELECT COUNT(*) FROM players), (SELECT COUNT(*) FROM wallets), (SELECT COUNT(*) FROM ledger), "
                "(SELECT COUNT(*) FROM hands), (SELECT COUNT(*) FROM hands WHERE status = 'settled'), "
                "(SELECT COUNT(*) FROM hand_events), (SELECT COUNT(*) FROM tables WHERE status = 'running')",
            )
        keys = ("players", "wallets", "ledger_rows", "hands", "settled_hands", "events", "running_tables")
        return dict(zip(keys, (int(v) for v in row), strict=True))
