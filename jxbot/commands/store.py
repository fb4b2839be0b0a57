"""``jxbot store check [--db PATH]``: verify the silver books (exit 0 clean, 1 problems, 2 error).

Also ``jxbot store info``: schema version, scope and row counts.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import sys

DEFAULT_DB = "jxbot.sqlite3"


def default_db() -> str:
    return os.environ.get("JXBOT_DB") or DEFAULT_DB


def add_parser(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("store", help="database tools: check the ledger, show counts")
    p.add_argument("action", choices=("check", "info"), help="check: verify balances and hands; info: counts")
    p.add_argument("--db", default=None, help="SQLite file (default: $JXBOT_DB or jxbot.sqlite3)")
    p.add_argument("--json", action="store_true", help="machine-readable output")


def run(args: argparse.Namespace) -> int:
    path = args.db or default_db()
    if not os.path.exists(path):
        print(f"jxbot store: no database at {path}", file=sys.stderr)
        return 2
    return asyncio.run(_run(args.action, path, bool(getattr(args, "json", False))))


async def _run(action: str, path: str, as_json: bool) -> int:
    from jxbot.store import Store, StoreError

    try:
        store = await Store.open(path, scope=None)
    except StoreError as exc:
        print(f"jxbot store: {exc}", file=sys.stderr)
        return 2
    try:
        totals = await store.totals()
        if action == "info":
            info = {"db": path, "scope": store.scope, "schema": await store.schema_version(), **totals}
            print(json.dumps(info) if as_json else "\n".join(f"{k}: {v}" for k, v in info.items()))
            return 0
        problems = await store.check()
    finally:
        await store.close()
    if as_json:
        print(json.dumps({"ok": not problems, "problems": [{"code": p.code, "message": p.message} for p in problems]}))
    elif problems:
        print(f"{len(problems)} problem(s) in {path}:")
        for p in problems:
            print(f"  {p}")
    else:
        print(
            f"ok: {path} is consistent ({totals['wallets']} wallets, {totals['ledger_rows']} ledger rows, "
            f"{totals['settled_hands']} settled hands)"
        )
    return 1 if problems else 0
