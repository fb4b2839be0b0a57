"""What the store commands share (jxbot/commands/store.py, the SQLite side, and store_pg.py, the PostgreSQL
side): the one-line failure, the readability check of a SQLite file, and ``check``/``info`` on an open store."""

from __future__ import annotations

import json
import sqlite3
import sys
from pathlib import Path


def _fail(msg: str) -> int:
    print(f"jxbot store: {msg}", file=sys.stderr)
    return 2


def _readable(path: str) -> str | None:
    """Why ``path`` cannot be read as a database, or None."""
    from jxbot.store.startup import SQLITE_HEADER

    p = Path(path)
    if not p.exists():
        return f"no database at {path}"
    if p.is_dir():
        return f"{path} is a folder, not a database file"
    try:
        with open(p, "rb") as f:
            head = f.read(100)
    except OSError as exc:
        return f"cannot read {path}: {exc.strerror}"
    if not head.startswith(SQLITE_HEADER):
        return f"{path} is not a SQLite database"
    return None


async def _run(action: str, path: str, as_json: bool) -> int:
    from jxbot.store import Store, StoreError
    from jxbot.store.dsn import is_pg_dsn, redact

    shown = redact(path) if is_pg_dsn(path) else path  # a DSN's password is never printed

    try:
        store = await Store.open_readonly(path)
    except StoreError as exc:
        return _fail(f"{shown}: {exc}")
    except sqlite3.Error as exc:
        return _fail(f"{shown} cannot be read as a jxbot database ({exc})")
    try:
        totals = await store.totals()
        if action == "info":
            suspended = await store.suspended_tables()
            info = {"db": shown, "scope": store.scope, "schema": await store.schema_version(), **totals,
                    "suspended_tables": len(suspended)}
            if as_json:
                print(json.dumps({**info, "suspended": suspended}))
            else:
                print("\n".join(f"{k}: {v}" for k, v in info.items()))
                for s_ in suspended:
                    print(f"  suspended table {s_['table_id']} (channel {s_['channel_id']}): {s_.get('error')}, "
                          f"hand {s_.get('hand_id')}")
            return 0
        problems = await store.check()
    except sqlite3.Error as exc:
        return _fail(f"{shown} cannot be read as a jxbot database ({exc})")
    finally:
        await store.close()
    if as_json:
        print(json.dumps({"ok": not problems, "problems": [{"code": p.code, "message": p.message} for p in problems]}))
    elif problems:
        print(f"{len(problems)} problem(s) in {shown}:")
        for p in problems:
            print(f"  {p}")
    else:
        print(
            f"ok: {shown} is consistent ({totals['wallets']} wallets, {totals['ledger_rows']} ledger rows, "
            f"{totals['settled_hands']} settled hands)"
        )
    return 1 if problems else 0
