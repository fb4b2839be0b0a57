"""`Store.check` and `jxbot store check` find every kind of broken books."""

from __future__ import annotations

import asyncio
import json
import sqlite3

from jxbot.cli import main
from jxbot.store import Store

from .conftest import CH, G, settlement, win_result


async def build(path: str) -> None:
    s = await Store.open(path)
    for uid in (1, 2, 3, 4):
        await s.ensure_player(uid, f"p{uid}")
        await s.grant_starting(G, uid)
    await s.pay(G, 1, 2, 10)
    await s.create_hand("h1", G, CH, "jiaxing", [1, 2, 3, None], "c")
    for i in range(3):
        await s.append_event("h1", i, {"i": i})
    await s.settle_hand("h1", G, [1, 2, 3, None], settlement((1, 0, 20, "win"), (2, 0, 20, "win"), (3, 0, 20, "win"),
                                                             (0, None, 1, "fee")), win_result(0))
    await s.close()


async def codes(path: str) -> set[str]:
    s = await Store.open(path)
    try:
        return {p.code for p in await s.check()}
    finally:
        await s.close()


def tamper(path: str, *sql: str) -> None:
    con = sqlite3.connect(path)
    con.execute("PRAGMA foreign_keys = OFF")
    for q in sql:
        con.execute(q)
    con.commit()
    con.close()


def test_check_detects_each_kind_of_damage(tmp_path):
    cases = {
        "balance": (["UPDATE wallets SET balance = balance + 1 WHERE user_id = 2"],
                    {"balance_mismatch", "scope_not_zero_sum"}),
        "lost_row": (["DELETE FROM ledger WHERE entry_id = (SELECT MAX(entry_id) FROM ledger WHERE hand_id = 'h1')"],
                     {"balance_mismatch", "hand_not_zero_sum", "txn_not_zero_sum"}),
        "half_settled": (["UPDATE hands SET status = 'running', result = NULL WHERE hand_id = 'h1'"],
                         {"half_settled"}),
        "settled_without_money": (["DELETE FROM ledger WHERE hand_id = 'h1'", "DELETE FROM txns WHERE hand_id = 'h1'",
                                   "UPDATE wallets SET balance = (SELECT COALESCE(SUM(delta), 0) FROM ledger l "
                                   "WHERE l.wallet_id = wallets.wallet_id)"],
                                  {"half_settled", "stats_mismatch"}),
        "stats": (["UPDATE members SET wins = wins + 1 WHERE user_id = 3"], {"stats_mismatch"}),
        "event_gap": (["DELETE FROM hand_events WHERE idx = 1"], {"event_gap"}),
        "negative": (["UPDATE ledger SET balance_after = -1 WHERE entry_id = (SELECT MIN(entry_id) FROM ledger WHERE user_id = 1)"], {"negative_balance", "running_balance"}),
    }
    for name, (sql, expected) in cases.items():
        path = str(tmp_path / f"{name}.sqlite3")
        asyncio.run(build(path))
        assert asyncio.run(codes(path)) == set(), name
        tamper(path, *sql)
        assert asyncio.run(codes(path)) == expected, name


def test_cli_store_check_exit_codes(tmp_path, monkeypatch, capsys):
    path = str(tmp_path / "jx.sqlite3")
    assert main(["store", "check", "--db", path]) == 2  # no database there
    asyncio.run(build(path))
    assert main(["store", "check", "--db", path]) == 0
    assert "ok:" in capsys.readouterr().out
    monkeypatch.setenv("JXBOT_DB", path)  # default path from the environment
    assert main(["store", "check", "--json"]) == 0
    assert json.loads(capsys.readouterr().out) == {"ok": True, "problems": []}
    assert main(["store", "info", "--json"]) == 0
    info = json.loads(capsys.readouterr().out)
    assert (info["scope"], info["players"], info["settled_hands"], info["events"]) == ("guild", 4, 1, 3)
    tamper(path, "UPDATE wallets SET balance = 5 WHERE user_id = 1")
    assert main(["store", "check"]) == 1
    out = capsys.readouterr().out
    assert "balance_mismatch" in out and "user 1" in out
