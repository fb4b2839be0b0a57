"""``jxbot store check|info|backup``: operator tools on the database, safe while the bot runs.

* ``check [--db PATH]``: verify the silver books, read-only (the file is never migrated or written):
  exit 0 consistent, 1 problems found, 2 cannot read it (missing, not a database, another schema).
* ``info``: schema version, scope and row counts (read-only too).
* ``backup DEST``: a consistent copy through SQLite's online backup API (one snapshot, while the bot
  keeps writing); the copy is written beside DEST and renamed into place once verified.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import sqlite3
import sys
from pathlib import Path

DEFAULT_DB = "jxbot.sqlite3"


def default_db() -> str:
    return os.environ.get("JXBOT_DB") or DEFAULT_DB


def add_parser(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("store", help="database tools: check the ledger, show counts, back up (safe while running)")
    p.add_argument("action", choices=("check", "info", "backup"),
                   help="check: verify balances and hands; info: counts; backup DEST: a consistent copy")
    p.add_argument("dest", nargs="?", help="backup: the file to write")
    p.add_argument("--db", default=None, help="SQLite file (default: $JXBOT_DB or jxbot.sqlite3)")
    p.add_argument("--json", action="store_true", help="machine-readable output")
    p.add_argument("--force", action="store_true", help="backup: replace DEST if it exists")


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


def run(args: argparse.Namespace) -> int:
    path = args.db or default_db()
    why = _readable(path)
    if why:
        return _fail(why)
    if args.action == "backup":
        if not args.dest:
            return _fail("backup needs a destination: jxbot store backup PATH")
        return backup(path, args.dest, force=bool(args.force))
    return asyncio.run(_run(args.action, path, bool(getattr(args, "json", False))))


async def _run(action: str, path: str, as_json: bool) -> int:
    from jxbot.store import Store, StoreError

    try:
        store = await Store.open_readonly(path)
    except StoreError as exc:
        return _fail(f"{path}: {exc}")
    except sqlite3.Error as exc:
        return _fail(f"{path} cannot be read as a jxbot database ({exc})")
    try:
        totals = await store.totals()
        if action == "info":
            suspended = await store.suspended_tables()
            info = {"db": path, "scope": store.scope, "schema": await store.schema_version(), **totals,
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
        return _fail(f"{path} cannot be read as a jxbot database ({exc})")
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


def backup(path: str, dest: str, *, force: bool = False) -> int:
    """Copy ``path`` to ``dest`` with the online backup API in one step (one read snapshot: WAL readers
    never block the bot's writes, and nothing the bot commits meanwhile is half in the copy)."""
    target = Path(dest)
    if target.exists() and not force:
        return _fail(f"{dest} exists (use --force to replace it)")
    if target.resolve() == Path(path).resolve():
        return _fail("the backup must go to another file than the database")
    if not target.parent.is_dir():
        return _fail(f"the folder {target.parent} does not exist")
    tmp = target.with_name(f".{target.name}.partial")
    try:
        src = sqlite3.connect(f"{Path(path).resolve().as_uri()}?mode=ro", uri=True)
        try:
            src.execute("PRAGMA busy_timeout = 10000")
            tmp.unlink(missing_ok=True)
            out = sqlite3.connect(tmp)
            try:
                src.backup(out)  # pages=-1: the whole database from one snapshot
                (check,) = out.execute("PRAGMA quick_check").fetchone()
                (version,) = out.execute("PRAGMA user_version").fetchone()
            finally:
                out.close()
        finally:
            src.close()
        if check != "ok":
            tmp.unlink(missing_ok=True)
            return _fail(f"the copy of {path} failed its integrity check ({check}); nothing written to {dest}")
        os.replace(tmp, target)
    except (sqlite3.Error, OSError) as exc:
        tmp.unlink(missing_ok=True)
        return _fail(f"backup of {path} to {dest} failed: {exc}")
    print(f"backed up {path} to {dest} ({target.stat().st_size // 1024} KB, schema {version}, integrity ok)")
    return 0
